"""Length-prefixed framing: chunking, limits, and a round-trip property."""

from __future__ import annotations

import itertools
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.net.errors import FrameTooLarge, TruncatedFrame
from p2pbelka.net.frames import DEFAULT_MAX_FRAME_SIZE, FrameDecoder, encode_frame


def test_default_limit_is_256_kib() -> None:
    assert DEFAULT_MAX_FRAME_SIZE == 256 * 1024


def test_byte_by_byte_feeding() -> None:
    wire = encode_frame(b"hello") + encode_frame(b"") + encode_frame(b"world")
    dec = FrameDecoder()
    out: list[bytes] = []
    for i in range(len(wire)):
        out += dec.feed(wire[i : i + 1])
    assert out == [b"hello", b"", b"world"]
    assert dec.buffered == 0
    dec.end_of_stream()


def test_many_frames_in_one_chunk() -> None:
    payloads = [bytes([i]) * i for i in range(200)]
    dec = FrameDecoder()
    assert dec.feed(b"".join(encode_frame(p) for p in payloads)) == payloads


def test_oversize_length_rejected_before_buffering() -> None:
    dec = FrameDecoder(max_size=1024)
    # Only the header arrives: the decoder must refuse at once, not wait for 4 GiB.
    with pytest.raises(FrameTooLarge):
        dec.feed(struct.pack(">I", 0xFFFFFFFF))
    # Once failed, it stays failed: the stream is no longer aligned.
    with pytest.raises(FrameTooLarge):
        dec.feed(encode_frame(b"ok"))


def test_limit_is_inclusive_and_encoder_refuses_oversize() -> None:
    dec = FrameDecoder(max_size=10)
    assert dec.feed(encode_frame(b"x" * 10, max_size=10)) == [b"x" * 10]
    with pytest.raises(FrameTooLarge):
        encode_frame(b"x" * 11, max_size=10)
    with pytest.raises(FrameTooLarge):
        dec.feed(struct.pack(">I", 11))


def test_limit_applies_when_frame_is_pulled() -> None:
    # The connection raises the limit after the handshake; frames already
    # buffered must be judged by the limit in force when they are read.
    dec = FrameDecoder(max_size=4)
    dec.receive_data(encode_frame(b"abcd") + encode_frame(b"0123456789"))
    assert dec.next_frame() == b"abcd"
    dec.max_size = 100
    assert dec.next_frame() == b"0123456789"


def test_truncated_stream() -> None:
    dec = FrameDecoder()
    assert dec.feed(encode_frame(b"hello")[:-1]) == []
    with pytest.raises(TruncatedFrame):
        dec.end_of_stream()


@settings(max_examples=200, deadline=None)
@given(
    payloads=st.lists(st.binary(max_size=300), max_size=30),
    cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40),
)
def test_roundtrip_any_chunking(payloads: list[bytes], cuts: list[int]) -> None:
    wire = b"".join(encode_frame(p, max_size=300) for p in payloads)
    points = sorted({c % (len(wire) + 1) for c in cuts} | {0, len(wire)})
    dec = FrameDecoder(max_size=300)
    out: list[bytes] = []
    for a, b in itertools.pairwise(points):
        out += dec.feed(wire[a:b])
    assert out == payloads
    dec.end_of_stream()
