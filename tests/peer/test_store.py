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
