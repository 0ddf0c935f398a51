"""A certificate made from a saved transcript, once ``verify`` says how the game ended.

Only what ``verify_bytes`` accepts is certified: a finished game (OK) with at least one
seat's close in the file (kind closed, or chained when a seat changed hands in it), or
a game with a seat proven cheating.  A disputed, unfinished or invalid game, and a fault
proven after a seat changed hands, get none (the reason says why, for the person who
asked).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from p2pbelka.ladder.certificate import (
    CHAINED,
    CLOSED,
    MAX_CERTIFICATE,
    MAX_CHANGES,
    PROVEN,
    Certificate,
    Outcome,
    seal,
)
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.transcript import TranscriptError, dump_transcript, iter_records
from p2pbelka.table import events as ev
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.segments import split_segments
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes


def certify(data: bytes, signer: Signer, at: int) -> Certificate | str:
    """The certificate of the game in transcript ``data``, signed by ``signer`` and dated
    ``at``; or why there is none."""
    report = verify_bytes(data)
    why = _uncertified(report)
    if why:
        return why
    try:
        envelopes = [r.envelope for r in iter_records(data)]
    except TranscriptError:
        return "the transcript's last record is damaged"
    proven = _proven(report.faults) if report.proven else ()
    ending = Ending(proven, report.winner, report.score)
    if report.changes:
        return _seal_chain(envelopes, ending, signer, at)
    return _seal(envelopes, ending, signer, at)


def certify_table(
    table: Table, signer: Signer, at: int, game: Sequence[Envelope] = ()
) -> Certificate | str:
    """The certificate of the game a seat's table ended (what it checked as it played is
    what ``verify`` checks of its transcript: the table is the observer's machine);
    ``game``: every segment's envelopes, when a seat changed hands (the table holds only
    the last segment's)."""
    state, view = table.state, table.view
    if state.previous is not None or (state.setup is not None and state.setup.after):
        if view.proven or state.aborted or not state.over:
            return _uncertified_chain(state.aborted, view.proven)
        ending = Ending((), state.track.winner, state.track.final_score)
        return _seal_chain(list(game), ending, signer, at)
    if state.aborted and not view.proven:
        return "a disputed game is not certified"
    if not state.over and not state.aborted:
        return "an unfinished game is not certified"
    proven = _proven(view.faults) if view.proven else ()
    ending = Ending(proven, state.track.winner, state.track.final_score)
    return _seal(list(view.transcript), ending, signer, at)


@dataclass(frozen=True, slots=True)
class Ending:
    proven: tuple[int, ...]
    winner: int | None
    score: tuple[int, ...] | None


def _proven(faults: Sequence[ev.Fault]) -> tuple[int, ...]:
    return tuple(sorted({f.seat for f in faults if f.fatal and f.proven}))


def _seal(envelopes: list[Envelope], end: Ending, signer: Signer, at: int) -> Certificate | str:
    table = envelopes[0]
    if end.proven:
        data = dump_transcript(envelopes)
        if len(data) > MAX_CERTIFICATE - 64 * 1024:
            return "the transcript that proves the fault is too large to certify"
        return seal(PROVEN, table, Outcome(proven=end.proven), at, signer, transcript=data)
    ends = last_words(table, envelopes)
    if isinstance(ends, str):
        return ends
    if end.winner is None or end.score is None:
        return "the rules name no winner"
    return seal(CLOSED, table, Outcome(end.winner, tuple(end.score)), at, signer, ends)


def _seal_chain(
    envelopes: list[Envelope], end: Ending, signer: Signer, at: int
) -> Certificate | str:
    """A game of several segments, finished: each continuation's ``table``, the last
    envelope of the seat that left at each cut, and the last segment's last words."""
    segments = split_segments(envelopes)
    if len(segments) < 2 or segments[0][0].type != "table":
        return "the transcript of the game's segments is not whole"
    if len(segments) - 1 > MAX_CHANGES:
        return f"more than {MAX_CHANGES} seat changes: too many to certify"
    cuts = []
    for before, after in pairwise(segments):
        link = after[0].msg
        if not isinstance(link, m.TableMsg) or link.after is None:
            return "the transcript of the game's segments is not whole"
        head = link.after.heads[link.after.seat][1]
        cut = next((e for e in before if e.digest == head), None)
        if cut is None:
            return (
                f"seat {link.after.seat}'s last envelope before a change is not in the transcript"
            )
        cuts.append(cut)
    last = segments[-1]
    ends = last_words(last[0], last)
    if isinstance(ends, str):
        return ends
    if end.winner is None or end.score is None:
        return "the rules name no winner"
    outcome = Outcome(end.winner, tuple(end.score))
    tables = tuple(s[0] for s in segments[1:])
    return seal(CHAINED, envelopes[0], outcome, at, signer, ends, segments=tables, cuts=tuple(cuts))


def _uncertified_chain(aborted: bool, proven: bool) -> str:
    if proven:
        return "a fault proven after a seat changed hands is not certified"
    if aborted:
        return "a disputed game is not certified"
    return "an unfinished game is not certified"


def _uncertified(report: VerifyReport) -> str:
    if report.changes and (report.proven or not report.ok):
        return _uncertified_chain(report.verdict != "INCOMPLETE", report.proven)
    if report.proven:
        return ""
    if not report.ok:
        return f"only a finished game or a proven fault is certified ({report.verdict})"
    return ""


def last_words(table: Envelope, envelopes: Sequence[Envelope]) -> tuple[Envelope, ...] | str:
    """Each seat's close, or its envelope at the head the closes name."""
    assert isinstance(table.msg, m.TableMsg)
    keys = [s.key for s in table.msg.seats]
    closes = {e.sender: e for e in envelopes if isinstance(e.msg, m.CloseMsg)}
    if not closes:
        return "no seat's close is in the transcript"
    heads = next(iter(closes.values())).view
    by_hash = {e.digest: e for e in envelopes}
    ends = []
    for seat, key in enumerate(keys):
        end = closes.get(key) or by_hash.get(heads[seat][1])
        if end is None:
            return f"seat {seat}'s last envelope is not in the transcript"
        ends.append(end)
    return tuple(ends)
