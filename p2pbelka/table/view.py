"""What a table's driver, screen or verifier reads of it beyond the phases' state: ``TableView``.

The face (``session.Table``) keeps the verbs (receive, apply, take, the driver's
controls); the phases' state (``state.TableState``: the table description, the
track, the deal, the phase) is ``table.state``; this is ``table.view``: the
transcript and where it stands, who the table waits for, what it holds for a
resend, and how the game ended.  It reads the chains, the local seat's own chain
and the runner, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.chains import OwnChain, View
from p2pbelka.table.intake import MAX_AHEAD
from p2pbelka.table.runner import Runner
from p2pbelka.table.state import TableState


class TableView:
    def __init__(self, state: TableState, runner: Runner, own: OwnChain) -> None:
        self._state = state
        self._chains = state.chains
        self._runner = runner
        self._own = own

    # -- the transcript, and how the game ended ------------------------------------------

    @property
    def transcript(self) -> Sequence[Envelope]:
        return self._chains.transcript

    @property
    def progress(self) -> int:
        """How far the game got: the transcript's length, less the envelopes refused
        when due that it records (a seat whose envelopes are refused makes none)."""
        return len(self._chains.transcript) - self._chains.refused_records

    @property
    def faults(self) -> Sequence[ev.Fault]:
        return self._state.blame.faults

    @property
    def proven(self) -> bool:
        """The game ended on a proven fault (nothing that comes after changes that)."""
        return self._runner.proven

    @property
    def closing(self) -> bool:
        """The rules say the game is won and its last audit passed (flow 3): its last
        ``deal_end``s and the closing exchange are due, and a give-up ends the game
        won, naming the seats that did not close."""
        return self._runner.won

    def unrecorded_closes(self) -> list[ev.Fault]:
        """Once the game is won (``closing``): a note naming every seat whose ``close``
        (or last ``deal_end``) the transcript does not hold; ``verify`` of a file that
        ends there reads a won game naming these (SPEC section 5.1)."""
        return self._runner.endings.unrecorded()

    def seat_of(self, key: bytes) -> int | None:
        return self._chains.seat_of(key)

    # -- who the table waits for ----------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The seat whose envelope is processed next, or None (finished)."""
        return self._runner.turn

    @property
    def short_of_own(self) -> bool:
        """True when the local seat must send next an envelope it signed before (a
        crash lost it) that has not come back yet: it signs nothing until it has."""
        if self._state.me is None or not self._chains.opened or self._runner.finished:
            return False
        return self._own.seq < self._own.known and self._runner.own_pending() is None

    def awaiting_player(self) -> bool:
        """Whether what is due may be a person's decision (a card, a game's own call or
        choice), rather than work a program does in milliseconds."""
        step = self._runner.step_or_none()
        return step is not None and step.decision and self._state.blame.suspicion is None

    def missing(self) -> list[int]:
        """Seats the table is waiting for (for a driver's timeout): the seat whose
        envelope would settle a differing view; else the seats an ending that came
        waits for, and the seat due (in the closing exchange, every seat whose
        ``close`` has not come)."""
        if self._runner.finished:
            return []
        settles = self._state.blame.waited_for(self._state.me)
        if settles is not None:
            return [settles]
        seats = set(self._runner.endings.needs())
        seats.update(self._runner.unclosed())
        if self.turn is not None:
            seats.add(self.turn)
        return sorted(seats)

    # -- what it holds, for a resend ------------------------------------------------------------

    def wants(self) -> list[int]:
        """For each seat, the first sequence number this table does not hold (for a
        resend request), and while a view is unsettled the places that could settle
        it; empty before the table description arrived."""
        return self._state.blame.wants(self._state.me)

    def envelopes_from(
        self, seat: int, seq: int, limit: int = MAX_AHEAD, *, newest: bool = False
    ) -> list[bytes]:
        """``seat``'s envelopes from ``seq`` on that this table holds, accepted or
        waiting, in chain order: the answer to a resend request (any peer may relay).
        At most ``limit`` (what the asker's table takes at once); with ``newest``
        (``seat`` is the asker's own) the newest follows when the answer is cut, so
        a resumed seat learns how long its chain is and never signs again a place it
        filled before it stopped.  The local seat's envelopes its driver has not
        taken to send yet are left out: they leave only once they are on the disk
        (the driver may be waiting for it while the links answer)."""
        found = self._chains.envelopes_from(seat, seq, limit, newest)
        outgoing = self._state.out.outgoing
        if seat != self._state.me or not outgoing:
            return found
        unsent = set(outgoing)
        return [raw for raw in found if raw not in unsent]

    def accepted(self) -> View:
        """What this table has accepted of every chain: the view it signs now."""
        return self._chains.intake.view()
