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
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign
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
    # the file ends inside record 5, its last: INCOMPLETE, naming the record's offset
    cut = verify_bytes(FIRST_DEAL[: fifth + 2])
    assert cut.error is None and cut.cut_at == fifth and cut.records == 5
    assert cut.verdict.startswith(f"INCOMPLETE: the last record damaged at byte {fifth} ")
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


FAIRDEAL = (PROTOCOL / "fairdeal.md").read_text(encoding="utf-8")
TRANSPORT = (PROTOCOL / "transport.md").read_text(encoding="utf-8")


def _hex_constants(text: str) -> list[int]:
    return [int(h, 16) for h in re.findall(r"`(0x[0-9a-f]{64})`", text)]


def test_fair_deal_version_2_constants_are_the_code_s() -> None:
    """fairdeal.md section 12 restates RFC 9380's constants: they must be the ones the
    reference hashes to the curve with, in the order listed."""
    from p2pbelka.fairdeal import secp256k1 as k1

    text = FAIRDEAL[FAIRDEAL.index("## 12.") : FAIRDEAL.index("## 13.")]
    listed = _hex_constants(text)
    iso = [*k1._X_NUM, *k1._X_DEN[:2], *k1._Y_NUM, *k1._Y_DEN[:3]]
    assert listed == iso
    assert f"`A' = 0x{k1._ISO_A:064x}`" in text
    assert "`B' = 1771`" in text and k1._ISO_B == 1771
    assert "`Z = −11`" in text and k1._Z == k1.P - 11
    assert k1._X_DEN[2] == k1._Y_DEN[3] == 1


_P25519 = 2**255 - 19
_D25519 = -121665 * pow(121666, -1, _P25519) % _P25519


