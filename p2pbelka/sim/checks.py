"""What must hold after every simulated run, whatever its faults (the issue's list):

- every program ends within the bound (``Outcome.limit``) with an exit it documents
  (a game result, or an error of the package's own, never a Python one); in a short
  run (``Outcome.stop``) a program may be going still when the world stops;
- every saved copy verifies (none INVALID), and the copies of the seats that
  finished are identical;
- no seat is proven at fault (every seat is honest here), and none is named, even
  without proof, unless the schedule kept it away past the reconnect window (gone) by
  faults of its own, or cut it off from the seat whose copy names it: another seat's
  cable out keeps that seat away, not the one named;
- an unanswered or declined offer leaves the game going (no abort without proof);
  a seat changes hands at most once for each fault past the window, and back once,
  and once more for each time the bot holding it was lost with its peer's restart;
- no seat ever signed two different envelopes for one place of its chain, across
  every copy and every journal of what it sent;
- every seat that finished with the host shows who watches as the host last said it
  before its game was over (``/watching``, SPEC 7.5), or as a line it said after (the
  watchers leave as it ends): unless the network cut the link between them, either
  way, since that line (a chat line is not relayed; the standing line comes again only
  on a link that opens).  A line the host's sending limit held back is not said yet: the
  seats show the one before, and it counts once said.

Each check returns plain sentences: a run is good when there are none.
"""

from __future__ import annotations

import re
from collections import defaultdict

from p2pbelka.peer.chat import watchers_named
from p2pbelka.protocol.transcript import TranscriptError, iter_records
from p2pbelka.sim.faults import EVERYONE, WINDOW, Cut, Fault, Kill, Schedule, host_of
from p2pbelka.sim.world import WATCHER, Exit, Outcome, remembered
from p2pbelka.table.events import Fault as TableFault
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.verify import verify_bytes


def violations(outcome: Outcome) -> list[str]:
    with remembered(outcome):
        return _violations(outcome)


def _violations(outcome: Outcome) -> list[str]:
    # The seats that finished hold the same bytes: each different copy verified once.
    verified: dict[bytes, VerifyReport] = {}
    for c in outcome.copies:
        if c.transcript and c.transcript not in verified:
            verified[c.transcript] = verify_bytes(c.transcript)
    reports = {c.seat: verified[c.transcript] for c in outcome.copies if c.transcript}
    found: list[str] = []
    found += _exits(outcome)
    found += _copies(outcome, reports)
    found += _names(outcome, reports)
    found += _changes(outcome, reports)
    found += _one_envelope_a_place(outcome)
    found += _watchers(outcome)
    return found


def _exits(outcome: Outcome) -> list[str]:
    found = []
    for exit in outcome.exits:
        who = f"seat {exit.seat}'s program (started at {exit.started:.1f} s)"
        if exit.stopped:
            continue  # a short run's end: the program was fine so far
        if exit.ended is None or exit.ended >= outcome.limit or exit.what == "still running":
            found.append(f"{who} did not end within {outcome.limit:.0f} s")
        elif exit.error is not None and not type(exit.error).__module__.startswith("p2pbelka"):
            found.append(f"{who} crashed: {exit.what}")
    return found


def _copies(outcome: Outcome, reports: dict[int, VerifyReport]) -> list[str]:
    found = []
    for seat, report in reports.items():
        if report.error is not None or report.cut_at is not None:  # (a torn last record too)
            found.append(f"seat {seat}'s copy: {report.verdict}")
    # A game that stopped may leave each seat a different tail; one that was won, none.
    finished = {
        c.seat: c.transcript
        for c in outcome.copies
        if c.seat in reports and reports[c.seat].finished and not reports[c.seat].aborted
    }
    if len(set(finished.values())) > 1:
        sizes = ", ".join(f"seat {s}: {len(t)} bytes" for s, t in sorted(finished.items()))
        found.append(f"the finished seats' copies differ ({sizes})")
    return found


SLACK = 15.0
"""Seconds of silence a seat may have had before a fault began (a think, a resend not yet
due): an absence this much shorter than the window may still be taken for gone."""


Span = tuple[float, float, Fault]
"""When a fault began and ended, and the fault."""


def absences(schedule: Schedule, seat: int) -> list[tuple[float, float]]:
    """The spans ``seat`` was away from some other seat (killed, or cut off), the faults
    that overlap or follow each other merged: a kill then a cut is one absence."""
    return [(parts[0][0], max(end for _, end, _ in parts)) for parts in _absences(schedule, seat)]


