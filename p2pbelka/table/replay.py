"""A transcript fed to a table record by record, in the order it was recorded: ``Replay``.

A live table takes envelopes in whatever order they come; a transcript's records
come in the one canonical order (``runner.py``), and a record in any other place is
an error (``OrderError``) that ``verify`` reports and a resume refuses.  The one
exception is the proof of an equivocation: two records for one sender's place, of
which the first may sit where it was never due.  ``feed`` takes the record after
the one fed (``following``) to know it, and holds the first of such a pair at its
place, as the live table held it waiting when the second came.

Used by ``Table.resume`` (a seat's own file), ``observer.py`` (``verify``, a
watcher) and ``segments.py``.  Sans-IO.
"""

from __future__ import annotations

from typing import Protocol

from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.endings import is_ending
from p2pbelka.table.errors import OrderError
from p2pbelka.table.intake import IntakeError
from p2pbelka.table.state import TableState
from p2pbelka.table.view import TableView


class Fed(Protocol):
    """What a replay uses of the table it feeds (``session.Table``)."""

    @property
    def state(self) -> TableState: ...

    @property
    def view(self) -> TableView: ...

    @property
    def finished(self) -> bool: ...

    def receive_record(self, envelope: Envelope) -> None: ...


def is_pair(first: Envelope, second: Envelope | None) -> bool:
    """Whether ``second`` is another envelope for ``first``'s place: two records of a
    transcript that prove their sender signed twice."""
    return (
        second is not None
        and second.game == first.game
        and second.sender == first.sender
        and second.seq == first.seq
        and second.digest != first.digest
    )


class Replay:
    """One table's transcript, fed record by record (``feed``)."""

    def __init__(self, table: Fed) -> None:
        self.table = table
        self.pending: Envelope | None = None
        """A record fed as the first of two proof records, whose second has not come
        yet (at the end of a file: a record out of order)."""

    def feed(self, envelope: Envelope, following: Envelope | None = None) -> None:
        """Feed a transcript envelope (verify, resume): the one due next, an ending, a
        proof record (another envelope for a place an earlier record holds), or the
        first of two proof records (``following`` is another envelope for its place).
        Raises ``OrderError`` for anything else."""
        table = self.table
        pending, self.pending = self.pending, None
        expected = len(table.view.transcript) + (2 if pending is not None else 1)
        if table.state.setup is not None and not table.finished and pending is None:
            self._check_order(envelope, following)
            if self._hold_first_of_pair(envelope, following):
                return
        table.receive_record(envelope)
        recorded = len(table.view.transcript)
        if recorded == expected:
            return
        if recorded == expected - 1 and pending is None and is_pair(envelope, following):
            self.pending = envelope
            return
        if pending is not None:
            raise OrderError(
                f"the record before (seat {table.view.seat_of(pending.sender)}, seq {pending.seq})"
                " came out of order, and this one is no other envelope for its place"
            )
        state = table.state
        rejected = [e for e in state.out.events if isinstance(e, ev.Rejected)]
        if rejected:
            raise OrderError(rejected[-1].reason)
        if table.finished:
            raise OrderError("envelope after the end of the game")
        raise OrderError(state.blame.why_waiting(table.view.seat_of(envelope.sender), envelope))

    def _hold_first_of_pair(self, envelope: Envelope, following: Envelope | None) -> bool:
        """The first of two proof records is queued at its place, never processed: the
        live table held it waiting when the other came, and it may happen to be due
        here (processed, it would prove something else, or the second would come
        after the end).  An ending too (SPEC section 5, 3): taken, an evidence that
        proves nothing would prove its sender first, and the pair would then be a
        proven seat's second proof, which an honest recorder never records.  True if
        it was queued so."""
        seat = self.table.view.seat_of(envelope.sender)
        if seat is None or not is_pair(envelope, following):
            return False
        intake = self.table.state.chains.intake
        chain = intake.chains[seat]
        if envelope.seq < chain.next_seq or envelope.seq in chain.waiting:
            return False  # its place is held already: the ordinary path proves it
        if envelope.seq in chain.refused:
            return False  # kept there though refused: the same
        try:
            intake.offer(seat, envelope)
        except IntakeError:
            return False
        self.pending = envelope
        return True

    def _check_order(self, envelope: Envelope, following: Envelope | None) -> None:
        """A record of a game in progress must be due next, an ending, a proof record, or
        the first of two."""
        table = self.table
        seat = table.view.seat_of(envelope.sender)
        if seat is None:
            raise OrderError(
                f"out of order: expected seat {table.view.turn}'s next message, got an unseated key"
            )
        chain = table.state.chains.intake.chains[seat]
        due = seat == table.view.turn and envelope.seq == chain.next_seq
        held = chain.accepted.get(envelope.seq)
        proof = held is not None and held != envelope.digest
        queued = chain.waiting.get(envelope.seq) or chain.refused.get(envelope.seq)
        proof = proof or (queued is not None and queued.digest != envelope.digest)
        if due or proof or is_ending(envelope) or is_pair(envelope, following):
            return
        raise OrderError(
            f"out of order: expected seat {table.view.turn}'s next message,"
            f" got seat {seat} (seq {envelope.seq})"
        )
