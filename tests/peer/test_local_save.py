"""A local table's files: kept while the game can go on, found again by ``resume``,
locked while in use, and brought back even when a seat's old port was taken."""

from __future__ import annotations

import json
import logging
import math
import socket
from pathlib import Path

import pytest
import trio

from p2pbelka.bots import make_bot
from p2pbelka.peer import storelock
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.local_save import (
    LocalSave,
    bring_up_to_date,
    find_resumable,
    new_plan,
    play_saved_table,
    resume_saved_table,
)
from p2pbelka.peer.seat import NetOptions
from p2pbelka.peer.store import GameMeta, GameStore
from p2pbelka.peer.storelock import StoreBusy
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import dump_transcript, encode_record
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes
from tests.peer.holder import holding
from tests.table.helpers import play_sync

NET = NetOptions(give_up_after=math.inf, linger=0.5)


@pytest.fixture(scope="module")
def envelopes() -> list[Envelope]:
    """The first 30 envelopes of a game (the game is not played on past them)."""
    tables, _ = play_sync(3, until=lambda tables: len(tables[0].view.transcript) >= 30)
    return list(tables[0].view.transcript[:30])


def test_the_players_copy_is_completed_from_seat_0(
    tmp_path: Path, envelopes: list[Envelope]
) -> None:
    path = tmp_path / "player.transcript"
    bring_up_to_date(path, envelopes[:5])  # no copy yet
    assert path.read_bytes() == dump_transcript(envelopes[:5])
    torn = encode_record(envelopes[5])[:-7]
    path.write_bytes(dump_transcript(envelopes[:5]) + torn)  # killed in a write
    bring_up_to_date(path, envelopes)
    assert path.read_bytes() == dump_transcript(envelopes)
    (aside,) = tmp_path.glob("player.transcript.damaged-*")
    assert aside.read_bytes() == torn


def test_a_copy_that_is_not_a_prefix_is_moved_aside_whole(
    tmp_path: Path, envelopes: list[Envelope]
) -> None:
    path = tmp_path / "player.transcript"
    other = dump_transcript([envelopes[0], envelopes[2]])
    path.write_bytes(other)
    bring_up_to_date(path, envelopes[:4])
    assert path.read_bytes() == dump_transcript(envelopes[:4])
    (aside,) = tmp_path.glob("player.transcript.damaged-*")
    assert aside.read_bytes() == other


class StopAfter(BotFrontEnd):
    """A bot in seat 0 that says when ``count`` events of play (not of a replay) passed."""

    def __init__(self, count: int) -> None:
        super().__init__(make_bot("random", 7))
        self.count = count
        self.enough = trio.Event()

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if not driver.table.state.held:
            self.count -= 1
            if self.count <= 0:
                self.enough.set()
        await super().on_event(driver, event)


async def play_until(save: LocalSave, events: int, *, resume: bool) -> None:
    front = StopAfter(events)
    async with trio.open_nursery() as nursery:
        run = resume_saved_table if resume else play_saved_table
        nursery.start_soon(lambda: run(save, front, net=NET))
        await front.enough.wait()
        nursery.cancel_scope.cancel()


