"""A watcher against a scripted host's lobby over real loopback sockets and the real
handshake: it follows the feed, saves it as it comes, dials again with ``from`` when
the feed breaks, names a host that lies, and keeps what it had."""

from __future__ import annotations

import os
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.net.connection import SecureChannel, serve_secure
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer import watch
from p2pbelka.peer.watch import Say, WatchNote, WatchResult, watch_game
from p2pbelka.peer.watchsave import load_watch_meta
from p2pbelka.protocol.chat import open_chat, seal_chat
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.transcript import dump_transcript, iter_records
from p2pbelka.table import events as ev
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.session import Table
from p2pbelka.ui.words.watchnotes import note_words
from tests.audit import verify_bytes

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"
GAME = [r.envelope for r in iter_records((VECTORS / "paths" / "game-ok.p2pb").read_bytes())]


def _seat(seat: int) -> Identity:
    """The vector's seat ``seat`` (its keys come from its seed, 17: ``LocalGame.seeded``)."""
    rng = random.Random(17)
    seeds = [rng.randbytes(32) for _ in range(seat + 1)]
    return Identity.from_seed(seeds[seat], "seat")


@dataclass
class Front:
    """A ``WatchFront`` that keeps what it was told."""

    lobbies: list[lb.LobbyState] = field(default_factory=list)
    admitted_with: list[str] = field(default_factory=list)
    envelopes: int = 0
    played: list[ev.CardPlayed] = field(default_factory=list)
    chats: list[tuple[str, str, bool]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    report: VerifyReport | None = None
    send: Say | None = None

    async def lobby(self, state: lb.LobbyState) -> None:
        self.lobbies.append(state)

    async def admitted(self, chat: str, send: Say | None = None) -> None:
        self.admitted_with.append(chat)
        self.send = send

    async def fed(self, table: Table, events: list[ev.Event]) -> None:
        if self.send is not None and self.envelopes == 0:
            self.send("hello from the wall")  # where the host lets watchers write
        self.envelopes += 1
        self.played += [e for e in events if isinstance(e, ev.CardPlayed)]

    async def chat(self, sender_name: str, text: str, watcher: bool) -> None:
        self.chats.append((sender_name, text, watcher))

    async def note(self, note: WatchNote) -> None:
        self.notes.append(note_words(note))  # in English, as the text log says it

    async def ended(self, report: VerifyReport, path: Path | None) -> None:
        self.report = report


def _lobby() -> lb.LobbyState:
    setup = GAME[0].msg
    seats = tuple(lb.SeatView(s.key, s.name, True) for s in setup.seats)  # type: ignore[attr-defined]
    return lb.LobbyState(b"t" * 16, "club", "classic", {}, seats, "belka", 0)


Script = Callable[[SecureChannel, int, int], Awaitable[None]]
"""What the host does on its ``n``-th watcher connection, asked ``from``."""


async def _watch(
    script: Script, tmp: Path, chat: str = "off"
) -> tuple[WatchResult, Front, list[int]]:
    host = _seat(0)  # the host signed the table the feed opens with
    asked: list[int] = []

    async def handler(channel: SecureChannel) -> None:
        await channel.send(lb.encode_control(_lobby()))
        watch = lb.decode_control(await channel.receive())
        assert isinstance(watch, lb.Watch) and watch.name == "wall"
        asked.append(watch.start)
        await channel.send(lb.encode_control(lb.Wait()))
        await channel.send(lb.encode_control(lb.Watching(chat)))
        await script(channel, len(asked), watch.start)

    front = Front()
    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            lambda task_status: serve_secure(
                handler,
                host,
                host="127.0.0.1",
                context=lb.LOBBY_CONTEXT,
                task_status=task_status,
            )
        )
        result = await watch_game(
            Identity.generate("wall"), "127.0.0.1", port, front, games=tmp, host_key=None
        )
        nursery.cancel_scope.cancel()
    return result, front, asked


async def _send(channel: SecureChannel, envelopes: list[Envelope]) -> None:
    for envelope in envelopes:
        await channel.send(envelope.raw)


