"""Properties over random deals and games (hypothesis), and the fast core against a naive model."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.cards import CARDS, Card, iter_bits
from p2pbelka.rules.belka import DealState, Play, core, options_from, seat_suits_from
from p2pbelka.rules.belka.randomplay import play_random_game

SETTINGS = settings(max_examples=40, deadline=None)

PLAIN = "789QKTA"  # weakest first, jack excluded
JACKS = "DHSC"  # weakest jack first


def naive_is_trump(card: Card, trump: int) -> bool:
    return card.rank.letter == "J" or card.suit == trump


def naive_follows(card: Card, led: Card, trump: int) -> bool:
    if naive_is_trump(led, trump):
        return naive_is_trump(card, trump)
    return card.suit == led.suit and not naive_is_trump(card, trump)


def naive_strength(card: Card, led: Card, trump: int) -> int:
    if card.rank.letter == "J":
        return 200 + JACKS.index(card.suit.letter)
    if card.suit == trump:
        return 100 + PLAIN.index(card.rank.letter)
    if naive_follows(card, led, trump):
        return PLAIN.index(card.rank.letter)
    return -1


def naive_legal(hand: list[Card], trick: list[Card], trump: int) -> list[Card]:
    if not trick:
        return hand
    follow = [c for c in hand if naive_follows(c, trick[0], trump)]
    return follow or hand


deals = st.tuples(
    st.permutations(range(32)),
    st.integers(0, 3),
    st.one_of(st.none(), st.integers(0, 3)),
    st.sampled_from(["off", "on"]),
    st.randoms(use_true_random=False),
)


def start(perm: list[int], dealer: int, first_holder: int | None, ace: str) -> DealState:
    hands = [0, 0, 0, 0]
    for card, seat in zip(perm, core.deal_pattern(dealer), strict=True):
        hands[seat] |= 1 << card
    opts = options_from("classic", {"no_unled_ace_discard": ace})
    suits = None if first_holder is None else seat_suits_from(first_holder, "HSD")
    return DealState.start(opts, dealer, hands, seat_suits=suits)


@SETTINGS
@given(deals)
def test_random_legal_deals(args: tuple[list[int], int, int | None, str, random.Random]) -> None:
    perm, dealer, first_holder, ace, rng = args
    deal = start(perm, dealer, first_holder, ace)
    views = [deal.view(s) for s in range(4)]
    while not deal.finished:
        seat = deal.turn
        assert seat is not None
        hand = deal.hands[seat]
        assert hand
        legal = deal.legal_cards(seat)
        assert legal, "a seat that holds cards always has a legal card"
        assert set(legal) <= set(CARDS[i] for i in iter_bits(hand))
        if ace == "off":
            trick = list(deal.current_trick)
            naive = naive_legal(list(iter_bits_cards(hand)), trick, deal.trump)
            assert sorted(naive) == legal
        for card in legal:
            deal.apply(Play(seat, card))  # every legal card is accepted
        card = rng.choice(legal)
        deal = deal.apply(Play(seat, card))
        views = [v.apply(Play(seat, card)) for v in views]  # peers with one hand accept it too
    assert sum(deal.card_points) == 120
    assert sum(deal.tricks_won) == 8
    assert deal.hands == (0, 0, 0, 0)
    for trick in deal.tricks:
        strengths = [naive_strength(c, trick.cards[0], deal.trump) for c in trick.cards]
        assert (trick.leader + strengths.index(max(strengths))) % 4 == trick.winner
    audited = deal.view(0).audited(deal.dealt)  # type: ignore[arg-type]
    assert audited.offenses == () and audited.card_points == deal.card_points
    assert all(v.card_points == deal.card_points for v in views)


def iter_bits_cards(mask: int) -> list[Card]:
    return [CARDS[i] for i in iter_bits(mask)]


class Recorder:
    """A getrandbits that remembers what it gave, to replay the choices elsewhere."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.given: list[int] = []

    def __call__(self, k: int) -> int:
        value = self.rng.getrandbits(k)
        self.given.append(value)
        return value


@SETTINGS
@given(deals)
def test_fast_core_agrees_with_clean_api(
    args: tuple[list[int], int, int | None, str, random.Random],
) -> None:
    perm, dealer, first_holder, ace, rng = args
    deal = start(perm, dealer, first_holder, ace)
    recorder = Recorder(rng)
    points0, tricks0 = core.play_random_deal(
        list(deal.hands),  # type: ignore[arg-type]
        deal.leader,
        deal.trump,
        recorder,
        ace == "on",
    )
    for bits in recorder.given:
        seat = deal.turn
        assert seat is not None
        legal = deal.legal_mask(seat)
        m = legal & bits or legal
        deal = deal.apply(Play(seat, CARDS[(m & -m).bit_length() - 1]))
    assert deal.finished
    assert deal.card_points == (points0, 120 - points0)
    assert deal.tricks_won[0] == tricks0
    assert core.mask_points(sum(1 << c for c in deal.plays[:16])) == sum(
        core.POINTS[c] for c in deal.plays[:16]
    )


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(["classic", "eyes"]),
    st.sampled_from(["plus4", "four", "double", "none"]),
    st.sampled_from(["wins_game", "continues", "off"]),
    st.sampled_from(["off", "on"]),
    st.integers(0, 3),
)
def test_random_games_end_with_one_winner(
    seed: int, preset: str, eggs: str, goli: str, first_two: str, first_dealer: int
) -> None:
    opts = options_from(preset, {"eggs": eggs, "goli": goli, "first_deal_two": first_two})
    game = play_random_game(opts, random.Random(seed), first_dealer)
    assert game.finished and game.winner in (0, 1)
    assert game.deal is None and game.pending_choice is None
    score = (0, 0)
    for result in game.history:
        if "a new one starts at 0:0" not in " ".join(result.notes):
            assert result.score == (score[0] + result.awarded[0], score[1] + result.awarded[1])
        score = result.score
        if result.redeal_claim is None:
            assert sum(result.card_points) == 120
    last = game.history[-1]
    assert last.score == game.score
    loser = 1 - game.winner  # type: ignore[operator]
    if opts.eyes:
        assert game.score[loser] >= 12 or last.all_tricks or last.goli
    else:
        assert game.score[game.winner] >= 12 or last.goli or last.all_tricks  # type: ignore[index]
