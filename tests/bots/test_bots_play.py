"""Bots choose legal cards, see only their seat's view, and replay the same with a seed."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.bots.belka.base import make_belka_bot
from p2pbelka.bots.belka.heuristic import wants_redeal
from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.sampler import sample_hands, surprises, weighted_samples
from p2pbelka.bots.belka.strong import StrongBot
from p2pbelka.bots.belka.tournament import seat_view
from p2pbelka.cards import Suit
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.deal import DealState
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import play_deal, random_hands
from p2pbelka.rules.common.play import Play


def random_game(
    seed: int, plays: int, preset: str = "classic", ace_rule: bool = False
) -> GameState:
    """A game in its first or a later deal, ``plays`` random legal cards in."""
    rng = random.Random(seed)
    options = options_from(preset, {"no_unled_ace_discard": "on" if ace_rule else "off"})
    game = GameState.new(options, first_dealer=seed % 4)
    if seed % 2:
        # A later deal: the trump is the J♣ holder's suit, not clubs.
        game = replace(game, seat_suits=(Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES, Suit.CLUBS))
    game = game.start_deal(random_hands(rng, game.dealer))
    deal = game.deal
    assert deal is not None
    for _ in range(plays):
        seat = deal.turn
        assert seat is not None
        deal = deal.apply(Play(seat, rng.choice(deal.legal_cards(seat))))
    return replace(game, deal=deal)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    plays=st.integers(0, 31),
    level=st.sampled_from(["random", "heuristic"]),
    preset=st.sampled_from(["classic", "eyes"]),
    ace_rule=st.booleans(),
)
def test_simple_bots_play_legal_cards(
    seed: int, plays: int, level: str, preset: str, ace_rule: bool
) -> None:
    game = random_game(seed, plays, preset, ace_rule)
    assert game.deal is not None
    seat = game.deal.turn
    assert seat is not None
    card = make_belka_bot(level, seed).play(seat_view(game, seat), seat)
    assert card in game.deal.legal_cards(seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plays=st.integers(0, 31), ace_rule=st.booleans())
def test_strong_bot_plays_legal_cards(seed: int, plays: int, ace_rule: bool) -> None:
    game = random_game(seed, plays, ace_rule=ace_rule)
    assert game.deal is not None
    seat = game.deal.turn
    assert seat is not None
    card = StrongBot(seed, samples=4).play(seat_view(game, seat), seat)
    assert card in game.deal.legal_cards(seat)


def test_the_view_hides_other_hands() -> None:
    game = random_game(3, 9)
    assert game.deal is not None
    seat = game.deal.turn
    assert seat is not None
    view = seat_view(game, seat).deal
    assert view is not None
    for other in range(4):
        if other != seat:
            assert view.hands[other] is None and view.dealt[other] is None
    # Knowledge read from the view is the knowledge read from the whole deal.
    assert seen_from(view, seat) == seen_from(game.deal, seat)


def _swap_hidden(deal: DealState, seat: int, rng: random.Random) -> DealState:
    """The same deal for ``seat`` (same view), other seats' unseen cards dealt anew."""
    seen = seen_from(deal, seat)
    hands = sample_hands(seen, rng)
    return replace(deal, hands=tuple(hands))


def test_strong_bot_plays_the_same_whatever_the_hidden_cards() -> None:
    rng = random.Random(5)
    for seed in range(6):
        game = random_game(seed, 4 + 5 * seed)
        deal = game.deal
        assert deal is not None
        seat = deal.turn
        assert seat is not None
        other = _swap_hidden(deal, seat, rng)
        assert other.view(seat) == deal.view(seat)
        first = StrongBot(seed, samples=6).play(replace(game, deal=deal.view(seat)), seat)
        second = StrongBot(seed, samples=6).play(replace(game, deal=other.view(seat)), seat)
        assert first == second


