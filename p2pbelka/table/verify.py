"""Verify a saved transcript: replay it through an observer table, record by record.

The observer is the same state machine the peers run, with no seat: it checks
every signature and hash chain, the canonical order, every commitment, every
shuffle and lock pass replayed from the revealed seeds, every card dealt and
opened, every play with the rules engine, and every score.  The first record
that fails stops the replay and is named by index, byte offset, seat and
sequence number.  The replay is ``observer.py``'s, fed one record at a time as
a watcher feeds it live, so the two never disagree.
"""

from __future__ import annotations

import msgpack

from p2pbelka.protocol.transcript import MAGIC, TranscriptError, iter_records
from p2pbelka.table.observer import Observer
from p2pbelka.table.report import ENGLISH, VerifiedDeal, VerifyReport
from p2pbelka.table.session import Table

__all__ = ["ENGLISH", "VerifiedDeal", "VerifyReport", "verify_bytes"]


def verify_bytes(data: bytes, every_pass: bool = False) -> VerifyReport:
    """Replay a saved transcript.  ``every_pass``: each deal's audit replays every
    seat's shuffle and lock passes even when the deck came out exactly as the seeds
    say, and so also names seats whose deviations cancelled out (changing no card);
    without it a pass is replayed only when the outcome differs, to name the seat."""
    observer = Observer(every_pass)
    cut_at: int | None = None
    try:
        for record in iter_records(data):
            observer.feed(record.envelope)
            if observer.stopped:
                break
    except TranscriptError as exc:
        if exc.cut and exc.index:
            # Only the last record is damaged (the file ends inside it, as when a peer is
            # killed while writing it): the records before it are judged as a file that
            # ends there, and the report says where the damage is (SPEC section 5.1).
            cut_at = exc.offset
        else:
            observer.broken(_describe_bad_record(data, exc, observer.table))
    report = observer.report()
    report.cut_at = cut_at
    return report


def _describe_bad_record(data: bytes, exc: TranscriptError, table: Table | None) -> str:
    """Name what we can of a record that does not decode: its claimed sender and seq."""
    base = str(exc)
    if exc.index is None or exc.offset < len(MAGIC) or table is None or table.state.setup is None:
        return base
    try:
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(data[exc.offset :])
        outer = next(unpacker)
        inner = msgpack.unpackb(outer[0], raw=False)
        seat = table.view.seat_of(inner[5])
        who = f"seat {seat}" if seat is not None else "an unknown sender"
        return f"{base} [claims to be {who}, seq {inner[3]}]"
    except Exception:
        return base
