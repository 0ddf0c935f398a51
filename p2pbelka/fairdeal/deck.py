"""The shared encrypted deck: card points, the shuffle and lock passes, shares, opening.

Pipeline for seats taken in the caller's order o_1..o_n (protocol/fairdeal.md):

* initial deck: position i holds card point P_i;
* shuffle pass of seat s: ``out[k] = s.shuffle_scalar * in[s.permutation[k]]``;
* lock pass of seat s: ``out[j] = s.lock_factors[j] * in[j]`` where the factor is
  ``shuffle_inverse * lock_scalars[j]``;
* after all locks position j holds ``(prod_s lock_scalars_s[j]) * P_card``; the
  product of every seat's share (inverse lock scalar) for j turns it back into P_card.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Final

from .derive import (
    MAX_POSITIONS,
    DealContext,
    SeatSecrets,
    commit_seed,
    derive_secrets,
    new_seed,
)
from .errors import BadDeck, BadPoint, BadScalar, BadShare, NotACard
from .group import Group, frame
from .versions import card_domain, group_for, label

LABEL_DECK: Final = "deck"


class CardTable:
    """The card points of one game and the reverse lookup point -> card index."""

    def __init__(self, game_id: bytes, points: tuple[bytes, ...], version: int = 1) -> None:
        self.game_id = game_id
        self.version = version
        self.points = points
        self.index_of: dict[bytes, int] = {p: i for i, p in enumerate(points)}
        if len(self.index_of) != len(points):
            raise RuntimeError("card points collide")  # would need a hash collision


@lru_cache(maxsize=16)
def card_table(game_id: bytes, version: int = 1, count: int = MAX_POSITIONS) -> CardTable:
    """Card points for indices 0..count-1 of this game (cached: hashing to the
    group costs, in version 2 about half a millisecond a point).  A game should
    call it once at setup, off the critical path of its first deal."""
    group, domain = group_for(version), card_domain(version)
    points = tuple(
        group.hash_to_group(domain, frame(game_id) + i.to_bytes(2, "big")) for i in range(count)
    )
    return CardTable(game_id, points, version)


def card_point(game_id: bytes, index: int, version: int = 1) -> bytes:
    return card_table(game_id, version).points[index]


def deal_cards(ctx: DealContext) -> CardTable:
    """The card points a deal uses: indices 0..n_positions-1."""
    return card_table(ctx.game_id, ctx.version, ctx.n_positions)


def initial_deck(ctx: DealContext) -> list[bytes]:
    """Position i holds card i; the first shuffler's input, computed by every seat."""
    return list(deal_cards(ctx).points)


def deck_digest(deck: Sequence[bytes], version: int = 1) -> bytes:
    """SHA-256 of the deck label and the points in order (for transcripts and vectors)."""
    h = hashlib.sha256(frame(label(version, LABEL_DECK)))
    for point in deck:
        h.update(point)
    return h.digest()


def check_deck_shape(ctx: DealContext, deck: object) -> list[bytes]:
    """Cheap checks any receiver makes on a published pass: exactly N byte
    strings of the group's point length, all distinct.  Returns the deck as a
    list; raises :class:`BadDeck`.

    Distinctness is the author's fault whatever the input: an honest shuffle
    maps distinct points to distinct points (multiplying by a non-zero scalar is
    a bijection), and an honest lock makes two equal only with negligible chance.
    """
    if not isinstance(deck, list | tuple) or len(deck) != ctx.n_positions:
        got = len(deck) if isinstance(deck, list | tuple) else type(deck).__name__
        raise BadDeck(f"expected {ctx.n_positions} points, got {got}")
    size = ctx.group.point_bytes
    seen: dict[bytes, int] = {}
    for k, point in enumerate(deck):
        if not isinstance(point, bytes) or len(point) != size:
            raise BadDeck(f"not a {size}-byte point", k)
        if point in seen:
            raise BadDeck(f"same point as position {seen[point]} (a duplicated card)", k)
        seen[point] = k
    return list(deck)


def check_deck_points(ctx: DealContext, deck: object) -> list[bytes]:
    """:func:`check_deck_shape` plus full group validation of every point (in
    version 1 about half a multiplication each).  Seats that multiply the deck
    next need not call it: their multiplication validates each point and raises
    :class:`BadDeck` itself."""
    points = check_deck_shape(ctx, deck)
    group = ctx.group
    for k, point in enumerate(points):
        if not group.is_valid_point(point):
            raise BadDeck("not a valid group element", k)
    return points


def shuffle_pass(ctx: DealContext, secrets: SeatSecrets, deck: object) -> list[bytes]:
    """This seat's shuffle of ``deck`` (the previous published deck).

    Raises :class:`BadDeck` (blame the deck's author) if the input is malformed.
    """
    deck = check_deck_shape(ctx, deck)
    group = ctx.group
    scalar = secrets.shuffle_scalar
    mult = group.mult
    try:
        return [mult(scalar, deck[src]) for src in secrets.permutation]
    except BadPoint:
        raise _first_bad(deck, group) from None


