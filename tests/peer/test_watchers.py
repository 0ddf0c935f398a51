"""The host's watchers, sans-IO parts: what a watcher may say (peer/lan/watchers.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.chat import HEAR_BURST, ChatGate
from p2pbelka.peer.lan.watchers import CutOff, Feed, WatcherChat, what_came
from p2pbelka.protocol.transcript import iter_records

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"
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


def test_a_transcript_cut_back_is_told_to_every_watcher_fed_before() -> None:
    # The host took its seat back: its transcript keeps 45 of its 50 records (SPEC 7.5).
    records = [r.envelope for r in iter_records((VECTORS / "paths" / "game-ok.p2pb").read_bytes())]
    feed = Feed(2)
    for envelope in records[:50]:
        feed.record(envelope)
    before, later = ME.public_key, Identity.generate("Later").public_key
    feed.admitted.append(before)
    feed.rewind(50)  # nothing to cut
    assert len(feed.records) == 50 and not feed.rewound
    feed.rewind(45)
    for envelope in records[45:60]:
        feed.record(envelope)
    feed.admitted.append(later)
    assert feed.records == [e.raw for e in records[:60]] and feed.rewound == {before: 45}
    # fed before, asking past the cut (even past the end): `rewind` first, then from the cut
    assert not feed.refusal(before, 61) and "transcript has 60" in feed.refusal(later, 61)
    head = [lb.encode_control(lb.Watching("off")), lb.encode_control(lb.Alive())]
    first = feed.opening(before, 50)
    assert first[:2] == head
    assert lb.decode_control(first[2]) == lb.Rewind(45) and first[3:] == feed.records[45:]
    assert feed.opening(before, 50) == head + feed.records[50:]  # told once
    assert feed.opening(later, 50) == head + feed.records[50:]  # fed after the cut only
