"""The observer fed record by record (a watcher's live table) says what ``verify`` of
the saved file says, and shows every card the moment its envelope comes."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import dump_transcript, iter_records
from p2pbelka.table import events as ev
from p2pbelka.table.errors import OrderError
from p2pbelka.table.observer import Observer
from p2pbelka.table.replay import Replay
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.segments import SeatChanged, previous_of, split_segments
from p2pbelka.table.session import Table
from tests.audit import verify_bytes
from tests.table.helpers import played

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"


def _belot_3() -> bytes:
    return dump_transcript(played(1, "belot", 3).transcripts[0])


GAMES = {
    "belka-4": lambda: (VECTORS / "paths" / "game-ok.p2pb").read_bytes(),
    "belot-2": lambda: (VECTORS / "paths" / "belot-2-game.p2pb").read_bytes(),
    "belot-3": _belot_3,
    "seat-change": lambda: (VECTORS / "scenarios" / "seat-change.p2pb").read_bytes(),
    "seat-back": lambda: (VECTORS / "scenarios" / "seat-back.p2pb").read_bytes(),
    "proof-pair": lambda: (VECTORS / "scenarios" / "dispute-proven.p2pb").read_bytes(),
    "out-of-order": lambda: (VECTORS / "paths" / "invalid-order.p2pb").read_bytes(),
}


def _summary(report: VerifyReport) -> tuple[object, ...]:
    return (
        report.records,
        report.verdict,
        [d.to_json() for d in report.deals],
        [str(f) for f in report.faults],
        report.change_lines,
        report.names,
        report.finished,
        report.aborted,
        report.winner,
        report.score,
    )


def _audited_with_lookahead(envelopes: list[Envelope]) -> list[ev.DealAudited]:
    """The deals a replay that knows every next record audits (as a whole file is read):
    the reference the one-at-a-time observer must match."""
    audited: list[ev.DealAudited] = []
    table: Table | None = None
    for segment in split_segments(envelopes):
        table = Table(segment[0].game, previous=previous_of(table) if table else None)
        replay = Replay(table)
        for i, envelope in enumerate(segment):
            following = segment[i + 1] if i + 1 < len(segment) else None
            try:
                replay.feed(envelope, following)
            except OrderError:
                return audited
            finally:
                audited += [e for e in table.take_events() if isinstance(e, ev.DealAudited)]
    return audited


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_observer_fed_live_says_what_verify_of_the_file_says(name: str) -> None:
    data = GAMES[name]()
    envelopes = [record.envelope for record in iter_records(data)]
    observer = Observer()
    events: list[ev.Event] = []
    for envelope in envelopes:
        seen = len(observer.table.view.transcript) if observer.table is not None else 0
        fed = observer.feed(envelope)
        events += fed
        table = observer.table
        assert table is not None
        if isinstance(envelope.msg, m.PlayMsg) and not observer.stopped:
            # the card is on the table at once, not when the next record comes
            seat = table.view.seat_of(envelope.sender)
            played = [e for e in fed if isinstance(e, ev.CardPlayed)]
            assert [e.seat for e in played] == [seat], (name, envelope.seq)
            assert envelope in table.view.transcript[seen:]
        # at every record, the screen's verdict is verify's of the file cut there
        if envelope is envelopes[len(envelopes) // 2]:
            cut = dump_transcript(observer.envelopes)
            assert _summary(observer.report()) == _summary(verify_bytes(cut))
    report = observer.report()
    assert _summary(report) == _summary(verify_bytes(data))
    audited = [e for e in events if isinstance(e, ev.DealAudited)]
    reference = _audited_with_lookahead(envelopes)
    assert [(e.deal_id, e.summary) for e in audited] == [(e.deal_id, e.summary) for e in reference]
    if name == "proof-pair":
        assert observer.rebuilds == 1  # the pair was replayed again, knowing it
        assert report.proven
    if name.startswith(("belka", "belot")):
        assert report.ok, report.verdict
    if name.startswith("seat"):
        assert report.change_lines
        assert [e for e in events if isinstance(e, SeatChanged)] == report.changes


def test_records_after_a_failed_one_are_ignored_and_a_broken_read_is_named() -> None:
    data = GAMES["out-of-order"]()
    envelopes = [record.envelope for record in iter_records(data)]
    observer = Observer()
    for envelope in envelopes + envelopes[:1]:
        observer.feed(envelope)
    assert observer.report().verdict == verify_bytes(data).verdict
    assert observer.stopped

    fresh = Observer()
    fresh.feed(envelopes[0])
    fresh.broken("byte 99: a record that does not decode")
    assert fresh.report().error == "byte 99: a record that does not decode"
    assert Observer().report().error == "the transcript holds no envelope"