def _absences(schedule: Schedule, seat: int) -> list[list[Span]]:
    """``absences``, each as the faults it merged."""
    spans = sorted(
        (
            (f.at, f.at + (f.down if isinstance(f, Kill) else f.length), f)
            for f in schedule.faults
            if (isinstance(f, Kill) and f.seat == seat)
            or (isinstance(f, Cut) and (seat in (f.a, f.b) or f.b == EVERYONE))
        ),
        key=lambda span: span[:2],
    )
    merged: list[list[Span]] = []
    for span in spans:
        if merged and span[0] <= max(end for _, end, _ in merged[-1]) + SLACK:
            merged[-1].append(span)
        else:
            merged.append([span])
    return merged


def _long(start: float, end: float) -> bool:
    return end - start > WINDOW - SLACK


def _own(fault: Fault, seat: int) -> bool:
    """A fault of ``seat``'s own: its program killed, or a cut with it at one end (not
    another seat's cable pulled out, which keeps it from that seat only)."""
    if isinstance(fault, Kill):
        return fault.seat == seat
    return isinstance(fault, Cut) and seat in (fault.a, fault.b)


def times_gone(schedule: Schedule, seat: int) -> int:
    """How many times the schedule kept ``seat`` away past the window, or about: once
    for each absence that long, and within one, once for each fault of its own that
    long.  A seat changes hands (and back) at most once a fault; an absence may merge
    two such faults with the seat present between them (a kill, another seat's cable
    pulled out for a while, a kill again; or one link cut for good and the others a
    while later, the game relayed between), each a change of its own."""
    count = 0
    for parts in _absences(schedule, seat):
        start, end = parts[0][0], max(end for _, end, _ in parts)
        if _long(start, end):
            count += max(1, sum(_long(a, b) and _own(f, seat) for a, b, f in parts))
    return count


def bots_lost(schedule: Schedule, seat: int) -> int:
    """How many times a bot holding ``seat`` may have been lost with its peer: the
    program of the seat that runs it (the lowest other seat, its changes' proposer)
    killed while ``seat`` was away past the window.  Each time a fresh bot is seated
    (SPEC 9.5, "A bot lost with its peer"): one more change of hands."""
    runner = 1 if seat == 0 else 0
    kills = [f.at for f in schedule.faults if isinstance(f, Kill) and f.seat == runner]
    count = 0
    for parts in _absences(schedule, seat):
        start, end = parts[0][0], max(end for _, end, _ in parts)
        if _long(start, end) and any(_own(f, seat) for _, _, f in parts):
            count += sum(start + WINDOW - SLACK < at < end for at in kills)
    return count


def gone(schedule: Schedule, seat: int) -> bool:
    return times_gone(schedule, seat) > 0


def gone_from(schedule: Schedule, seat: int, by: int) -> bool:
    """Whether the schedule kept ``seat`` away from seat ``by`` past the window, or about,
    by faults that are its own (its program killed, a cut with it at one end) or that
    cut the two off (``by``'s cable out).  Not ``gone``: a third seat's cable out keeps
    that seat away from everyone, and no one may be named for it but that seat."""
    spans = sorted(
        (f.at, f.at + (f.down if isinstance(f, Kill) else f.length))
        for f in schedule.faults
        if (isinstance(f, Kill) and f.seat == seat)
        or (isinstance(f, Cut) and (seat in (f.a, f.b) or f.covers(seat, by) or f.covers(by, seat)))
    )
    start = end = -1.0
    for a, b in spans:
        if a > end + SLACK:
            start, end = a, b
        end = max(end, b)
        if _long(start, end):
            return True
    return False


def _namer(fault: TableFault, holder: int) -> int:
    """The seat that named ``fault``'s seat, as the fault says it (``blame``'s words), else
    the seat whose copy holds it."""
    by = re.search(r"named by seat (\d+)", fault.what)
    return int(by.group(1)) if by else holder


def _excused(schedule: Schedule, fault: TableFault, holder: int) -> bool:
    """Whether a seat named without proof was kept away from its namer (``gone_from``).
    One named as not closing may have been kept by any seat's absence (SPEC 4.7: a
    ``close`` comes due in seat order, so one before it that never came holds it back,
    and the dispute names every seat whose ``close`` did not come)."""
    if fault.what.startswith("did not close the game") and gone(schedule, fault.seat):
        return True
    return gone_from(schedule, fault.seat, _namer(fault, holder))


def _names(outcome: Outcome, reports: dict[int, VerifyReport]) -> list[str]:
    found = []
    for seat, report in reports.items():
        for fault in report.faults:
            if fault.proven:
                found.append(f"seat {seat}'s copy proves an honest seat: {fault}")
            elif fault.seat >= 0 and not _excused(outcome.schedule, fault, seat):
                found.append(f"seat {seat}'s copy names a seat the network let through: {fault}")
    return found


