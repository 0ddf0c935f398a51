from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.fairdeal import (
    SUPPORTED_VERSIONS,
    BadDeck,
    BadShare,
    DealContext,
    LocalSeat,
    NotACard,
    card_point,
    check_commitment,
    check_deck_points,
    check_deck_shape,
    commit_seed,
    derive_permutation,
    derive_secrets,
    initial_deck,
    open_position,
)
from tests.fairdeal.helpers import BAD_POINTS, GAME_ID, fixed_seed, make_deal


def composed(deal_seeds: list[bytes], ctx: DealContext, order: list[int]) -> list[int]:
    """Card at each position from the permutations alone: the last shuffler's first."""
    perms = {seat: derive_permutation(ctx, seat, deal_seeds[seat]) for seat in order}
    out = []
    for k in range(ctx.n_positions):
        idx = k
        for seat in reversed(order):
            idx = perms[seat][idx]
        out.append(idx)
    return out


@pytest.mark.parametrize("n_seats", [2, 3, 4])
def test_round_trip_every_position_opens_to_distinct_card(n_seats: int, version: int) -> None:
    deal = make_deal(n_seats, version=version)
    cards = [deal.open(j, j % n_seats) for j in range(32)]
    assert sorted(cards) == list(range(32))
    assert cards == composed([s.seed for s in deal.seats], deal.ctx, deal.order)


def test_other_deck_sizes_and_order(version: int) -> None:
    seeds = [fixed_seed(i) for i in range(3)]
    deal = make_deal(3, 24, seeds=seeds, order=[2, 0, 1], version=version)
    cards = [deal.open(j, 0) for j in range(24)]
    assert cards == composed(seeds, deal.ctx, [2, 0, 1])
    assert sorted(cards) == list(range(24))


def test_context_changes_everything(version: int) -> None:
    seed = fixed_seed(0)
    a = DealContext(GAME_ID, 0, 4, 32, version)
    b = DealContext(GAME_ID, 1, 4, 32, version)
    c = DealContext(bytes(16), 0, 4, 32, version)
    assert commit_seed(a, 0, seed) != commit_seed(b, 0, seed)
    assert commit_seed(a, 0, seed) != commit_seed(a, 1, seed)
    assert derive_secrets(a, 0, seed).shuffle_scalar != derive_secrets(b, 0, seed).shuffle_scalar
    assert derive_secrets(a, 0, seed).shuffle_scalar != derive_secrets(a, 1, seed).shuffle_scalar
    assert card_point(GAME_ID, 3, version) != card_point(bytes(16), 3, version)
    assert initial_deck(a) != initial_deck(c)
    other = DealContext(GAME_ID, 0, 4, 32, 3 - version)
    assert commit_seed(a, 0, seed) != commit_seed(other, 0, seed)
    assert derive_permutation(a, 0, seed) != derive_permutation(other, 0, seed)


def test_context_validation(version: int) -> None:
    for bad in [
        dict(game_id=b"short", deal_id=0, n_seats=4, n_positions=32),
        dict(game_id=GAME_ID, deal_id=-1, n_seats=4, n_positions=32),
        dict(game_id=GAME_ID, deal_id=0, n_seats=1, n_positions=32),
        dict(game_id=GAME_ID, deal_id=0, n_seats=5, n_positions=32),
        dict(game_id=GAME_ID, deal_id=0, n_seats=4, n_positions=65),
        dict(game_id=GAME_ID, deal_id=0, n_seats=4, n_positions=32, version=0),
        dict(game_id=GAME_ID, deal_id=0, n_seats=4, n_positions=32, version=3),
        dict(game_id=GAME_ID, deal_id=0, n_seats=4, n_positions=32, version="2"),
    ]:
        with pytest.raises(ValueError):
            DealContext(**bad)  # type: ignore[arg-type]


def test_commitment_check(version: int) -> None:
    ctx = DealContext(GAME_ID, 0, 4, 32, version)
    seat = LocalSeat(ctx, 1)
    assert check_commitment(ctx, 1, seat.seed, seat.commitment)
    assert not check_commitment(ctx, 2, seat.seed, seat.commitment)
    assert not check_commitment(ctx, 1, bytes(32), seat.commitment)
    assert not check_commitment(ctx, 1, "junk", seat.commitment)
    assert not check_commitment(ctx, 1, seat.seed, b"short")


def test_secrets_are_deterministic(version: int) -> None:
    ctx = DealContext(GAME_ID, 7, 4, 32, version)
    assert derive_secrets(ctx, 2, fixed_seed(2)) == derive_secrets(ctx, 2, fixed_seed(2))
    assert sorted(derive_permutation(ctx, 2, fixed_seed(2))) == list(range(32))


