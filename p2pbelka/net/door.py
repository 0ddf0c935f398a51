"""Who may start a handshake: admission of incoming connections by source address.  Sans-IO.

A listener spends nothing on a stranger before this says yes: no bytes read,
no key agreement.  The rules, all checked at accept time from the source
address alone:

- at most ``per_address`` half-open handshakes from one address, and at most
  ``per_address_open`` established channels, so one machine cannot hold every
  slot with idle or slow (slowloris) connections;
- a token bucket per address (``rate`` a second, ``burst`` at once) on new
  handshakes, so one machine cannot make us do key agreements without pause;
- at most ``max_pending`` half-open handshakes in all; when they are all taken,
  a newcomer from an address with fewer of them takes the oldest slot of the
  address holding the most (fair slots: a flood from a few addresses cannot
  crowd out a joiner from another);
- the caller gives every half-open handshake a short deadline.

Refusals are counted per reason and address; :meth:`Door.take_summary` turns
them into one log line every few seconds, never one per connection.
"""

from __future__ import annotations

import collections
import ipaddress
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Door", "DoorPolicy", "Ticket"]


@dataclass(frozen=True)
class DoorPolicy:
    max_pending: int = 64
    per_address: int = 4
    per_address_open: int = 8
    rate: float = 4.0
    """New handshakes a second from one address, on average."""
    burst: float = 12.0
    handshake_timeout: float = 5.0
    """Seconds a connection may take from accept to a finished handshake."""
    summary_every: float = 5.0
    exempt_loopback: bool = True
    """Connections from this machine itself are not limited per address (only in all)."""


@dataclass(eq=False)
class Ticket:
    """One admitted connection; ``evicted`` is set when a fairer newcomer took its slot."""

    address: str
    number: int
    state: str = "pending"  # then "open" or "gone"
    evicted: bool = False

    @property
    def pending(self) -> bool:
        return self.state == "pending"


@dataclass
class _Bucket:
    tokens: float
    updated: float


@dataclass
class _Refusals:
    by_reason: collections.Counter[str] = field(default_factory=collections.Counter)
    by_address: collections.Counter[str] = field(default_factory=collections.Counter)
    since: float = -1.0  # the last summary, or the first refusal before any summary


