"""The promise of the protocol, as a harness: a cheater is named, an honest seat never is.

``play`` runs a ``Scenario``: two games of the same players (same keys) one after
the other, in one process and deterministically (sans-IO tables, the network of
``promise_net.py``), with one cheating seat or a coalition of all seats but one
(``promise_cheats.py``), and perhaps a power cut of an honest seat and a seat
lost for good and handed to a new key (a continuation segment).  When nothing
moves any more, every table still waiting is given up on (``Table.abandon``), as
a driver's timeout would.  ``breaches`` then says where the promise broke:

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

import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import strategies as st

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import answer
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.carry import check_change
from p2pbelka.table.segments import observe_segments, previous_of, propose
from p2pbelka.table.session import Table
from p2pbelka.table.verify import VerifyReport, verify_bytes
from tests.table import handover
from tests.table.crash import Recorded
from tests.table.promise_cheats import ATTACKS, RESENDS, Attack, Coalition, Conduct
from tests.table.promise_net import Disk, Incarnation, Network, Node, answer_resend, opened


@dataclass(frozen=True)
class Kind:
    game: str
    players: int

    def __str__(self) -> str:
        return f"{self.game.capitalize()}-{self.players}"


KINDS = {"belka4": Kind("belka", 4), "belot3": Kind("belot", 3), "belot2": Kind("belot", 2)}


@dataclass(frozen=True)
class Cut:
    """A power cut of honest ``seat`` once ``tick`` envelopes were delivered in game
    ``game``; it is back when the network is quiet (or ``down`` deliveries later)."""

    game: int
    seat: int
    tick: int
    down: int = 0


@dataclass(frozen=True)
class Change:
    """``seat`` lost for good after ``tick`` deliveries in game ``game``; the lowest
    remaining seat proposes a continuation with a new key in it.  ``reuse``: a
    cheating proposer's segment id is the game's first id (``first``) or the first
    game's (``game1``) instead of a fresh one."""

    game: int
    seat: int
    tick: int
    reuse: str = ""
    back: bool = False
    """The seat's player takes it back from the bot a deal later (a third segment)."""


@dataclass(frozen=True)
class Scenario:
    kind: Kind
    seed: int
    cheaters: frozenset[int]
    attacks: tuple[Attack, ...] = ()
    conduct: Conduct = field(default_factory=Conduct)
    cut: Cut | None = None
    change: Change | None = None
    reuse_game_id: bool = False
    """A cheating host (seat 0) opens the second game under the first one's id."""
    schedule: int = 0
    games: int = 2
    quit: int | None = None
    """Every player leaves each game after this many deliveries (its tables given up
    on at once): a short game.  Then no equivocation had the time to be compared, so
    only what a table proves at once is checked of it (``reached unproven`` is not)."""

    def attack_in(self, game: int) -> Attack | None:
        return next((a for a in self.attacks if a.game == game), None)

    @property
    def honest(self) -> list[int]:
        return [s for s in range(self.kind.players) if s not in self.cheaters]


@dataclass(frozen=True)
class Breach:
    kind: str
    game: int
    seat: int
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} (game {self.game + 1}, seat {self.seat}): {self.detail}"


@dataclass
class GameRecord:
    """One game as it was played: every node that held a seat in it (the lost ones too)."""

    game: int
    nodes: list[Node] = field(default_factory=list)
    segments: list[bytes] = field(default_factory=list)
    changed: bool = False
    cut: bool = False
    fired: bool = False
    quit: bool = False


@dataclass
class Outcome:
    scenario: Scenario
    games: list[GameRecord] = field(default_factory=list)
    crash: str = ""


# -- playing a scenario ------------------------------------------------------------------------


def play(scenario: Scenario) -> Outcome:
    outcome = Outcome(scenario)
    try:
        _play(scenario, outcome)
    except Exception:
        outcome.crash = traceback.format_exc(limit=-6)
    return outcome


