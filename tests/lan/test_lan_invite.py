"""Invite codes at a real table: host and joiners as processes on loopback (a wrong
code is told in words, the right one plays the game), and a script of ten wrong
codes against a host, which then tests no code until its person draws a new one."""

from __future__ import annotations

import secrets
from functools import partial
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.net.guesses import GuessPolicy, InviteGuard
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import (
    HostControl,
    InviteChanged,
    LobbyEvent,
    LobbyRefused,
    NetOptions,
    SeatsChanged,
    StillTrying,
    TableOpen,
    WrongCodeTried,
    host_game,
    hostlobby,
    join_game,
)
from tests.lan.helpers import PeerSet, bot_args, verify
from tests.netns import namespace_lan

LOCAL = "127.0.0.1"
GAME_TIMEOUT = 90.0


def test_an_invite_table_of_processes_refuses_a_wrong_code_and_plays_with_the_right(
    tmp_path: Path,
) -> None:
    belot = ("--game", "belot", "--players", "2")
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host", "host", "--auto-approve", "--no-announce", "--invite", *belot, *bot_args()
        )
        code = host.wait_for(r"joiners: p2pbelka join --invite (\d{6})", 20).group(1)
        assert host.wait_for(r"invite code: \d{3} \d{3}  \(([a-z, ]+)\)", 5)
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        where = ("--connect", f"{LOCAL}:{port}")
        wrong = f"{(int(code) + 1) % 10**6:06d}"
        stranger = peers.spawn("stranger", "join", *where, "--invite", wrong, *bot_args())
        assert peers.wait([stranger], 30) == [3]
        assert "the invite code is wrong" in stranger.log(), stranger.dump()
        guest = peers.spawn("guest", "join", *where, "--invite", code, *bot_args())
        everyone = [host, guest]
        assert peers.wait(everyone, GAME_TIMEOUT) == [0, 0], "\n".join(p.dump() for p in everyone)
        stats = [p.stats() for p in everyone]
        assert all(s["finished"] for s in stats)
        assert verify(Path(stats[0]["transcript"])).startswith("OK")
        assert "Traceback" not in "".join(p.log() for p in [*everyone, stranger])


async def test_ten_wrong_codes_from_a_script_use_up_the_hosts_code(tmp_path: Path) -> None:
    """A code the host chose; after ten wrong ones even it is not tested; the host's
    new code is six fresh digits and lets a joiner in."""
    chosen = "kitchen table"
    opened, changed, sat, spent = trio.Event(), trio.Event(), trio.Event(), trio.Event()
    port = 0
    changes: list[InviteChanged] = []
    tried: list[WrongCodeTried] = []
    controls: list[HostControl] = []

    async def on_lobby(event: LobbyEvent) -> None:
        nonlocal port
        if isinstance(event, TableOpen):
            port = event.lobby_port
            opened.set()
        elif isinstance(event, InviteChanged):
            changes.append(event)
            changed.set()
        elif isinstance(event, WrongCodeTried):
            tried.append(event)
            if event.failures == event.limit:
                spent.set()
        elif isinstance(event, SeatsChanged):
            if event.host_control is not None:
                controls.append(event.host_control)
            if all(event.state.seats):
                sat.set()

    def net(name: str) -> NetOptions:
        return NetOptions(listen_host=LOCAL, announce=False, home=tmp_path / name)

    async def join(code: str, name: str = "guest") -> None:
        await join_game(
            Identity.generate(name),
            LOCAL,
            port,
            BotFrontEnd(make_bot("random")),
            net=net(name),
            invite=code,
        )

    async def host() -> None:
        await host_game(
            Identity.generate("host"),
            "Invite only",
            BotFrontEnd(make_bot("random", 0)),
            net=net("host"),
            on_lobby=on_lobby,
            invite=chosen,
            game="belot",
            players=2,
        )

    async with trio.open_nursery() as nursery:
        nursery.start_soon(host)
        await opened.wait()
        for n in range(10):
            with pytest.raises(LobbyRefused, match="the invite code is wrong"):
                await join(f"guess {n:04d}", f"script{n}")
        await spent.wait()
        assert [t.failures for t in tried] == list(range(1, 11))  # the host saw each
        assert [(g.address, g.failures) for g in tried[-1].guessers] == [(LOCAL, 10)]
        with pytest.raises(LobbyRefused, match="used up"):
            await join(chosen)  # not even the right code is tested now
        assert not changes
        controls[-1].new_code()
        await changed.wait()
        assert len(changes) == 1 and changes[0].failures == 10
        new = changes[0].code
        assert len(new.replace(" ", "")) == 6 and new.replace(" ", "").isdigit()
        with pytest.raises(LobbyRefused, match="the invite code is wrong"):
            await join(chosen)  # the old code is spent
        nursery.start_soon(join, new)
        await sat.wait()
        nursery.cancel_scope.cancel()