def _changes(outcome: Outcome, reports: dict[int, VerifyReport]) -> list[str]:
    found = []
    for seat, report in reports.items():
        if (
            report.aborted
            and not report.proven
            and not any(gone(outcome.schedule, f.seat) for f in report.faults if f.fatal)
        ):
            found.append(f"seat {seat}'s copy: the game stopped ({report.verdict})")
        elif report.aborted and _stopped_by_a_declined_hand_back(outcome):
            found.append(
                f"seat {seat}'s copy: the game stopped after a hand-back was declined, with no "
                f"seat gone since ({report.verdict})"
            )
        per_seat: dict[int, int] = defaultdict(int)
        for change in report.changes:
            per_seat[change.seat] += 1
        for changed, times in per_seat.items():
            gone_times = times_gone(outcome.schedule, changed)
            lost = bots_lost(outcome.schedule, changed)
            if times > 2 * gone_times + lost:
                found.append(
                    f"seat {seat}'s copy: seat {changed} changed hands {times} times "
                    f"({gone_times} faults past the window, {lost} bots lost with their peer)"
                )
    return found


def _stopped_by_a_declined_hand_back(outcome: Outcome) -> bool:
    """Whether a hand-back was declined and nothing since could have stopped the game: no
    absence past the window went on after it (declining must leave the game going)."""
    if not outcome.declined_back:
        return False
    last = max(outcome.declined_back)
    return not any(
        end > last and end - start > WINDOW - SLACK
        for seat in range(outcome.players)
        for start, end in absences(outcome.schedule, seat)
    )


def _one_envelope_a_place(outcome: Outcome) -> list[str]:
    """Every envelope any copy or journal holds, by (segment, sender, seq): one each."""
    places: dict[tuple[bytes, bytes, int], set[bytes]] = defaultdict(set)
    for copy in outcome.copies:
        for data in (copy.transcript, copy.signed):
            try:
                for record in iter_records(data.rstrip(b"\0")):
                    e = record.envelope
                    places[(e.game, e.sender, e.seq)].add(e.digest)
            except TranscriptError:
                pass  # the file's own check says so
    found = []
    for (segment, sender, seq), digests in sorted(places.items()):
        if len(digests) > 1:
            who = outcome.keys.index(sender) if sender in outcome.keys else sender.hex()[:8]
            found.append(
                f"seat {who} signed {len(digests)} envelopes for seq {seq} of segment "
                f"{segment.hex()[:8]}"
            )
    return found


def _watchers(outcome: Outcome) -> list[str]:
    """Who watches, as each seat that finished with the host shows it: the host's latest
    line before its game was over, or one it said after (SPEC 7.5).  A whole run only (a
    short one stops with lines on their way)."""
    latest: dict[int, Exit] = {}
    for exit in outcome.exits:
        if exit.seat < WATCHER:
            latest[exit.seat] = exit
    host, over = latest.get(0), outcome.over_at.get(0)
    if outcome.stop is not None or host is None or host.what != "finished" or over is None:
        return []
    said = outcome.watchers_said
    before = [n for n, (at, _text) in enumerate(said) if at <= over]
    since = said[before[-1] :] if before else said
    # (a seat that showed no line at all never heard one: the host's after the end, naming
    # nobody, counts only if it came)
    shown_ok = {_watching(text) for _at, text in since} | (set() if before else {None})
    line_at = said[before[-1]][0] if before else 0.0
    found = []
    for seat, exit in sorted(latest.items()):
        if seat == 0 or exit.what != "finished" or exit.ended is None:
            continue
        cuts = outcome.schedule.cuts(host_of(0), host_of(seat))
        cuts += outcome.schedule.cuts(host_of(seat), host_of(0))
        if any(c.at <= exit.ended and line_at < c.at + c.length for c in cuts):
            continue  # their link was cut since that line (either way: a link needs both)
        shown = _watching(outcome.watchers_lines.get(seat))
        if shown not in shown_ok:
            last = _watching(since[0][1]) if since else None
            found.append(
                f"seat {seat} finished showing {_said(shown)} as watching, but the host last "
                f"said {_said(last)} before its game was over"
            )
    return found


def _watching(text: str | None) -> tuple[str, ...] | None:
    """Who a line names as watching (None: no line)."""
    return None if text is None else (watchers_named(0, text) or ())


def _said(names: tuple[str, ...] | None) -> str:
    if names is None:
        return "no line"
    return ", ".join(names) if names else "nobody"
