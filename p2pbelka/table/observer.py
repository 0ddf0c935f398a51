"""The observer table, record by record: ``verify`` as it goes, for a watcher.

``Observer.feed`` takes one transcript record at a time (an envelope, in the
order a seat recorded it) and replays it at once, so a card played shows on
``observer.table`` as soon as its envelope is fed.  ``verify_bytes`` is this
observer fed a whole file, so the live screen and ``verify`` of the saved file
never disagree.

The one subtlety is the lookahead ``replay.Replay.feed`` takes: a record that is the
first of two for one place (an equivocation's proof) is replayed differently
when the record after it is known.  Such pairs exist only where a seat cheated,
so the observer replays each record as if nothing paired with it, and when the
next record does pair with it, replays the whole transcript again, this time
knowing the pair (``rebuilds`` counts it).  An order error found while the next
record is still unknown is held until it comes: the pair may explain it.
Sans-IO.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import MAGIC
from p2pbelka.table import events as ev
from p2pbelka.table.errors import OrderError
from p2pbelka.table.replay import Replay, is_pair
from p2pbelka.table.report import VerifiedDeal, VerifyReport
from p2pbelka.table.segments import SeatChanged, change_of, previous_of
from p2pbelka.table.session import Table


@dataclass
class _Replay:
    """What the records replayed so far gave: the tables and what the report collects."""

    table: Table | None = None
    replay: Replay | None = None  # the table's
    first: Table | None = None
    keys: set[bytes] = field(default_factory=set)  # every key seated in an earlier segment
    records: int = 0
    offset: int = len(MAGIC)  # where the next record starts in the file
    deals: list[VerifiedDeal] = field(default_factory=list)
    faults: list[ev.Fault] = field(default_factory=list)
    changes: list[SeatChanged] = field(default_factory=list)
    error: str | None = None
    doubt: str | None = None
    """An order error of the last record, held until the next one says whether it is
    the first of a pair (then it was no error)."""


class Observer:
    """``verify``'s observer table, fed one record at a time.  ``every_pass`` as for
    ``verify_bytes``."""

    def __init__(self, every_pass: bool = False) -> None:
        self.every_pass = every_pass
        self.envelopes: list[Envelope] = []
        """Every record fed and replayed (none after the first that failed)."""
        self.rebuilds = 0
        """Times the transcript was replayed again for a pair of records."""
        self._state = _Replay()

    @property
    def table(self) -> Table | None:
        """The observer table of the segment in play (None before the first record)."""
        return self._state.table

    @property
    def stopped(self) -> bool:
        """A record failed: nothing fed after it is replayed."""
        return self._state.error is not None

    @property
    def records(self) -> int:
        return self._state.records

    def feed(self, envelope: Envelope) -> list[ev.Event]:
        """Replay the next record; the events it gave (a ``SeatChanged`` when a
        continuation segment begins).  Never raises on a bad record: the report says
        what failed, and records fed after it are ignored."""
        state = self._state
        if state.error is not None:
            return []
        last = self.envelopes[-1] if self.envelopes else None
        if last is not None and is_pair(last, envelope):
            # The last record was replayed as if nothing paired with it: again, knowing.
            self.envelopes.append(envelope)
            return self._rebuild()
        if state.doubt is not None:
            state.error, state.doubt = state.doubt, None
            return []
        self.envelopes.append(envelope)
        return _step(state, envelope, None, self.every_pass)

    def broken(self, reason: str) -> None:
        """The next record could not be read (``reason``): the replay ends here."""
        state = self._state
        if state.error is None:
            state.error = state.doubt if state.doubt is not None else reason
            state.doubt = None

    def report(self) -> VerifyReport:
        """What the records so far show, as ``verify`` words it for a file that ends
        here (so at the end of a game: the game's verdict)."""
        state = self._state
        error = state.error if state.error is not None else state.doubt
        out = VerifyReport(
            records=state.records,
            deals=list(state.deals),
            faults=list(state.faults),
            error=error,
            changes=list(state.changes),
        )
        table, first = state.table, state.first
        if table is None:
            if out.error is None:
                out.error = "the transcript holds no envelope"
            return out
        pending = state.replay.pending if state.replay is not None else None
        if pending is not None and out.error is None:
            out.error = (
                f"record {out.records - 1}: out of order (seq {pending.seq}), and no other"
                " envelope for its place follows"
            )
        if table.view.proven:
            # A proof after an unproven ending: the verdict is the proof.
            out.faults = [f for f in out.faults if f.proven]
        # The players who sat down; the changes say who took a seat later.
        out.names = (
            tuple(s.name for s in first.state.setup.seats) if first and first.state.setup else ()
        )
        out.game_name = first.state.setup.game if first and first.state.setup else None
        out.finished = table.state.over
        out.aborted = table.state.aborted
        if table.view.closing and not table.finished and out.error is None:
            # The rules say the game is won and its last audit passed: the closes
            # missing change nothing of the result (SPEC section 4.7).
            out.finished = True
            out.faults += table.view.unrecorded_closes()
        if table.state.started:
            out.winner = table.state.track.winner
            out.score = table.state.track.final_score
            out.game = table.state.game
        return out

    def _rebuild(self) -> list[ev.Event]:
        """Replay every record again from the start, each knowing the one after it;
        the events of the last two (those before are what they were)."""
        self.rebuilds += 1
        state = self._state = _Replay()
        envelopes = self.envelopes
        out: list[ev.Event] = []
        for i, envelope in enumerate(envelopes):
            following = envelopes[i + 1] if i + 1 < len(envelopes) else None
            events = _step(state, envelope, following, self.every_pass)
            if i >= len(envelopes) - 2:
                out += events
            if state.error is not None:
                del envelopes[i + 1 :]  # as ``feed``: nothing after a failed record
                break
        return out


def _step(
    state: _Replay, envelope: Envelope, following: Envelope | None, every_pass: bool
) -> list[ev.Event]:
    """Replay one record knowing the one after it (None: not known, or none)."""
    index, offset = state.records, state.offset
    state.records += 1
    state.offset += 4 + len(envelope.raw)
    table, replay = state.table, state.replay
    if table is None or replay is None:
        table = state.table = state.first = Table(envelope.game)
        table.state.audit_every_pass = every_pass
        replay = state.replay = Replay(table)
    where = describe_record(table, index, offset, envelope.sender, envelope.seq)
    if _continues(table, envelope):
        # A continuation segment: the seat that changes hands, checked against the
        # segment so far (carry.py); the old keys name the signer.
        state.keys.update({s.key for s in table.state.setup.seats} if table.state.setup else set())
        table = state.table = Table(envelope.game, previous=previous_of(table))
        table.state.audit_every_pass = every_pass
        replay = state.replay = Replay(table)
    events: list[ev.Event] = []
    try:
        replay.feed(envelope, following)
    except OrderError as exc:
        if following is None:
            state.doubt = f"{where}: {exc}"  # unless the next record pairs with this one
        else:
            state.error = f"{where}: {exc}"
    finally:
        events = table.take_events()
        _collect(state, events)
    if state.error is None and state.doubt is None:
        if index and isinstance(envelope.msg, m.TableMsg):
            change = change_of(table, tuple(state.keys))
            if change is not None:
                state.changes.append(change)
                events.append(change)
    return events


def _collect(state: _Replay, events: Sequence[ev.Event]) -> None:
    for event in events:
        if isinstance(event, ev.DealAudited):
            state.deals.append(VerifiedDeal(event.deal_id, event.summary))
        elif isinstance(event, ev.FaultFound):
            state.faults.append(event.fault)
        elif isinstance(event, ev.GameAborted):
            state.faults.extend(f for f in event.faults if f not in state.faults)


def _continues(table: Table, envelope: Envelope) -> bool:
    """The first envelope of a continuation segment, right after the segment it cuts."""
    return (
        envelope.game != table.game_id
        and isinstance(envelope.msg, m.TableMsg)
        and envelope.msg.after is not None
        and table.state.setup is not None
    )


def describe_record(table: Table, index: int, offset: int, sender: bytes, seq: int) -> str:
    seat = table.view.seat_of(sender) if table.state.setup is not None else None
    who = f"seat {seat}" if seat is not None else "an unknown sender"
    return f"record {index} (byte {offset}, {who}, seq {seq})"
