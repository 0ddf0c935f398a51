"""Faults on real sockets: links that drop, delay and stall (a relay in front of every
peer), and a connection that sends garbage.  The game must finish, every peer must
hold the same transcript, and it must verify."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio

from p2pbelka.bots import Bot, make_bot
from p2pbelka.net.connection import dial
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.lan import (
    GameResult,
    GameStarting,
    LobbyEvent,
    NetOptions,
    OnLobby,
    TableOpen,
    host_game,
    join_game,
)
from p2pbelka.peer.loopback import loopback_table
from p2pbelka.peer.mesh import MAX_MESH_FRAME
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Signer, seal_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes
from tests.lan.relay import Faults, Relay


def _net(tmp_path: Path, n: int, relay: Relay) -> NetOptions:
    return NetOptions(
        listen_host="127.0.0.1",
        announce=False,
        advertise_port=relay.port,
        home=tmp_path / f"peer{n}",
        pause_after=2.0,
        give_up_after=30.0,
        resend_after=0.5,
        linger=3.0,
    )


async def _relayed_game(tmp_path: Path, faults: Faults, seed: int) -> list[GameResult]:
    """A whole game between four in-process peers whose every link goes through a
    faulty relay (each peer's listener has one in front; the lobby does not)."""
    relays = [Relay(faults, seed * 10 + n) for n in range(4)]
    ids = [Identity.generate(f"p{n}") for n in range(4)]
    results: list[GameResult] = []
    opened = trio.Event()
    lobby_port: list[int] = []

    def events_for(n: int) -> OnLobby:
        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, TableOpen):
                relays[0].target = event.mesh_port
                lobby_port.append(event.lobby_port)
                opened.set()
            elif isinstance(event, GameStarting):
                relays[n].target = event.mesh_port

        return on_lobby

    async def peer(n: int) -> None:
        fe = BotFrontEnd(make_bot("random", seed * 10 + n))
        net = _net(tmp_path, n, relays[n])
        if n == 0:
            results.append(await host_game(ids[0], "relayed", fe, net=net, on_lobby=events_for(0)))
        else:
            await opened.wait()
            results.append(
                await join_game(
                    ids[n], "127.0.0.1", lobby_port[0], fe, net=net, on_lobby=events_for(n)
                )
            )

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for relay in relays:
                await nursery.start(relay.serve)
            async with trio.open_nursery() as players:
                for n in range(4):
                    players.start_soon(peer, n)
            nursery.cancel_scope.cancel()
    results.sort(key=lambda r: r.seat)
    # how the game ended says more than the count of cuts, so it goes first
    assert all(r.finished for r in results), [(r.seat, r.aborted) for r in results]
    assert sum(r.cuts for r in relays) >= (1 if faults.life else 0), [
        (r.frames, r.cuts) for r in relays
    ]
    return results


def _check(results: list[GameResult]) -> None:
    assert [r.seat for r in results] == [0, 1, 2, 3]
    assert all(r.finished for r in results), [(r.seat, r.aborted) for r in results]
    files = {r.store.transcript_path.read_bytes() for r in results}
    assert len(files) == 1, "the peers' transcripts differ"
    report = verify_bytes(files.pop())
    assert report.ok, report.verdict


async def test_dropped_connections_are_redialled_and_nothing_is_lost(tmp_path: Path) -> None:
    _check(await _relayed_game(tmp_path, Faults(life=0.7, first_cut_after=30), seed=1))


async def test_a_game_through_delaying_stalling_cutting_links(tmp_path: Path) -> None:
    # random lifetimes short enough that links are cut now and then, and a cut early
    # in the first deal that a short, fast game cannot outrun
    faults = Faults(delay=0.002, stall_chance=0.005, stall=0.3, life=0.8, first_cut_after=20)
    _check(await _relayed_game(tmp_path, faults, seed=2))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3, 9))
async def test_soak_faulty_links(tmp_path: Path, seed: int) -> None:
    faults = Faults(delay=0.01, stall_chance=0.02, stall=1.0, life=0.5)
    _check(await _relayed_game(tmp_path, faults, seed=seed))


