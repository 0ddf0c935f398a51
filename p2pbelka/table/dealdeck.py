"""One deal's shared deck as a table sees it: every published pass, share and opening.

Wraps the game-agnostic ``fairdeal`` primitives with the bookkeeping a table
needs: which seat each position is dealt to, which shares are public, which
positions are open, and what the end-of-deal audit needs as input.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from p2pbelka.fairdeal.audit import AuditReport, Step, audit
from p2pbelka.fairdeal.deck import (
    LocalSeat,
    check_deck_points,
    check_deck_shape,
    initial_deck,
    open_position,
)
from p2pbelka.fairdeal.derive import DealContext, check_commitment
from p2pbelka.fairdeal.errors import BadDeck, BadScalar, FairDealError
from p2pbelka.protocol.messages import Opening

NOBODY = (-1, -2)
"""Owners of positions dealt to no seat (Belot: the turned card, the stock)."""


class DeckFault(Exception):
    """Something a seat published that is wrong on its face: blame ``seat`` now."""

    def __init__(self, seat: int, what: str) -> None:
        super().__init__(what)
        self.seat = seat
        self.what = what


class DealDeck:
    def __init__(
        self,
        ctx: DealContext,
        order: Sequence[int],
        owners: Sequence[int],
        local: LocalSeat | None,
        every_pass: bool = False,
    ) -> None:
        self.ctx = ctx
        self.every_pass = every_pass  # the audit replays every pass (forensic verify)
        self.order = tuple(order)  # the seats in shuffle and lock order
        self.owners = tuple(owners)  # owners[pos] = the seat the position is dealt to
        self.local = local
        self.commitments: dict[int, bytes] = {}
        self.seeds: dict[int, bytes] = {}
        self.shuffles: list[list[bytes]] = []
        self.locks: list[list[bytes]] = []
        self.shares: dict[int, dict[int, bytes]] = {pos: {} for pos in range(ctx.n_positions)}
        self.opened: dict[int, int] = {}  # pos -> card index, opened to all
        self.mine: dict[int, int] = {}  # pos -> card index: this seat's hand, as it read it
        self.computed: dict[tuple[Step, int], list[bytes]] = {}  # our own passes
        self.multiply_ahead = local is not None
        """Compute our pass as soon as the pass before it is handled (its check): off
        while the table only replays its own transcript (a resumed table, held), which
        holds our pass already, so the points are only checked."""

    # -- passes ---------------------------------------------------------------------

    def current(self) -> list[bytes]:
        """The deck the next pass works on."""
        if self.locks:
            return self.locks[-1]
        if self.shuffles:
            return self.shuffles[-1]
        return initial_deck(self.ctx)

    def add_pass(self, seat: int, deck: Sequence[bytes]) -> None:
        """``seat``'s pass, handled in the schedule's order.  Every point is checked
        here, by every table (fairdeal.md section 8): a point that is not a valid group
        element is its author's fault at this record, for every honest table alike,
        not only for the seat that would multiply it next.  That seat checks it by
        multiplying it now (its pass is due next; ``multiply_ahead``), so it pays
        nothing more; a pass of our own that we computed needs no check."""
        try:
            points = check_deck_shape(self.ctx, list(deck))
        except BadDeck as exc:
            raise DeckFault(seat, f"published a bad deck: {exc}") from None
        step = Step.SHUFFLE if self._done() < len(self.order) else Step.LOCK
        (self.shuffles if step is Step.SHUFFLE else self.locks).append(points)
        local = self.local
        if local is not None and self.computed.get((step, local.seat)) == points:
            return  # ours, as we computed it: valid points
        if local is not None and self.multiply_ahead and self._next_author() == local.seat:
            self.local_pass()  # validates every point, naming ``seat`` if one is not
            return
        try:
            check_deck_points(self.ctx, points)
        except BadDeck as exc:
            raise DeckFault(seat, f"published a bad deck: {exc}") from None

    def _done(self) -> int:
        return len(self.shuffles) + len(self.locks)

    def _next_author(self) -> int | None:
        """The seat whose pass comes next, or None after the last lock."""
        done = self._done()
        return self.order[done % len(self.order)] if done < 2 * len(self.order) else None

    def local_pass(self) -> list[bytes]:
        """This seat's shuffle or lock of the current deck; blames the previous author.
        Computed once (when the pass before it is handled, or when due)."""
        assert self.local is not None
        done = self._done()
        step = Step.SHUFFLE if done < len(self.order) else Step.LOCK
        made = self.computed.get((step, self.local.seat))
        if made is not None:
            return made
        previous = (list(self.order) * 2)[done - 1] if done else None
        try:
            if step is Step.SHUFFLE:
                points = self.local.shuffle(self.current())
            else:
                points = self.local.lock(self.current())
        except BadDeck as exc:
            assert previous is not None, "the initial deck is always valid"
            raise DeckFault(previous, f"published a bad deck: {exc}") from None
        self.computed[(step, self.local.seat)] = points
        return points

    # -- shares and openings --------------------------------------------------------

    def positions_of(self, seat: int) -> list[int]:
        return [pos for pos, owner in enumerate(self.owners) if owner == seat]

    def _batch(self, batch: Collection[int] | None) -> Collection[int]:
        """The positions a shares message opens to their owners: ``batch``, or (None)
        every position dealt to a seat.  An owner below 0 is nobody's (Belot's turned
        card and stock): such a position stays face down unless opened to all."""
        return range(len(self.owners)) if batch is None else batch

    def add_shares(
        self, seat: int, openings: Sequence[Opening], batch: Collection[int] | None = None
    ) -> None:
        expected = {p for p in self._batch(batch) if self.owners[p] not in (seat, *NOBODY)}
        got = {o.pos for o in openings}
        if got != expected:
            raise DeckFault(seat, "shares do not cover exactly the positions dealt to others")
        for opening in openings:
            self._add_share(seat, opening)

    def add_share(self, seat: int, opening: Opening) -> None:
        """One share published for a position opened to everyone (Belot's turned card)."""
        if not 0 <= opening.pos < len(self.owners):
            raise DeckFault(seat, f"no position {opening.pos} in the deck")
        self._add_share(seat, opening)

    def open_to_all(self, pos: int) -> int:
        """Open a position every seat published its share for; ``FairDealError`` if it
        does not open to a card (only the audit can blame that)."""
        # Every share here was validated when it arrived (``_add_share``).
        card = open_position(self.ctx, pos, self.current()[pos], self.shares[pos], checked=True)
        self.opened[pos] = card
        return card

    def _add_share(self, seat: int, opening: Opening) -> None:
        try:
            self.ctx.group.validate_scalar(opening.key)
        except BadScalar as exc:
            raise DeckFault(seat, f"bad key share for position {opening.pos}: {exc}") from None
        known = self.shares[opening.pos].get(seat)
        if known is not None and known != opening.key:
            raise DeckFault(seat, f"two different key shares for position {opening.pos}")
        self.shares[opening.pos][seat] = opening.key

    def my_shares(self, batch: Collection[int] | None = None) -> list[Opening]:
        assert self.local is not None
        local, nobody = self.local, (self.local.seat, *NOBODY)
        return [
            Opening(p, local.share(p)) for p in self._batch(batch) if self.owners[p] not in nobody
        ]

    def my_opening(self, pos: int) -> Opening:
        assert self.local is not None
        return Opening(pos, self.local.share(pos))

    def read_my_hand(self, batch: Collection[int] | None = None) -> dict[int, int] | None:
        """Position -> card for this seat's hand (its positions in ``batch``), or None
        if it does not open cleanly."""
        assert self.local is not None
        me = self.local.seat
        hand: dict[int, int] = {}
        for pos in self._batch(batch):
            if self.owners[pos] != me:
                continue
            others = {s: k for s, k in self.shares[pos].items() if s != me}
            try:
                hand[pos] = self.local.open(pos, self.current()[pos], others, checked=True)
            except (FairDealError, ValueError):
                return None
        if len(set(hand.values())) != len(hand):
            return None
        self.mine.update(hand)
        return hand

    def open(self, seat: int, opening: Opening) -> int:
        """Open a position of ``seat``'s with its share.  Raises ``DeckFault`` for a share
        that is malformed or a position that is not the seat's; ``FairDealError`` for a
        position that does not open to a card (only the audit can blame that)."""
        if not 0 <= opening.pos < len(self.owners) or self.owners[opening.pos] != seat:
            raise DeckFault(seat, f"position {opening.pos} was not dealt to this seat")
        self._add_share(seat, opening)
        known = self.mine.get(opening.pos)
        local = self.local
        if known is not None and local is not None and opening.key == local.share(opening.pos):
            # Our own card, opened with our own share and the others' we read it with
            # (``_add_share`` refuses any other share for them): the same product,
            # the same card, without the multiplication.
            card = known
        else:
            card = open_position(
                self.ctx,
                opening.pos,
                self.current()[opening.pos],
                self.shares[opening.pos],
                checked=True,
            )
        self.opened[opening.pos] = card
        return card

    # -- the end of the deal --------------------------------------------------------

    def add_seed(self, seat: int, seed: bytes) -> bool:
        self.seeds[seat] = seed
        return check_commitment(self.ctx, seat, seed, self.commitments.get(seat))

    def audit(self) -> AuditReport:
        published = [
            (seat, pos, key)
            for pos, by_seat in self.shares.items()
            for seat, key in by_seat.items()
        ]
        return audit(
            self.ctx,
            self.order,
            self.commitments,
            self.seeds,
            self.shuffles,
            self.locks,
            published,
            computed=self.computed,
            own=self.local.secrets if self.local is not None else None,
            # Our own hand was read with every seat's share too (ours from our seed).
            opened={**self.mine, **self.opened},
            every_pass=self.every_pass,
        )
