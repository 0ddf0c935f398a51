"""The host's watchers, sans-IO parts: what a watcher may say (peer/lan/watchers.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.chat import HEAR_BURST, ChatGate
from p2pbelka.peer.lan.watchers import CutOff, Feed, WatcherChat, what_came

SEGMENT = bytes(range(16))
ME = Identity.generate("Watcher")


def _lines(n: int, segment: bytes = SEGMENT, signer: Identity = ME) -> list[bytes]:
    gate = ChatGate(segment, 0, [signer.public_key])
    return [gate.compose(signer, f"hi {i}", 100.0 * i).raw for i in range(n)]


def test_a_watcher_s_own_fresh_line_for_this_segment_is_relayed() -> None:
    chat = WatcherChat(ME.public_key)
    first, second = _lines(2)
    assert chat.check(first, SEGMENT, 0.0) is not None
    assert chat.check(second, SEGMENT, 0.0) is not None
    with pytest.raises(CutOff, match="replayed"):
        chat.check(first, SEGMENT, 0.0)


def test_a_line_of_another_segment_is_dropped_quietly() -> None:
    assert WatcherChat(ME.public_key).check(_lines(1)[0], bytes(16), 0.0) is None


def _foreign_line() -> bytes:
    return _lines(1, signer=Identity.generate("Other"))[0]


def _flipped_line() -> bytes:
    line = _lines(1)[0]
    return line[:-1] + bytes([line[-1] ^ 1])


# The lines are built inside the test: ids made from fresh keys would differ
# between collecting processes.
@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: b"\x93junk", "malformed"),
        (_foreign_line, "another key"),
        (_flipped_line, "signature"),
    ],
    ids=["malformed", "another-key", "bad-signature"],
)
def test_what_a_watcher_may_not_say_cuts_it_off(make: Callable[[], bytes], why: str) -> None:
    raw = make()
    with pytest.raises(CutOff, match=why):
        WatcherChat(ME.public_key).check(raw, SEGMENT, 0.0)


def test_more_than_the_receiving_limit_is_a_flood() -> None:
    chat = WatcherChat(ME.public_key)
    lines = _lines(HEAR_BURST + 1)
    for raw in lines[:-1]:
        chat.check(raw, SEGMENT, 0.0)
    with pytest.raises(CutOff, match="flood"):
        chat.check(lines[-1], SEGMENT, 0.0)


def test_what_came_names_the_payload() -> None:
    assert "'hello'" in what_came(lb.encode_control(lb.Hello("a", "", 1, bytes(16))))
    assert "malformed" in what_came(b"\xc1")
    assert "envelope" in what_came(b"\x92\x00")
    assert "chat" in what_came(_lines(1)[0])


def test_the_feed_s_limits() -> None:
    assert Feed(0).refusal(ME.public_key, 0) == "this table takes no watchers"
    feed = Feed(2)
    assert feed.places == 2 and feed.taking and not feed.refusal(ME.public_key, 0)
    assert "transcript has 0" in feed.refusal(ME.public_key, 1)
    with pytest.raises(ValueError):
        Feed(1, "seats")
