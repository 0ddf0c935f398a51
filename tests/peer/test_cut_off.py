"""A peer cut off from every other seat for longer than it waits stops, within a bound
it states, signing nothing and naming nobody: its file reads INCOMPLETE.  Back while
a peer that finished the game is still there, it learns how the game ended instead.

Seat 2's real table of a real four-seat game, a deal under way, is cut from the
others (``tests/table/seatloss.py`` drops it for good) and goes on in its peer's
``SeatChangeRunner`` on a mesh whose every link failed (``Mesh.cut_off``).  Virtual seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.peer.driver import CUT_OFF_GRACE, BotFrontEnd, CutOff, Waiting
from p2pbelka.peer.seatchange.drivers import SeatOffer
from p2pbelka.protocol.seatchange import ChainEnd, ChainRecord
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes
from tests.peer.seatrunners import unlinked_runner
from tests.table.seatloss import Game, hand_over, lose_seat, seeded_bot, start

VICTIM = 2
GIVE_UP = 5.0  # ``unlinked_runner``'s reconnect window


def _cut_game(name: str = "belka", players: int = 4, victim: int = VICTIM) -> Game:
    for seed in range(5, 35):
        game, _local = start(seed, game_name=name, players=players)
        lose_seat(game, victim, after_deals=1)
        if not game.tables[victim].finished and game.tables[victim].view.missing():
            return game
    raise AssertionError("no seed leaves the victim's table waiting")


@pytest.mark.parametrize(
    ("name", "players", "victim", "done"),
    [("belka", 4, VICTIM, None), ("belot", 2, 1, None), ("belot", 3, 1, 0)],
    ids=["belka-4", "belot-2", "belot-3-one-done"],
)
async def test_a_peer_that_reaches_nobody_stops_after_the_bound_it_stated(
    tmp_path: Path,
    autojump_clock: MockClock,
    name: str,
    players: int,
    victim: int,
    done: int | None,
) -> None:
    """At a table of two too: there no bot is seated, and either side, not knowing
    which of them is cut off, waits and stops alike (``CutOff.two_seats``).  And with
    one seat that said ``done`` before its link went (an unsigned word: a lie, or it
    stopped unsigned itself), the seat the table waits for is not named silent: only
    every seat whose link failed saying it means the others left."""
    game = _cut_game(name, players, victim)
    table = game.tables[victim]
    path = tmp_path / "transcript.p2pb"
    with TranscriptWriter(path) as writer:
        for envelope in game.files[victim]:
            writer.append(envelope)
        runner, mesh = unlinked_runner(table, victim, "Victim", writer, bot_seed=3)
        for failed in mesh._failed.values():
            failed.append(0.0)  # every link was up, and failed: this machine's network
        if done is not None:
            mesh._done.add(done)
        assert mesh.cut_off()
        runner.start(table)
        front = runner.front_end
        assert isinstance(front, BotFrontEnd)
        started = trio.current_time()
        with trio.fail_after(10 * CUT_OFF_GRACE):
            ended = await runner.play()
        took = trio.current_time() - started
    waits = [e for e in front.events if isinstance(e, Waiting)]
    assert waits and waits[0].alone
    limit = waits[0].limit
    assert limit == GIVE_UP + CUT_OFF_GRACE  # stated when the wait began
    (stop,) = [e for e in front.events if isinstance(e, CutOff)]
    assert limit <= stop.seconds <= took < limit + GIVE_UP  # stopped at the bound it said
    assert stop.two_seats == (players == 2)
    assert (
        runner.stopped_alone and ended.finished and not ended.state.aborted and not ended.state.over
    )
    assert not [e for e in front.events if isinstance(e, SeatOffer)]  # no bot proposed
    (aborted,) = [e for e in front.events if isinstance(e, ev.GameAborted)]
    assert not any(f.fatal for f in aborted.faults)  # nobody named
    assert [f.seat for f in aborted.faults] == [victim]
    # nothing was signed in the stop: the file reads INCOMPLETE, never DISPUTED or INVALID
    report = verify_bytes(path.read_bytes())
    assert report.verdict.startswith("INCOMPLETE"), report.verdict


async def test_a_peer_that_reaches_half_a_table_of_four_stops_naming_nobody(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """One link up of three (``Mesh.split``): no seat can change hands, and the half
    out of reach may be waiting as this one does; no bot is proposed, nobody named, and
    the peer stops unsigned at the bound (``CutOff.split``), its file INCOMPLETE."""
    game = _cut_game()
    table = game.tables[VICTIM]
    path = tmp_path / "transcript.p2pb"
    with TranscriptWriter(path) as writer:
        for envelope in game.files[VICTIM]:
            writer.append(envelope)
        runner, mesh = unlinked_runner(table, VICTIM, "Victim", writer, bot_seed=3)
        # a link to one seat the table does not wait for is up (a stand-in for the
        # mesh's live links), the links to the two others were up and failed
        (reached,) = [s for s in range(4) if s != VICTIM and s not in table.view.missing()][:1]
        mesh.connected = lambda: {reached}  # type: ignore[method-assign]
        mesh.cut_off = lambda: False  # type: ignore[method-assign]
        for seat, failed in mesh._failed.items():
            if seat != reached:
                failed.append(0.0)
        assert mesh.split({0, 1, 2, 3})
        runner.start(table)
        assert runner.driver is not None and runner.driver.split()
        front = runner.front_end
        assert isinstance(front, BotFrontEnd)
        with trio.fail_after(10 * CUT_OFF_GRACE):
            ended = await runner.play()
    (stop,) = [e for e in front.events if isinstance(e, CutOff)]
    assert stop.split and not stop.two_seats
    assert stop.seconds >= GIVE_UP + CUT_OFF_GRACE
    assert runner.stopped_alone and runner.stopped_split and ended.finished and not ended.state.over
    assert not [e for e in front.events if isinstance(e, SeatOffer)]  # no bot proposed
    (aborted,) = [e for e in front.events if isinstance(e, ev.GameAborted)]
    assert not any(f.fatal for f in aborted.faults)  # nobody named
    report = verify_bytes(path.read_bytes())
    assert report.verdict.startswith("INCOMPLETE"), report.verdict


async def test_links_back_within_the_bound_ask_whether_the_seat_changed_hands(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """Within the bound nothing stops: once a link is back the peer asks the others
    (``Replaced``: the fetch of the game), as before the bound existed."""
    game = _cut_game()
    table = game.tables[VICTIM]
    with TranscriptWriter(tmp_path / "transcript.p2pb") as writer:
        runner, mesh = unlinked_runner(table, VICTIM, "Victim", writer, bot_seed=3)
        for failed in mesh._failed.values():
            failed.append(0.0)
        runner.start(table)
        asked = trio.Event()
        fetch = runner.reclaim.begin_fetch

        def begin_fetch() -> bool:
            asked.set()
            return fetch()

        runner.reclaim.begin_fetch = begin_fetch  # type: ignore[method-assign]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(runner.play)
            await trio.sleep(CUT_OFF_GRACE / 2)
            assert not table.finished and runner._cut_off
            for failed in mesh._failed.values():
                failed.clear()  # as if a link came back: nobody is "cut off" now
            with trio.fail_after(CUT_OFF_GRACE):
                await asked.wait()
            nursery.cancel_scope.cancel()
    assert not runner.stopped_alone


async def test_back_after_the_others_finished_it_learns_how_the_game_ended(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """A peer still there (the game over, lingering) answers the fetch with the whole
    game: the player's file becomes it, and the player is told how it ended."""
    game = _cut_game()
    table, kept = game.tables[VICTIM], list(game.files[VICTIM])
    bot = seeded_bot(5)
    hand_over(game, VICTIM, bot.signer, "Bot for Victim", seed_sources={VICTIM: bot.seed_source})
    game.settle([0, 1, 2, 3])
    assert all(t.state.over for t in game.tables)
    whole = game.files[0]  # the host's file: every segment
    path = tmp_path / "transcript.p2pb"
    with TranscriptWriter(path) as writer:
        for envelope in kept:
            writer.append(envelope)
        runner, mesh = unlinked_runner(table, VICTIM, "Victim", writer, bot_seed=3)
        for failed in mesh._failed.values():
            failed.append(0.0)
        runner.start(table)
        front = runner.front_end
        assert isinstance(front, BotFrontEnd)
        async with trio.open_nursery() as nursery:
            played: list[object] = []

            async def play() -> None:
                played.append(await runner.play())

            nursery.start_soon(play)
            while not runner._cut_off:
                await trio.sleep(1)
            for failed in mesh._failed.values():
                failed.clear()  # the cable is back: a link to seat 0, still lingering
            while not runner.reclaim._fetching:
                await trio.sleep(1)
            await trio.sleep(1)  # its request is out
            for index, envelope in enumerate(whole):
                runner.reclaim.heard(0, ChainRecord(index, envelope.raw))
            runner.reclaim.heard(0, ChainEnd(len(whole)))
            with trio.fail_after(CUT_OFF_GRACE):
                while not played:
                    await trio.sleep(1)
    (ended,) = played
    assert isinstance(ended, Table) and ended.state.over and not runner.stopped_alone
    assert any(isinstance(e, SeatChanged) for e in front.events)
    over = [e for e in front.events if isinstance(e, ev.GameOver)]
    assert len(over) == 1, front.events
    assert verify_bytes(path.read_bytes()).ok, verify_bytes(path.read_bytes()).verdict