def _play(sc: Scenario, outcome: Outcome) -> None:
    kind = sc.kind
    local = LocalGame.seeded(sc.seed, game=kind.game, players=kind.players)
    rng = random.Random(sc.schedule)
    coalition = Coalition(
        sc.cheaters,
        {s: local.signers[s] for s in sc.cheaters},
        sc.conduct,
        random.Random(sc.schedule + 1),
        kind.players,
    )
    first_id = local.game_id
    for g in range(sc.games):
        if g == 0:
            game_id = first_id
        elif sc.reuse_game_id and 0 in sc.cheaters:
            game_id = first_id
        else:
            game_id = random.Random(f"{sc.seed}: game {g}").randbytes(16)
        record = GameRecord(g, segments=[game_id])
        outcome.games.append(record)
        sources = [Recorded(_stream(sc.seed, g, s)) for s in range(kind.players)]
        game = LocalGame(
            game_id,
            list(local.signers),
            list(local.names),
            game=kind.game,
            seed_sources=list(sources),
        )
        nodes = []
        for seat, table in enumerate(game.make_tables()):
            node = Node(
                seat,
                seat not in sc.cheaters,
                local.signers[seat],
                make_bot("random", sc.seed * 10 + seat + 100 * g),
                sources[seat],
                table,
                Disk(),
            )
            node.incarnations.append(Incarnation(table, 0))
            nodes.append(node)
        record.nodes = list(nodes)
        coalition.new_game(g, sc.attack_in(g), {s: local.signers[s] for s in sc.cheaters})
        GameRun(sc, g, nodes, record, coalition, rng, first_id).run()
        record.fired = coalition.fired


def _stream(seed: int, game: int, seat: int) -> Callable[[], bytes]:
    """A seat's secrets in one game (fresh in each: none is used twice)."""
    rng = random.Random(f"{seed}: seat {seat} in game {game}")
    return lambda: rng.randbytes(32)


