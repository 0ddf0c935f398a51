"""The end-of-deal audit: check the deal against every seat's revealed seed and name faults.

A seat at the table checks the *outcome* first: with every seed revealed, the
card at each position of the final deck follows from the seeds alone (the
product of the seats' shuffles, and the product of their lock scalars), so a
position whose card was opened in play costs no multiplication at all and one
that was not costs one.  Only when that check fails is every pass replayed, to
name who broke the deck.  The price: two colluding seats whose deviations
cancel out exactly (the deck comes out as the seeds say) are not named by the
seats' audit.  Nothing they did changed a card, and it gains them nothing: to
undo a deviation after an honest seat's pass they must know what that pass did
to it, so only deviations that pass through it unchanged can cancel (a known
factor on one position of a lock), and those show them nothing new.
``every_pass`` (``p2pbelka verify --every-pass``) replays every pass anyway and
names them.

Blame is local: a seat is blamed for a pass only if its published output is not
what its seed produces from the input it actually received (the previous
published deck), so one cheater cannot get an honest seat after it blamed.
The audit never raises on peer data; anything malformed becomes a fault.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .deck import deal_cards, initial_deck
from .derive import DealContext, SeatSecrets, check_commitment, derive_secrets
from .errors import BadPoint, BadScalar
from .group import Group


class Step(StrEnum):
    COMMIT = "commit"  # the revealed seed does not match the commitment
    REVEAL = "reveal"  # no seed revealed (or not 32 bytes)
    SHUFFLE = "shuffle"
    LOCK = "lock"
    SHARE = "share"


@dataclass(frozen=True)
class Fault:
    seat: int
    step: Step
    position: int | None
    reason: str

    def __str__(self) -> str:
        where = "" if self.position is None else f" at position {self.position}"
        return f"seat {self.seat}: {self.step}{where}: {self.reason}"


@dataclass(frozen=True)
class AuditReport:
    cards: tuple[int | None, ...]
    """The card index at every position of the final deck, ``None`` where it cannot be decoded."""
    faults: tuple[Fault, ...] = field(default=())
    cancelled: tuple[Fault, ...] = field(default=())
    """``every_pass`` only: passes off their author's seed in a deal whose outcome the
    seeds give exactly (deviations that cancel, changing no card).  The deal stands, as
    it did for every seat that played it; the deviations are still proof."""

    @property
    def ok(self) -> bool:
        return not self.faults and None not in self.cards

    def blamed(self) -> set[int]:
        return {fault.seat for fault in self.faults}


def audit(
    ctx: DealContext,
    order: Sequence[int],
    commitments: Mapping[int, object],
    seeds: Mapping[int, object],
    shuffles: Sequence[object],
    locks: Sequence[object],
    shares: Iterable[tuple[int, object, object]] = (),
    computed: Mapping[tuple[Step, int], Sequence[bytes]] | None = None,
    own: SeatSecrets | None = None,
    opened: Mapping[int, int] | None = None,
    every_pass: bool = False,
) -> AuditReport:
    """Check a deal; replay it pass by pass if the outcome does not match (or if
    ``every_pass``, as ``verify --every-pass`` does).

    ``order``: the seats in the order they shuffled and locked (a permutation of
    all seats; a caller error otherwise).  ``shuffles[m]`` / ``locks[m]``: the deck
    published by ``order[m]`` (``None`` or missing if it never came).  ``shares``:
    every published ``(seat, position, share)``.  ``commitments`` / ``seeds``: per
    seat; a missing seed is a REVEAL fault.

    What the caller already knows saves work, and changes no verdict:

    * ``computed``: passes the caller made itself, by (step, seat): a published
      pass equal to one of them is taken as it is (a seat need not replay its own
      work, a quarter of the passes);
    * ``own``: the caller's own secrets, used instead of deriving them again
      (when its revealed seed matches its commitment);
    * ``opened``: position -> card for positions the caller opened during play
      with the published shares of every seat; they are not decoded again.  Each
      of those shares is still checked against its seat's seed, so a decode could
      only repeat the same multiplication with the same result.

    The outcome check and the replay agree on every deal they both accept: the
    check accepts only when every seed matches its commitment, every share is
    its seed's and every position holds the card the seeds put there.
    """
    if sorted(order) != list(range(ctx.n_seats)):
        raise ValueError("order must list every seat once")
    group = ctx.group
    faults: list[Fault] = []
    secrets: dict[int, SeatSecrets] = {}
    for seat in range(ctx.n_seats):
        seed = seeds.get(seat)
        if not isinstance(seed, bytes) or len(seed) != 32:
            faults.append(Fault(seat, Step.REVEAL, None, "no 32-byte seed revealed"))
        elif not check_commitment(ctx, seat, seed, commitments.get(seat)):
            faults.append(Fault(seat, Step.COMMIT, None, "seed does not match the commitment"))
        elif own is not None and own.seat == seat:
            secrets[seat] = own
        else:
            secrets[seat] = derive_secrets(ctx, seat, seed)

    outcome = None
    if not faults:
        outcome = _check_outcome(ctx, group, order, secrets, locks, shares, opened or {})
        if outcome is not None and not every_pass:
            return AuditReport(cards=outcome)

    deck: list[bytes | None] = list(initial_deck(ctx))
    broken = False
    for step, published in ((Step.SHUFFLE, shuffles), (Step.LOCK, locks)):
        for m, seat in enumerate(order):
            output = published[m] if m < len(published) else None
            if output is None and broken:
                # Refusing a broken deck is what an honest seat does: only the
                # seat that broke it (or first stalled) is named.
                deck = [None] * ctx.n_positions
                continue
            before = len(faults)
            mine = (computed or {}).get((step, seat))
            if mine is not None and isinstance(output, list | tuple) and list(output) == list(mine):
                deck = list(mine)
                continue
            deck = _replay_pass(ctx, group, step, seat, secrets.get(seat), deck, output, faults)
            broken = broken or len(faults) > before

    if outcome is not None:  # every card where the seeds put it: what the seats accepted
        return AuditReport(cards=outcome, cancelled=tuple(faults))
    cards = _decode(ctx, group, deck, secrets, shares, faults, opened or {})
    return AuditReport(cards=cards, faults=tuple(faults))


def _check_outcome(
    ctx: DealContext,
    group: Group,
    order: Sequence[int],
    secrets: Mapping[int, SeatSecrets],
    locks: Sequence[object],
    shares: Iterable[tuple[int, object, object]],
    known: Mapping[int, int],
) -> tuple[int, ...] | None:
    """The card at every position if the final deck is exactly what the seeds make
    of the initial one; ``None`` on any difference (the replay then finds who).

    After every shuffle, position k holds card ``sigma[k]`` (the seats'
    permutations composed in order); every lock pass multiplies position j by
    the seat's lock scalar (its shuffle scalar cancels), so the final deck holds
    ``L_j * P[sigma[j]]`` with ``L_j`` the product of the lock scalars at j.  A
    position opened with every seat's seed-made share was decoded from exactly
    that point, so only its card needs comparing."""
    n = ctx.n_positions
    if len(secrets) != ctx.n_seats or len(locks) != len(order):
        return None
    final = locks[-1]
    if not isinstance(final, list | tuple) or len(final) != n:
        return None
    for entry in shares:
        if not isinstance(entry, tuple | list) or len(entry) != 3:
            return None
        seat, position, share = entry
        derived = secrets.get(seat) if isinstance(seat, int) else None
        if derived is None or type(position) is not int or not 0 <= position < n:
            return None
        if share != derived.shares[position]:
            return None
    sigma = list(range(n))
    for seat in order:
        permutation = secrets[seat].permutation
        sigma = [sigma[src] for src in permutation]
    points = deal_cards(ctx).points
    endian, size, modulus = group.byteorder, group.scalar_bytes, group.order
    for j in range(n):
        card = known.get(j)
        if card is not None:
            if card != sigma[j]:
                return None
            continue
        product = 1
        for seat in range(ctx.n_seats):
            product = product * int.from_bytes(secrets[seat].lock_scalars[j], endian) % modulus
        try:
            if group.mult(product.to_bytes(size, endian), points[sigma[j]]) != final[j]:
                return None
        except BadPoint:
            return None
    return tuple(sigma)


def _replay_pass(
    ctx: DealContext,
    group: Group,
    step: Step,
    seat: int,
    secrets: SeatSecrets | None,
    deck_in: list[bytes | None],
    output: object,
    faults: list[Fault],
) -> list[bytes | None]:
    """Check one published pass and return it as the next input (``None`` marks
    elements that are not valid points, so later seats are not blamed for them)."""
    n = ctx.n_positions
    if not isinstance(output, list | tuple):
        faults.append(Fault(seat, step, None, "pass missing or not a list of points"))
        return [None] * n
    if len(output) != n:
        faults.append(Fault(seat, step, None, f"expected {n} points, got {len(output)}"))
        return [None] * n

    expected: list[bytes | None] | None = None
    if secrets is not None:
        expected = _expected_output(group, step, secrets, deck_in)
        if list(output) == expected and len(set(expected)) == n:
            # Every point is one we computed (so valid), and no two are the same:
            # what the loop below would conclude, point by point.
            return expected

    out: list[bytes | None] = []
    seen: dict[bytes, int] = {}
    malformed: tuple[int, str] | None = None
    mismatches: list[int] = []
    for k, point in enumerate(output):
        good = isinstance(point, bytes) and len(point) == group.point_bytes
        if good and expected is not None and expected[k] is not None:
            # A match with a point we computed ourselves proves validity for free.
            if point == expected[k]:
                out.append(point)
                seen.setdefault(point, k)
                continue
            mismatches.append(k)
        if not good or not group.is_valid_point(point):
            if malformed is None:
                malformed = (k, "not a valid group element")
            out.append(None)
            continue
        assert isinstance(point, bytes)
        if point in seen and malformed is None:
            malformed = (k, f"same point as position {seen[point]} (a duplicated card)")
        seen.setdefault(point, k)
        out.append(point)
    if malformed is not None:
        faults.append(Fault(seat, step, malformed[0], malformed[1]))
    if mismatches:
        faults.append(
            Fault(
                seat,
                step,
                mismatches[0],
                f"{len(mismatches)} of {n} points differ from the replay of the revealed seed",
            )
        )
    return out


def _expected_output(
    group: Group, step: Step, secrets: SeatSecrets, deck_in: list[bytes | None]
) -> list[bytes | None]:
    if step is Step.SHUFFLE:
        pairs = [(secrets.shuffle_scalar, deck_in[src]) for src in secrets.permutation]
    else:
        pairs = list(zip(secrets.lock_factors, deck_in, strict=True))
    result: list[bytes | None] = []
    for scalar, point in pairs:
        if point is None:
            result.append(None)
            continue
        try:
            result.append(group.mult(scalar, point))
        except BadPoint:  # input validity was established by the previous replay
            result.append(None)
    return result


def _decode(
    ctx: DealContext,
    group: Group,
    final: list[bytes | None],
    secrets: Mapping[int, SeatSecrets],
    shares: Iterable[tuple[int, object, object]],
    faults: list[Fault],
    opened: Mapping[int, int],
) -> tuple[int | None, ...]:
    n = ctx.n_positions
    # Shares of seats whose seed is unknown may still open a position: a wrong
    # share cannot turn one card into another (that needs a discrete log).
    published: dict[tuple[int, int], bytes] = {}
    for entry in shares:
        if not isinstance(entry, tuple | list) or len(entry) != 3:
            continue  # the caller builds these triples; a malformed one names nobody
        seat, position, share = entry
        if not (isinstance(seat, int) and 0 <= seat < ctx.n_seats):
            continue  # the caller attributes shares to seats; nothing to blame
        if not (type(position) is int and 0 <= position < n):
            faults.append(Fault(seat, Step.SHARE, None, f"no such position: {position!r}"))
            continue
        derived = secrets.get(seat)
        if derived is None or share != derived.shares[position]:
            # (A share equal to the seed's is a canonical scalar: nothing to check.)
            try:
                share = group.validate_scalar(share)
            except BadScalar as exc:
                faults.append(Fault(seat, Step.SHARE, position, str(exc)))
                continue
            if derived is not None:
                faults.append(
                    Fault(seat, Step.SHARE, position, "share differs from the revealed seed's")
                )
                continue
        assert isinstance(share, bytes)
        published[(seat, position)] = share

    index_of = deal_cards(ctx).index_of
    cards: list[int | None] = []
    for j in range(n):
        known = opened.get(j)
        if type(known) is int and 0 <= known < n and final[j] is not None:
            cards.append(known)
            continue
        point = final[j]
        total: bytes | None = None
        for seat in range(ctx.n_seats):
            derived = secrets.get(seat)
            share = derived.shares[j] if derived is not None else published.get((seat, j))
            if share is None:
                total = None
                break
            total = share if total is None else group.scalar_mul(total, share)
        if point is None or total is None:
            cards.append(None)
            continue
        try:
            card = index_of.get(group.mult(total, point))
        except BadPoint:
            card = None
        cards.append(card if card is not None and card < n else None)
    return tuple(cards)


__all__ = ["AuditReport", "Fault", "Step", "audit"]