def test_sampled_hands_fit_what_the_seat_knows() -> None:
    rng = random.Random(11)
    for seed in range(40):
        game = random_game(seed, seed % 30)
        deal = game.deal
        assert deal is not None
        seat = deal.turn
        assert seat is not None
        seen = seen_from(deal.view(seat), seat)
        hands = sample_hands(seen, rng)
        assert hands[seat] == seen.hand
        union = 0
        for s in range(4):
            assert hands[s] & union == 0
            union |= hands[s]
            if s != seat:
                assert hands[s].bit_count() == seen.counts[s]
            for suit in range(4):
                if seen.voids[s] >> suit & 1:
                    assert not hands[s] & core.EFFECTIVE_SUIT_MASKS[seen.trump][suit]
        assert union == (1 << 32) - 1 & ~seen.played
        if not seen.played >> core.JC_INDEX & 1:
            assert hands[deal.jc_holder] >> core.JC_INDEX & 1
        # The real hands were consistent too: the sampler's constraints are true facts.
        for s in range(4):
            real = deal.hands[s]
            assert real is not None
            for suit in range(4):
                if seen.voids[s] >> suit & 1:
                    assert not real & core.EFFECTIVE_SUIT_MASKS[seen.trump][suit]


def test_weighted_worlds_never_give_a_seat_a_suit_it_showed_void_in() -> None:
    # The weights (the reading of the play, the re-deal nobody asked for) choose among the
    # consistent worlds; a void shown is a hard fact no weight overrides.
    rng = random.Random(12)
    shown = 0
    for seed in range(40):
        game = random_game(seed, 8 + seed % 20)
        deal = game.deal
        assert deal is not None
        seat = deal.turn
        assert seat is not None
        seen = seen_from(deal.view(seat), seat)
        shown += any(seen.voids[s] for s in range(4) if s != seat)
        for hands in weighted_samples(seen, rng, 8, 32):
            assert hands[seat] == seen.hand
            for s in range(4):
                for suit in range(4):
                    if s != seat and seen.voids[s] >> suit & 1:
                        assert not hands[s] & core.EFFECTIVE_SUIT_MASKS[seen.trump][suit]
    assert shown >= 10  # the positions do show voids


def _play_deal(level: str, seed: int) -> tuple[int, ...]:
    game = random_game(seed, 0)
    bots = [make_belka_bot(level, seed * 10 + s) for s in range(4)]
    return play_deal(game, lambda view, seat: bots[seat].play(view, seat)).plays


def test_seeded_bots_are_reproducible() -> None:
    for level in ("random", "heuristic", "strong"):
        assert _play_deal(level, 2) == _play_deal(level, 2)


def test_redeal_minds_three_in_a_row() -> None:
    weak = 0
    # Four nines and four sevens: 0 points, a re-deal hand.
    for suit in range(4):
        weak |= 1 << (suit * 8 + core.NINE) | 1 << (suit * 8)
    rest = [c for c in range(32) if not weak >> c & 1]
    hands = [weak, sum(1 << c for c in rest[:8]), sum(1 << c for c in rest[8:16])]
    hands.append(sum(1 << c for c in rest[16:]))
    game = GameState.new(options_from("classic"), first_dealer=0).start_deal(hands)
    assert game.deal is not None and game.deal.can_claim_redeal(0)
    view = seat_view(game, 0)
    assert wants_redeal(view, 0)
    # Our team deals and two re-deals came before: a third would cost us a point.
    assert not wants_redeal(replace(view, redeal_streak=2), 0)
    assert make_belka_bot("heuristic").choose_eggs(view, 0) == "plus4"


def test_real_hands_explain_the_play_of_sound_players() -> None:
    """Heuristic players' real hands hold no surprise: the inference reads play rightly."""
    for seed in range(5):
        game = random_game(seed, 0)
        deal = game.deal
        assert deal is not None
        bot = make_belka_bot("heuristic")
        for _ in range(13 + seed):
            seat = deal.turn
            assert seat is not None
            deal = deal.apply(Play(seat, bot.play(replace(game, deal=deal.view(seat)), seat)))
        seat = deal.turn
        assert seat is not None
        seen = seen_from(deal.view(seat), seat)
        real = [h for h in deal.hands if h is not None]
        assert surprises(seen, real) == 0
        kept = weighted_samples(seen, random.Random(seed), 5, 20)
        assert len(kept) == 5 and all(h[seat] == seen.hand for h in kept)
