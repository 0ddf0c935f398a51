"""A seat-change message from another peer that comes too late (the game has ended
here, and with it the tasks that would answer it, while the mesh lingers) or too
early (the game is not in play yet) is refused, counted and logged naming the seat;
the peer goes on.  In memory, on virtual seconds: the mesh has no links at all."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatchange.runner import SeatChangeRunner
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.seatchange import Agree, Decline, Offer, Reclaim, encode_seat_change
from p2pbelka.protocol.transcript import TranscriptWriter
from tests.peer.seatrunners import unlinked_runner

SEGMENT = bytes(range(16))
SENDER = 1


@pytest.fixture
def writer(tmp_path: Path) -> Iterator[TranscriptWriter]:
    with TranscriptWriter(tmp_path / "transcript.p2pb") as opened:
        yield opened


def _alone(writer: TranscriptWriter) -> tuple[SeatChangeRunner, Mesh, LocalGame]:
    """Seat 0's peer of a seeded game, on a mesh with no links: the others never come,
    so its table gives up on them and the game ends (in virtual seconds)."""
    local = LocalGame.seeded(7)
    table = local.make_tables()[0]
    runner, mesh = unlinked_runner(table, 0, local.names[0], writer, bot_seed=7)
    runner.start(table)
    return runner, mesh, local


def _offer(local: LocalGame) -> bytes:
    """A well-formed offer of seat 2 to a bot (its shape is all that matters here)."""
    n = len(local.signers)
    after = m.After(SEGMENT, ((0, bytes(32)),) * n, 2, (0,) * n, 0, 1)
    return encode_seat_change(Offer(SEGMENT, replace(local.setup(), after=after)))


LATE = {
    "seat_offer": _offer,
    "seat_reclaim": lambda _local: encode_seat_change(Reclaim(SEGMENT, bytes(16))),
}


@pytest.mark.parametrize("kind", sorted(LATE))
async def test_a_control_message_after_the_game_ended_is_refused(
    writer: TranscriptWriter,
    autojump_clock: MockClock,
    caplog: pytest.LogCaptureFixture,
    kind: str,
) -> None:
    runner, mesh, local = _alone(writer)
    with trio.fail_after(60):
        table = await runner.play()
    assert table.finished  # ``play`` returned: the nursery of the game's tasks is closed
    caplog.set_level(logging.INFO, logger="p2pbelka.peer.seatchange.runner")
    assert mesh.on_control is not None
    assert mesh.on_control(SENDER, LATE[kind](local))  # taken, and no crash
    assert runner.refused[kind] == 1
    assert any(
        f"seat {SENDER}" in r.getMessage() and kind in r.getMessage() for r in caplog.records
    ), caplog.text
    await trio.sleep(1)  # nothing started behind our back fails later either


@pytest.mark.parametrize("kind", sorted(LATE))
async def test_a_control_message_before_the_game_is_in_play_is_refused(
    writer: TranscriptWriter,
    autojump_clock: MockClock,
    caplog: pytest.LogCaptureFixture,
    kind: str,
) -> None:
    runner, mesh, local = _alone(writer)
    caplog.set_level(logging.INFO, logger="p2pbelka.peer.seatchange.runner")
    assert mesh.on_control is not None
    assert mesh.on_control(SENDER, LATE[kind](local))
    assert runner.refused[kind] == 1
    assert any(f"seat {SENDER}" in r.getMessage() for r in caplog.records), caplog.text
    with trio.fail_after(60):
        assert (await runner.play()).finished  # and the game is played as ever


async def test_an_answer_to_no_open_offer_is_counted(
    writer: TranscriptWriter, autojump_clock: MockClock
) -> None:
    runner, mesh, _local = _alone(writer)
    with trio.fail_after(60):
        await runner.play()
    assert mesh.on_control is not None
    assert mesh.on_control(SENDER, encode_seat_change(Agree(SEGMENT, bytes(64))))
    assert mesh.on_control(SENDER, encode_seat_change(Decline(SEGMENT, "no", False)))
    assert runner.refused["seat_agree"] == runner.refused["seat_decline"] == 1
