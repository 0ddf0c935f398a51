"""A peer killed for good, and a bot in its seat: real peers over loopback sockets.

Four peers meet in a lobby and play; one is killed in the middle of a deal and
never comes back.  After the reconnect window the lowest remaining seat offers a
bot, the other two agree (bots say yes), and the game finishes in a continuation
segment.  The three transcripts are the same bytes, and ``verify`` accepts them
and names the change.

The peers in this process run under trio's mock clock: their sockets are real, but
the reconnect window, the offer's time and a cut-off peer's bound pass at once, and
a busy machine cannot stall a peer past them.  The processes' test keeps real time.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bots import Bot, make_bot
from p2pbelka.cli.main import main
from p2pbelka.ladder import certificate as cert
from p2pbelka.ladder.files import certificate_path
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver, Release
from p2pbelka.peer.lan import (
    GameResult,
    LobbyEvent,
    NetOptions,
    TableOpen,
    host_game,
    join_game,
    resume_game,
)
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatchange.drivers import OfferClosed, SeatOffer
from p2pbelka.peer.store import GameStore
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.protocol.seatchange import envelope_game
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.verify import verify_bytes
from tests.lan.helpers import PeerSet, bot_args, wait_for_bytes

LOST = 2


def _net(tmp_path: Path, n: int) -> NetOptions:
    return NetOptions(
        listen_host="127.0.0.1",
        announce=False,
        home=tmp_path / f"peer{n}",
        pause_after=0.5,
        give_up_after=5.0,  # a busy machine can stall a peer for 2 s (it was given up on)
        resend_after=0.3,
        linger=1.0,
        offer_timeout=30.0,
    )


async def test_a_bot_takes_the_seat_of_a_peer_killed_for_good(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    ids = [Identity.generate(name) for name in ("Asel", "Bolat", "Saule", "Nurlan")]
    fronts = [BotFrontEnd(make_bot("random", 70 + n)) for n in range(4)]
    doomed = fronts[LOST] = _Doomed(make_bot("random", 70 + LOST))
    results: dict[int, GameResult] = {}
    opened = trio.Event()
    lobby: list[int] = []
    killed = trio.Event()

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            lobby.append(event.lobby_port)
            opened.set()

    async def peer(n: int) -> None:
        net = _net(tmp_path, n)
        if n == 0:
            results[0] = await host_game(
                ids[0], "t", fronts[0], options={"goli": "off"}, net=net, on_lobby=on_lobby
            )
            return
        await opened.wait()
        results[n] = await join_game(ids[n], "127.0.0.1", lobby[0], fronts[n], net=net)

    async def victim() -> None:
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as inner:
                inner.start_soon(peer, LOST)
                await doomed.due.wait()  # killed for good in its second deal
                scope.cancel()
        killed.set()

    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            for n in (0, 1, 3):
                nursery.start_soon(peer, n)
            nursery.start_soon(victim)
    assert killed.is_set() and sorted(results) == [0, 1, 3]
    started = next(e for e in fronts[LOST].events if isinstance(e, ev.GameStarted))
    seat = started.me
    assert seat is not None
    others = tuple(s for s in range(4) if s != seat)
    for n in (0, 1, 3):
        assert results[n].finished, (n, [e for e in fronts[n].events if "Fault" in repr(e)])
        changes = [e for e in fronts[n].events if isinstance(e, SeatChanged)]
        assert [c.seat for c in changes] == [seat] and changes[0].agreed == others
        assert changes[0].voided == changes[0].from_deal >= 2
    files = {results[n].store.transcript_path.read_bytes() for n in (0, 1, 3)}
    assert len(files) == 1, "the remaining peers' transcripts differ"
    report = verify_bytes(files.pop())
    assert report.ok, report.verdict
    (line,) = report.change_lines
    name = started.names[seat]
    assert line.startswith(f"seat {seat} ({name}) replaced by Bot for {name} [")
    agreed = ", ".join(str(s) for s in others)
    deal = report.changes[0].from_deal
    assert line.endswith(
        f"from deal {deal}, agreed by seats {agreed}; deal {deal}, unfinished, voided"
    )
    # the whole game, both segments, is what the peers report too
    assert len(results[0].transcript) == report.records


async def test_two_peers_killed_at_once_end_the_game_cleanly(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """Two seats gone together: a change needs every other seat's signature, and half
    the table is out of reach, which the two left cannot tell from their own half being
    cut off.  So nobody offers a bot and nobody is named: the two wait as cut off, for
    their stated bound, then stop, the game saved unfinished (INCOMPLETE) for a resume."""
    ids = [Identity.generate(name) for name in ("Asel", "Bolat", "Saule", "Nurlan")]
    fronts = [BotFrontEnd(make_bot("random", 60 + n)) for n in range(4)]
    doomed = fronts[2] = _Doomed(make_bot("random", 62))
    results: dict[int, GameResult] = {}
    opened = trio.Event()
    lobby: list[int] = []

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            lobby.append(event.lobby_port)
            opened.set()

    async def peer(n: int) -> None:
        net = _net(tmp_path, n)
        net.offer_timeout = 4.0
        # the cut-off bound, min(decide limit, give-up + grace), waited out in mock
        # seconds: twice the reconnect window (the bots left move at once)
        net.decide_limit = 10.0
        if n == 0:
            options = {"goli": "off"}
            results[0] = await host_game(
                ids[0], "t", fronts[0], options=options, net=net, on_lobby=on_lobby
            )
            return
        await opened.wait()
        results[n] = await join_game(ids[n], "127.0.0.1", lobby[0], fronts[n], net=net)

    async def victims() -> None:
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as inner:
                inner.start_soon(peer, 2)
                inner.start_soon(peer, 3)
                await doomed.due.wait()
                scope.cancel()

    with trio.fail_after(180):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(peer, 0)
            nursery.start_soon(peer, 1)
            nursery.start_soon(victims)
    for n in (0, 1):
        assert results[n].cut_off and results[n].split, fronts[n].events[-5:]
        assert not any(isinstance(e, SeatOffer | OfferClosed) for e in fronts[n].events)
        report = verify_bytes(results[n].store.transcript_path.read_bytes())
        assert not report.aborted and not report.changes, report.verdict
        assert report.verdict.startswith("INCOMPLETE"), report.verdict


class _Doomed(BotFrontEnd):
    """A bot whose program is to be killed in its second deal, a few cards in: ``due``
    is set at its third card seen there (or at the game's end, should that come
    first).  An event, not a poll: under the mock clock a game of bots that answer at
    once plays to its end without a poll's timer coming due."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self.due = trio.Event()

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        await super().on_event(driver, event)
        if isinstance(event, ev.CardPlayed | ev.GameOver | ev.GameAborted) and (
            _plays_in_deal(self.events) >= 3 or _over(self)
        ):
            self.due.set()