class GameRun:
    """One game to its end: deliver, resend, cut, change, give up, until nothing moves."""

    def __init__(
        self,
        sc: Scenario,
        g: int,
        nodes: list[Node],
        record: GameRecord,
        coalition: Coalition,
        rng: random.Random,
        first_id: bytes,
    ) -> None:
        self.sc, self.g, self.nodes, self.record = sc, g, nodes, record
        self.coalition, self.rng, self.first_id = coalition, rng, first_id
        self.net = Network(rng)
        self.segment = 0
        self.cut = sc.cut if sc.cut is not None and sc.cut.game == g else None
        self.change = sc.change if sc.change is not None and sc.change.game == g else None
        self.down_at: int | None = None
        self.cut_done = False
        self.lost: int | None = None
        self.returning: Node | None = None
        self.steps = 0

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> None:
        while True:
            self.steps += 1
            if self.steps > 200_000:
                raise RuntimeError("the tables never settle")
            self.flush_all()
            if self.sc.quit is not None and self.net.delivered >= self.sc.quit:
                if self.quit_all():
                    continue
            if self.timed_events():
                continue
            packet = self.net.pop()
            if packet is not None:
                self.deliver(packet.source, packet.dest, packet.raw)
                continue
            held = self.coalition.release()
            if held:
                for source, dest, raw in held:
                    self.net.send(source, dest, raw)
                continue
            if self.restart():
                continue
            if self.resend_round():
                continue
            if self.lost is not None:
                self.hand_over()
                continue
            if self.give_up_one():
                continue
            return

    def live(self) -> list[Node]:
        return [n for n in self.nodes if n.up and not n.lost]

    def flush_all(self) -> None:
        for node in self.live():
            if node.honest:
                for raw in node.pump():
                    for dest in range(len(self.nodes)):
                        if dest != node.seat:
                            self.net.send(node.seat, dest, raw)
            else:
                for raw in node.pump(self._cheater_moves(node)):
                    for dest, out in self.coalition.route(node.seat, raw, node.table):
                        self.net.send(node.seat, dest, out)

    def _cheater_moves(self, node: Node) -> Callable[[Table, ev.ChoiceNeeded], None]:
        def moves(table: Table, question: ev.ChoiceNeeded) -> None:
            move = answer(node.bot, table, question)
            self.coalition.choose(node.seat, table, question, move)
            table.apply(move)

        return moves

    def deliver(self, source: int, dest: int, raw: bytes) -> None:
        node = self.nodes[dest]
        if not node.up or node.lost:
            return
        if not node.honest:
            envelope = opened(raw)
            if envelope is not None:
                self.coalition.seen.append(envelope)
            if not self.coalition.accepts(raw):
                return
        node.receive(raw)

    # -- a power cut and a seat lost, at their time -----------------------------------------

    def timed_events(self) -> bool:
        ticks = self.net.delivered
        cut = self.cut
        if cut is not None and not self.cut_done and ticks >= cut.tick:
            node = self.nodes[cut.seat]
            if node.up and not node.lost and not node.table.finished and node.has_sent():
                self.cut_done = True
                self.record.cut = True
                node.cut()
                self.net.drop_to(cut.seat)
                self.down_at = ticks
                return True
        if self.down_at is not None and self.cut is not None and self.cut.down:
            if ticks >= self.down_at + self.cut.down:
                return self.restart()
        change = self.change
        if change is not None and self.lost is None and ticks >= change.tick:
            node = self.nodes[change.seat]
            self.change = None
            if node.up and not node.table.finished and node.table.started:
                self.lose(change.seat)
                return True
        return False

    def restart(self) -> bool:
        if self.down_at is None or self.cut is None:
            return False
        self.down_at = None
        node = self.nodes[self.cut.seat]
        if node.lost or not node.can_resume():
            node.lost = True
            return True
        node.resume(self.segment)
        table = node.table
        # Held until every other seat answered its resend request (the mesh's rule).
        for other in self.live():
            if other is node:
                continue
            for raw in self._answer(other, node.seat, table.wants()):
                node.receive(raw)
        table.release()
        return True

    def lose(self, seat: int) -> None:
        node = self.nodes[seat]
        node.lost = True
        node.now.lost = True
        self.net.drop_to(seat)
        self.lost = seat

    # -- resend and give up ------------------------------------------------------------------

    def _answer(self, node: Node, asker: int, wants: list[int]) -> list[bytes]:
        if node.honest:
            return answer_resend(node.table, asker, wants)
        if self.nodes[asker].honest:
            return self.coalition.answer(node.seat, node.table, asker, wants)
        return answer_resend(node.table, asker, wants)

    def resend_round(self) -> bool:
        live = self.live()
        before = [(len(n.table.transcript), n.table.phase) for n in live]
        order = list(live)
        self.rng.shuffle(order)
        for node in order:
            if node.table.finished:
                continue
            wants = node.table.wants()
            if not wants:
                continue
            for other in live:
                if other is node:
                    continue
                for raw in self._answer(other, node.seat, wants):
                    if node.honest:
                        node.receive(raw)
                    else:
                        self.deliver(other.seat, node.seat, raw)
        return [(len(n.table.transcript), n.table.phase) for n in live] != before

    def quit_all(self) -> bool:
        """Everyone leaves: what is on its way is lost, every table still on is given up."""
        self.record.quit = True
        self.net.clear()
        self.coalition.release()
        stuck = [n for n in self.live() if not n.table.finished and n.table.setup is not None]
        for node in stuck:
            node.table.abandon(node.table.missing() or [], "left")
        return bool(stuck)

    def give_up_one(self) -> bool:
        # A table with no description yet has no driver to give up (the lobby hands it).
        stuck = [n for n in self.live() if not n.table.finished and n.table.setup is not None]
        if not stuck:
            return False
        node = self.rng.choice(stuck)
        table = node.table
        me = table.me
        gone = [s for s in table.missing() if s != me]
        if gone:
            table.abandon(gone, "went silent")
        elif table.held or table.short_of_own:
            table.abandon([me] if me is not None else [], "could not get its own chain back")
        else:
            node.now.events.append(Hang(table.phase.value))
            table.abandon(table.missing() or ([me] if me is not None else []), "stuck")
        return True

    # -- a seat changes hands ------------------------------------------------------------------

    def hand_over(self) -> None:
        """The seat lost (or the bot that stopped for the player's return) changes hands,
        if every remaining seat is stuck on it at one cut and the honest ones sign."""
        seat = self.lost
        assert seat is not None
        self.lost = None
        returning, self.returning = self.returning, None
        remaining = [n for n in self.nodes if n.seat != seat]
        if not all(n.up and not n.lost for n in remaining):
            return
        tables = [n.table for n in remaining]
        if any(t.finished or not t.started or t.missing() != [seat] for t in tables):
            return
        if len({previous_of(t).view for t in tables}) != 1:
            return  # no two remaining seats agree where the segment stops: no change
        host = remaining[0]
        name = f"{self.sc.seed}: segment {self.g}.{self.segment}"
        segment = random.Random(name).randbytes(16)
        reuse = self.sc.change.reuse if self.sc.change is not None else ""
        if not host.honest and reuse == "first":
            segment = self.record.segments[0]
        elif not host.honest and reuse == "game1":
            segment = self.first_id
        holder = (
            returning.signer
            if returning is not None
            else Signer.from_seed(random.Random(f"{name} holder").randbytes(32))
        )
        previous = previous_of(host.table)
        offer = propose(previous, seat, holder.public_key, "Bot", host.signer, segment)
        for node in remaining[1:]:
            if node.honest and check_change(previous_of(node.table), host.seat, segment, offer):
                return  # an honest seat does not sign it: no change, the game is given up
        # A player taking its seat back draws on from its own secrets (a resumed table
        # replays the first segment's with them).
        source = (
            returning.source
            if returning is not None
            else Recorded(_stream(self.sc.seed, self.g, 10 + self.segment))
        )
        was = self.nodes[seat]
        was.lost = was.now.lost = True
        at = host.table.deal_id + 1
        cut = handover.Game([n.table for n in self.nodes], [n.bot for n in self.nodes])
        # A player taking its seat back rebuilds the game from a remaining seat's file.
        rebuilt = observe_segments(host.file) if returning is not None else None
        handover.hand_over(
            cut,
            seat,
            holder,
            "Bot" if returning is None else "Back",
            seed_sources={seat: source},
            previous_table=rebuilt,
            segment=segment,
        )
        self.segment += 1
        self.record.segments.append(segment)
        self.record.changed = True
        new = Node(
            seat,
            was.honest,
            holder,
            returning.bot if returning is not None else make_bot("random", self.sc.seed + seat),
            source,
            cut.tables[seat],
            Disk(),
            file=list(host.file),
        )
        new.disk.file = len(new.file)
        new.incarnations.append(Incarnation(cut.tables[seat], self.segment))
        for node in remaining:
            node.start(cut.tables[node.seat], self.segment)
        self.nodes[seat] = new
        self.record.nodes.append(new)
        self.net.clear()
        self.coalition.new_segment({s: self.nodes[s].signer for s in self.sc.cheaters})
        if returning is None and self.sc.change is not None and self.sc.change.back:
            # The bot plays one deal, then the player takes the seat back.
            new.table.stop_at_deal(at)
            self.lost, self.returning = seat, was


