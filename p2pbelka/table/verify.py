"""Verify a saved transcript: replay it through an observer table, record by record.

The observer is the same state machine the peers run, with no seat: it checks
every signature and hash chain, the canonical order, every commitment, every
shuffle and lock pass replayed from the revealed seeds, every card dealt and
opened, every play with the rules engine, and every score.  The first record
that fails stops the replay and is named by index, byte offset, seat and
sequence number.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import MAGIC, Record, TranscriptError, iter_records
from p2pbelka.rules.common.recordio import expect
from p2pbelka.rules.common.summary import DealSummary, field_path
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table.errors import OrderError
from p2pbelka.table.segments import SeatChanged, change_of, describe_change, previous_of
from p2pbelka.table.session import Table

ENGLISH = gettext.NullTranslations()
"""The words of a verdict as the code writes them."""


@dataclass(frozen=True, slots=True)
class VerifiedDeal:
    """A deal the audit verified: its id on the wire and its summary."""

    deal_id: int
    summary: DealSummary

    def to_json(self) -> dict[str, Any]:
        """The summary's JSON with the deal's id first (``verify --json``)."""
        return {"deal_id": self.deal_id, **self.summary.to_json()}

    @classmethod
    def from_json(cls, value: object, game: str, path: str = "") -> VerifiedDeal:
        """What ``to_json`` gave, for ``game``; ``RecordError`` naming a bad field's path."""
        obj = expect(value, dict, path, "an object")
        deal_id = expect(obj.get("deal_id"), int, field_path(path, "deal_id"), "a whole number")
        rest = {k: v for k, v in obj.items() if k != "deal_id"}
        return cls(deal_id, spec(game).summary_from_json(rest, path))


@dataclass
class VerifyReport:
    records: int = 0
    deals: list[VerifiedDeal] = field(default_factory=list)
    faults: list[ev.Fault] = field(default_factory=list)
    names: tuple[str, ...] = ()
    error: str | None = None
    finished: bool = False
    aborted: bool = False
    winner: int | None = None
    score: tuple[int, ...] | None = None
    game: Any = None
    """The audited game, as its rules engine holds it (every finished deal with all
    hands): a game record can be made of it (its spec's ``records``).  The table
    core knows no game's engine: ``GameTrack.game`` is opaque to it."""
    changes: list[SeatChanged] = field(default_factory=list)
    """Every seat that changed hands (a continuation segment), in order."""
    game_name: str | None = None
    """The game the table description names (``rules.registry.spec`` tells the rest)."""

    @property
    def malformed(self) -> bool:
        """Not a transcript at all: not one envelope could be read (a wrong file, not a
        game that fails its checks)."""
        return self.error is not None and self.records == 0

    @property
    def change_lines(self) -> list[str]:
        return [describe_change(c) for c in self.changes]

    @property
    def verdict(self) -> str:
        return self.verdict_in(ENGLISH)

    def verdict_in(self, tr: gettext.NullTranslations) -> str:
        """The verdict in the words of ``tr`` (a screen's or command's language); its
        first word (OK, INVALID...) stays as it is, for scripts that read it."""
        if self.error is not None:
            return f"INVALID: {self.error}"
        if self.proven:
            named = "; ".join(str(f) for f in self.faults if f.fatal and f.proven)
            shows = tr.gettext("the transcript is intact and shows {named}")
            return "CHEATING PROVEN: " + shows.format(named=named)
        if self.aborted:
            named = "; ".join(str(f) for f in self.faults if f.fatal)
            stopped = tr.gettext(
                "the game was stopped, naming {named}; the transcript alone proves no seat at fault"
            )
            return "DISPUTED: " + stopped.format(named=named)
        if not self.finished:
            return "INCOMPLETE: " + tr.gettext(
                "every record checks out, but the game did not finish"
            )
        charged = [f for f in self.faults if not f.fatal and f.proven]
        extra = ""
        if charged:
            extra = (
                " ("
                + tr.ngettext(
                    "{n} renege charged by the rules",
                    "{n} reneges charged by the rules",
                    len(charged),
                ).format(n=len(charged))
                + ")"
            )
        unclosed = sorted({f.seat for f in self.faults if not f.fatal and not f.proven})
        if unclosed:
            seats = ", ".join(map(str, unclosed))
            extra += "; " + tr.ngettext(
                "seat {seats} did not close the game (named, not proven)",
                "seats {seats} did not close the game (named, not proven)",
                len(unclosed),
            ).format(seats=seats)
        return "OK: " + tr.gettext("every deal was dealt fairly and played legally") + extra

    @property
    def proven(self) -> bool:
        """The transcript itself proves a seat at fault (its own signed messages)."""
        return self.aborted and any(f.fatal and f.proven for f in self.faults)

    @property
    def disputed(self) -> bool:
        return self.aborted and not self.proven

    @property
    def ok(self) -> bool:
        return self.error is None and not self.aborted and self.finished


