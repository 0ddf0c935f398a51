"""The chat's policy: the rate limits, and what a receiver refuses (and counts, never raises)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import trio
from hypothesis import given, settings
from hypothesis import strategies as st
from trio.testing import MockClock

from p2pbelka.peer.chat import (
    FLOOD,
    FORGED,
    HEAR_BURST,
    MALFORMED,
    NOT_ITS_LINK,
    NOT_SEATED,
    OTHER_TABLE,
    REPLAYED,
    SEND_BURST,
    SEND_EVERY,
    SLOW_DOWN,
    TOO_LONG,
    Chat,
    ChatDropped,
    ChatGate,
    ChatLine,
    ChatLog,
    RateLimit,
)
from p2pbelka.peer.text import TextFrontEnd
from p2pbelka.protocol.chat import CHAT_LABEL, MAX_CHAT_TEXT, open_chat, seal_chat
from p2pbelka.protocol.codec import encode
from p2pbelka.protocol.envelope import Signer
from p2pbelka.ui.words.englishlog import ENGLISH

SIGNERS = [Signer.from_seed(bytes([n]) * 32) for n in range(4)]
KEYS = [s.public_key for s in SIGNERS]
GAME = bytes(range(16))


def gate(me: int = 0, clock: list[int] | None = None) -> ChatGate:
    ms = clock if clock is not None else [1_700_000_000_000]
    return ChatGate(GAME, me, KEYS, wall_ms=lambda: ms[0])


def said(seat: int, counter: int, text: str = "hello", game: bytes = GAME) -> bytes:
    return seal_chat(SIGNERS[seat], game, counter, text).raw


def refused(g: ChatGate, seat: int, raw: bytes, now: float = 0.0) -> str:
    with pytest.raises(ChatDropped) as caught:
        g.hear(seat, raw, now)
    return caught.value.reason


# --- the rate limiter ------------------------------------------------------------------


def test_a_bucket_gives_a_burst_then_one_per_period() -> None:
    limit = RateLimit(3, 2.0)
    assert [limit.allow(10.0) for _ in range(4)] == [True, True, True, False]
    assert limit.wait(10.0) == pytest.approx(2.0)
    assert not limit.allow(11.0)  # half a token
    assert limit.wait(11.0) == pytest.approx(1.0)
    assert limit.allow(12.0)
    assert not limit.allow(12.0)
    assert [limit.allow(100.0) for _ in range(4)] == [True, True, True, False]  # full, no more


def test_a_clock_going_back_earns_nothing() -> None:
    limit = RateLimit(1, 1.0)
    assert limit.allow(50.0)
    assert not limit.allow(10.0)  # an earlier time: no refill, no crash
    assert not limit.allow(50.5)
    assert limit.allow(51.0)


# --- saying ------------------------------------------------------------------------------


def test_saying_too_much_is_refused_with_the_wait() -> None:
    g = gate()
    for _ in range(SEND_BURST):
        g.compose(SIGNERS[0], "hi", 0.0)
    with pytest.raises(ChatDropped) as caught:
        g.compose(SIGNERS[0], "hi", 0.0)
    assert caught.value.reason == SLOW_DOWN
    assert caught.value.wait == pytest.approx(SEND_EVERY)
    g.compose(SIGNERS[0], "hi", SEND_EVERY)  # one more after the period


def test_saying_cleans_the_text_and_refuses_what_is_too_long_or_empty() -> None:
    g = gate()
    assert g.compose(SIGNERS[0], " a\nb\x1b[2J ", 0.0).text == "a b[2J"
    with pytest.raises(ChatDropped, match="empty"):
        g.compose(SIGNERS[0], "\x07\n\t", 0.0)
    with pytest.raises(ChatDropped) as caught:
        g.compose(SIGNERS[0], "x" * (MAX_CHAT_TEXT + 1), 0.0)
    assert caught.value.reason == TOO_LONG
    # control characters do not count towards the length
    assert len(g.compose(SIGNERS[0], "x" * MAX_CHAT_TEXT + "\x00\x01", 0.0).text) == MAX_CHAT_TEXT


def test_counters_only_grow_even_when_the_clock_steps_back() -> None:
    clock = [5_000]
    g = gate(clock=clock)
    first = g.compose(SIGNERS[0], "one", 0.0).counter
    clock[0] = 1_000  # the wall clock was set back
    second = g.compose(SIGNERS[0], "two", 0.0).counter
    assert (first, second) == (5_000, 5_001)


# --- hearing -------------------------------------------------------------------------------


def test_a_genuine_line_is_heard_once() -> None:
    g = gate()
    raw = said(1, 42, "good luck")
    assert g.hear(1, raw, 0.0).text == "good luck"
    assert refused(g, 1, raw) == REPLAYED
    assert refused(g, 1, said(1, 41)) == REPLAYED  # an older one, never heard, is late
    assert g.hear(1, said(1, 43), 0.0).counter == 43
    assert g.dropped == {REPLAYED: 2}


def test_a_forged_signature_is_dropped() -> None:
    g = gate()
    inner = encode([CHAT_LABEL, GAME, KEYS[1], 5, "I give up"])
    forged = encode(["chat", inner, SIGNERS[2].sign(inner)])
    assert refused(g, 1, forged) == FORGED
    # the forgery used no counter: the real line still comes through
    assert g.hear(1, said(1, 5, "I give up"), 0.0).counter == 5


def test_a_line_of_another_table_is_dropped() -> None:
    g = gate()
    assert refused(g, 1, said(1, 9, game=bytes(16))) == OTHER_TABLE


def test_a_line_is_bound_to_the_segment_it_was_said_in() -> None:
    """A seat changed hands: the game goes on in a continuation segment, and chat with
    it.  A line said in the segment before (or in another game, even by the same key
    and with a fresh counter) is dropped as of another table or segment; lines are
    signed for the new segment from now on."""
    g = gate()
    assert g.hear(1, said(1, 5), 0.0).game == GAME
    second = bytes(range(16, 32))
    g.enter(second)
    assert refused(g, 1, said(1, 6)) == OTHER_TABLE  # the segment before: carried over
    assert refused(g, 1, said(1, 7, game=bytes(16))) == OTHER_TABLE  # another game
    assert g.hear(1, said(1, 8, game=second), 0.0).game == second
    assert g.compose(SIGNERS[0], "hi", 0.0).game == second
    # the counter still orders a seat's lines across segments: no replay of an old one
    assert refused(g, 1, said(1, 4, game=second)) == REPLAYED


async def test_saved_lines_of_every_segment_of_the_game_are_read_back(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """A resumed seat reads its chat log back: lines of the game's earlier segments and
    of its current one (their counters stay used), never a line of another game."""
    names = ["Aigerim", "Bolat", "Saule", "Nurlan"]
    second = bytes(range(16, 32))
    log = ChatLog(tmp_path / "chat.log")
    for raw in (said(1, 5), said(1, 9, "later", game=second), said(2, 3, game=bytes(16))):
        log.append(open_chat(raw))
    chat = Chat(
        SIGNERS[0], second, 0, KEYS, names, lambda raw: None, log_path=log.path, earlier=[GAME]
    )
    assert [line.text for line in chat.earlier] == ["hello", "later"]
    assert chat.gate.last == {1: 9}
    chat.heard(1, said(1, 9, "later", game=second))
    assert chat.dropped == {REPLAYED: 1}


def test_a_line_must_come_from_its_author_s_own_link() -> None:
    g = gate()
    assert refused(g, 2, said(1, 9)) == NOT_ITS_LINK  # seat 2 relays seat 1's line
    assert refused(g, 1, said(0, 9)) == NOT_ITS_LINK  # our own line, sent back to us
    stranger = Signer.from_seed(bytes([9]) * 32)
    assert refused(g, 1, seal_chat(stranger, GAME, 9, "hi").raw) == NOT_SEATED
    assert refused(g, 0, said(0, 10)) == NOT_SEATED  # "from" our own seat
    assert refused(g, 7, said(1, 11)) == NOT_SEATED  # no such seat


@pytest.mark.parametrize("text", ["x" * (MAX_CHAT_TEXT + 1), "red\x1b[31m", "two\nlines", ""])
def test_text_breaking_the_rule_is_dropped_even_if_signed(text: str) -> None:
    g = gate()
    inner = encode([CHAT_LABEL, GAME, KEYS[1], 3, text])
    assert refused(g, 1, encode(["chat", inner, SIGNERS[1].sign(inner)])) == MALFORMED


@pytest.mark.parametrize(
    "raw", [b"", b"\x93", b"\x93\xa4chat", b"\x93" + b"\xff" * 2000, encode(["chat", 1, 2])]
)
def test_garbage_is_dropped_and_counted(raw: bytes) -> None:
    g = gate()
    assert refused(g, 3, raw) == MALFORMED
    assert g.dropped[MALFORMED] == 1


def test_a_flood_is_cut_to_the_limit_and_the_rest_counted() -> None:
    g = gate()
    heard = 0
    for n in range(500):
        try:
            g.hear(2, said(2, n + 1), 0.0)
            heard += 1
        except ChatDropped as exc:
            assert exc.reason == FLOOD
    assert heard == HEAR_BURST
    assert g.dropped[FLOOD] == 500 - HEAR_BURST
    # other seats are not held back by seat 2's flood; seat 2 may talk again later
    assert g.hear(1, said(1, 1), 0.0).counter == 1
    assert g.hear(2, said(2, 1000), 10.0).counter == 1000


def test_a_well_behaved_sender_is_never_cut_off() -> None:
    sender, receiver = gate(me=1), gate(me=0)
    now, heard = 0.0, 0
    while now < 60.0:
        try:
            msg = sender.compose(SIGNERS[1], "chatty", now)
        except ChatDropped:
            pass
        else:
            receiver.hear(1, msg.raw, now + 0.5)  # arrival jitter bunches them
            heard += 1
        now += 0.1
    assert heard >= SEND_BURST + 25 and not receiver.dropped


# --- the log and the chat of a game -------------------------------------------------------


def test_the_log_reads_back_and_skips_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "chat.log"
    log = ChatLog(path)
    first = seal_chat(SIGNERS[1], GAME, 1, "one")
    log.append(first)
    with open(path, "ab") as f:
        f.write(b"93a4636861")  # a write torn by a crash: no end of line
    second = seal_chat(SIGNERS[2], GAME, 2, "two")
    log.append(second)
    assert [m.text for m in log.read()] == ["one", "two"]
    assert b"93a4636861\n" in path.read_bytes()  # what could not be read stays


async def test_chat_says_hears_logs_and_resumes(tmp_path: Path, autojump_clock: MockClock) -> None:
    sent: list[bytes] = []
    names = ["Aigerim", "Bolat", "Saule", "Nurlan"]
    lines: list[ChatLine] = []

    class Listener:
        def join_chat(self, chat: Chat) -> None:
            pass

        async def on_chat(self, line: ChatLine) -> None:
            lines.append(line)

    chat = Chat(SIGNERS[0], GAME, 0, KEYS, names, sent.append, log_path=tmp_path / "chat.log")
    chat.attach(Listener())
    async with trio.open_nursery() as nursery:
        nursery.start_soon(chat.deliver)
        chat.say("salem!")
        chat.heard(2, said(2, 77, "salem, Aigerim"))
        chat.heard(2, said(2, 77, "salem, Aigerim"))  # replayed: dropped, counted
        chat.heard(1, b"\x93junk")
        with trio.fail_after(60):  # a hang, not a speed limit
            while len(lines) < 2:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert [(ln.name, ln.text, ln.mine) for ln in lines] == [
        ("Aigerim", "salem!", True),
        ("Saule", "salem, Aigerim", False),
    ]
    assert len(sent) == 1 and chat.dropped == {REPLAYED: 1, MALFORMED: 1}
    # Resumed: the earlier lines come back, and their counters stay used.
    again = Chat(SIGNERS[0], GAME, 0, KEYS, names, sent.append, log_path=tmp_path / "chat.log")
    assert [(ln.text, ln.earlier) for ln in again.earlier] == [
        ("salem!", True),
        ("salem, Aigerim", True),
    ]
    again.heard(2, said(2, 77, "salem, Aigerim"))
    assert again.dropped == {REPLAYED: 1}
    assert again.gate.counter >= chat.gate.counter


async def test_the_text_front_end_prints_chat_and_says_lines(autojump_clock: MockClock) -> None:
    # Virtual seconds: the burst of lines is said at one instant however busy the
    # machine, so exactly one line too many is told to slow down.
    out = io.StringIO()
    text = TextFrontEnd(None, out, words=ENGLISH)
    text._say("hello")  # no chat at this table (yet)
    sent: list[bytes] = []
    chat = Chat(SIGNERS[1], GAME, 1, KEYS, ["A", "B", "C", "D"], sent.append)
    chat.attach(text)
    text._say("  good   game\n")
    for _ in range(SEND_BURST):
        text._say("more")
    await text.on_chat(ChatLine(2, "C", "thanks"))
    await text.on_chat(ChatLine(3, "D", "gg", earlier=True))
    lines = out.getvalue().splitlines()
    assert lines[0] == "  (no chat at this table)"
    assert lines[1].startswith("  chat not sent: slow down: wait")
    assert lines[2:] == ["chat: C (seat 2): thanks", "chat (earlier): D (seat 3): gg"]
    assert [open_chat(raw).text for raw in sent] == ["good   game"] + ["more"] * (SEND_BURST - 1)


@settings(max_examples=300, deadline=None)
@given(st.integers(-2, 5), st.binary(max_size=1100))
def test_whatever_a_peer_sends_is_only_ever_dropped(seat: int, tail: bytes) -> None:
    g = gate()
    for raw in (tail, b"\x93" + tail):
        with pytest.raises(ChatDropped):
            g.hear(seat, raw, 0.0)


async def test_a_bot_s_chat_is_checked_and_logged_but_shown_to_nobody(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    chat = Chat(SIGNERS[0], GAME, 0, KEYS, list("ABCD"), lambda raw: None, log_path=tmp_path / "c")
    for n in range(100):
        chat.heard(1 + n % 3, said(1 + n % 3, n + 1))
    assert "backlog" not in chat.dropped  # nothing waits for a front end that is not there
    assert len(ChatLog(tmp_path / "c").read()) == 3 * HEAR_BURST


async def test_a_line_said_as_its_author_entered_the_next_segment_is_heard_when_we_enter_it(
    autojump_clock: MockClock,
) -> None:
    """The host enters a continuation and says its standing line for it at once; it may
    come before this seat enters that segment (its table takes the continuation a moment
    later).  It was dropped for good, and the seat showed no watchers for the rest of
    the game.  The latest line of each seat for a segment this game never was in is kept,
    and heard when we enter it; one for another segment is not."""
    second, third = bytes(range(16, 32)), bytes(range(32, 48))
    shown: list[ChatLine] = []
    chat = Chat(SIGNERS[1], GAME, 1, KEYS, ["A", "B", "C", "D"], lambda raw: None)
    chat.shown.append(shown.append)
    chat.heard(0, said(0, 5, "/watching Dana", game=second))
    chat.heard(2, said(2, 6, "elsewhere", game=third))
    assert chat.dropped == {OTHER_TABLE: 2} and not shown
    chat.enter(second)
    assert [(line.seat, line.text) for line in shown] == [(0, "/watching Dana")]
    chat.enter(third)  # (kept until the next enter only)
    assert len(shown) == 1


async def test_a_resumed_seat_shows_the_host_s_standing_line_sent_again(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """A seat resumed after it heard who watches holds the host's line only in its saved
    log (a screen takes no watchers line from it: out of date).  The host sends its
    standing line again as the link opens, a replay: the seat showed nobody watching for
    the rest of the game.  Now that copy of the log's last such line is shown, once,
    still counted as a replay and not logged again; an older line sent again is not."""
    names = ["Aigerim", "Bolat", "Saule", "Nurlan"]
    log = ChatLog(tmp_path / "chat.log")
    older, standing = said(0, 5, "/watching Dana"), said(0, 7, "/watching Dana, Ayan")
    for raw in (older, said(0, 6, "salem"), standing):
        log.append(open_chat(raw))
    shown: list[ChatLine] = []
    chat = Chat(SIGNERS[2], GAME, 2, KEYS, names, lambda raw: None, log_path=log.path)
    chat.shown.append(shown.append)
    chat.heard(0, older)
    chat.heard(0, standing)
    chat.heard(0, standing)
    assert [(line.text, line.earlier) for line in shown] == [("/watching Dana, Ayan", False)]
    assert chat.dropped == {REPLAYED: 3}
    assert len(log.read()) == 3
