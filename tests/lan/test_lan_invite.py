"""Invite codes at a real table: host and joiners as processes on loopback (a wrong
code is told in words, the right one plays the game), and a script of ten wrong
codes against a host, which then tests no code until its person draws a new one."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import (
    HostControl,
    InviteChanged,
    LobbyEvent,
    LobbyRefused,
    NetOptions,
    SeatsChanged,
    TableOpen,
    WrongCodeTried,
    host_game,
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


@pytest.mark.netns
def test_an_invite_table_across_two_namespaces(tmp_path: Path) -> None:
    """Two machines on one bridge: the joiner finds the table by its beacons, a wrong
    code is refused in words, the code the host chose plays the game."""
    beacon = str(40000 + secrets.randbelow(20000))
    bots = ["--bot", "random", "--quiet", "--stats", "--beacon-port", beacon]
    belot = ["--game", "belot", "--players", "2"]
    with namespace_lan(2, "10.81.0") as lan, PeerSet(tmp_path) as peers:
        (ns0, ns1), (addr0, addr1) = lan.namespaces, lan.addresses
        host = peers.spawn(
            "host", "host", "--auto-approve", "--table", "Invite only", "--invite", "kitchen 42",
            *belot, *bots, "--listen", addr0, "--interface", addr0, netns=ns0,
        )  # fmt: skip
        host.wait_for(r"lobby port (\d+)", 20)
        find = ["join", "--table", "Invite only", "--wait", "15", *bots]
        where = ["--listen", addr1, "--interface", addr1]
        stranger = peers.spawn("stranger", *find, "--invite", "kitchen 24", *where, netns=ns1)
        assert peers.wait([stranger], 60) == [3], stranger.dump()
        assert "the invite code is wrong" in stranger.log()
        guest = peers.spawn("guest", *find, "--invite", "KITCHEN-42", *where, netns=ns1)
        assert peers.wait([host, guest], 120) == [0, 0], host.dump() + guest.dump()
        assert verify(host.transcript()).startswith("OK")