async def test_a_feed_cut_twice_is_followed_to_its_end_and_saved_as_the_host_has_it(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    cuts = [40, 97]

    async def script(channel: SecureChannel, n: int, start: int) -> None:
        end = cuts[n - 1] if n <= len(cuts) else len(GAME)
        await _send(channel, GAME[start:end])
        if end == len(GAME):
            await channel.send(lb.encode_control(lb.Fed(len(GAME))))
        # the connection closes: the host's program stopped, or a cable

    result, front, asked = await _watch(script, tmp_path)
    assert asked == [0, 40, 97]  # each time from the count it held
    assert result.fed and result.report.ok, result.report.verdict
    assert result.path is not None and result.path.read_bytes() == dump_transcript(GAME)
    assert verify_bytes(result.path.read_bytes()).verdict == result.report.verdict
    assert front.envelopes == len(GAME) and front.admitted_with == ["off"]
    plays = sum(1 for e in GAME if type(e.msg).__name__ == "PlayMsg")
    assert len(front.played) == plays
    assert sum("dialling again" in note for note in front.notes) == 2
    assert any("following again from record 40" in note for note in front.notes)
    meta = load_watch_meta(result.path.parent)
    assert meta.finished and meta.records == len(GAME) and meta.table_name == "club"
    assert result.path.parent.name == "watch-" + GAME[0].game.hex()


async def test_a_host_that_feeds_a_bad_record_or_forged_chat_is_named_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    talker = _seat(1)

    async def script(channel: SecureChannel, n: int, start: int) -> None:
        await _send(channel, GAME[:30])
        said = seal_chat(talker, GAME[0].game, 5, "hello").raw
        await channel.send(said)
        forged = seal_chat(talker, GAME[0].game, 6, "hello").raw.replace(b"hello", b"hellO")
        await channel.send(forged)  # a fresh counter, but the signature fails
        await channel.send(said)  # a replay: dropped, counted
        bad = bytearray(GAME[30].raw)
        bad[-1] ^= 1  # its signature no longer checks out
        await channel.send(bytes(bad))
        await _send(channel, GAME[31:])
        await channel.send(lb.encode_control(lb.Fed(len(GAME))))

    result, front, asked = await _watch(script, tmp_path)
    assert asked == [0]  # a host that lies is not dialled again
    assert not result.fed and "record 30 does not decode" in result.why
    assert any("nobody signed" in note for note in front.notes), front.notes
    assert any("the host's feed is left" in note for note in front.notes)
    assert result.path is not None
    kept = result.path.read_bytes()
    assert kept == dump_transcript(GAME[:30])  # every record before the lie
    assert verify_bytes(kept).verdict.startswith("INCOMPLETE")
    assert result.report.verdict == verify_bytes(kept).verdict
    aside = (result.path.parent / "refused.hex").read_text().split()
    assert aside == [bytes(bad_record()).hex()]
    names = [s.name for s in GAME[0].msg.seats]  # type: ignore[attr-defined]
    assert front.chats == [(names[1], "hello", False)]
    assert (result.path.parent / "chat.log").read_text().split() == [said_line()]
    assert os.stat(result.path.parent).st_mode & 0o077 == 0


def bad_record() -> bytes:
    bad = bytearray(GAME[30].raw)
    bad[-1] ^= 1
    return bytes(bad)


def said_line() -> str:
    return seal_chat(_seat(1), GAME[0].game, 5, "hello").raw.hex()


async def test_where_the_host_lets_watchers_write_a_line_goes_out_signed_for_the_game(
    tmp_path: Path,
) -> None:
    heard: list[bytes] = []

    async def script(channel: SecureChannel, n: int, start: int) -> None:
        await _send(channel, GAME[:3])
        heard.append(await channel.receive())
        await _send(channel, GAME[3:])
        await channel.send(lb.encode_control(lb.Fed(len(GAME))))

    result, front, _ = await _watch(script, tmp_path, chat="watchers")
    assert result.fed and front.admitted_with == ["watchers"]
    line = open_chat(heard[0])
    assert (line.game, line.text) == (GAME[0].game, "hello from the wall")
    assert ("wall", "hello from the wall", True) in front.chats


def _rewind(records: int) -> bytes:
    return lb.encode_control(lb.Rewind(records))


async def test_records_the_host_set_aside_are_set_aside_by_its_watcher_too(
    tmp_path: Path,
) -> None:
    # Found by the simulator: a host cut off recorded an envelope nobody else accepted
    # (here: record 46 where 45 is due, a record the observer holds in doubt), took its
    # seat back and set it aside.  Its watcher, back after the cut, holds it yet.
    async def script(channel: SecureChannel, n: int, start: int) -> None:
        if n == 1:
            await _send(channel, [*GAME[:45], GAME[46]])
            return  # the connection breaks
        await channel.send(_rewind(45))  # the host cannot tell what the watcher holds
        await _send(channel, GAME[45:])
        await channel.send(lb.encode_control(lb.Fed(len(GAME))))

    result, front, asked = await _watch(script, tmp_path)
    assert asked == [0, 46]
    assert result.fed and result.report.ok, result.report.verdict
    assert result.path is not None and result.path.read_bytes() == dump_transcript(GAME)
    aside = result.path.parent / "set-aside-45.p2pb"
    assert aside.read_bytes() == dump_transcript([GAME[46]])[len(dump_transcript([])) :]
    assert any("set aside the records from 45" in note for note in front.notes), front.notes
    assert load_watch_meta(result.path.parent).records == len(GAME)


async def test_records_the_host_feeds_again_after_a_rewind_are_kept_as_they_are(
    tmp_path: Path,
) -> None:
    async def script(channel: SecureChannel, n: int, start: int) -> None:
        await _send(channel, GAME[:50])
        await channel.send(_rewind(45))
        await channel.send(_rewind(60))  # more than it holds: nothing to do
        await _send(channel, GAME[45:])
        await channel.send(lb.encode_control(lb.Fed(len(GAME))))

    result, front, asked = await _watch(script, tmp_path)
    assert asked == [0] and result.fed and result.report.ok, result.report.verdict
    assert result.path is not None and result.path.read_bytes() == dump_transcript(GAME)
    assert not list(result.path.parent.glob("set-aside-*"))
    assert front.envelopes == len(GAME)


async def test_a_host_that_keeps_the_link_alive_and_falls_silent_is_taken_for_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, autojump_clock: MockClock
) -> None:
    # A pulled cable: no byte, no reset.  (Seconds shortened for the test.)
    monkeypatch.setattr(watch, "SILENT_FOR", 0.3)

    async def script(channel: SecureChannel, n: int, start: int) -> None:
        if n == 1:
            await _send(channel, GAME[:40])
            await trio.sleep(1.0)  # no `alive` yet (a host of an earlier version): waited on
            await _send(channel, GAME[40:50])
            await channel.send(lb.encode_control(lb.Alive()))
            await trio.sleep_forever()  # then nothing, and the connection stays open
        await _send(channel, GAME[start:])
        await channel.send(lb.encode_control(lb.Fed(len(GAME))))

    result, front, asked = await _watch(script, tmp_path)
    assert asked == [0, 50]
    assert result.fed and result.report.ok, result.report.verdict
    assert any("nothing came for 0.3 s" in note for note in front.notes), front.notes
