"""Random legal Belot games through the clean API: for tests, records and benchmarks."""

from __future__ import annotations

import random
from dataclasses import replace

from p2pbelka.cards import CARDS
from p2pbelka.rules.belot.core import deal_pattern
from p2pbelka.rules.belot.deal import Action, Bid, Claim, DealState, Declare
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.options import BelotOptions


def random_deck(rng: random.Random, players: int, dealer: int) -> tuple[list[int], int, list[int]]:
    """Shuffle and deal: (the first six of each seat, the turned card, the three more)."""
    deck = list(range(32))
    rng.shuffle(deck)
    first = [0] * players
    extra = [0] * players
    turned = -1
    for k, (card, seat) in enumerate(zip(deck, deal_pattern(players, dealer), strict=True)):
        if seat == -1:
            turned = card
        elif seat >= 0:
            (first if k < 6 * players else extra)[seat] |= 1 << card
    return first, turned, extra


def choose(deal: DealState, rng: random.Random, claim_rate: float = 1.0) -> Action:
    """A random legal action of the seat whose turn it is.

    Calls: "play" or a suit with probability 1/4 each turn.  At its lead a seat
    claims 1001 (when true) with probability ``claim_rate``, declares a random
    one of the combinations it may with probability 1/2 (again and again), then
    plays a uniform random card.
    """
    seat = deal.turn
    assert seat is not None
    calls = deal.legal_calls(seat)
    if calls:
        if rng.random() < 0.25:
            return Bid(seat, rng.choice([c for c in calls if c != "pass"]))
        return Bid(seat, "pass")
    if deal.can_claim(seat) and rng.random() < claim_rate:
        return Claim(seat)
    declarable = deal.legal_declarations(seat)
    if declarable and rng.random() < 0.5:
        return Declare(seat, rng.choice(declarable))
    return rng.choice([a for a in deal.legal_actions(seat) if not isinstance(a, (Declare, Claim))])


def play_random_game(
    options: BelotOptions,
    rng: random.Random,
    players: int = 3,
    first_dealer: int = 0,
    claim_rate: float = 0.5,
    max_deals: int = 2000,
) -> BelotGame:
    """A whole game with random legal actions; returns the final state."""
    game = BelotGame.new(options, players, first_dealer)
    while not game.finished and len(game.history) < max_deals:
        first, turned, extra = random_deck(rng, players, game.dealer)
        game = game.start_deal(first, CARDS[turned])
        deal = game.deal
        assert deal is not None
        while not deal.finished:
            if deal.phase == "extra":
                deal = deal.with_extra(extra)
            else:
                deal = deal.apply(choose(deal, rng, claim_rate))
        game = replace(game, deal=deal).finish_deal()
    return game
