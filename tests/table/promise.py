"""The promise of the protocol, as a harness: a cheater is named, an honest seat never is.

``play`` runs a ``Scenario``: two games of the same players (same keys) one after
the other, in one process and deterministically (sans-IO tables, the network of
``promise_net.py``), with one cheating seat or a coalition of all seats but one
(``promise_cheats.py``), and perhaps a power cut of an honest seat and a seat
lost for good and handed to a new key (a continuation segment).  When nothing
moves any more, every table still waiting is given up on (``Table.abandon``), as
a driver's timeout would.  What is checked then is ``promise_checks.py``; the
scenarios hypothesis draws, ``promise_scenarios.py``.
"""

from __future__ import annotations

import random
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import answer
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Signer
from p2pbelka.table import events as ev
from p2pbelka.table.carry import check_change
from p2pbelka.table.segments import observe_segments, previous_of, propose
from p2pbelka.table.session import Table
from tests.table import seatloss
from tests.table.promise_cheats import Attack, Coalition, Conduct
from tests.table.promise_net import (
    Disk,
    Incarnation,
    Network,
    Node,
    Secrets,
    answer_resend,
    opened,
)


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
    first = local
    for g in range(sc.games):
        secrets = [Secrets() for _ in range(kind.players)]
        sources = [secrets[s].new(None, _stream(sc.seed, g, s)) for s in range(kind.players)]
        game = LocalGame(
            list(local.signers),
            list(local.names),
            game=kind.game,
            seed_sources=list(sources),
            nonces=[_nonce(sc.seed, g, s) for s in range(kind.players)],
        )
        tables = game.make_tables()
        if g > 0 and sc.reuse_game_id and 0 in sc.cheaters:
            tables = _reused(game, first, tables)
        record = GameRecord(g, segments=[tables[0].game_id])
        outcome.games.append(record)
        if g == 0:
            first = game
        nodes = []
        for seat, table in enumerate(tables):
            node = Node(
                seat,
                seat not in sc.cheaters,
                local.signers[seat],
                make_bot("random", sc.seed * 10 + seat + 100 * g),
                secrets[seat],
                table,
                Disk(),
            )
            node.incarnations.append(Incarnation(table, 0))
            nodes.append(node)
        record.nodes = list(nodes)
        coalition.new_game(g, sc.attack_in(g), {s: local.signers[s] for s in sc.cheaters})
        GameRun(sc, g, nodes, record, coalition, rng, first.game_id).run()
        record.fired = coalition.fired


def _nonce(seed: int, game: int, seat: int) -> bytes:
    """A seat's fresh nonce for one game's table (seeded: the same on every run)."""
    return random.Random(f"{seed}: nonce {seat} in game {game}").randbytes(m.NONCE_SIZE)


def _reused(game: LocalGame, first: LocalGame, tables: list[Table]) -> list[Table]:
    """The second game as a cheating host (seat 0) opens it: under the first game's
    table (its nonces, so its id), which the joiners are told is the game's; each
    honest joiner still brings its own fresh nonce."""
    old = first.setup()
    host = Table.host(first.signers[0], old, seed_source=tables[0].state.deals.seed_source)
    joiners = [
        Table(host.game_id, signer=signer, seed_source=t.state.deals.seed_source, nonce=nonce)
        for signer, t, nonce in zip(game.signers[1:], tables[1:], game.nonces[1:], strict=True)
    ]
    return [host, *joiners]


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
            if node.up and not node.table.finished and node.table.state.started:
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
            for raw in self._answer(other, node.seat, table.view.wants()):
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
        before = [(len(n.table.view.transcript), n.table.state.phase) for n in live]
        order = list(live)
        self.rng.shuffle(order)
        for node in order:
            if node.table.finished:
                continue
            wants = node.table.view.wants()
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
        return [(len(n.table.view.transcript), n.table.state.phase) for n in live] != before

    def quit_all(self) -> bool:
        """Everyone leaves: what is on its way is lost, every table still on is given up."""
        self.record.quit = True
        self.net.clear()
        self.coalition.release()
        stuck = [n for n in self.live() if not n.table.finished and n.table.state.setup is not None]
        for node in stuck:
            node.table.abandon(node.table.view.missing() or [], "left")
        return bool(stuck)

    def give_up_one(self) -> bool:
        # A table with no description yet has no driver to give up (the lobby hands it).
        stuck = [n for n in self.live() if not n.table.finished and n.table.state.setup is not None]
        if not stuck:
            return False
        node = self.rng.choice(stuck)
        table = node.table
        me = table.state.me
        gone = [s for s in table.view.missing() if s != me]
        if gone:
            table.abandon(gone, "went silent")
        elif table.state.held or table.view.short_of_own:
            table.abandon([me] if me is not None else [], "could not get its own chain back")
        else:
            node.now.events.append(Hang(table.state.phase.value))
            table.abandon(table.view.missing() or ([me] if me is not None else []), "stuck")
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
        if any(t.finished or not t.state.started or t.view.missing() != [seat] for t in tables):
            return
        if len({previous_of(t).view for t in tables}) != 1:
            return  # no two remaining seats agree where the segment stops: no change
        host = remaining[0]
        name = f"{self.sc.seed}: segment {self.g}.{self.segment}"
        reuse = self.sc.change.reuse if self.sc.change is not None else ""
        forced = None  # the segment id is derived, unless a cheating proposer names one
        if not host.honest and reuse == "first":
            forced = self.record.segments[0]
        elif not host.honest and reuse == "game1":
            forced = self.first_id
        holder = (
            returning.signer
            if returning is not None
            else Signer.from_seed(random.Random(f"{name} holder").randbytes(32))
        )
        nonce = random.Random(f"{name} nonce").randbytes(m.NONCE_SIZE)
        who = "Bot" if returning is None else "Back"
        previous = previous_of(host.table)
        segment, offer = propose(previous, seat, holder.public_key, who, nonce, host.signer, forced)
        for node in remaining[1:]:
            if node.honest and check_change(previous_of(node.table), host.seat, segment, offer):
                return  # an honest seat does not sign it: no change, the game is given up
        was = self.nodes[seat]
        # Each seat draws the new segment's secrets from a source of its own; a player
        # taking its seat back keeps those of the segments it sat in.
        secrets = returning.secrets if returning is not None else Secrets()
        sources: dict[int, Callable[[], bytes]] = {
            n.seat: n.secrets.new(segment, _stream(self.sc.seed, self.g, 10 * n.seat + 100))
            for n in remaining
        }
        sources[seat] = secrets.new(segment, _stream(self.sc.seed, self.g, 1000 + seat))
        was.lost = was.now.lost = True
        at = host.table.state.deal_id + 1
        cut = seatloss.Game([n.table for n in self.nodes], [n.bot for n in self.nodes])
        # A player taking its seat back rebuilds the game from a remaining seat's file.
        rebuilt = observe_segments(host.file) if returning is not None else None
        seatloss.hand_over(
            cut,
            seat,
            holder,
            who,
            seed_sources=sources,
            previous_table=rebuilt,
            nonce=nonce,
            segment=forced,
        )
        self.segment += 1
        self.record.segments.append(segment)
        self.record.changed = True
        new = Node(
            seat,
            was.honest,
            holder,
            returning.bot if returning is not None else make_bot("random", self.sc.seed + seat),
            secrets,
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
