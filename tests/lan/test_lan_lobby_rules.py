"""A lobby for any game: Belot seating plans, and the host changing the rules over real
sockets (every joiner un-readied, a ready for old rules ignored, the game started
with the rules the joiners last saw)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from p2pbelka.bots import make_bot
from p2pbelka.cli.terminal_door import TerminalDoor
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import (
    LobbyControl,
    LobbyEvent,
    LobbyRefused,
    NetOptions,
    OnLobby,
    SeatsChanged,
    TableOpen,
    TableRules,
    host_game,
    join_game,
)
from p2pbelka.protocol import lobby as codec
from p2pbelka.table import events as ev

GAME = bytes(16)


def _plan(
    variant: str = "belot", seats: int = 3, **rules: str
) -> tuple[lb.SeatingPlan, list[bytes]]:
    keys = [Identity.generate().public_key for _ in range(4)]
    host = lb.Sitter(keys[0], "Host", "", 1000, bytes(16))
    plan = lb.SeatingPlan(GAME, "t", "classic", dict(rules), host, variant=variant, n_seats=seats)
    return plan, keys


def test_a_belot_plan_has_two_or_three_seats() -> None:
    plan, keys = _plan()
    assert plan.free == 2 and len(plan.state().seats) == 3
    plan.sit(keys[1], lb.Hello("A", "", 2001, bytes(16)), "10.77.0.2")
    with pytest.raises(ValueError, match=r"seats 0\.\.2, not 3"):
        plan.move(keys[1], 3)
    plan.sit(keys[2], lb.Hello("B", "", 2002, bytes(16)), "10.77.0.3")
    with pytest.raises(ValueError, match="full"):
        plan.sit(keys[3], lb.Hello("C", "", 2003, bytes(16)), "10.77.0.4")
    plan.set_ready(keys[1], True)
    plan.set_ready(keys[2], True)
    setup = plan.setup()
    assert setup.game == "belot" and len(setup.seats) == 3 and len(plan.peers()) == 3
    state = plan.state()
    assert codec.decode_control(codec.encode_control(state)) == state
    assert state.variant == "belot"
    two, _ = _plan(seats=2)
    assert len(two.state().seats) == 2


@pytest.mark.parametrize(
    ("variant", "seats", "options", "why"),
    [
        ("belot", 4, {}, "Belot is played by 2 or 3, not 4"),
        ("belka", 3, {}, "Belka is played by 4, not 3"),
        ("poker", 4, {}, "unknown game 'poker'"),
        ("belot", 3, {"eggs": "double"}, "unknown option 'eggs'"),
        ("belot", 3, {"four_sevens": "500"}, "four_sevens"),
    ],
)
def test_a_table_the_game_refuses_is_named_in_words(
    variant: str, seats: int, options: dict[str, str], why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        _plan(variant, seats, **options)


def test_changing_the_rules_unreadies_every_joiner_and_old_readies_do_not_count() -> None:
    plan, keys = _plan()
    plan.sit(keys[1], lb.Hello("A", "", 2001, bytes(16)), "10.77.0.2")
    plan.sit(keys[2], lb.Hello("B", "", 2002, bytes(16)), "10.77.0.3")
    plan.set_ready(keys[1], True, 0)
    assert plan.set_rules("classic", {"four_sevens": "50"})
    assert plan.rules == 1 and not plan.complete
    assert [s.ready for s in plan.seats if s is not None] == [True, False, False]
    with pytest.raises(ValueError, match="revision 0, but the rules are now revision 1"):
        plan.set_ready(keys[2], True, 0)
    plan.set_ready(keys[2], False, 0)  # not ready always counts
    assert not plan.set_rules("classic", {"four_sevens": "50"})  # no change, no revision
    with pytest.raises(ValueError, match="four_eights"):
        plan.set_rules("classic", {"four_eights": "x"})
    assert plan.rules == 1 and plan.options == {"four_sevens": "50"}
    plan.set_ready(keys[1], True, 1)
    plan.set_ready(keys[2], True, 1)
    assert plan.complete and plan.setup().options == {"four_sevens": "50"}


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await trio.sleep(0.01)


async def test_the_host_changes_the_rules_in_the_lobby(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 1 says ready by itself (a bot), seats 2 and 3 are people."""
    ids = [Identity.generate(f"p{n}") for n in range(4)]
    host_seen: list[LobbyEvent] = []
    joiner_seen: dict[int, list[LobbyEvent]] = {1: [], 2: [], 3: []}
    host_fe = BotFrontEnd(make_bot("random", 0))

    def net(n: int) -> NetOptions:
        return NetOptions(listen_host="127.0.0.1", announce=False, home=tmp_path / f"p{n}")

    async def record(event: LobbyEvent) -> None:
        host_seen.append(event)

    def joiner_events(n: int) -> OnLobby:
        async def on_lobby(event: LobbyEvent) -> None:
            joiner_seen[n].append(event)

        return on_lobby

    def last_state() -> codec.LobbyState:
        return [e.state for e in host_seen if isinstance(e, SeatsChanged)][-1]

    def ready(seat: int) -> bool:
        view = last_state().seats[seat]
        return view is not None and view.ready

    def control(n: int) -> LobbyControl:
        changes = [e for e in joiner_seen[n] if isinstance(e, SeatsChanged) and e.control]
        assert changes and changes[-1].control is not None
        return changes[-1].control

    door = TerminalDoor(record)
    port: list[int] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:

            async def host() -> None:
                await host_game(ids[0], "Rules", host_fe, net=net(0), on_lobby=door.on_lobby)

            nursery.start_soon(host)
            await _until(lambda: any(isinstance(e, TableOpen) for e in host_seen))
            port.append(next(e.lobby_port for e in host_seen if isinstance(e, TableOpen)))
            for n in (1, 2, 3):
                fe = BotFrontEnd(make_bot("random", n))

                async def join(n: int = n, fe: BotFrontEnd = fe) -> None:
                    await join_game(
                        ids[n],
                        "127.0.0.1",
                        port[0],
                        fe,
                        net=net(n),
                        on_lobby=joiner_events(n),
                        ready=n == 1,
                    )

                nursery.start_soon(join)
                await _until(lambda n=n: last_state().seat_of(ids[n].public_key) == n)
            # A joiner reads the game and rules first, before it has a seat.
            first = next(e for e in joiner_seen[2] if isinstance(e, TableRules | SeatsChanged))
            assert isinstance(first, TableRules) and first.state.variant == "belka"
            assert first.state.seat_of(ids[2].public_key) is None
            await control(2).ready(True)
            await _until(lambda: ready(1) and ready(2))

            await door.command("set eggs=double")
            assert "not changed" not in capsys.readouterr().out
            assert last_state().rules == 1 and last_state().options == {"eggs": "double"}
            assert not ready(2) and not ready(3)
            await _until(lambda: ready(1))  # the bot says ready again for the new rules
            await _until(
                lambda: any(isinstance(e, TableRules) and e.changed for e in joiner_seen[3])
            )

            await door.command("set trump_order=sideways")
            assert "not changed: option trump_order" in capsys.readouterr().out
            await door.command("rules")
            assert "eggs=double" in capsys.readouterr().out

            stale = control(3)
            stale.rules = 0  # as if it had said ready before the change reached it
            await stale.ready(True)
            await control(2).ready(True)
            await _until(lambda: ready(2))
            assert not ready(3)
            await control(3).ready(True)
            await _until(lambda: any(isinstance(e, ev.GameStarted) for e in host_fe.events))
            nursery.cancel_scope.cancel()
    started = next(e for e in host_fe.events if isinstance(e, ev.GameStarted))
    assert started.options.get("eggs") == "double"


async def test_a_joiner_leaves_a_table_of_a_game_it_does_not_play(tmp_path: Path) -> None:
    """A host of a newer version offers a game this one does not know: the joiner says
    so and sits nowhere."""
    me = Identity.generate("joiner")
    host_id = Identity.generate("host")
    from p2pbelka.net.connection import serve_secure
    from p2pbelka.peer.lobby import LOBBY_CONTEXT

    async def newer_host(channel: object) -> None:
        state = codec.LobbyState(GAME, "t", "classic", {}, (None, None), "durak")
        await channel.send(codec.encode_control(state))  # type: ignore[attr-defined]
        await trio.sleep(5)

    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            lambda task_status: serve_secure(
                newer_host,
                host_id,
                host="127.0.0.1",
                port=0,
                context=LOBBY_CONTEXT,
                task_status=task_status,
            )
        )
        with pytest.raises(LobbyRefused, match="cannot play that table: unknown game 'durak'"):
            await join_game(
                me,
                "127.0.0.1",
                port,
                BotFrontEnd(make_bot("random")),
                net=NetOptions(listen_host="127.0.0.1", announce=False, home=tmp_path),
            )
        nursery.cancel_scope.cancel()
