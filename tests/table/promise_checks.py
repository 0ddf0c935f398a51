"""Where the promise broke, after a scenario was played (``promise.play``): for every
honest table (every incarnation: a power cut ends one, a seat change starts the
next) and for ``verify`` of every honest file.  ``breaches`` names each:


- ``honest proven``: an honest table, or ``verify`` of an honest file, proves an
  honest seat at fault;
- ``held unproven``: an honest table received two different envelopes one seat
  signed for one place, holds both, and does not prove that seat;
- ``forgotten unproven``: the same, but the table refused one of them when it was
  due (out of turn, another deal, a broken hash chain) and forgot it;
- ``late unproven``: the same, but one of them came after the table had finished;
- ``second unproven``: the same (or as ``reached unproven``), where the table
  proves another seat already (a coalition's second liar goes unproven);
- ``reached unproven``: two versions of one place reached honest tables of the
  game's last segment, and one of them, finished, does not prove the seat;
- ``verdict differs``: what an honest table concluded is not what ``verify`` of
  its own file says;
- ``file invalid``: ``verify`` of an honest file fails (``record refused``: at a
  record after the end of the game, which the table wrote as a proof record);
- ``hang``: an honest table waits with nobody to wait for (its driver never ends it);
- ``crash``: the table code raised.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from p2pbelka.table.verify import VerifyReport
from tests.audit import verify_bytes
from tests.table.promise import GameRecord, Hang, Outcome
from tests.table.promise_net import Incarnation, Node, opened


@dataclass(frozen=True)
class Breach:
    kind: str
    game: int
    seat: int
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} (game {self.game + 1}, seat {self.seat}): {self.detail}"


def proven_faults(inc: Incarnation) -> list[ev.Fault]:
    found = [f for f in inc.table.view.faults if f.proven]
    for event in inc.events:
        if isinstance(event, ev.FaultFound) and event.fault.proven and event.fault not in found:
            found.append(event.fault)
    return found


def breaches(outcome: Outcome) -> list[Breach]:
    sc = outcome.scenario
    out: list[Breach] = []
    if outcome.crash:
        out.append(Breach("crash", -1, -1, outcome.crash.strip().splitlines()[-1]))
        return out
    honest = set(sc.honest)
    for record in outcome.games:
        g = record.game
        for node in record.nodes:
            if not node.honest:
                continue
            for inc in node.incarnations:
                out += _table_breaches(g, node.seat, inc, honest)
            out += _file_breaches(g, node, honest)
        out += _reached(record, honest)
    return out


def _table_breaches(g: int, seat: int, inc: Incarnation, honest: set[int]) -> list[Breach]:
    out = []
    proven = proven_faults(inc)
    for fault in proven:
        if fault.seat in honest:
            out.append(Breach("honest proven", g, seat, f"by its table: {fault}"))
    table = inc.table
    if table.state.setup is None:
        return out  # it never sat down (the table envelope itself was the lie)
    if any(isinstance(e, Hang) for e in inc.events):
        out.append(Breach("hang", g, seat, f"waited for nobody in {table.state.phase}"))
    named = {f.seat for f in proven}
    for (game, sender, seq), versions in inc.held.items():
        if len(versions) < 2 or game != table.game_id:
            continue
        who = table.view.seat_of(sender)
        if who is not None and who not in named:
            kinds = sorted({e.type for e in versions.values()})
            out.append(
                Breach(
                    _unproven(inc, who, seq, set(versions)),
                    g,
                    seat,
                    f"held {len(versions)} envelopes of seat {who} for seq {seq}"
                    f" ({'/'.join(kinds)}) and proves {sorted(named) or 'nobody'}"
                    f" ({table.state.phase})",
                )
            )
    return out


def _unproven(inc: Incarnation, seat: int, seq: int, versions: set[bytes]) -> str:
    """Which case an unproven pair a table received is: it refused one when it was due
    and forgot it (``forgotten``, whatever else it proves: that is the root), the
    table proves another seat already (``second``: a coalition's second liar), it
    holds both (``held``), or one came after the table had finished (``late``)."""
    dropped = versions - _kept(inc.table, seat, seq)
    if dropped and not dropped <= inc.late:
        return "forgotten unproven"
    if _fatal_seats(proven_faults(inc)):
        return "second unproven"
    return "late unproven" if dropped else "held unproven"


def _kept(table: Table, seat: int, seq: int) -> set[bytes]:
    """The digests of ``seat``'s envelopes for ``seq`` that ``table`` still holds
    (accepted, or waiting its turn): one it refused is not among them."""
    key = table.state.setup.seats[seat].key if table.state.setup is not None else b""
    kept = {e.digest for e in table.view.transcript if e.sender == key and e.seq == seq}
    for raw in table.view.envelopes_from(seat, seq, limit=1):
        envelope = opened(raw)
        if envelope is not None and envelope.seq == seq:
            kept.add(envelope.digest)
    return kept


_VERIFIED: dict[bytes, VerifyReport] = {}


def verified(envelopes: list[Envelope]) -> VerifyReport:
    data = dump_transcript(envelopes)
    report = _VERIFIED.get(data)
    if report is None:
        if len(_VERIFIED) > 64:
            _VERIFIED.clear()
        report = _VERIFIED[data] = verify_bytes(data)
    return report


def _file_breaches(g: int, node: Node, honest: set[int]) -> list[Breach]:
    if not node.file:
        return []
    report = verified(node.file)
    out = []
    if report.error is not None:
        # A record verify refuses after the end: the table wrote it as a proof record.
        late = "after the end of the game" in report.error
        out.append(Breach("record refused" if late else "file invalid", g, node.seat, report.error))
        return out
    for fault in report.faults:
        if fault.proven and fault.seat in honest:
            out.append(Breach("honest proven", g, node.seat, f"by verify of its file: {fault}"))
    table = node.now.table
    said = (table.state.over, table.state.aborted, _fatal_seats(proven_faults(node.now)))
    says = (report.finished, report.aborted, _fatal_seats([f for f in report.faults if f.proven]))
    if said != says:
        out.append(
            Breach(
                "verdict differs",
                g,
                node.seat,
                f"the table: over={said[0]} aborted={said[1]} proven={sorted(said[2])};"
                f" verify: {report.verdict}",
            )
        )
    return out


def _fatal_seats(faults: list[ev.Fault]) -> set[int]:
    return {f.seat for f in faults if f.fatal}


def _second_or(root: str, inc: Incarnation) -> str:
    """``root``, unless the table proves another seat (``second``); a refused version
    forgotten stays the root."""
    if root != "forgotten unproven" and _fatal_seats(proven_faults(inc)):
        return "second unproven"
    return root


def _reached(record: GameRecord, honest: set[int]) -> list[Breach]:
    """Two versions of one place that reached honest tables of the game's last segment:
    every one of them that finished must prove the seat."""
    if record.quit:
        return []
    last = len(record.segments) - 1
    finals = [
        (node, inc)
        for node in record.nodes
        if node.honest and not node.lost
        for inc in node.incarnations[-1:]
        if inc.segment == last and not inc.lost and inc.table.finished and inc.table.state.setup
    ]
    if not finals:
        return []
    table0 = finals[0][1].table
    union: dict[tuple[bytes, bytes, int], set[bytes]] = {}
    for _node, inc in finals:
        for place, versions in inc.held.items():
            if place[0] == table0.game_id:
                union.setdefault(place, set()).update(versions)
    out = []
    for place, digests in union.items():
        _game, sender, seq = place
        if len(digests) < 2:
            continue
        who = table0.view.seat_of(sender)
        if who is None:
            continue
        # Where a table received both and dropped one, that is the root of it.
        cases = {
            _unproven(inc, who, seq, set(inc.held[place]))
            for _node, inc in finals
            if len(inc.held.get(place, {})) > 1
        } - {"held unproven"}
        root = min(cases) if cases else "reached unproven"
        for node, inc in finals:
            if who not in {f.seat for f in proven_faults(inc)}:
                out.append(
                    Breach(
                        _second_or(root, inc),
                        record.game,
                        node.seat,
                        f"{len(digests)} versions of seat {who}'s seq {seq} reached honest"
                        f" tables; this one ({inc.table.state.phase}) proves"
                        f" {sorted({f.seat for f in proven_faults(inc)}) or 'nobody'}",
                    )
                )
    return out