def verify_bytes(data: bytes, every_pass: bool = False) -> VerifyReport:
    """Replay a saved transcript.  ``every_pass``: each deal's audit replays every
    seat's shuffle and lock passes even when the deck came out exactly as the seeds
    say, and so also names seats whose deviations cancelled out (changing no card);
    without it a pass is replayed only when the outcome differs, to name the seat."""
    report = VerifyReport()
    table: Table | None = None
    first: Table | None = None
    keys: set[bytes] = set()  # every key seated in an earlier segment
    try:
        for record, following in _with_next(iter_records(data)):
            report.records = record.index + 1
            envelope = record.envelope
            if table is None:
                table = first = Table(envelope.game)
                table.audit_every_pass = every_pass
            where = _describe(table, record.index, record.offset, envelope.sender, envelope.seq)
            if _continues(table, envelope):
                # A continuation segment: the seat that changes hands, checked against
                # the segment so far (carry.py); the old keys name the signer.
                keys.update({s.key for s in table.setup.seats} if table.setup else set())
                table = Table(envelope.game, previous=previous_of(table))
                table.audit_every_pass = every_pass
            try:
                table.replay(envelope, following.envelope if following is not None else None)
            except OrderError as exc:
                report.error = f"{where}: {exc}"
                break
            finally:
                _collect(report, table.take_events())
            if record.index and isinstance(envelope.msg, m.TableMsg):
                change = change_of(table, tuple(keys))
                if change is not None:
                    report.changes.append(change)
    except TranscriptError as exc:
        report.error = _describe_bad_record(data, exc, table)
    if table is None and report.error is None:
        report.error = "the transcript holds no envelope"
    if table is not None:
        pending = table.pending_record
        if pending is not None and report.error is None:
            report.error = (
                f"record {report.records - 1}: out of order (seq {pending.seq}), and no other"
                " envelope for its place follows"
            )
        if table.proven:
            # A proof after an unproven ending: the verdict is the proof.
            report.faults = [f for f in report.faults if f.proven]
        # The players who sat down; the changes say who took a seat later.
        report.names = tuple(s.name for s in first.setup.seats) if first and first.setup else ()
        report.game_name = first.setup.game if first and first.setup else None
        report.finished = table.over
        report.aborted = table.aborted
        if table.closing and not table.finished and report.error is None:
            # The rules say the game is won and its last audit passed: the closes
            # missing change nothing of the result (SPEC section 4.7).
            report.finished = True
            report.faults += table.unrecorded_closes()
        if table.started:
            report.winner = table.track.winner
            report.score = table.track.final_score
            report.game = table.game
    return report


def _with_next(records: Iterator[Record]) -> Iterator[tuple[Record, Record | None]]:
    """Each record with the one after it (None at the end, or when that one does not
    read: its error comes when its turn comes, after the record before it)."""
    current = next(records, None)
    while current is not None:
        try:
            following = next(records, None)
        except TranscriptError as exc:
            yield current, None
            raise exc from None
        yield current, following
        current = following


def _collect(report: VerifyReport, events: list[ev.Event]) -> None:
    for event in events:
        if isinstance(event, ev.DealAudited):
            report.deals.append(VerifiedDeal(event.deal_id, event.summary))
        elif isinstance(event, ev.FaultFound):
            report.faults.append(event.fault)
        elif isinstance(event, ev.GameAborted):
            report.faults.extend(f for f in event.faults if f not in report.faults)


def _continues(table: Table, envelope: Envelope) -> bool:
    """The first envelope of a continuation segment, right after the segment it cuts."""
    return (
        envelope.game != table.game_id
        and isinstance(envelope.msg, m.TableMsg)
        and envelope.msg.after is not None
        and table.setup is not None
    )


def _describe(table: Table, index: int, offset: int, sender: bytes, seq: int) -> str:
    seat = table.seat_of(sender) if table.setup is not None else None
    who = f"seat {seat}" if seat is not None else "an unknown sender"
    return f"record {index} (byte {offset}, {who}, seq {seq})"


def _describe_bad_record(data: bytes, exc: TranscriptError, table: Table | None) -> str:
    """Name what we can of a record that does not decode: its claimed sender and seq."""
    base = str(exc)
    if exc.index is None or exc.offset < len(MAGIC) or table is None or table.setup is None:
        return base
    try:
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(data[exc.offset :])
        outer = next(unpacker)
        inner = msgpack.unpackb(outer[0], raw=False)
        seat = table.seat_of(inner[5])
        who = f"seat {seat}" if seat is not None else "an unknown sender"
        return f"{base} [claims to be {who}, seq {inner[3]}]"
    except Exception:
        return base
