"""The host's invite code and the guesses tried at it: how many, and from where.  Sans-IO.

A joiner tests one guess of the code each time the host answers its HELLO with
REPLY (the SPAKE2 message).  So a guess is counted when it is tested, not when its
handshake ends: :meth:`InviteGuard.reserve` is asked after HELLO's cheap checks and
before the host computes anything, and holds one of the code's guesses; the guess
is given back only when the joiner's key confirmation checks (:meth:`settle`).
While the failed and the held guesses reach the limit (10), no HELLO is answered,
however many connections are in flight and from however many addresses.

The code is not redrawn when the limit is reached: redrawing it on a stranger's
say let anyone keep the host's friends out by guessing (the code they had just
been told kept changing).  The host draws a new one (:meth:`redraw`) when it
chooses, and sees who guessed wrong (:meth:`guessers`) and may shut an address
out (:meth:`shut`).  Each address that tries a wrong code waits before its next
HELLO is answered: briefly after a first mistake at a quiet table, for a long
time otherwise, so a flood from a few addresses spends a few guesses, then waits.
protocol/transport.md section 3.5 has the arithmetic.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Callable
from dataclasses import dataclass

from .pake import DEFAULT_GUESSES, new_invite_code, normal_code

__all__ = ["GuessPolicy", "Guesser", "InviteGuard", "Refusal", "Reservation"]


@dataclass(frozen=True)
class GuessPolicy:
    limit: int = DEFAULT_GUESSES
    """Guesses tested against one code, failed or still under way."""
    first_wait: float = 10.0
    """Seconds an address waits after its first wrong code while few addresses guess."""
    long_wait: float = 900.0
    """Seconds an address waits after any other wrong code, doubled from its third on."""
    max_wait: float = 86_400.0
    few: int = 1
    """A table is quiet while at most this many addresses tried a wrong code within
    the last ``long_wait`` seconds."""
    grace: float = 30.0
    """A first wrong code tried within this many seconds of a new code also waits
    briefly, quiet table or not: it is likely the old code, typed by a friend who read
    it just before the host drew another.  Not for an address that was turned away
    before (it tried while the code was used up, or while it had to wait): a friend
    types a code once, a flood keeps knocking."""
    exempt_loopback: bool = True
    """This machine's own addresses do not wait (the code's limit still holds)."""
    max_addresses: int = 4096


@dataclass
class Guesser:
    """One address that tried a code: what the host's screen lists."""

    address: str
    failures: int = 0
    refused: int = 0
    """HELLOs not answered: while it waited, was shut out, or the code was used up."""
    last_failure: float = -math.inf
    free_at: float = 0.0
    shut: bool = False
    held: int = 0
    """Its guesses under way: one at a time, so its wait starts before its next."""
    knocked: bool = False
    """It was turned away before (see ``GuessPolicy.grace``)."""

    def wait(self, now: float) -> float:
        """Seconds before its next HELLO is answered (inf: shut out)."""
        return math.inf if self.shut else max(0.0, self.free_at - now)


@dataclass(frozen=True)
class Refusal:
    """Why a HELLO is not answered: ``spent`` (the code's guesses are used up: ask
    the host for a new code), ``wait`` (``seconds`` more, after wrong codes from this
    address) or ``shut`` (the host shut the address out: no answer at all)."""

    reason: str
    seconds: float = 0.0


@dataclass(eq=False)
class Reservation:
    """One guess held for a handshake that the host answers."""

    address: str
    generation: int
    secret: bytes
    at: float = 0.0
    """When the guess was tested."""
    settled: bool = False