@dataclass(frozen=True, slots=True)
class Hang(ev.Event):
    """The table waited with nobody to wait for: a driver would never end the game."""

    phase: str


# -- the checks ------------------------------------------------------------------------------


def proven_faults(inc: Incarnation) -> list[ev.Fault]:
    found = [f for f in inc.table.faults if f.proven]
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
    if table.setup is None:
        return out  # it never sat down (the table envelope itself was the lie)
    if any(isinstance(e, Hang) for e in inc.events):
        out.append(Breach("hang", g, seat, f"waited for nobody in {table.phase}"))
    named = {f.seat for f in proven}
    for (game, sender, seq), versions in inc.held.items():
        if len(versions) < 2 or game != table.game_id:
            continue
        who = table.seat_of(sender)
        if who is not None and who not in named:
            kinds = sorted({e.type for e in versions.values()})
            out.append(
                Breach(
                    _unproven(inc, who, seq, set(versions)),
                    g,
                    seat,
                    f"held {len(versions)} envelopes of seat {who} for seq {seq}"
                    f" ({'/'.join(kinds)}) and proves {sorted(named) or 'nobody'} ({table.phase})",
                )
            )
    return out


def _unproven(inc: Incarnation, seat: int, seq: int, versions: set[bytes]) -> str:
    """Which case an unproven pair a table received is: the table proves another seat
    already (``second``: a coalition's second liar), it holds both (``held``), it
    refused one when it was due and forgot it (``forgotten``), or one came after the
    table had finished (``late``)."""
    if _fatal_seats(proven_faults(inc)):
        return "second unproven"
    dropped = versions - _kept(inc.table, seat, seq)
    if not dropped:
        return "held unproven"
    return "late unproven" if dropped <= inc.late else "forgotten unproven"