def test_single_honest_seat_makes_the_deal_uniform(version: int) -> None:
    # Two seats keep a fixed seed; the middle one is honest and fresh.  The card
    # landing at position 0 and at position 31 must be uniform over 32 cards.
    ctx = DealContext(GAME_ID, 0, 3, 32, version)
    fixed = [fixed_seed(0), b"", fixed_seed(2)]
    trials = 3200
    first: Counter[int] = Counter()
    last: Counter[int] = Counter()
    for t in range(trials):
        seeds = list(fixed)
        seeds[1] = t.to_bytes(32, "big")
        cards = composed(seeds, ctx, [0, 1, 2])
        first[cards[0]] += 1
        last[cards[31]] += 1
    expected = trials / 32
    for counter in (first, last):
        chi2 = sum((counter[c] - expected) ** 2 / expected for c in range(32))
        # 31 degrees of freedom: p < 1e-4 beyond ~68.
        assert chi2 < 68, chi2


def test_cheap_checks_on_a_published_pass(version: int) -> None:
    ctx = DealContext(GAME_ID, 0, 2, 32, version)
    deck = initial_deck(ctx)
    assert check_deck_points(ctx, deck) == deck
    with pytest.raises(BadDeck) as info:
        check_deck_shape(ctx, deck[:31])
    assert info.value.position is None
    dup = list(deck)
    dup[5] = dup[9]
    with pytest.raises(BadDeck) as info:
        check_deck_shape(ctx, dup)
    assert info.value.position == 9
    junk = list(deck)
    junk[4] = bytes(ctx.group.point_bytes)
    with pytest.raises(BadDeck) as info:
        check_deck_points(ctx, junk)
    assert info.value.position == 4
    with pytest.raises(BadDeck):
        check_deck_shape(ctx, "not a list")


def test_invalid_points_from_a_peer_raise_baddeck(version: int) -> None:
    ctx = DealContext(GAME_ID, 0, 2, 32, version)
    seat = LocalSeat(ctx, 1)
    for bad in BAD_POINTS[version]:
        deck: list[object] = list(initial_deck(ctx))
        deck[17] = bad
        for operation in (seat.shuffle, seat.lock):
            with pytest.raises(BadDeck) as info:
                operation(deck)
            assert info.value.position == 17, bad


def test_bad_and_wrong_shares(version: int) -> None:
    deal = make_deal(3, 32, version=version)
    j = 4
    shares: dict[int, object] = {s.seat: s.share(j) for s in deal.seats}
    assert open_position(deal.ctx, j, deal.final[j], shares) in range(32)
    with pytest.raises(BadShare) as info:
        open_position(deal.ctx, j, deal.final[j], {**shares, 2: b"\x00" * 32})
    assert info.value.seat == 2
    with pytest.raises(BadShare):
        open_position(deal.ctx, j, deal.final[j], {**shares, 1: "junk"})
    with pytest.raises(NotACard):
        open_position(deal.ctx, j, deal.final[j], {**shares, 1: deal.seats[1].share(j + 1)})
    with pytest.raises(ValueError):
        open_position(deal.ctx, j, deal.final[j], {0: shares[0]})
    with pytest.raises(BadDeck):
        open_position(deal.ctx, j, bytes(deal.ctx.group.point_bytes), shares)


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
@settings(max_examples=12, deadline=None)
@given(
    seeds=st.lists(st.binary(min_size=32, max_size=32), min_size=2, max_size=4),
    n_positions=st.integers(2, 12),
)
def test_any_seeds_open_to_a_permutation(
    seeds: list[bytes], n_positions: int, version: int
) -> None:
    deal = make_deal(len(seeds), n_positions, seeds=seeds, version=version)
    cards = [deal.open(j, 0) for j in range(n_positions)]
    assert sorted(cards) == list(range(n_positions))


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
def test_a_shuffle_made_ahead_is_the_shuffle(version: int) -> None:
    ctx = DealContext(bytes(16), 3, 4, 32, version)
    ahead, plain = LocalSeat(ctx, 2, bytes(32)), LocalSeat(ctx, 2, bytes(32))
    pieces = 0
    while ahead.prepare_first_shuffle():
        pieces += 1
    assert pieces == 4
    assert ahead.shuffle(initial_deck(ctx)) == plain.shuffle(initial_deck(ctx))
    other = plain.shuffle(initial_deck(ctx))  # any other input is shuffled as ever
    assert ahead.shuffle(other) == plain.shuffle(other)
