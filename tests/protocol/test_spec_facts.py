"""Facts protocol/SPEC.md states in its own words, checked against the code, so the text a
second implementation reads and the behaviour of this one cannot drift apart silently."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import msgpack
import pytest

from p2pbelka.cards import CARDS, RANK_LETTERS, SUIT_LETTERS, Card
from p2pbelka.fairdeal.lots import commit_lot, resolve_lots
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import ZERO_HASH, Signer, seal_envelope
from p2pbelka.protocol.ids import game_id_of
from p2pbelka.protocol.transcript import dump_transcript, iter_records
from p2pbelka.rules.belka.options import CHOICES, PRESETS
from p2pbelka.table.verify import verify_bytes

PROTOCOL = Path(__file__).resolve().parents[2] / "protocol"
SPEC = (PROTOCOL / "SPEC.md").read_text(encoding="utf-8")
FIRST_DEAL = (PROTOCOL / "vectors" / "first-deal.p2pb").read_bytes()


def section(heading: str) -> str:
    """The text of the section whose heading starts with ``heading`` (up to the next one)."""
    start = SPEC.index(f"\n{heading}")
    end = SPEC.find("\n#", start + 1)
    return SPEC[start : end if end >= 0 else len(SPEC)]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the markdown tables in ``text``, cells stripped of backquotes."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip().strip("`") for c in line.strip("|").split("|")])
    return [r for r in rows if r[0] not in ("card", "option", "string")]


def test_the_card_index_orders_and_examples() -> None:
    text = section("### 1.1")
    assert "clubs ♣ = 0, diamonds ♦ = 1, hearts ♥ = 2, spades ♠ = 3" in text
    assert "(letters C D H S)" in text and SUIT_LETTERS == "CDHS"
    assert "7 = 0, 8 = 1, 9 = 2, 10 = 3, jack = 4, queen = 5, king = 6, ace = 7" in text
    assert "(letters 7 8 9 T J Q K A)" in text and RANK_LETTERS == "789TJQKA"
    examples = table_rows(text)
    assert len(examples) >= 5
    for _symbol, notation, index in examples:
        assert Card.parse(notation).index == int(index)
    for index, card in enumerate(CARDS):
        assert str(card) == RANK_LETTERS[index % 8] + SUIT_LETTERS[index // 8]


def test_the_option_table_is_the_code_s() -> None:
    rows = table_rows(section("### 3.2"))
    options = [r for r in rows if len(r) == 4]
    assert [r[0] for r in options] == list(CHOICES)
    for name, values, classic, eyes in options:
        assert tuple(v.strip().strip("`") for v in values.split(",")) == CHOICES[name]
        assert PRESETS["classic"][name] == classic
        assert PRESETS["eyes"][name] == eyes
    assert list(PRESETS) == ["classic", "eyes"]


def _table_envelope(options: dict[str, str], preset: str = "classic") -> bytes:
    signers = [Signer.from_seed(bytes([i + 1]) * 32) for i in range(4)]
    seats = tuple(m.SeatInfo(s.public_key, f"p{i}") for i, s in enumerate(signers))
    nonces = tuple(bytes([i]) * 16 for i in range(4))
    msg = m.TableMsg("belka", preset, options, seats, nonces=nonces)
    envelope = seal_envelope(signers[0], game_id_of(nonces), 0, 0, ZERO_HASH, msg)
    return dump_transcript([envelope])


@pytest.mark.parametrize(
    ("preset", "options"),
    [("classic", {"eggs": "triple"}), ("classic", {"house": "on"}), ("open", {})],
)
def test_a_table_with_unknown_rules_is_refused_at_record_0(
    preset: str, options: dict[str, str]
) -> None:
    assert verify_bytes(_table_envelope({}, "eyes")).error is None
    report = verify_bytes(_table_envelope(options, preset))
    assert report.error is not None and report.error.startswith("record 0 (byte 16,")


def test_control_characters_are_c0_del_and_c1() -> None:
    def name_ok(name: str) -> bool:
        seats = [[Signer.from_seed(bytes([i + 1]) * 32).public_key, name] for i in range(4)]
        body = {"game": "belka", "options": {}, "preset": "classic", "seats": seats}
        try:
            m.parse_body("table", body)
        except ProtocolError:
            return False
        return True

    assert not any(name_ok(f"a{chr(c)}b") for c in [*range(0x20), *range(0x7F, 0xA0)])
    assert all(name_ok(f"a{chr(c)}b") for c in (0x20, 0x7E, 0xA0, 0x2013))
    assert name_ok("x" * 64) and not name_ok("x" * 65)


def test_the_lot_functions_byte_for_byte() -> None:
    game, value = bytes(range(16)), bytes([0xA5]) * 32
    data = b"\x17p2pbelka/lots/v1/commit" + b"\x10" + game + b"\x0cfirst-dealer" + b"\x02" + value
    assert len(data) == 87
    assert commit_lot(game, b"first-dealer", 2, value) == hashlib.sha256(data).digest()
    # The vector's first dealer: the first 8 bytes of R, big-endian, mod 4.
    envelopes = [r.envelope for r in iter_records(FIRST_DEAL)]
    game = envelopes[0].game
    commits = [e.msg.c for e in envelopes if isinstance(e.msg, m.LotCommitMsg)]
    values = [e.msg.v for e in envelopes if isinstance(e.msg, m.LotRevealMsg)]
    head = b"\x17p2pbelka/lots/v1/result\x10" + game + b"\x0cfirst-dealer\x04"
    r = hashlib.shake_256(head + b"".join(values)).digest(8)
    assert r.hex() == "cf9bea35d90779fa"
    outcome = resolve_lots(game, b"first-dealer", commits, values, 4)
    assert outcome.choice == int.from_bytes(r, "big") % 4 == r[7] & 3 == 2
    assert verify_bytes(FIRST_DEAL).deals[0].summary.dealer == outcome.choice


def test_the_game_id_is_derived_byte_for_byte() -> None:
    """SPEC section 2.3: the game id is the first 16 bytes of SHA-256 over 92, b3 and
    the 19 label bytes, 90 + n, and c4 10 and the 16 bytes of each seat's nonce."""
    table = next(iter_records(FIRST_DEAL)).envelope
    assert isinstance(table.msg, m.TableMsg) and table.msg.flow == 3
    nonces = table.msg.nonces
    data = b"\x92\xb3p2pbelka/game-id/v1\x94" + b"".join(b"\xc4\x10" + n for n in nonces)
    assert len(data) == 22 + 18 * 4 == 94
    assert table.game == hashlib.sha256(data).digest()[:16] == game_id_of(nonces)
    assert table.game.hex().startswith("c6f26a49")