def _over(front: BotFrontEnd) -> bool:
    return any(isinstance(e, ev.GameOver | ev.GameAborted) for e in front.events)


def _plays_in_deal(events: list[ev.Event]) -> int:
    """Cards played so far in the deal in progress, from the second deal on (0 before)."""
    current, plays = 0, 0
    for event in events:
        if isinstance(event, ev.DealStarted):
            current, plays = event.deal_id, 0
        elif isinstance(event, ev.CardPlayed) and current >= 2:
            plays += 1
    return plays


def test_processes_seat_a_bot_for_a_peer_killed_for_good(tmp_path: Path) -> None:
    """The same with four ``p2pbelka`` processes: one is SIGKILLed and never returns."""
    timing = ("--pause-after", "1", "--reconnect-window", "3", "--linger", "1")
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host", "host", "--auto-approve", "--no-announce", "--option", "goli=off",
            *bot_args(*timing),
        )  # fmt: skip
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        joiners = [
            peers.spawn(f"joiner{n}", "join", "--connect", f"127.0.0.1:{port}", *bot_args(*timing))
            for n in range(1, 4)
        ]
        victim = joiners[1]
        seat = victim.seat()
        wait_for_bytes(victim, 20_000, 60)
        victim.kill()
        rest = [host, joiners[0], joiners[2]]
        codes = peers.wait(rest, 120)
        assert codes == [0, 0, 0], "\n".join(p.dump() for p in rest)
        for peer in rest:
            text = peer.text()
            assert f"seat {seat} (" in text and ") replaced by Bot for " in text, peer.dump()
            assert "game over" in text and "Traceback" not in peer.log()
        data = {p.transcript().read_bytes() for p in rest}
        assert len(data) == 1, "the remaining transcripts differ"
        out = verify_lines(host.transcript())
        assert out[-1].startswith("OK"), out
        assert any(f"seat {seat} (" in line and "replaced by Bot for" in line for line in out)
        # each remaining seat wrote the game's result, chained through the change, and
        # charged to the keys that sat down (results.md 1.1), the one killed among them
        for peer in rest:
            made = cert.read(certificate_path(peer.transcript()).read_bytes())
            assert made.kind == cert.CHAINED and len(made.segments) == 1
            checked = verify_lines(certificate_path(peer.transcript()))
            assert checked[-1].startswith("OK"), checked


