"""Random legal games through the clean API: for tests, records and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from p2pbelka.cards import CARDS, Card, iter_bits
from p2pbelka.rules.belka.core import deal_pattern
from p2pbelka.rules.belka.deal import DealState, RedealClaim
from p2pbelka.rules.belka.game import EGGS_CHOICES, EggsChoice, GameState
from p2pbelka.rules.belka.options import Options
from p2pbelka.rules.common.play import Play


def random_hands(rng: random.Random, dealer: int = 0) -> tuple[int, int, int, int]:
    """Shuffle a deck and deal it by the dealing pattern (two at a time, four rounds)."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for card, seat in zip(deck, deal_pattern(dealer), strict=True):
        hands[seat] |= 1 << card
    return (hands[0], hands[1], hands[2], hands[3])


def play_deal(game: GameState, choose: Callable[[GameState, int], Card]) -> DealState:
    """Play ``game``'s started deal to its end, each card from ``choose(view, seat)``,
    where ``view`` is the game as that seat sees it (the others' hands unknown)."""
    deal = game.deal
    assert deal is not None
    while not deal.finished:
        seat = deal.turn
        assert seat is not None
        deal = deal.apply(Play(seat, choose(replace(game, deal=deal.view(seat)), seat)))
    return deal


def play_random_deal(deal: DealState, rng: random.Random) -> DealState:
    """Play a started deal to its end with uniformly random legal cards."""
    while not deal.finished:
        seat = deal.turn
        assert seat is not None
        legal = list(iter_bits(deal.legal_mask(seat)))
        deal = deal.apply(Play(seat, CARDS[rng.choice(legal)]))
    return deal


def play_random_game(
    options: Options,
    rng: random.Random,
    first_dealer: int = 0,
    redeal_rate: float = 0.5,
    max_deals: int = 1000,
) -> GameState:
    """Play a whole game with random legal actions; returns the final state.

    A seat allowed to ask for a re-deal does so with probability ``redeal_rate``.
    """
    game = GameState.new(options, first_dealer)
    while not game.finished and len(game.history) < max_deals:
        if game.pending_choice is not None:
            seat = game.pending_choice + 2 * rng.randrange(2)
            game = game.apply(EggsChoice(seat, rng.choice(EGGS_CHOICES)))
            continue
        game = game.start_deal(random_hands(rng, game.dealer))
        deal = game.deal
        assert deal is not None
        claimants = [s for s in range(4) if deal.can_claim_redeal(s)]
        if claimants and rng.random() < redeal_rate:
            game = game.apply(RedealClaim(rng.choice(claimants)))
        else:
            # The deal alone, then back into the game: one game copy instead of 32.
            game = replace(game, deal=play_random_deal(deal, rng))
        game = game.finish_deal()
    return game