async def test_garbage_from_a_connection_is_rejected_and_the_game_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    ids = [Identity.generate(f"p{n}") for n in range(4)]
    attacked = trio.Event()
    host_fe = HoldsItsChoices(make_bot("random", 1), attacked)
    started = trio.Event()
    where: list[GameStarting] = []

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, GameStarting):  # the game id: derived at the start
            where.append(event)
            started.set()

    async def attack() -> list[str]:
        """Speak for seat 3 on a second channel to the host, and for nobody on a third."""
        await started.wait()
        table = where[0]
        outcomes = []
        stranger = Identity.generate("stranger")
        try:
            await dial("127.0.0.1", table.mesh_port, stranger, context=table.game_id, attempts=1)
        except NetError as exc:
            outcomes.append(f"stranger refused: {type(exc).__name__}")
        # Attack early in the game, so it is still being played when the last frame goes.
        while not any(isinstance(e, ev.DealStarted) for e in host_fe.events):
            await trio.sleep(0.01)
        seat3 = Signer(ids[3].private_key)
        forged = seal_envelope(seat3, table.game_id, 0, 100, bytes(32), m.ReadyMsg())
        other = seal_envelope(Signer.generate(), table.game_id, 0, 0, bytes(32), m.ReadyMsg())
        early = seal_envelope(seat3, table.game_id, 1, 40, bytes(32), m.ReadyMsg())
        bad_sig = early.raw[:-3] + bytes(b ^ 0xFF for b in early.raw[-3:])
        async with await dial(
            "127.0.0.1",
            table.mesh_port,
            ids[3],
            expected_peer_key=ids[0].public_key,
            context=table.game_id,
            max_frame_size=MAX_MESH_FRAME * 2,
        ) as channel:
            for payload in (
                b"junk, not msgpack",
                lb.encode_control(lb.Hello("x", "", 1, bytes(16))),
                b"\x92" + b"\x00" * 40,
                forged.raw,
                other.raw,
                bad_sig,
                # Not ``early`` itself: a second envelope signed with seat 3's key for a
                # place seat 3 will fill is proof of equivocation, and ends the game.
            ):
                await channel.send(payload)
            await trio.sleep(0.2)
            await channel.send(b"\x92" + b"x" * (MAX_MESH_FRAME + 100))
            with trio.move_on_after(120):  # closed by the peer at once; this only ends a hang
                async for _ in channel:
                    pass
            outcomes.append(f"closed: {channel.close_reason}")
        return outcomes

    found: list[list[str]] = []
    async with trio.open_nursery() as nursery:

        async def run_attack() -> None:
            try:
                found.append(await attack())
            finally:
                attacked.set()

        nursery.start_soon(run_attack)
        results = await loopback_table(
            host_fe,
            ["random"] * 3,
            seed=3,
            transcript_dir=tmp_path,
            identities=ids,
            on_lobby=on_lobby,
        )
    _check(results)
    assert found[0][0].startswith("stranger refused")
    assert data_equal(results)
    rejected = [e.reason for e in host_fe.events if isinstance(e, ev.Rejected)]
    assert any("malformed envelope" in r for r in rejected), rejected
    assert any("not seated" in r for r in rejected), rejected
    assert any("too far ahead" in r or "bad signature" in r for r in rejected), rejected
    logged = caplog.text
    assert "ignored a payload from seat 3" in logged
    assert "lobby message" in logged
    assert "FrameTooLarge" in logged or "too large" in logged.lower()


class HoldsItsChoices(BotFrontEnd):
    """A bot that makes no choice until ``go`` is set: a game of bots can end before
    an attack's last frame arrives, and a game that is over reads no more frames."""

    def __init__(self, bot: Bot, go: trio.Event) -> None:
        super().__init__(bot)
        self.go = go

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, ev.ChoiceNeeded):
            await self.go.wait()
        await super().on_event(driver, event)


def data_equal(results: list[GameResult]) -> bool:
    return len({dump_transcript(r.transcript) for r in results}) == 1