def verify_lines(path: Path) -> list[str]:
    """Every line ``p2pbelka verify`` prints (in this process)."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        main(["verify", str(path)])
    return buffer.getvalue().strip().splitlines()


class _SlowBot(BotFrontEnd):
    """A bot that thinks a moment before each move, so a game lasts long enough for a
    player to come back in the middle of it."""

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, ev.ChoiceNeeded):
            await trio.sleep(0.02)
        await super().on_event(driver, event)


async def test_a_watcher_that_lost_envelopes_catches_up_when_its_seat_comes_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, autojump_clock: MockClock
) -> None:
    """Killed, replaced by a bot, then ``resume``: the player watches, the bot finishes
    its deal, and the seat is handed back; all four transcripts end the same.  (A game
    of its own for that alone played the same four seats again: the hand-back with
    nothing lost is also the processes' at a screen, test_lan_netns_return_screen.)

    The returning player's links lose every envelope one peer signs in the bot's
    segment, resends too (as a link cut mid-send loses what was queued, on a machine
    slow enough that the others have moved on before it asks): the continuation that
    hands its seat back cuts that peer's chain further than the watching table holds.
    The player fetches the records it lacks from the peers' transcripts (not by a
    resend: the peers' tables are in the new segment by then) and takes its seat."""
    ids = [Identity.generate(name) for name in NAMES]
    watcher, author = ids[LOST].public_key, ids[1].public_key
    lossy: list[bytes] = []  # the bot's segment, the first after the game's own
    dropped = [0]
    put = Mesh._put

    def lose(mesh: Mesh, item: bytes | Release) -> None:
        if mesh.identity.public_key == watcher and isinstance(item, bytes):
            game = envelope_game(item)
            if game is not None and game != mesh.game_id:
                lossy[:] = lossy or [game]
                if game == lossy[0] and open_envelope(item).sender == author:
                    dropped[0] += 1
                    return
        put(mesh, item)

    monkeypatch.setattr(Mesh, "_put", lose)
    await _lose_and_take_back(tmp_path, ids)
    assert dropped[0] > 0, "the test lost nothing: it proves nothing"


NAMES = ("Asel", "Bolat", "Saule", "Nurlan")


async def lose_and_come_back(
    tmp_path: Path,
    ids: list[Identity],
    fronts: list[Any],
    offer_timeout: float | None = None,
    within: float = 240,
) -> dict[int, GameResult]:
    """Four peers over loopback (``fronts``, by seat): seat ``LOST``'s program is killed
    in its deal's third play, a bot takes its seat, and its player resumes (a new front
    end, put in ``fronts``) and asks the seat back.  The results, by seat."""
    results: dict[int, GameResult] = {}
    opened = trio.Event()
    lobby: list[int] = []

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            lobby.append(event.lobby_port)
            opened.set()

    def net_of(n: int) -> NetOptions:
        net = _net(tmp_path, n)
        if offer_timeout is not None:
            net.offer_timeout = offer_timeout
        return net

    async def peer(n: int) -> None:
        net = net_of(n)
        if n == 0:
            options = {"goli": "off"}
            results[0] = await host_game(
                ids[0], "t", fronts[0], options=options, net=net, on_lobby=on_lobby
            )
            return
        await opened.wait()
        results[n] = await join_game(ids[n], "127.0.0.1", lobby[0], fronts[n], net=net)

    async def victim_and_return() -> None:
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as inner:
                inner.start_soon(peer, LOST)
                while _plays_in_deal(fronts[LOST].events) < 3 and not _over(fronts[LOST]):
                    await trio.sleep(0.01)
                scope.cancel()
        while not any(isinstance(e, SeatChanged) for e in fronts[0].events):
            await trio.sleep(0.05)
        back = _SlowBot(make_bot("random", 99))
        fronts[LOST] = back
        net = net_of(LOST)
        store = GameStore.find(home=net.home)
        results[LOST] = await resume_game(ids[LOST], store, back, net=net)

    with trio.fail_after(within):
        async with trio.open_nursery() as nursery:
            for n in (0, 1, 3):
                nursery.start_soon(peer, n)
            nursery.start_soon(victim_and_return)
    return results


async def _lose_and_take_back(tmp_path: Path, ids: list[Identity]) -> None:
    fronts: list[BotFrontEnd] = [_SlowBot(make_bot("random", 80 + n)) for n in range(4)]
    results = await lose_and_come_back(tmp_path, ids, fronts)
    assert all(results[n].finished for n in range(4)), {n: r.aborted for n, r in results.items()}
    seat = results[LOST].seat
    for n in range(4):
        changes = [e for e in fronts[n].events if isinstance(e, SeatChanged)]
        assert [c.back for c in changes][-1:] == [True], (n, changes)
    files = {results[n].store.transcript_path.read_bytes() for n in range(4)}
    assert len(files) == 1, "the four transcripts differ"
    report = verify_bytes(files.pop())
    assert report.ok, report.verdict
    first, second = report.change_lines
    assert f"seat {seat} (" in first and "replaced by Bot for" in first
    assert second.startswith(f"seat {seat} handed back to Saule [")
