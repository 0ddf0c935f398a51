"""Every game ends, on real sockets: a seat whose connections keep coming back and
failing is not a person deciding at leisure; it is given up on like a silent one,
and every other seat's game ends with the reason."""

from __future__ import annotations

import contextlib
from pathlib import Path

import trio
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.net.connection import SecureChannel, dial
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.lan import (
    GameResult,
    GameStarting,
    LobbyEvent,
    NetOptions,
    OnLobby,
    TableOpen,
)
from p2pbelka.peer.mesh import FLAPS, MAX_MESH_FRAME
from p2pbelka.table import events as ev
from tests.lan.helpers import host_or_join

VICTIM = 3


class StuckAtThree(BotFrontEnd):
    """A bot, but the seat that is seat 3 stops for good when first asked for a card."""

    def __init__(self, n: int, stuck: trio.Event) -> None:
        super().__init__(make_bot("random", n))
        self.stuck = stuck

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if driver.table.state.me == VICTIM and isinstance(event, ev.ChoiceNeeded):
            self.stuck.set()
            await trio.sleep_forever()
        await super().on_event(driver, event)


async def _flap(identity: Identity, game_id: bytes, ports: dict[int, int], done: trio.Event) -> int:
    """Speak for seat 3 to every other seat, again and again: each connection stays up a
    while, then fails (a frame too large) just after the next one is up, so the seat
    always looks connected.  Returns how many connections it made."""
    made = 0

    async def fail(channel: SecureChannel) -> None:
        with contextlib.suppress(NetError):
            await channel.send(b"\x92" + b"x" * (MAX_MESH_FRAME + 100))
            await trio.sleep(0.1)
        await channel.aclose()

    async def one(seat: int) -> None:
        nonlocal made
        previous: SecureChannel | None = None
        while not done.is_set():
            try:
                channel = await dial(
                    "127.0.0.1",
                    ports[seat],
                    identity,
                    context=game_id,
                    attempts=1,
                    max_frame_size=MAX_MESH_FRAME * 2,
                )
            except NetError:
                await trio.sleep(0.1)
                continue
            made += 1
            with contextlib.suppress(NetError):
                await channel.send(b"not an envelope")  # dropped; the link stays up
            if previous is not None:
                await fail(previous)
            previous = channel
            await trio.sleep(1.0)
        if previous is not None:
            await previous.aclose()

    async with trio.open_nursery() as nursery:
        for seat in ports:
            nursery.start_soon(one, seat)
    return made


async def test_a_peer_that_keeps_reconnecting_and_failing_is_given_up_on(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    ids = [Identity.generate(f"p{n}") for n in range(4)]
    stuck = trio.Event()
    opened = trio.Event()
    lobby_port: list[int] = []
    ports: dict[int, int] = {}
    identity_at: dict[int, Identity] = {}
    game: list[bytes] = []
    scopes = [trio.CancelScope() for _ in range(4)]
    scope_at: dict[int, trio.CancelScope] = {}
    results: list[GameResult] = []
    front_ends = [StuckAtThree(n, stuck) for n in range(4)]

    def events_for(n: int) -> OnLobby:
        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, TableOpen):
                lobby_port.append(event.lobby_port)
                opened.set()
            elif isinstance(event, GameStarting):
                ports[event.seat], identity_at[event.seat] = event.mesh_port, ids[n]
                scope_at[event.seat] = scopes[n]
                game[:] = [event.game_id]

        return on_lobby

    async def peer(n: int) -> None:
        net = NetOptions(
            listen_host="127.0.0.1",
            announce=False,
            home=tmp_path / f"peer{n}",
            pause_after=1.0,
            give_up_after=3.0,
            resend_after=0.5,
            linger=1.0,
            seat_bots=False,  # the ending itself is tested here, not a bot in the seat
        )
        with scopes[n]:
            result = await host_or_join(
                n, ids, "flapping", front_ends, net, events_for(n), opened, lobby_port
            )
            results.append(result)

    made: list[int] = []
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            for n in range(4):
                nursery.start_soon(peer, n)
            await stuck.wait()
            scope_at[VICTIM].cancel()  # seat 3's process is gone for good ...
            others = {s: p for s, p in ports.items() if s != VICTIM}
            done = trio.Event()

            async def impostor() -> None:  # ... and its key keeps coming back, failing
                made.append(await _flap(identity_at[VICTIM], game[0], others, done))

            nursery.start_soon(impostor)
            while len(results) < 3:
                await trio.sleep(0.1)
            done.set()
    assert made[0] >= FLAPS * 3
    assert sorted(r.seat for r in results) == [0, 1, 2]
    for result in results:
        assert result.aborted
    for n, front_end in enumerate(front_ends):
        if scopes[n] is scope_at[VICTIM]:
            continue
        (ended,) = [e for e in front_end.events if isinstance(e, ev.GameAborted)]
        assert VICTIM in [f.seat for f in ended.faults], ended