def test_a_segment_id_is_derived_byte_for_byte() -> None:
    """SPEC section 2.3: a continuation's id is the first 16 bytes of SHA-256 over 92,
    b6 and the 22 label bytes, then the body without the agreements."""
    from p2pbelka.protocol.ids import segment_id_of

    seats = tuple(
        m.SeatInfo(Signer.from_seed(bytes([i + 1]) * 32).public_key, "p") for i in range(2)
    )
    after = m.After(bytes(16), ((1, bytes(32)), (1, bytes(32))), 1, (0, 0), 0, 2, ((0, bytes(64)),))
    table = m.TableMsg("belot", "classic", {}, seats, 2, after, nonces=(bytes(16), b"n" * 16))
    body = msgpack.packb(table.to_wire(agreed=False), use_bin_type=True)
    data = b"\x92\xb6p2pbelka/segment-id/v1" + body
    assert segment_id_of(table) == hashlib.sha256(data).digest()[:16]
    assert b"agreed" not in body


def test_inner_is_what_is_signed_and_hashed() -> None:
    for record in iter_records(FIRST_DEAL):
        raw = record.envelope.raw
        inner, sig = msgpack.unpackb(raw)
        assert raw[0] == 0x92 and raw.endswith(b"\xc4\x40" + sig)
        assert inner[0] == 0x90 + 9
        assert hashlib.sha256(inner).digest() == record.envelope.digest
    sit = list(iter_records(FIRST_DEAL))[1].envelope.raw
    assert len(sit) == 350 and sit[:8].hex() == "92c50118" + "9902c410"


def test_shares_are_listed_in_ascending_position_order() -> None:
    for record in iter_records(FIRST_DEAL):
        msg = record.envelope.msg
        if isinstance(msg, m.SharesMsg):
            positions = [o.pos for o in msg.shares]
            assert len(positions) == 24 and positions == sorted(positions)


def test_the_byte_offsets_verify_reports() -> None:
    records = list(iter_records(FIRST_DEAL))
    fifth, sixth = records[5].offset, records[6].offset
    assert records[0].offset == 16
    broken = bytearray(FIRST_DEAL)
    broken[fifth + 4 + 60] ^= 1  # inside the envelope: its offset, 4 past the record's
    assert _error(bytes(broken)).startswith(f"byte {fifth + 4} (record 5):")
    assert _error(FIRST_DEAL[: fifth + 2]).startswith(f"byte {fifth} (record 5):")
    swapped = (
        FIRST_DEAL[:fifth]
        + FIRST_DEAL[sixth : records[7].offset]
        + FIRST_DEAL[fifth:sixth]
        + FIRST_DEAL[records[7].offset :]
    )
    assert re.match(rf"record 5 \(byte {fifth}, seat 2, seq 1\): out of order", _error(swapped))


def _error(data: bytes) -> str:
    error = verify_bytes(data).error
    assert error is not None
    return error


def test_the_wire_words_are_the_rules_words() -> None:
    """The codec checks a ``bid``'s call and a ``choice``'s eggs against the wire's own
    words (a body with any other is malformed, refused before a game sees it); those
    words are the rules' calls and choices, so neither can change without the other."""
    from p2pbelka.rules.belka.game import EGGS_CHOICES
    from p2pbelka.rules.belot.records import CALLS

    assert m.CALLS == CALLS
    assert m.EGGS == EGGS_CHOICES
    with pytest.raises(ProtocolError, match="expected one of play, pass, C, D, H, S"):
        m.parse_body("bid", {"call": "X"})
    with pytest.raises(ProtocolError, match="expected one of plus4, title"):
        m.parse_body("choice", {"eggs": "four"})


def test_every_game_fits_the_wire() -> None:
    """Each game's tables fit what a ``table`` and a ``lobby`` message can carry and
    what the fair deal deals to."""
    from p2pbelka.fairdeal.derive import MAX_SEATS as DEAL_MAX
    from p2pbelka.fairdeal.derive import MIN_SEATS as DEAL_MIN
    from p2pbelka.protocol import lobby
    from p2pbelka.rules import registry

    for name in registry.names():
        for seats in registry.spec(name).seat_counts:
            assert 2 <= seats <= m.MAX_SEATS, name
            assert lobby.MIN_SEATS <= seats <= lobby.N_SEATS, name
            assert DEAL_MIN <= seats <= DEAL_MAX, name
