"""The host's door over real sockets: it decides who sits, can remove a seat, and a
joiner pins the host's key and keeps trying while the host does not answer."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.net.connection import SecureChannel, dial
from p2pbelka.net.identity import Identity, normal_pin
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import (
    AwaitingApproval,
    GameStarting,
    HostControl,
    HostReached,
    JoinersAsking,
    JoinRequest,
    LobbyEvent,
    LobbyRefused,
    NetOptions,
    OnLobby,
    SeatsChanged,
    StillTrying,
    TableOpen,
    host_game,
    join_game,
)
from tests.lan.helpers import PeerSet, bot_args

LOCAL = "127.0.0.1"


class Host:
    """A host whose door the test opens key by key."""

    def __init__(self, tmp_path: Path) -> None:
        self.identity = Identity.generate("host")
        self.tmp_path = tmp_path
        self.opened = trio.Event()
        self.port = 0
        self.asking: tuple[JoinRequest, ...] = ()
        self.decisions: dict[bytes, tuple[trio.Event, list[bool]]] = {}
        self.control: HostControl | None = None
        self.state: SeatsChanged | None = None
        self.started = trio.Event()

    def net(self, name: str, **kw: object) -> NetOptions:
        return NetOptions(listen_host=LOCAL, announce=False, home=self.tmp_path / name, **kw)  # type: ignore[arg-type]

    async def approve(self, request: JoinRequest) -> bool:
        decided, answer = self.decisions.setdefault(request.key, (trio.Event(), []))
        await decided.wait()
        return answer == [True]

    def decide(self, key: bytes, admit: bool) -> None:
        decided, answer = self.decisions.setdefault(key, (trio.Event(), []))
        answer.append(admit)
        decided.set()

    async def on_lobby(self, event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            self.port = event.lobby_port
            self.opened.set()
        elif isinstance(event, JoinersAsking):
            self.asking = event.requests
        elif isinstance(event, SeatsChanged):
            self.state, self.control = event, event.host_control or self.control
        elif isinstance(event, GameStarting):
            self.started.set()

    async def run(self, lobby_port: int = 0) -> None:
        fe = BotFrontEnd(make_bot("random", 0))
        await host_game(
            self.identity,
            "Door test",
            fe,
            net=self.net("host", lobby_port=lobby_port),
            on_lobby=self.on_lobby,
            approve=self.approve,
        )

    def seated(self) -> list[bytes]:
        assert self.state is not None
        return [s.key for s in self.state.state.seats if s is not None]


async def until(condition: object) -> None:
    with trio.fail_after(60):
        while not condition():  # type: ignore[operator]
            await trio.sleep(0.01)


def recorder(events: list[LobbyEvent]) -> OnLobby:
    async def on_lobby(event: LobbyEvent) -> None:
        events.append(event)

    return on_lobby


async def test_the_host_decides_who_sits_and_can_remove_a_seat(tmp_path: Path) -> None:
    host = Host(tmp_path)
    strangers = [Identity.generate(f"stranger{n}") for n in range(3)]
    friend = Identity.generate("friend")
    outcomes: dict[str, str] = {}
    heard: dict[str, list[LobbyEvent]] = {}

    async def join(identity: Identity) -> None:
        heard[identity.name] = events = []
        try:
            await join_game(
                identity,
                LOCAL,
                host.port,
                BotFrontEnd(make_bot("random")),
                net=host.net(identity.name),
                on_lobby=recorder(events),
            )
        except LobbyRefused as exc:
            outcomes[identity.name] = str(exc)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run)
        await host.opened.wait()
        for stranger in strangers:  # one person with three keys, all ready at once
            nursery.start_soon(join, stranger)
        await until(lambda: len(host.asking) == 3)
        # Nobody sits before the host says so: the game cannot start by itself.
        assert host.seated() == [host.identity.public_key]
        assert {r.fingerprint for r in host.asking} == {s.fingerprint for s in strangers}
        # The host counts a joiner as asking before the joiner hears it is waiting.
        await until(lambda: isinstance((heard["stranger0"] or [None])[-1], AwaitingApproval))
        assert all(isinstance(e, AwaitingApproval) for e in (heard["stranger0"][-1],))
        host.decide(strangers[0].public_key, False)
        host.decide(strangers[1].public_key, True)
        await until(lambda: "stranger0" in outcomes and len(host.seated()) == 2)
        assert "did not let you in" in outcomes["stranger0"]
        # Seated, then removed before the start: told why, and not let back in.
        assert host.control is not None
        seat = host.seated().index(strangers[1].public_key)
        assert await host.control.remove(seat)
        await until(lambda: "stranger1" in outcomes)
        assert "removed" in outcomes["stranger1"]
        assert host.seated() == [host.identity.public_key]
        nursery.start_soon(join, strangers[1])
        await until(lambda: len(heard["stranger1"]) and "stranger1" in outcomes)
        assert "removed" in outcomes["stranger1"]
        assert not host.started.is_set()
        # Let the friend and the last stranger in: now the game starts.
        nursery.start_soon(join, friend)
        await until(lambda: len(host.asking) == 2)
        host.decide(friend.public_key, True)
        host.decide(strangers[2].public_key, True)
        await until(lambda: len(host.seated()) == 3)
        assert not host.started.is_set()
        assert not await host.control.remove(0)  # the host's own seat stays
        nursery.cancel_scope.cancel()


async def _ask_raw(host: Host, identity: Identity, hello: object) -> SecureChannel:
    """A joiner (or watcher) speaking the real handshake and codec: its ``hello`` sent,
    the host's ``wait`` read."""
    channel = await dial(
        LOCAL, host.port, identity, expected_peer_key=host.identity.public_key,
        context=lb.LOBBY_CONTEXT,
    )  # fmt: skip
    await channel.receive()  # the lobby
    await channel.send(lb.encode_control(hello))  # type: ignore[arg-type]
    while not isinstance(lb.decode_control(await channel.receive()), lb.Wait):
        pass
    return channel