def _decode_x(y: int, sign: int) -> int | None:
    """fairdeal.md section 1's decoding: x from y and the sign bit."""
    p = _P25519
    u, v = (y * y - 1) % p, (_D25519 * y * y + 1) % p
    x = u * pow(v, 3, p) * pow(u * pow(v, 7, p), (p - 5) // 8, p) % p
    if v * x * x % p == (-u) % p:
        x = x * pow(2, (p - 1) // 4, p) % p
    if v * x * x % p != u:
        return None
    return (p - x) % p if x & 1 != sign else x


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    p, (x1, y1), (x2, y2) = _P25519, a, b
    t = _D25519 * x1 * x2 * y1 * y2 % p
    return (x1 * y2 + x2 * y1) * pow(1 + t, -1, p) % p, (y1 * y2 + x1 * x2) * pow(1 - t, -1, p) % p


def _map_as_written(r: bytes) -> bytes:
    """fairdeal.md section 1's ``map``, step by step."""
    p, a = _P25519, 486662
    sign, t = r[31] >> 7, (int.from_bytes(r, "little") & ((1 << 255) - 1)) % p
    u = -a * pow(1 + 2 * t * t, -1, p) % p
    if pow((u**3 + a * u * u + u) % p, (p - 1) // 2, p) == p - 1:
        u = (-u - a) % p
    y = (u - 1) * pow(u + 1, -1, p) % p
    x = _decode_x(y, sign)
    assert x is not None
    point = (x, y)
    for _ in range(3):
        point = _add(point, point)
    return (point[1] | (point[0] & 1) << 255).to_bytes(32, "little")


def test_fair_deal_version_1_map_is_what_the_text_says() -> None:
    """fairdeal.md section 1 defines ``map`` without pointing to libsodium: its steps
    give libsodium's ``crypto_core_ed25519_from_uniform`` byte for byte, and the card
    points of the vector."""
    from nacl.bindings import crypto_core_ed25519_from_uniform

    from p2pbelka.fairdeal.deck import card_point

    text = FAIRDEAL[FAIRDEAL.index("## 1.") : FAIRDEAL.index("## 2.")]
    assert "libsodium" in text and "`A = 486662`" in text and "times 8" in text
    for i in range(48):
        r = hashlib.sha256(i.to_bytes(2, "big")).digest()
        assert _map_as_written(r) == crypto_core_ed25519_from_uniform(r)
    game = bytes(range(16))
    label = b"\x0dp2pbelka/card" + b"\x10" + game
    for i in (0, 4, 31):
        r = hashlib.sha256(label + i.to_bytes(2, "big")).digest()
        assert card_point(game, i, 1) == _map_as_written(r)


def test_the_two_deck_digests_differ_as_said() -> None:
    from p2pbelka.fairdeal.deck import deck_digest as labelled

    deck = [bytes([2, i]) * 16 + b"\x01" for i in range(32)]  # the digests read no point
    assert m.deck_digest(deck) == hashlib.sha256(b"".join(deck)).digest()
    framed = b"\x19p2pbelka/fairdeal/v2/deck" + b"".join(deck)
    assert labelled(deck, 2) == hashlib.sha256(framed).digest() != m.deck_digest(deck)
    assert "no label and no length" in section("## 3.")


def test_the_belot_options_are_the_code_s() -> None:
    from p2pbelka.rules.belot.options import DEFAULTS, HANGING_TWICE, MAX_FOUR, belot_options
    from p2pbelka.rules.common.options import OptionError

    rows = {r[0]: r for r in table_rows(section("## 8.")) if len(r) == 3}
    assert list(rows) == list(DEFAULTS)
    assert rows["hanging_twice"][1].replace("`", "") == ", ".join(HANGING_TWICE)
    assert DEFAULTS["hanging_twice"] == rows["hanging_twice"][2] == "together"
    for name in ("four_eights", "four_sevens"):
        assert rows[name][1].replace("`", "") == f'"0" to "{MAX_FOUR}"' and DEFAULTS[name] == "0"
    for good in ("0", "50", "200"):
        belot_options({"four_eights": good})
    for bad in ("00", "050", "+5", "201", "-1", " 5"):
        with pytest.raises(OptionError):
            belot_options({"four_sevens": bad})


def test_the_belot_deal_pattern_is_the_text_s() -> None:
    from p2pbelka.rules.belot.core import deal_pattern

    for n in (2, 3):
        for d in range(n):
            text_pattern = []
            for p in range(32):
                if p < 6 * n:
                    text_pattern.append((d + 1 + (p % (3 * n)) // 3) % n)
                elif p == 6 * n:
                    text_pattern.append(-1)
                elif p <= 9 * n:
                    text_pattern.append((d + 1 + (p - 6 * n - 1) // 3) % n)
                else:
                    text_pattern.append(-2)
            assert tuple(text_pattern) == deal_pattern(n, d)
        assert text_pattern.count(-2) == {2: 13, 3: 4}[n]


def test_the_pass_order_names_each_seat_once() -> None:
    from p2pbelka.table.flow import pass_order

    class At:
        def __init__(self, dealer: int, n: int) -> None:
            self.n_seats = n
            self.track = type("T", (), {"dealer": dealer})()

    assert "`d+1, ..., d+n−1, d`" in section("## 8.")
    for n in (2, 3, 4):
        for d in range(n):
            order = pass_order(At(d, n))  # type: ignore[arg-type]
            assert order == [*((d + i) % n for i in range(1, n)), d]


def test_the_table_of_checks_lists_every_message() -> None:
    rows = table_rows(section("### 10.1"))
    listed = {t.strip().strip("`") for r in rows[1:] for t in r[0].split(",")}
    assert listed == set(m._PARSERS), listed ^ set(m._PARSERS)


def test_the_fingerprint_is_the_text_s() -> None:
    from p2pbelka.net.identity import fingerprint

    key = Signer.from_seed(bytes(32)).public_key
    digest = hashlib.sha256(key).hexdigest()
    assert fingerprint(key) == " ".join(digest[i : i + 4] for i in range(0, 16, 4))
    assert "first 8 bytes of\n  SHA-256" in section("### 10.6")


def test_a_dispute_s_seats_are_read_as_said() -> None:
    """SPEC 10.1: repeats collapse, seats beyond the table are ignored, and a dispute
    that names no seat of the table names its sender."""
    body = m.parse_body("dispute", {"seats": [3, 1, 1], "why": "é" * 200})
    assert isinstance(body, m.DisputeMsg) and body.seats == (3, 1, 1)
    for bad in (
        {"seats": [], "why": "x"},
        {"seats": [4], "why": "x"},
        {"seats": [0], "why": "é" * 201},
    ):
        with pytest.raises(ProtocolError):
            m.parse_body("dispute", bad)


def test_a_deal_end_s_commitment_is_optional_on_the_wire() -> None:
    assert isinstance(m.parse_body("deal_end", {}), m.DealEndMsg)
    assert isinstance(m.parse_body("deal_end", {"c": bytes(32)}), m.DealEndMsg)


def test_a_protocol_1_file_is_invalid_at_byte_0() -> None:
    report = verify_bytes(b"P2PBELKA-TRN-v1\n")
    assert report.verdict.startswith("INVALID: byte 0: a transcript of protocol version 1")
    assert "`INVALID: byte 0: a transcript of protocol version 1" in section("### 10.5")


def test_the_beacon_vector_keys_are_in_the_table_s_order() -> None:
    """transport.md section 8 names the order its beacon vector's keys are in: the
    order of section 5.1's table, which is the reference sender's."""
    text = TRANSPORT[TRANSPORT.index("### 5.1") : TRANSPORT.index("### 5.2")]
    keys = [r[0] for r in table_rows(text)][1:]
    # then ``watch``, which the sender puts last and only when a watcher may come
    assert keys == [
        *("id", "name", "variant", "seats", "free", "addr", "port", "key", "seq", "ts"),
        "watch",
    ]
    assert (
        "`id`, `name`,\n`variant`, `seats`, `free`, `addr`, `port`, `key`, `seq`, `ts`" in TRANSPORT
    )


def test_a_deal_end_whose_view_leaves_out_part_of_the_deal_is_taken() -> None:
    """SPEC 10.3: a view may hold less than its sender had accepted, a deal_end's too;
    it is not refused and names nobody (the closes cover the rest)."""
    envelopes = [r.envelope for r in iter_records(FIRST_DEAL)]
    last = envelopes[-1]
    assert last.type == "deal_end"
    signers = LocalGame.seeded(1).signers
    signer = next(s for s in signers if s.public_key == last.sender)
    view = list(last.view)
    count, _head = view[0]
    zeroth = [e for e in envelopes if e.sender == signers[0].public_key]
    view[0] = (count - 1, zeroth[count - 2].digest)  # one envelope of seat 0 left out
    short = resign(signer, last, view=tuple(view))
    data = dump_transcript(envelopes[:-1]) + len(short).to_bytes(4, "big") + short
    report = verify_bytes(data)
    assert report.error is None and report.verdict.startswith("INCOMPLETE")
    assert report.records == len(envelopes) and not report.faults
    assert "counts fewer envelopes of some chain than were accepted is not" in " ".join(
        section("### 10.3").split()
    )


def test_an_offer_closed_byte_for_byte() -> None:
    """SPEC section 9.4: the example ``seat_closed`` is the proposer's signed word, and
    its signature is over the label, the id and why."""
    from p2pbelka.protocol.seatchange import (
        ClosedOffer,
        closed_statement,
        decode_seat_change,
        encode_seat_change,
    )

    text = section("### 9.4")
    block = text[text.index("the whole message:") :]
    example = bytes.fromhex("".join(block.split("```")[1].split()))
    proposer = Signer.from_seed(bytes(32))
    segment, why = bytes(range(16)), "seat 1 said no: seat 3 is back"
    sig = proposer.sign(closed_statement(segment, why))
    assert example == encode_seat_change(ClosedOffer(segment, why, sig))
    assert decode_seat_change(example) == ClosedOffer(segment, why, sig)
