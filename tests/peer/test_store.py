"""A game's files after a crash: what cannot be read is moved aside, never deleted."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from p2pbelka.cli.saved_names import saved_transcripts
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.store import KNOWN_IDS, SEED_SIZE, GameIdUsed, GameStore, games_dir, known_game
from p2pbelka.protocol.transcript import MAGIC, dump_transcript, holds_records
from p2pbelka.table.verify import verify_bytes

pytestmark = pytest.mark.real_disk  # the store's own syncs, on the real disk


def test_a_damaged_transcript_tail_is_moved_aside_with_a_message(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    game = LocalGame.seeded(5)
    tables = game.make_tables()
    envelopes = list(tables[0].view.transcript)
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
    envelopes = list(game.make_tables()[0].view.transcript)
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


def test_the_signed_journal_fills_room_kept_ahead_and_grows_when_it_runs_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The room is zeros after the records: the file's size changes only when it runs
    # out; a resumed seat reads its records, keeps the room (not moved aside as
    # damage) and writes on where they end.
    monkeypatch.setattr("p2pbelka.peer.store.JOURNAL_ROOM", 4096)
    game = LocalGame.seeded(5)
    envelopes = list(game.make_tables()[0].view.transcript)
    store = GameStore.create(game.game_id, tmp_path)
    one = envelopes[:1]
    store.keep(one)
    size = store.signed_path.stat().st_size
    assert size > len(one[0].raw) + 4096
    store.keep(one)
    assert store.signed_path.stat().st_size == size, "the second record fits in the room"
    store.close()
    resumed = GameStore(store.directory)
    assert [e.raw for e in resumed.saved_signed()] == [one[0].raw] * 2
    assert not list(tmp_path.rglob("*.damaged-*"))
    big = one * (1 + 8192 // (len(one[0].raw) + 4))
    resumed.keep(big)
    resumed.sync()
    assert resumed.signed_path.stat().st_size > size
    assert [e.raw for e in resumed.saved_signed()] == [one[0].raw] * (2 + len(big))
    resumed.close()


def test_a_torn_record_in_the_room_is_moved_aside_with_the_room(tmp_path: Path) -> None:
    game = LocalGame.seeded(5)
    envelopes = list(game.make_tables()[0].view.transcript)
    store = GameStore.create(game.game_id, tmp_path)
    two = envelopes[:1] * 2
    store.keep(two)
    store.close()
    data = store.signed_path.read_bytes()
    end = len(dump_transcript(two))
    torn = b"\x00\x00\x02\x00" + b"half a record"
    store.signed_path.write_bytes(data[:end] + torn + data[end + len(torn) :])
    assert [e.raw for e in GameStore(store.directory).saved_signed()] == [e.raw for e in two]
    (aside,) = tmp_path.rglob("signed.p2pb.damaged-*")
    assert aside.read_bytes().startswith(torn)
    assert store.signed_path.stat().st_size == end


def test_keeping_after_an_unreadable_tail_moves_it_aside_before_writing(tmp_path: Path) -> None:
    # Even when the seat writes before it read its journal back, bytes it could not
    # read are moved aside, not written over.
    game = LocalGame.seeded(5)
    one = list(game.make_tables()[0].view.transcript)[:1]
    store = GameStore.create(game.game_id, tmp_path)
    store.keep(one)
    store.close()
    end = len(dump_transcript(one))
    garbage = b"\x00\x00\x02\x00" + bytes(range(1, 200))
    with open(store.signed_path, "r+b") as f:
        f.seek(end)
        f.write(garbage)
    again = GameStore(store.directory)
    again.keep(one)
    again.close()
    (aside,) = tmp_path.rglob("signed.p2pb.damaged-*")
    assert aside.read_bytes().startswith(garbage)
    assert [e.raw for e in GameStore(store.directory).saved_signed()] == [one[0].raw] * 2


# -- a game id is used once --------------------------------------------------------------------


def test_a_new_game_never_opens_the_directory_of_another(tmp_path: Path) -> None:
    game_id = bytes(range(16))
    first = GameStore.create(game_id, tmp_path)
    first.seed_source()()
    assert known_game(game_id, tmp_path)
    with pytest.raises(GameIdUsed, match=f"already played a game with id {game_id.hex()}"):
        GameStore.create(game_id, tmp_path)
    # moved aside, or removed: the id stays known
    first.directory.rename(tmp_path / "aside")
    assert known_game(game_id, tmp_path)
    with pytest.raises(GameIdUsed, match="could make your old messages count again"):
        GameStore.create(game_id, tmp_path)
    assert not known_game(bytes(16), tmp_path)
    GameStore.create(bytes(16), tmp_path)  # another id is new


def test_a_second_game_under_a_reused_id_does_not_draw_the_first_games_secrets(
    tmp_path: Path,
) -> None:
    game_id = bytes(range(16))
    first = GameStore.create(game_id, tmp_path, sync=False)
    source = first.seed_source()
    drawn = [source() for _ in range(3)]
    # the same directory opened for a new game (the store's own check bypassed)
    with pytest.raises(GameIdUsed, match=game_id.hex()):
        GameStore(first.directory).seed_source(new_game=True)
    # resuming the same game replays them, in order
    again = GameStore(first.directory).seed_source()
    assert [again() for _ in range(3)] == drawn
    # forced through: the old directory and the list of known ids gone
    first.directory.rename(tmp_path / "aside")
    (games_dir(tmp_path).parent / KNOWN_IDS).unlink()
    second = GameStore.create(game_id, tmp_path, sync=False).seed_source(new_game=True)
    assert not {second() for _ in range(3)} & set(drawn)


def test_a_new_transcript_never_holds_the_magic_alone(tmp_path: Path) -> None:
    """The magic goes to the disk with the first record, in one write: a power cut before
    it leaves an empty file, never a game of no envelope (which ``verify`` calls INVALID)."""
    game = LocalGame.seeded(5)
    (table, *_rest) = game.make_tables()[0].view.transcript
    store = GameStore.create(game.game_id, tmp_path)
    writer = store.transcript_writer()
    store.sync()
    assert store.transcript_path.read_bytes() == b"" and not holds_records(store.transcript_path)
    writer.append(table)
    assert store.transcript_path.read_bytes() == dump_transcript([table])
    assert holds_records(store.transcript_path)
    store.close()


def test_a_host_s_transcript_of_no_record_begins_again_from_its_journal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The power went before the host's first record reached the disk (an earlier
    version wrote the magic first: the file holds it alone).  On resume the file is
    moved aside whole (never deleted), and the table description the host signed and
    kept in its journal is its first record again: the game goes on, and verifies."""
    game = LocalGame.seeded(5)
    table = game.make_tables()[0].view.transcript[0]
    store = GameStore.create(game.game_id, tmp_path)
    store.keep([table])
    store.sync()
    store.transcript_path.write_bytes(MAGIC)
    with caplog.at_level(logging.WARNING):
        kept = store.saved_transcript()
    assert [e.raw for e in kept] == [table.raw]
    assert store.transcript_path.read_bytes() == dump_transcript([table])
    (aside,) = tmp_path.rglob("transcript.p2pb.damaged-*")
    assert aside.read_bytes() == MAGIC and aside.name in caplog.text
    assert not verify_bytes(store.transcript_path.read_bytes()).verdict.startswith("INVALID")
    assert [e.raw for e in GameStore(store.directory).saved_transcript()] == [table.raw]


def test_a_joiner_s_torn_first_record_is_moved_aside_and_nothing_is_listed(
    tmp_path: Path,
) -> None:
    """A joiner's journal holds no table description (the host's was in its memory
    only): the magic and a torn first record go aside whole, the game has no record,
    and ``games`` lists no INVALID game for it."""
    game = LocalGame.seeded(5)
    envelopes = game.make_tables()[0].view.transcript  # the host's description first
    store = GameStore.create(game.game_id, tmp_path)
    torn = dump_transcript(envelopes[:1])[:40]
    assert len(MAGIC) < len(torn) < len(dump_transcript(envelopes[:1]))
    store.transcript_path.write_bytes(torn)
    assert store.saved_transcript() == []
    assert store.transcript_path.read_bytes() == b""
    (aside,) = tmp_path.rglob("transcript.p2pb.damaged-*")
    assert aside.read_bytes() == torn
    store.meta_path.write_text("{}")  # (``games`` reads what a game directory holds)
    assert saved_transcripts([store.directory.parent]) == []
    store.transcript_path.write_bytes(dump_transcript(envelopes[:1]))
    assert saved_transcripts([store.directory.parent]) == [store.transcript_path]
