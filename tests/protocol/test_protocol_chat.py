"""The signed chat message: round trips, the text rule, and never a crash on bad bytes."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.peer.chat import CHAT_LOG, HEAR_BURST, HEAR_EVERY, SEND_BURST, SEND_EVERY
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.chat import (
    CHAT_LABEL,
    CHAT_PREFIX,
    MAX_CHAT,
    MAX_CHAT_TEXT,
    check_chat_text,
    clean_chat,
    is_chat,
    open_chat,
    seal_chat,
)
from p2pbelka.protocol.codec import ProtocolError, encode
from p2pbelka.protocol.envelope import ZERO_HASH, Signer, open_envelope, seal_envelope

SIGNER = Signer.from_seed(bytes(range(32)))
OTHER = Signer.from_seed(bytes(range(1, 33)))
GAME = bytes(range(16))

# Any text a keyboard (or a hostile peer) could produce, control characters included.
any_text = st.text(st.characters(codec="utf-8"), max_size=300)
wire_text = any_text.map(clean_chat).filter(lambda t: 0 < len(t) <= MAX_CHAT_TEXT)
counters = st.integers(0, 2**64 - 1)


@settings(max_examples=200, deadline=None)
@given(wire_text, counters)
def test_every_chat_round_trips(text: str, counter: int) -> None:
    msg = seal_chat(SIGNER, GAME, counter, text)
    assert is_chat(msg.raw) and len(msg.raw) <= MAX_CHAT
    opened = open_chat(msg.raw)
    assert opened == msg
    assert (opened.game, opened.sender, opened.counter, opened.text) == (
        GAME,
        SIGNER.public_key,
        counter,
        text,
    )


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_cleaning_gives_text_the_wire_takes(text: str) -> None:
    clean = clean_chat(text)
    assert clean_chat(clean) == clean  # idempotent
    assert clean.isprintable() and clean == clean.strip()
    if 0 < len(clean) <= MAX_CHAT_TEXT:
        assert check_chat_text(clean) == clean
    else:
        with pytest.raises(ProtocolError):
            check_chat_text(clean)


def test_cleaning_turns_line_breaks_into_spaces_and_drops_controls() -> None:
    assert clean_chat("  hi\tthere\nyou\r\n ") == "hi there you"
    assert clean_chat("bell\x07 esc\x1b[2J nul\x00 del\x7f c1\x85") == "bell esc[2J nul del c1"
    assert clean_chat("rtl\u202eoverride zero\u200bwidth") == "rtloverride zerowidth"
    assert clean_chat("\x1b\x07\n") == ""


@pytest.mark.parametrize(
    "text",
    ["", " lead", "trail ", "line\nbreak", "esc\x1b[31m", "tab\there", "x" * (MAX_CHAT_TEXT + 1)],
)
def test_the_wire_refuses_text_that_is_not_clean(text: str) -> None:
    with pytest.raises(ProtocolError):
        seal_chat(SIGNER, GAME, 1, text)
    # ... and so does a receiver, even when the sender signed it anyway.
    inner = encode([CHAT_LABEL, GAME, SIGNER.public_key, 1, text])
    with pytest.raises(ProtocolError, match=r"chat\.text"):
        open_chat(encode(["chat", inner, SIGNER.sign(inner)]))


def test_the_longest_text_in_four_byte_characters_fits() -> None:
    msg = seal_chat(SIGNER, GAME, 2**64 - 1, "🂡" * MAX_CHAT_TEXT)
    assert len(msg.raw) <= MAX_CHAT
    assert open_chat(msg.raw).text == "🂡" * MAX_CHAT_TEXT


def test_every_flipped_bit_is_rejected_cleanly() -> None:
    raw = seal_chat(SIGNER, GAME, 12345, "good game").raw
    for i in range(len(raw)):
        for bit in (0x01, 0x80):
            tampered = bytearray(raw)
            tampered[i] ^= bit
            with pytest.raises(ProtocolError):
                open_chat(bytes(tampered))


def test_another_key_cannot_sign_for_a_seat() -> None:
    inner = encode([CHAT_LABEL, GAME, SIGNER.public_key, 7, "I fold"])
    forged = encode(["chat", inner, OTHER.sign(inner)])
    with pytest.raises(ProtocolError, match="bad signature"):
        open_chat(forged)
    # The cheap checks alone do not look at the signature (a receiver's first pass).
    assert open_chat(forged, check_signature=False).sender == SIGNER.public_key


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=1200))
def test_random_bytes_only_ever_raise_protocol_error(data: bytes) -> None:
    with pytest.raises(ProtocolError):
        open_chat(data)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=40), st.text(max_size=20), counters), max_size=6))
def test_any_inner_list_only_ever_raises_protocol_error(fields: list[object]) -> None:
    inner = encode(fields)
    with pytest.raises(ProtocolError):
        open_chat(encode(["chat", inner, SIGNER.sign(inner)]))


def test_chat_and_envelopes_never_pass_for_each_other() -> None:
    chat = seal_chat(SIGNER, GAME, 1, "hello").raw
    envelope = seal_envelope(SIGNER, GAME, 1, 0, ZERO_HASH, m.PlayMsg(5, bytes(32))).raw
    assert chat[0] == 0x93 and envelope[0] == 0x92  # the mesh tells them apart by this byte
    with pytest.raises(ProtocolError):
        open_envelope(chat)
    with pytest.raises(ProtocolError):
        open_chat(envelope)
    # A chat signature is over a list whose first item is the chat label: never the
    # content of an envelope's inner, which starts with the protocol version.
    inner = msgpack.unpackb(chat)[1]
    assert msgpack.unpackb(inner)[0] == CHAT_LABEL


def test_a_game_id_must_be_sixteen_bytes() -> None:
    with pytest.raises(ProtocolError, match=r"chat\.game"):
        seal_chat(SIGNER, bytes(15), 1, "hi")
    with pytest.raises(ProtocolError, match=r"chat\.counter"):
        seal_chat(SIGNER, GAME, 2**64, "hi")


def test_the_spec_states_the_code_s_limits() -> None:
    spec = (Path(__file__).resolve().parents[2] / "protocol" / "SPEC.md").read_text("utf-8")
    text = spec[spec.index("\n### 7.4 Chat") : spec.index("\n## 8.")]
    assert f'["{CHAT_LABEL}", game: bin(16), sender: bin(32), counter: uint64, text: str]' in text
    assert f"at most {MAX_CHAT:,} bytes" in text and f"1..{MAX_CHAT_TEXT} code points" in text
    assert f"at most {SEND_BURST} lines in a row, then one every {SEND_EVERY:.0f} s" in text
    assert f"at most {HEAR_BURST} in a row from one seat" in text and HEAR_EVERY == 1.0
    assert "(first byte 0x93)" in text and CHAT_PREFIX == 0x93
    assert f"`{CHAT_LOG}`" in text