async def test_a_friend_after_a_wrong_code_from_its_address_waits_the_pause_and_sits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, autojump_clock: MockClock
) -> None:
    """A wrong code, then the right one from the same address (a stranger, then a
    friend at the same machine): the host tests nothing from there for a moment, and
    the friend's ``join`` waits that out on its own and sits.  Loopback is guarded here
    as any address on a LAN is (it is let off by default); on the mock clock, the
    pause passes at once."""
    guarded = partial(InviteGuard, policy=GuessPolicy(exempt_loopback=False))
    monkeypatch.setattr(hostlobby, "InviteGuard", guarded)
    opened, sat = trio.Event(), trio.Event()
    told: list[LobbyEvent] = []  # the host's lobby events, then the joiners'

    async def tell(event: LobbyEvent) -> None:
        told.append(event)
        if isinstance(event, TableOpen):
            opened.set()
        if isinstance(event, SeatsChanged) and all(event.state.seats):
            sat.set()

    async def join(code: str, name: str) -> None:
        (table,) = [e for e in told if isinstance(e, TableOpen)]
        net = NetOptions(listen_host=LOCAL, announce=False, home=tmp_path / name)
        front = BotFrontEnd(make_bot("random"))
        await join_game(
            Identity.generate(name), LOCAL, table.lobby_port, front, net=net, invite=code,
            on_lobby=tell,
        )  # fmt: skip

    async with trio.open_nursery() as nursery:
        net = NetOptions(listen_host=LOCAL, announce=False, home=tmp_path / "host")
        nursery.start_soon(
            partial(host_game, Identity.generate("host"), "Invite only",
                    BotFrontEnd(make_bot("random", 0)), net=net, on_lobby=tell,
                    invite="kitchen 42", game="belot", players=2)
        )  # fmt: skip
        await opened.wait()
        with pytest.raises(LobbyRefused, match="the invite code is wrong"):
            await join("kitchen 24", "stranger")
        wrong_at = trio.current_time()
        nursery.start_soon(join, "KITCHEN-42", "friend")
        await sat.wait()
        waited = trio.current_time() - wrong_at
        nursery.cancel_scope.cancel()
    tries = [e for e in told if isinstance(e, StillTrying)]
    assert any(t.why == "the host waits a moment after a wrong code" for t in tries), tries
    assert waited > GuessPolicy().first_wait - 0.01, waited  # (the mock clock's float sums)


@pytest.mark.netns
def test_an_invite_table_across_namespaces(tmp_path: Path) -> None:
    """Three machines on one bridge: a stranger's wrong code is refused in words; the
    joiner finds the table by its beacons, and the code the host chose plays the game.
    (From the stranger's machine it would first wait out the host's pause after a wrong
    code: the test above.)"""
    beacon = str(40000 + secrets.randbelow(20000))
    bots = ["--bot", "random", "--quiet", "--stats", "--beacon-port", beacon]
    belot = ["--game", "belot", "--players", "2"]
    with namespace_lan(3, "10.81.0") as lan, PeerSet(tmp_path) as peers:
        (ns0, ns1, ns2), (addr0, addr1, addr2) = lan.namespaces, lan.addresses
        host = peers.spawn(
            "host", "host", "--auto-approve", "--table", "Invite only", "--invite", "kitchen 42",
            *belot, *bots, "--listen", addr0, "--interface", addr0, netns=ns0,
        )  # fmt: skip
        host.wait_for(r"lobby port (\d+)", 20)
        find = ["join", "--table", "Invite only", "--wait", "15", *bots]
        elsewhere = ["--listen", addr2, "--interface", addr2]
        stranger = peers.spawn("stranger", *find, "--invite", "kitchen 24", *elsewhere, netns=ns2)
        assert peers.wait([stranger], 60) == [3], stranger.dump()
        assert "the invite code is wrong" in stranger.log()
        where = ["--listen", addr1, "--interface", addr1]
        guest = peers.spawn("guest", *find, "--invite", "KITCHEN-42", *where, netns=ns1)
        assert peers.wait([host, guest], 120) == [0, 0], host.dump() + guest.dump()
        assert verify(host.transcript()).startswith("OK")