def lock_pass(ctx: DealContext, secrets: SeatSecrets, deck: object) -> list[bytes]:
    """This seat's lock of ``deck``: removes its shuffle scalar, adds one lock per position."""
    deck = check_deck_shape(ctx, deck)
    group = ctx.group
    mult = group.mult
    try:
        return [
            mult(factor, point) for factor, point in zip(secrets.lock_factors, deck, strict=True)
        ]
    except BadPoint:
        raise _first_bad(deck, group) from None


def _first_bad(deck: list[bytes], group: Group) -> BadDeck:
    for k, point in enumerate(deck):
        if not group.is_valid_point(point):
            return BadDeck("not a valid group element", k)
    return BadDeck("not a valid group element")  # unreachable with a sound group


def combine_shares(
    position: int,
    shares: Mapping[int, object],
    n_seats: int,
    group: Group,
    *,
    checked: bool = False,
) -> bytes:
    """The product of every seat's share for ``position``.  Raises :class:`BadShare`
    naming the seat whose share is malformed; a missing seat is a caller error.
    ``checked``: the caller validated every share already (as a table does when a
    share arrives), so they are not validated again."""
    missing = [seat for seat in range(n_seats) if seat not in shares]
    if missing:
        raise ValueError(f"position {position}: no share yet from seats {missing}")
    total: bytes | None = None
    for seat in range(n_seats):
        share = shares[seat]
        if not checked:
            try:
                share = group.validate_scalar(share)
            except BadScalar as exc:
                raise BadShare(seat, position, str(exc)) from None
        assert isinstance(share, bytes)
        total = share if total is None else group.scalar_mul(total, share)
    assert total is not None
    return total


def open_position(
    ctx: DealContext,
    position: int,
    locked_point: bytes,
    shares: Mapping[int, object],
    *,
    checked: bool = False,
) -> int:
    """The card index at ``position`` of the final locked deck, given every seat's
    share for it (the opener's own included; ``checked``: all validated already).

    Raises :class:`BadShare` (a seat's share is malformed), :class:`BadDeck` (the
    locked point is not a group element: blame the last locker) or
    :class:`NotACard` (only the audit can tell whose pass or share was wrong).
    """
    group = ctx.group
    scalar = combine_shares(position, shares, ctx.n_seats, group, checked=checked)
    try:
        point = group.mult(scalar, locked_point)
    except BadPoint:
        raise BadDeck("locked point is not a valid group element", position) from None
    index = deal_cards(ctx).index_of.get(point)
    if index is None or index >= ctx.n_positions:
        raise NotACard(position)
    return index


class LocalSeat:
    """One seat's side of a deal, holding its seed: what a session calls.

    Broadcast ``commitment`` first; then ``shuffle`` and ``lock`` the previous
    published deck (``initial_deck()`` if first); send ``share(j)`` for positions
    dealt to others; ``open`` own positions; reveal ``seed`` at the end.
    """

    def __init__(self, ctx: DealContext, seat: int, seed: bytes | None = None) -> None:
        ctx.check_seat(seat)
        self.ctx = ctx
        self.seat = seat
        self.seed = new_seed() if seed is None else seed
        self.secrets = derive_secrets(ctx, seat, self.seed)
        self.commitment = commit_seed(ctx, seat, self.seed)
        self._first: list[bytes] = []  # the shuffle of the initial deck, as far as made

    def initial_deck(self) -> list[bytes]:
        return initial_deck(self.ctx)

    def prepare_first_shuffle(self, count: int = 8) -> bool:
        """Compute ``count`` more points of this seat's shuffle of the initial deck,
        ahead of time (the first shuffler's input is always that deck); True if it
        made some, False once all are made.  ``shuffle`` of the initial deck then
        returns them."""
        secrets, todo = self.secrets, self.ctx.n_positions - len(self._first)
        if todo <= 0:
            return False
        deck, mult = initial_deck(self.ctx), self.ctx.group.mult
        done = len(self._first)
        self._first += [
            mult(secrets.shuffle_scalar, deck[src])
            for src in secrets.permutation[done : done + min(count, todo)]
        ]
        return True

    def shuffle(self, deck: object) -> list[bytes]:
        if len(self._first) == self.ctx.n_positions and deck == initial_deck(self.ctx):
            return list(self._first)  # made ahead by ``prepare_first_shuffle``
        return shuffle_pass(self.ctx, self.secrets, deck)

    def lock(self, deck: object) -> list[bytes]:
        return lock_pass(self.ctx, self.secrets, deck)

    def share(self, position: int) -> bytes:
        return self.secrets.shares[position]

    def open(
        self,
        position: int,
        locked_point: bytes,
        others: Mapping[int, object],
        *,
        checked: bool = False,
    ) -> int:
        """Open a position with the other seats' shares (``checked``: validated
        already) and this seat's own."""
        shares = dict(others)
        shares[self.seat] = self.share(position)
        return open_position(self.ctx, position, locked_point, shares, checked=checked)