def test_a_local_game_resumes_though_a_seat_lost_its_port(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    plan = new_plan("Tester", ["random"] * 3, transcript=tmp_path / "t", seed=17)
    save = LocalSave.create(plan, home)
    assert save.directory.name == f"local-{plan.game_id}"
    assert json.loads(save.plan_path.read_text())["keys"] == plan.keys
    assert save.plan_path.stat().st_mode & 0o077 == 0
    trio.run(lambda: play_until(save, 60, resume=False))
    assert save.resumable() and find_resumable(home=home).directory == save.directory

    taken = save.store(2).load_meta().listen_port
    with socket.socket() as squatter:  # another program, listening there meanwhile
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        squatter.bind(("127.0.0.1", taken))
        squatter.listen()
        front = BotFrontEnd(make_bot("random", 8))
        with caplog.at_level(logging.WARNING):
            results = trio.run(lambda: resume_saved_table(save, front, net=NET))
    # every seat was told the new port before it started: nobody dialled the old one
    assert "cannot listen on port" not in caplog.text
    assert [r.finished for r in results] == [True] * 4
    data = {r.store.transcript_path.name for r in results}
    assert data == {"transcript.p2pb"}
    report = verify_bytes(dump_transcript(results[0].transcript))
    assert report.error is None and not report.faults and report.finished
    assert not save.directory.exists(), "the files of a game that ended are removed"
    with pytest.raises(LookupError, match="no game to resume"):
        find_resumable(home=home)


def test_a_local_game_open_elsewhere_is_not_played_twice(tmp_path: Path) -> None:
    plan = new_plan("Tester", ["random"] * 3, transcript=tmp_path / "t")
    save = LocalSave.create(plan, tmp_path)
    storelock.release(save.directory)  # made by the other program, below
    with holding("local", save.directory), pytest.raises(StoreBusy, match="open in another"):
        trio.run(lambda: resume_saved_table(save, BotFrontEnd(make_bot("random", 1))))


def test_looking_for_a_game_another_program_plays_writes_nothing_of_it(tmp_path: Path) -> None:
    plan = new_plan("Tester", ["random"] * 3, transcript=tmp_path / "t", seed=9)
    save = LocalSave.create(plan, tmp_path)
    trio.run(lambda: play_until(save, 30, resume=False))
    storelock.release_all()  # the game goes on in another program, below
    path = save.store(0).transcript_path
    mid_write = path.read_bytes() + b"\x00\x00\x01"  # a record being written
    path.write_bytes(mid_write)
    with holding("local", save.directory):
        # what ``resume``, ``play --resume`` and ``games`` look at before they choose
        assert find_resumable(home=tmp_path).directory == save.directory
        LocalSave.tidy(save.directory.parent)
        assert path.read_bytes() == mid_write, "the record being written was cut"
        with pytest.raises(StoreBusy):
            trio.run(lambda: resume_saved_table(save, BotFrontEnd(make_bot("random", 1))))
        assert path.read_bytes() == mid_write
        assert not list(path.parent.glob("*.damaged-*"))


def test_the_same_seed_again_starts_the_game_over(tmp_path: Path) -> None:
    plan = new_plan("Tester", ["random"] * 3, transcript=tmp_path / "t", seed=5)
    save = LocalSave.create(plan, tmp_path)
    trio.run(lambda: play_until(save, 30, resume=False))
    assert save.resumable()
    storelock.release_all()  # as if the game was left by a program that ended
    with holding("local", save.directory), pytest.raises(StoreBusy):
        LocalSave.create(plan, tmp_path)
    again = LocalSave.create(plan, tmp_path)
    assert again.directory == save.directory and not again.started()
    assert not list(again.directory.glob("seat*")), "nothing of the old game is mixed in"


def test_a_game_left_before_it_began_is_not_offered(tmp_path: Path) -> None:
    plan = new_plan("Tester", ["random"] * 3, transcript=tmp_path / "t")
    save = LocalSave.create(plan, tmp_path)
    assert not save.resumable()
    with pytest.raises(LookupError, match="no game to resume"):
        LocalSave.find(home=tmp_path)
    with pytest.raises(LookupError, match="before it began"):
        trio.run(lambda: resume_saved_table(save, BotFrontEnd(make_bot("random", 1))))


def test_resume_means_the_game_started_last(tmp_path: Path, envelopes: list[Envelope]) -> None:
    plan = new_plan("Tester", ["random"] * 3, transcript=tmp_path / "t")
    plan.started = 1_800_000_000.0
    save = LocalSave.create(plan, tmp_path)
    seat0 = save.store(0)
    seat0.directory.mkdir(parents=True)
    seat0.transcript_path.write_bytes(dump_transcript(envelopes[:1]))
    meta = GameMeta(plan.game_id, 0, plan.keys, plan.names, [], "127.0.0.1", 0, started=1.0)
    seat0.save_meta(meta)
    lan = GameStore.create(bytes.fromhex("ab" * 16), tmp_path)
    lan_meta = GameMeta("ab" * 16, 1, [], [], [], "0.0.0.0", 0, started=1_900_000_000.0)
    lan.save_meta(lan_meta)
    assert find_resumable(home=tmp_path).directory == lan.directory  # the later one
    assert find_resumable(plan.game_id[:6], home=tmp_path).directory == save.directory
    lan_meta.started = 1_700_000_000.0
    lan.save_meta(lan_meta)
    assert find_resumable(home=tmp_path).directory == save.directory