class InviteGuard:
    """The host's invite code, the guesses tested against it, and who tried them.

    ``on_failure`` hears (failures, limit) after each failed guess against the current
    code; ``on_change`` hears (new code, failures against the old) when the host
    redraws.  Pass the (monotonic) time in."""

    def __init__(
        self,
        code: str,
        policy: GuessPolicy | None = None,
        *,
        on_change: Callable[[str, int], None] | None = None,
        on_failure: Callable[[int, int], None] | None = None,
        new_code: Callable[[], str] = new_invite_code,
    ) -> None:
        normal_code(code)  # refused here, before any joiner tries
        self.code = code
        self.policy = policy or GuessPolicy()
        self.on_change = on_change
        self.on_failure = on_failure
        self._new_code = new_code
        self.changes = 0
        """Codes drawn since the first: a reservation names the one it tested."""
        self.failures = 0
        """Failed guesses against the current code."""
        self.reserved = 0
        """Guesses under way against the current code (answered, not yet settled)."""
        self.total_failures = 0
        self.tested = 0
        """Guesses tested in all (every REPLY sent under a code)."""
        self._guessers: dict[str, Guesser] = {}
        self._drawn: list[float] = [-math.inf]  # when each code was drawn, by generation

    @property
    def limit(self) -> int:
        return self.policy.limit

    @property
    def secret(self) -> bytes:
        return normal_code(self.code)

    @property
    def spent(self) -> bool:
        """No guess may be tested against this code any more: the host must draw another."""
        return self.failures + self.reserved >= self.policy.limit

    def reserve(self, address: str, now: float) -> Reservation | Refusal:
        """A well-formed HELLO from ``address``: a held guess to answer it with, or why not."""
        guesser = self._guessers.get(address)
        refusal = self._refusal(guesser, address, now)
        if refusal is not None:
            if guesser is None:
                guesser = self._guesser(address, now)
            guesser.refused += 1
            guesser.knocked = True
            return refusal
        if guesser is None:
            guesser = self._guesser(address, now)
        guesser.held += 1
        self.reserved += 1
        self.tested += 1
        return Reservation(address, self.changes, self.secret, now)

    def current(self, reservation: Reservation) -> bool:
        """The code this reservation tested is still the host's (not redrawn since)."""
        return reservation.generation == self.changes

    def settle(self, reservation: Reservation, proven: bool, now: float) -> None:
        """The handshake of ``reservation`` ended: with the code proven (the guess is
        given back) or not (a failed guess: counted against the code it tested, if
        that is still the host's, and against the address in any case)."""
        if reservation.settled:
            return
        reservation.settled = True
        guesser = self._guessers.get(reservation.address)
        if guesser is not None:
            guesser.held = max(0, guesser.held - 1)
        current = self.current(reservation)
        if current:
            self.reserved -= 1
        if proven:
            return
        self.total_failures += 1
        fresh = reservation.at - self._drawn[reservation.generation] <= self.policy.grace
        self._failed_from(reservation.address, now, fresh)
        if current:
            self.failures += 1
            if self.on_failure is not None:
                self.on_failure(self.failures, self.policy.limit)

    def redraw(self, now: float, code: str | None = None) -> str:
        """The host draws a new code (a fresh default one unless given): its guesses
        start at none; handshakes under way under the old code finish nothing."""
        if code is not None:
            normal_code(code)
        spent = self.failures
        self.code = code if code is not None else self._new_code()
        self.failures = self.reserved = 0
        self.changes += 1
        self._drawn.append(now)
        if self.on_change is not None:
            self.on_change(self.code, spent)
        return self.code

    def shut(self, address: str, now: float, shut: bool = True) -> None:
        """The host shuts ``address`` out (no HELLO of it is answered), or lets it try
        again with a clean record."""
        guesser = self._guessers.get(address) or self._guesser(address, now)
        if shut:
            guesser.shut = True
        else:
            self._guessers[address] = Guesser(address)

    def guessers(self) -> tuple[Guesser, ...]:
        """Addresses that tried a wrong code or were shut out, the most failures first."""
        shown = [g for g in self._guessers.values() if g.failures or g.shut]
        return tuple(sorted(shown, key=lambda g: (-g.failures, -g.refused, g.address)))

    # -- helpers ---------------------------------------------------------------------------

    def _refusal(self, guesser: Guesser | None, address: str, now: float) -> Refusal | None:
        if guesser is not None and guesser.shut:
            return Refusal("shut")
        if guesser is not None and not self._exempt(address):
            wait = guesser.wait(now)
            if wait > 0:
                return Refusal("wait", wait)
            if guesser.held:
                return Refusal("wait", 1.0)
        if self.spent:
            return Refusal("spent")
        return None

    def _failed_from(self, address: str, now: float, fresh: bool) -> None:
        guesser = self._guessers.get(address) or self._guesser(address, now)
        guesser.failures += 1
        guesser.last_failure = now
        policy = self.policy
        recent = sum(1 for g in self._guessers.values() if now - g.last_failure < policy.long_wait)
        if guesser.failures == 1 and not guesser.knocked and (recent <= policy.few or fresh):
            wait = policy.first_wait
        else:
            wait = min(policy.max_wait, policy.long_wait * 2 ** max(0, guesser.failures - 2))
        guesser.free_at = now + wait

    def _guesser(self, address: str, now: float) -> Guesser:
        if len(self._guessers) >= self.policy.max_addresses:
            # Forget those with nothing held against them any more first: a flood from
            # many addresses must not push out the record of the ones still waiting.
            idle = [a for a, g in self._guessers.items() if not (g.shut or g.held or g.wait(now))]
            for old in idle[: max(1, len(idle) // 2)]:
                del self._guessers[old]
            if len(self._guessers) >= self.policy.max_addresses:
                oldest = min(
                    (g for g in self._guessers.values() if not (g.shut or g.held)),
                    key=lambda g: g.free_at,
                    default=None,
                )
                if oldest is not None:
                    del self._guessers[oldest.address]
        guesser = self._guessers[address] = Guesser(address)
        return guesser

    def _exempt(self, address: str) -> bool:
        if not self.policy.exempt_loopback:
            return False
        try:
            return ipaddress.ip_address(address.split("%", 1)[0]).is_loopback
        except ValueError:
            return False
