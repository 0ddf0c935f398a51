"""The watchers' control messages (`watch`, `watching`, `fed`, `rewind`, `alive`): strict,
sans-IO."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pbelka.protocol import lobby as lb

names = st.text(
    st.characters(blacklist_categories=("C", "Z"), max_codepoint=0x2FFFF) | st.just(" "),
    min_size=1,
    max_size=lb.MAX_NAME,
).filter(str.isprintable)
counts = st.integers(0, lb.MAX_RECORDS - 1)
watch_messages = st.one_of(
    st.builds(lb.Watch, names, counts),
    st.builds(lb.Watching, st.sampled_from(lb.CHAT_MODES)),
    st.builds(lb.Fed, counts),
    st.builds(lb.Rewind, counts),
    st.just(lb.Alive()),
)


@given(watch_messages)
def test_watch_messages_round_trip_canonically(msg: lb.Control) -> None:
    payload = lb.encode_control(msg)
    assert not lb.is_envelope(payload)
    assert lb.decode_control(payload) == msg
    assert lb.encode_control(lb.decode_control(payload)) == payload


def test_the_watch_message_is_byte_for_byte_the_spec_s() -> None:
    # protocol/SPEC.md section 7.5: keys in ascending order, "from" first.
    assert lb.encode_control(lb.Watch("Ann", 0)) == bytes.fromhex(
        "83a466726f6d00a46e616d65a3416e6ea174a57761746368"
    )
    assert lb.encode_control(lb.Watching()) == msgpack.packb({"chat": "off", "t": "watching"})
    assert lb.encode_control(lb.Fed(7)) == msgpack.packb({"records": 7, "t": "fed"})
    assert lb.encode_control(lb.Rewind(7)) == msgpack.packb({"records": 7, "t": "rewind"})
    assert lb.encode_control(lb.Alive()) == msgpack.packb({"t": "alive"})


def _raw(body: object) -> bytes:
    return msgpack.packb(body, use_bin_type=True)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("payload", "where"),
    [
        (_raw({"from": 0, "t": "watch"}), "watch"),  # no name
        (_raw({"from": 0, "name": "Ann", "nonce": b"", "t": "watch"}), "watch"),
        (_raw({"from": -1, "name": "Ann", "t": "watch"}), "watch.from"),
        (_raw({"from": True, "name": "Ann", "t": "watch"}), "watch.from"),
        (_raw({"from": 2**32, "name": "Ann", "t": "watch"}), "watch.from"),
        (_raw({"from": 0, "name": "", "t": "watch"}), "watch.name"),
        (_raw({"from": 0, "name": "a\x1b[2J", "t": "watch"}), "watch.name"),
        (_raw({"from": 0, "name": "x" * 33, "t": "watch"}), "watch.name"),
        (_raw({"name": "Ann", "t": "watch", "from": 0}), "control"),  # keys not sorted
        (_raw({"chat": "seats", "t": "watching"}), "watching.chat"),
        (_raw({"chat": 0, "t": "watching"}), "watching.chat"),
        (_raw({"t": "watching"}), "watching"),
        (_raw({"records": -3, "t": "fed"}), "fed.records"),
        (_raw({"records": 1.0, "t": "fed"}), "fed.records"),
        (_raw({"t": "fed"}), "fed"),
        (_raw({"records": -1, "t": "rewind"}), "rewind.records"),
        (_raw({"t": "rewind"}), "rewind"),
        (_raw({"records": 0, "t": "alive"}), "alive"),
    ],
)
def test_bad_watch_messages_are_refused_naming_the_field(payload: bytes, where: str) -> None:
    with pytest.raises(lb.LobbyError) as info:
        lb.decode_control(payload)
    assert info.value.where == where, str(info.value)


@given(st.binary(max_size=64))
def test_no_bytes_make_the_decoder_raise_anything_but_a_lobby_error(payload: bytes) -> None:
    try:
        lb.decode_control(payload)
    except lb.LobbyError:
        pass


def test_the_spec_s_bytes_are_what_the_codec_writes() -> None:
    from tests.protocol.test_spec_facts import section

    text = section("### 7.5")
    for msg in (lb.Watch("Ann", 0), lb.Watching("off"), lb.Fed(7), lb.Rewind(7), lb.Alive()):
        assert lb.encode_control(msg).hex(" ") in text, msg