async def test_who_leaves_while_the_host_decides_is_asked_about_no_longer(
    tmp_path: Path,
) -> None:
    """A joiner, or someone asking to watch, whose connection closes while the host's
    person has not answered: its request leaves the host's list at once (the host was
    shown "Asking to sit down: Bolat" after Bolat pressed Ctrl-C).  What a joiner sends
    while it waits (a seat it moves to) is taken once it is let in."""
    host = Host(tmp_path)
    bolat, dana, saule = (Identity.generate(n) for n in ("Bolat", "Dana", "Saule"))
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run)
        await host.opened.wait()
        for who, hello in ((bolat, lb.Hello("Bolat", "", 1, bytes(16))), (dana, lb.Watch("Dana"))):
            channel = await _ask_raw(host, who, hello)
            await until(lambda name=who.name: [r.name for r in host.asking] == [name])
            await channel.aclose()  # Ctrl-C
            await until(lambda: not host.asking)
        assert not any(decided.is_set() for decided, _answer in host.decisions.values())
        # Saule moves to seat 2 while she waits: she sits there once let in
        channel = await _ask_raw(host, saule, lb.Hello("Saule", "", 1, bytes(16)))
        await channel.send(lb.encode_control(lb.TakeSeat(2)))
        await until(lambda: host.asking)
        host.decide(saule.public_key, True)
        await until(lambda: len(host.seated()) == 2)
        assert host.state is not None
        assert host.state.state.seat_of(saule.public_key) == 2
        await channel.aclose()
        nursery.cancel_scope.cancel()


async def test_a_pinned_fingerprint_is_checked_and_a_wrong_one_refused(tmp_path: Path) -> None:
    host = Host(tmp_path)
    joiner = Identity.generate("joiner")
    events: list[LobbyEvent] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(host.run)
        await host.opened.wait()
        wrong = normal_pin(Identity.generate().fingerprint)
        with pytest.raises(LobbyRefused, match="not the host's"):  # at once, no retries
            await join_game(
                joiner, LOCAL, host.port, BotFrontEnd(make_bot("random")), host_pin=wrong
            )
        nursery.start_soon(
            lambda: join_game(
                joiner,
                LOCAL,
                host.port,
                BotFrontEnd(make_bot("random")),
                host_pin=normal_pin(host.identity.fingerprint),
                net=host.net("joiner"),
                on_lobby=recorder(events),
            )
        )
        await until(lambda: any(isinstance(e, HostReached) for e in events))
        (reached,) = [e for e in events if isinstance(e, HostReached)]
        assert reached.pinned and reached.fingerprint == host.identity.fingerprint
        nursery.cancel_scope.cancel()


