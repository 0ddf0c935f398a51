"""A game's files after a crash: what cannot be read is moved aside, never deleted."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.store import SEED_SIZE, GameStore
from p2pbelka.protocol.transcript import dump_transcript


def test_a_damaged_transcript_tail_is_moved_aside_with_a_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    game = LocalGame.seeded(5)
    tables = game.make_tables()
    envelopes = list(tables[0].transcript)
    store = GameStore.create(game.game_id, tmp_path)
    good = dump_transcript(envelopes)
    tail = b"\x00\x00\x01\x00" + b"torn in the middle of a write"
    store.transcript_path.write_bytes(good + tail)
    with caplog.at_level(logging.WARNING):
        kept = store.saved_transcript()
    assert [e.raw for e in kept] == [e.raw for e in envelopes]
    assert store.transcript_path.read_bytes() == good
    (aside,) = tmp_path.rglob("transcript.p2pb.damaged-*")
    assert aside.read_bytes() == tail
    assert aside.name in caplog.text and "could not be read" in caplog.text


def test_a_torn_secret_is_moved_aside_not_cut(tmp_path: Path) -> None:
    store = GameStore.create(bytes(16), tmp_path)
    store.secrets_path.write_bytes(bytes(SEED_SIZE) + b"half")
    source = store.seed_source(lambda: bytes([7]) * SEED_SIZE)
    assert source() == bytes(SEED_SIZE)
    (aside,) = tmp_path.rglob("*.damaged-*")
    assert aside.read_bytes() == b"half"


def test_a_secret_is_drawn_and_written_ahead_of_its_use(tmp_path: Path) -> None:
    """The next value is in the file (and can be synced off the critical path) before
    the table asks for it; after a crash the same values come back in the same order."""
    drawn = iter(bytes([n]) * SEED_SIZE for n in range(1, 100))
    store = GameStore.create(bytes(16), tmp_path)
    source = store.seed_source(lambda: next(drawn))
    assert store.saved_secrets() == [bytes([1]) * SEED_SIZE]  # ahead, not yet handed out
    assert source() == bytes([1]) * SEED_SIZE
    assert store.saved_secrets() == [bytes([n]) * SEED_SIZE for n in (1, 2)]
    store.sync_ahead()
    assert source() == bytes([2]) * SEED_SIZE
    again = GameStore(store.directory).seed_source(lambda: next(drawn))
    assert [again(), again(), again()] == [bytes([n]) * SEED_SIZE for n in (1, 2, 3)]


def test_what_a_step_signed_is_synced_once_with_the_secrets_it_used(tmp_path: Path) -> None:
    game = LocalGame.seeded(5)
    envelopes = list(game.make_tables()[0].transcript)
    store = GameStore.create(game.game_id, tmp_path)
    source = store.seed_source()
    value = source()
    store.keep(envelopes)
    store.sync()
    assert store.syncs_done == 1
    assert [e.raw for e in store.saved_signed()] == [e.raw for e in envelopes]
    assert value in store.saved_secrets()
    store.close()
    unsynced = GameStore(store.directory, sync=False)
    unsynced.keep(envelopes)
    unsynced.sync()
    assert unsynced.syncs_done == 0
    unsynced.close()