class Door:
    """Admission state for one listener.  Pass the (monotonic) time in."""

    def __init__(self, policy: DoorPolicy | None = None) -> None:
        self.policy = policy or DoorPolicy()
        self._pending: dict[str, list[Ticket]] = collections.defaultdict(list)
        self._open: collections.Counter[str] = collections.Counter()
        self._buckets: dict[str, _Bucket] = {}
        self._numbers = itertools.count()
        self._refusals = _Refusals()
        self.stats: collections.Counter[str] = collections.Counter()
        self.on_refusal: Callable[[], None] | None = None
        """Called at a refusal (the summary's task sleeps while there is none to tell)."""

    @property
    def pending(self) -> int:
        return sum(len(tickets) for tickets in self._pending.values())

    def arrive(self, address: str, now: float) -> tuple[Ticket | None, Ticket | None]:
        """A connection from ``address``: (its ticket or None if refused, a ticket to
        evict or None).  The caller closes an evicted ticket's connection at once."""
        reason = self._refusal(address, now)
        if reason:
            self._refuse(reason, address, now)
            return None, None
        evicted = None
        if self.pending >= self.policy.max_pending:
            evicted = self._fairer_slot(address)
            if evicted is None:
                self._refuse("all handshake slots taken", address, now)
                return None, None
        ticket = Ticket(address, next(self._numbers))
        self._pending[address].append(ticket)
        self.stats["admitted"] += 1
        return ticket, evicted

    def established(self, ticket: Ticket, now: float) -> bool:
        """The handshake finished: False (and counted) if the address has too many
        channels open already; the caller then closes it and calls :meth:`leave`."""
        if not ticket.pending:
            return False  # evicted meanwhile
        self._drop_pending(ticket)
        if not self._exempt(ticket.address) and (
            self._open[ticket.address] >= self.policy.per_address_open
        ):
            self._refuse("too many channels from one address", ticket.address, now)
            return False
        ticket.state = "open"
        self._open[ticket.address] += 1
        return True

    def leave(self, ticket: Ticket) -> None:
        """The connection is gone (whatever happened to it)."""
        if ticket.pending:
            self._drop_pending(ticket)
        elif ticket.state == "open":
            self._open[ticket.address] -= 1
            if self._open[ticket.address] <= 0:
                del self._open[ticket.address]
        ticket.state = "gone"

    def failed(self, ticket: Ticket, now: float, reason: str) -> None:
        """A handshake that failed or timed out: counted with the refusals."""
        self._refuse(reason, ticket.address, now)

    def cut_off(self, address: str, now: float, reason: str) -> None:
        """A channel its handler closed for what came on it (a watcher that flooded or
        sent what it may not): counted with the refusals, in the same summary."""
        self._refuse(reason, address, now)

    @property
    def refused(self) -> bool:
        """Refusals came since the last summary."""
        return bool(self._refusals.by_reason)

    def quiet_until(self, when: float) -> None:
        """A summary taken at ``when`` found nothing (``take_summary`` at that time,
        skipped by a task that slept until a refusal came after it)."""
        self._refusals.since = when

    def take_summary(self, now: float) -> str | None:
        """One line about the refusals since the last summary, or None if there were none."""
        refusals = self._refusals
        if not refusals.by_reason:
            refusals.since = now
            return None
        total = sum(refusals.by_reason.values())
        reasons = ", ".join(f"{n} {why}" for why, n in refusals.by_reason.most_common(3))
        top = ", ".join(f"{n} from {addr}" for addr, n in refusals.by_address.most_common(3))
        line = (
            f"refused {total} connection(s) in the last {now - refusals.since:.0f} s"
            f" ({reasons}; {top}); {self.pending} handshake(s) in progress"
        )
        self._refusals = _Refusals(since=now)
        return line

    # -- helpers ---------------------------------------------------------------------------

    def _exempt(self, address: str) -> bool:
        return self.policy.exempt_loopback and _is_loopback(address)

    def _refusal(self, address: str, now: float) -> str:
        if self._exempt(address):
            return ""
        if len(self._pending.get(address, ())) >= self.policy.per_address:
            return "too many handshakes from one address"
        if not self._take_token(address, now):
            return "handshakes too fast from one address"
        return ""

    def _take_token(self, address: str, now: float) -> bool:
        policy = self.policy
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) > 4096:  # forget the quiet ones; a flood stays full
                refill = policy.burst / policy.rate
                self._buckets = {a: b for a, b in self._buckets.items() if now - b.updated < refill}
            bucket = self._buckets[address] = _Bucket(policy.burst, now)
        bucket.tokens = min(policy.burst, bucket.tokens + (now - bucket.updated) * policy.rate)
        bucket.updated = now
        if bucket.tokens < 1.0:
            return False
        bucket.tokens -= 1.0
        return True

    def _fairer_slot(self, address: str) -> Ticket | None:
        """The oldest half-open ticket of the busiest address, if it holds more slots
        than ``address`` would after taking one."""
        mine = len(self._pending.get(address, ()))
        busiest = max(self._pending, key=lambda a: len(self._pending[a]), default=None)
        if busiest is None or len(self._pending[busiest]) <= mine + 1:
            return None
        victim = self._pending[busiest][0]
        self._drop_pending(victim)
        victim.evicted = True
        self.stats["evicted"] += 1
        return victim

    def _drop_pending(self, ticket: Ticket) -> None:
        if not ticket.pending:
            return
        ticket.state = "gone"
        tickets = self._pending.get(ticket.address)
        if tickets is not None and ticket in tickets:
            tickets.remove(ticket)
            if not tickets:
                del self._pending[ticket.address]

    def _refuse(self, reason: str, address: str, now: float) -> None:
        if not self._refusals.by_reason and self._refusals.since < 0:
            self._refusals.since = now
        self._refusals.by_reason[reason] += 1
        self._refusals.by_address[address] += 1
        self.stats["refused"] += 1
        if self.on_refusal is not None:
            self.on_refusal()


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
    except ValueError:
        return False