async def test_a_joiner_keeps_trying_until_the_host_answers(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    host = Host(tmp_path)
    with socket.socket() as probe:
        probe.bind((LOCAL, 0))
        port = probe.getsockname()[1]
    events: list[LobbyEvent] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(
            lambda: join_game(
                Identity.generate("patient"),
                LOCAL,
                port,
                BotFrontEnd(make_bot("random")),
                net=host.net("patient"),
                on_lobby=recorder(events),
            )
        )
        # three tries (0.5, 1 and 2 s apart) show the backing off; a fourth waited 4 s more
        await until(lambda: sum(isinstance(e, StillTrying) for e in events) >= 3)
        tries = [e for e in events if isinstance(e, StillTrying)]
        assert tries[-1].retry_in > tries[0].retry_in  # backing off
        nursery.start_soon(host.run, port)
        await until(lambda: len(host.asking) == 1)
        reached = [e for e in events if isinstance(e, HostReached)]
        assert reached and not reached[0].pinned  # the user is told to compare
        nursery.cancel_scope.cancel()


async def test_an_invite_code_keeps_out_who_lacks_it(tmp_path: Path) -> None:
    host = Host(tmp_path)
    code = "table-for-four-only"

    async def run_host() -> None:
        await host_game(
            host.identity,
            "Invite only",
            BotFrontEnd(make_bot("random", 0)),
            net=host.net("host"),
            on_lobby=host.on_lobby,
            invite=code,
        )

    events: list[LobbyEvent] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_host)
        await host.opened.wait()
        refusals = ((None, "wants an invite code"), ("table-for-five", "invite code is wrong"))
        for wrong, why in refusals:
            with pytest.raises(LobbyRefused, match=why):
                await join_game(
                    Identity.generate(), LOCAL, host.port, BotFrontEnd(make_bot("random")),
                    invite=wrong,
                )  # fmt: skip
        nursery.start_soon(
            lambda: join_game(
                Identity.generate("invited"),
                LOCAL,
                host.port,
                BotFrontEnd(make_bot("random")),
                net=host.net("invited"),
                on_lobby=recorder(events),
                invite="TABLE FOR FOUR ONLY",
            )
        )
        await until(lambda: host.state is not None and len(host.seated()) == 2)
        nursery.cancel_scope.cancel()


def test_join_table_refuses_a_name_two_hosts_answer_to(tmp_path: Path) -> None:
    """Two hosts call their table "Kitchen" (beacons sent to 127.0.0.1, not multicast):
    ``join --table Kitchen`` lists both with a warning and sits at neither;
    ``--table FINGERPRINT`` picks one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind((LOCAL, 0))
        beacon = str(probe.getsockname()[1])
    where = ["--group", LOCAL, "--beacon-port", beacon]
    with PeerSet(tmp_path) as peers:
        hosts = [
            peers.spawn(f"host{n}", "host", "--auto-approve", "--name", "Kitchen",
                        *bot_args(*where))
            for n in (1, 2)
        ]  # fmt: skip
        for host in hosts:
            host.wait_for(r"lobby port (\d+)", 30)
        joiner = peers.spawn(
            "joiner", "join", "--table", "kitchen", "--wait", "30", *bot_args(*where)
        )
        assert peers.wait([joiner], 120) == [3]
        assert "names tables of 2 different hosts" in joiner.log()
        assert joiner.text().count("another host uses a name like this") == 2
        fingerprint = hosts[1].wait_for(r"you are .+? \[([0-9a-f ]+)\]", 10).group(1)
        chooser = peers.spawn(
            "chooser", "join", "--table", fingerprint, "--wait", "3", *bot_args(*where)
        )
        chooser.wait_for(rf"joining Kitchen at \S+ \[{fingerprint}\]", 120)