def _kept(table: Table, seat: int, seq: int) -> set[bytes]:
    """The digests of ``seat``'s envelopes for ``seq`` that ``table`` still holds
    (accepted, or waiting its turn): one it refused is not among them."""
    key = table.setup.seats[seat].key if table.setup is not None else b""
    kept = {e.digest for e in table.transcript if e.sender == key and e.seq == seq}
    for raw in table.envelopes_from(seat, seq, limit=1):
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
    said = (table.over, table.aborted, _fatal_seats(proven_faults(node.now)))
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
        if inc.segment == last and not inc.lost and inc.table.finished and inc.table.setup
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
        who = table0.seat_of(sender)
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
                        "second unproven" if _fatal_seats(proven_faults(inc)) else root,
                        record.game,
                        node.seat,
                        f"{len(digests)} versions of seat {who}'s seq {seq} reached honest"
                        f" tables; this one ({inc.table.phase}) proves"
                        f" {sorted({f.seat for f in proven_faults(inc)}) or 'nobody'}",
                    )
                )
    return out


def describe(sc: Scenario) -> str:
    parts = [f"{sc.kind}, seed {sc.seed}, cheaters {sorted(sc.cheaters)}"]
    parts += [f"{a}" for a in sc.attacks]
    if sc.cut:
        parts.append(f"{sc.cut}")
    if sc.change:
        parts.append(f"{sc.change}")
    if sc.reuse_game_id:
        parts.append("second game under the first one's id")
    parts.append(f"{sc.conduct}, schedule {sc.schedule}")
    return "; ".join(parts)


# -- scenarios, drawn ----------------------------------------------------------------------

WHATS = (*ATTACKS, "reuse_game_id", "reuse_segment_id", "network")
"""What a scenario's cheating is about (a test per kind; see ``scenarios``): an attack
of ``promise_cheats.ATTACKS``; ``reuse_game_id`` the second game opened by a cheating
host under the first one's id, the victims' old envelopes replayed in it;
``reuse_segment_id`` a cheating proposer's continuation in the second game under the
first game's id, the same replay after it; ``network`` no lie, only the network's
and the coalition's conduct."""

SHORT_GAMES = {"Belka-4": (16, 24, 27, 37), "Belot-3": (41, 46, 29), "Belot-2": (59, 31, 47)}
"""Seeds whose first game is among the shortest (Belka's can end after one deal)."""

_ATTACK_OF = {
    "reuse_game_id": "replay_game1",
    "reuse_segment_id": "replay_game1",
}
_TWO_GAMES = ("replay_game1", "reuse_game_id", "reuse_segment_id")


