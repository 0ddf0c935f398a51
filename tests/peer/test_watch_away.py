"""A watcher whose host went away: when it dials again (``Away``, sans-IO, and on
trio's MockClock), and over real loopback sockets, a host whose listener is gone and
comes back on the same port (a resumed host) or never does (the mock clock too: the
sockets are real, the seconds away pass at once)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.net.connection import SecureChannel, serve_secure
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.watch import WatchResult, watch_game
from p2pbelka.peer.watchaway import AWAY_FOR, FIRST_BACK, LAST_BACK, Away
from p2pbelka.protocol.transcript import dump_transcript
from tests.audit import verify_bytes
from tests.peer.test_watch import GAME, Front, _lobby, _seat


def _dials(away: Away, start: float, back_at: float | None = None) -> list[float]:
    """When a watcher whose feed broke at ``start`` dials, until the host is back at
    ``back_at`` (None: never) or the wait is over."""
    now, dials = start, []
    while (delay := away.lost(now)) is not None:
        now += delay
        dials.append(now)
        if back_at is not None and now >= back_at:
            away.fed()
            break
    return dials


def test_a_watcher_dials_again_at_a_doubling_step_until_the_end_of_its_wait() -> None:
    away = Away(30.0)
    dials = _dials(away, 100.0)
    assert dials[:4] == [101.0, 103.0, 107.0, 111.0]  # 1 s, 2 s, then 4 s each
    assert all(b - a <= LAST_BACK for a, b in itertools.pairwise(dials))
    assert dials[-1] == 130.0  # the last at the end of the wait, none after
    assert away.lost(130.0) is None and away.left(130.0) == 0.0
    assert AWAY_FOR >= 60 and FIRST_BACK == 1.0


def test_a_record_fed_ends_the_absence_and_the_next_loss_waits_anew() -> None:
    away = Away(20.0)
    assert _dials(away, 0.0, back_at=6.0) == [1.0, 3.0, 7.0]  # a resume in some 6 s
    assert away.since is None and away.left(50.0) == 0.0
    # the host goes away again much later: a whole new wait, from the first step
    assert _dials(away, 500.0)[:2] == [501.0, 503.0]
    assert _dials(Away(0.0), 0.0) == []  # no wait: the watch stops at the first loss


async def test_on_the_mock_clock_a_host_back_in_seconds_is_found_and_one_gone_is_left(
    autojump_clock: MockClock,
) -> None:
    async def follow(back_at: float | None) -> tuple[list[float], float]:
        away, start, dials = Away(60.0), trio.current_time(), []
        while (delay := away.lost(trio.current_time())) is not None:
            await trio.sleep(delay)
            dials.append(trio.current_time() - start)
            if back_at is not None and dials[-1] >= back_at:
                break
        return dials, trio.current_time() - start

    back, _ = await follow(6.0)
    assert back == [1.0, 3.0, 7.0]
    gone, stopped = await follow(None)
    assert stopped == pytest.approx(60.0) and len(gone) == 2 + 57 // 4 + 1


async def _host_away(
    tmp: Path, cut: int, back_after: float | None, away_for: float
) -> tuple[WatchResult, Front, list[int]]:
    """A host's lobby that feeds ``cut`` records and stops listening (its program was
    killed); after ``back_after`` seconds it listens on the same port again and feeds
    the rest from where the watcher asks (resumed), or never comes back (None)."""
    host = _seat(0)
    asked: list[int] = []
    gone = trio.Event()
    first = trio.CancelScope()

    async def handler(channel: SecureChannel) -> None:
        await channel.send(lb.encode_control(_lobby()))
        watch = lb.decode_control(await channel.receive())
        assert isinstance(watch, lb.Watch)
        asked.append(watch.start)
        await channel.send(lb.encode_control(lb.Watching("off")))
        end = cut if len(asked) == 1 else len(GAME)
        for envelope in GAME[watch.start : end]:
            await channel.send(envelope.raw)
        if len(asked) == 1:
            gone.set()
        else:
            await channel.send(lb.encode_control(lb.Fed(len(GAME))))

    async def listen(port: int, scope: trio.CancelScope, task_status: trio.TaskStatus[int]) -> None:
        with scope:
            await serve_secure(
                handler,
                host,
                host="127.0.0.1",
                port=port,
                context=lb.LOBBY_CONTEXT,
                task_status=task_status,
            )

    async def killed_and_resumed(port: int) -> None:
        await gone.wait()
        first.cancel()  # nothing listens there now
        if back_after is not None:
            await trio.sleep(back_after)
            await nursery.start(listen, port, trio.CancelScope())

    front = Front()
    async with trio.open_nursery() as nursery:
        port = await nursery.start(listen, 0, first)
        nursery.start_soon(killed_and_resumed, port)
        result = await watch_game(
            Identity.generate("wall"), "127.0.0.1", port, front, games=tmp, away_for=away_for
        )
        nursery.cancel_scope.cancel()
    return result, front, asked


async def test_a_host_back_on_its_port_feeds_the_watcher_exactly_the_rest(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    result, front, asked = await _host_away(tmp_path, 40, back_after=2.5, away_for=AWAY_FOR)
    assert asked == [0, 40]  # from the count it held: nothing skipped, nothing twice
    assert result.fed and result.report.ok, result.report.verdict
    assert result.path is not None and result.path.read_bytes() == dump_transcript(GAME)
    away = [n for n in front.notes if "The host is away: waiting up to 120 s" in n]
    assert len(away) == 1 and "40 records kept" in away[0], front.notes
    assert any("not back yet (nothing listens at" in n for n in front.notes), front.notes
    assert any("following again from record 40" in n for n in front.notes)


async def test_a_host_that_never_comes_back_is_left_after_the_wait_with_the_game_so_far(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    result, front, asked = await _host_away(tmp_path, 40, back_after=None, away_for=2.0)
    assert asked == [0] and not result.fed
    last = front.notes[-1]
    assert last.startswith("the host did not come back within 2 s (nothing listens at"), last
    assert last.endswith("the watch stops, 40 records kept"), last
    assert result.path is not None
    kept = result.path.read_bytes()
    assert kept == dump_transcript(GAME[:40])
    assert verify_bytes(kept).verdict.startswith("INCOMPLETE")