@st.composite
def scenarios(
    draw: st.DrawFn,
    kind: Kind,
    what: str,
    *,
    short: bool = False,
    cut: bool | None = None,
    change: bool | None = None,
) -> Scenario:
    """A scenario of ``kind`` whose cheating is ``what`` (one of ``WHATS``).

    ``cut``/``change``: always, never, or (None) maybe a power cut / a seat change.
    ``short`` keeps it quick (the default suite): one game unless the cheating needs
    the second, the first then ended early by a cheater caught equivocating; the
    attack, the cut and the change early in their game."""
    n = kind.players
    seeds = st.sampled_from(SHORT_GAMES[str(kind)]) if short else st.integers(0, 5_000)
    seed = draw(seeds, label="seed")
    if what in ("reuse_game_id", "reuse_segment_id"):
        # the second game's host (seat 0), or the lowest remaining seat, cheats
        cheaters = frozenset(range(n - 1)) if n > 2 else frozenset({0})
    elif n == 2 or draw(st.booleans(), label="coalition of all but one?"):
        honest_seat = draw(st.integers(0, n - 1), label="the honest seat")
        cheaters = frozenset(s for s in range(n) if s != honest_seat)
    else:
        cheaters = frozenset({draw(st.integers(0, n - 1), label="the cheater")})
    honest = [s for s in range(n) if s not in cheaters]
    two = what in _TWO_GAMES or not short
    attacks: list[Attack] = []
    attack_kind = _ATTACK_OF.get(what, what)
    if attack_kind in ATTACKS:
        game = 1 if attack_kind == "replay_game1" else 0
        if two and attack_kind != "replay_game1":
            game = draw(st.integers(0, 1), label="game")
        liar = 0 if what == "reuse_segment_id" else draw(st.sampled_from(sorted(cheaters)))
        far = st.integers(0, 40) if short else st.one_of(st.integers(0, 40), st.integers(0, 250))
        at = draw(far, label="at")
        if attack_kind == "fork_move":
            at %= 12
        if liar == 0 and at == 0 and attack_kind in ("ending_split", "refused_first"):
            at = 1  # not the table envelope: a table without one judges nothing
        if what == "reuse_segment_id":
            at += 60  # after the change
        victims = tuple(sorted(draw(st.sets(st.sampled_from(honest), min_size=1), label="victims")))
        third = [s for s in range(n) if s != liar and s not in victims]
        if attack_kind == "lie_view" and not third:
            attack_kind = "lie_own_view"  # two seats: the only other chain is the victim's
        target = draw(st.sampled_from(third or [s for s in range(n) if s != liar]), label="target")
        variant = draw(st.integers(0, 1), label="variant")
        attacks.append(Attack(attack_kind, game, liar, at, victims, target, variant))
    if two and short and not any(a.game == 0 for a in attacks):
        # the first game ends early: a cheater caught equivocating in it
        liar = min(cheaters)
        early = draw(st.integers(0, 20), label="early")
        attacks.append(Attack("fork_body", 0, liar, early, tuple(honest)))
    conduct = Conduct(
        draw(st.sampled_from(RESENDS), label="resend"),
        draw(st.sampled_from([0.0, 0.0, 0.1, 0.3]), label="delay"),
    )
    games = 2 if two else 1
    cut_plan = None
    resent = attack_kind in ("withhold_own", "fork_on_resend")
    if resent or (cut if cut is not None else draw(st.booleans())):
        main = next((a for a in attacks if a.kind == attack_kind), None)
        cut_plan = Cut(
            main.game if main else draw(st.integers(0, games - 1), label="cut game"),
            draw(st.sampled_from(main.victims if resent and main else honest), label="cut seat"),
            draw(st.integers(0, 300 if short else 1200), label="cut tick"),
            draw(st.sampled_from([0, 0, 5, 40]), label="down"),
        )
    change_plan = None
    if n > 2 and (
        what == "reuse_segment_id" or (change if change is not None else draw(st.booleans()))
    ):
        reuse = what == "reuse_segment_id"
        change_plan = Change(
            1 if reuse else draw(st.integers(0, games - 1), label="change game"),
            1 if reuse else draw(st.integers(0, n - 1), label="lost seat"),
            draw(st.integers(60, 400 if short else 900), label="change tick"),
            "game1" if reuse else "",
            draw(st.booleans(), label="back"),
        )
    return Scenario(
        kind,
        seed,
        cheaters,
        tuple(attacks),
        conduct,
        cut_plan,
        change_plan,
        reuse_game_id=what == "reuse_game_id",
        schedule=draw(st.integers(0, 2**32 - 1), label="schedule"),
        games=games,
        quit=500 if short and what in QUICK else None,
    )


QUICK = ("fork_body", "fork_view", "withhold_own", "replay_game1", "network")
"""What a short scenario (``quit``) may cut short: nothing in it needs the game's end."""
