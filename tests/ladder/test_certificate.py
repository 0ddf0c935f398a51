"""Result certificates: made from real games, checked with the table's own code; every
byte of one is covered (a flipped byte is refused, naming its place), a certificate of
one game never passes for another's, and no certificate comes of a disputed game."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from p2pbelka.bench.result_vectors import make_vectors
from p2pbelka.ladder import certificate as cert
from p2pbelka.ladder.make import certify, certify_table
from p2pbelka.protocol.codec import decode, encode
from p2pbelka.protocol.envelope import Signer
from p2pbelka.protocol.transcript import dump_transcript
from tests.table.helpers import play_sync, short_seed

pytestmark = pytest.mark.usefixtures("one_process")  # every seat in this process

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"
MAKER = Signer.from_seed(hashlib.sha256(b"tests/maker").digest())


def path_vector(name: str) -> bytes:
    return (VECTORS / "paths" / f"{name}.p2pb").read_bytes()


def made(name: str, signer: Signer = MAKER) -> cert.Certificate:
    result = certify(path_vector(name), signer, 1_800_000_000)
    assert not isinstance(result, str), result
    return result


def test_the_vectors_come_out_byte_for_byte() -> None:
    for name, certificate in make_vectors(VECTORS).items():
        assert (VECTORS / "results" / f"{name}.cert").read_bytes() == certificate.raw, name
        assert cert.read(certificate.raw) == certificate


def test_a_whole_game_played_by_the_tables_is_certified() -> None:
    for game, players in (("belka", 4), ("belot", 3)):
        # a short game of each (Belka's won in two deals): played to its end all the same
        tables, _ = play_sync(short_seed((game, players)), game_name=game, players=players)
        transcript = dump_transcript(tables[1].view.transcript)
        made = certify(transcript, MAKER, 1)
        assert isinstance(made, cert.Certificate), made
        assert made.kind == cert.CLOSED and made.unclosed == ()
        assert made.outcome.winner == tables[0].state.track.winner
        assert made.keys == tuple(s.key for s in tables[0].state.setup.seats)
        assert made.game_id == tables[0].view.transcript[0].game


def test_a_proven_cheater_is_certified_with_its_proof() -> None:
    proven = made("wrong-share")
    assert proven.kind == cert.PROVEN and proven.outcome.proven == (2,)
    assert made("card-in-two-hands").outcome.proven == (2,)


@pytest.mark.parametrize("name", ["dispute-odd-seats", "flow-2", "invalid-order"])
def test_a_disputed_unfinished_or_invalid_game_has_none(name: str) -> None:
    assert isinstance(certify(path_vector(name), MAKER, 1), str)


def test_every_flipped_byte_is_refused() -> None:
    raw = made("game-ok").raw
    for i in range(len(raw)):
        bad = raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1 :]
        with pytest.raises(cert.CertificateError):
            cert.read(bad)


def test_an_end_of_another_game_is_named_by_seat() -> None:
    ok, other = made("game-ok"), made("eyes-reneges")
    body = decode(ok.raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    body["ends"][2] = other.ends[2].raw
    body["sig"] = MAKER.sign(cert.signed_bytes(body))
    with pytest.raises(cert.CertificateError, match=r"ends\[2\], seat 2 \(Saule\)"):
        cert.read(cert.MAGIC + encode(body))


def test_a_relabelled_certificate_is_refused() -> None:
    """Another game's table under these closes, or another outcome re-signed by a
    stranger: the first fails, the second names a maker who sat at no seat."""
    ok, other = made("game-ok"), made("eyes-reneges")
    body = decode(ok.raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    body["table"] = other.table.raw
    body["sig"] = MAKER.sign(cert.signed_bytes(body))
    with pytest.raises(cert.CertificateError, match="not signed by that seat's key in this game"):
        cert.read(cert.MAGIC + encode(body))
    body = decode(ok.raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    body["outcome"] = {"score": [1, 2], "winner": 1}
    with pytest.raises(cert.CertificateError, match="sig"):
        cert.read(cert.MAGIC + encode(body))
    stranger = Signer.generate()
    body["by"] = stranger.public_key
    body["sig"] = stranger.sign(cert.signed_bytes(body))
    relabelled = cert.read(cert.MAGIC + encode(body))
    assert relabelled.maker_seat is None


def test_a_proof_must_prove_the_seats_it_names() -> None:
    proven = made("wrong-share")
    body = decode(proven.raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    body["outcome"] = {"proven": [1]}
    body["sig"] = MAKER.sign(cert.signed_bytes(body))
    with pytest.raises(cert.CertificateError, match=r"proves seats \[2\], not \[1\]"):
        cert.read(cert.MAGIC + encode(body))
    body["outcome"] = {"proven": [2]}
    body["transcript"] = path_vector("card-in-two-hands")
    body["sig"] = MAKER.sign(cert.signed_bytes(body))
    with pytest.raises(cert.CertificateError, match="not the transcript of the game"):
        cert.read(cert.MAGIC + encode(body))


def test_a_seat_that_did_not_close_is_shown_by_its_last_envelope() -> None:
    """A file that ends after seats 0 and 1 closed (SPEC 4.7: the result stands): seats
    2 and 3 are shown by their final deal_ends."""
    from p2pbelka.protocol.transcript import MAGIC, encode_record, iter_records

    envelopes = [r.envelope for r in iter_records(path_vector("game-ok"))]
    late = {envelopes[0].msg.seats[s].key for s in (2, 3)}  # type: ignore[attr-defined]
    without = [e for e in envelopes if not (e.type == "close" and e.sender in late)]
    data = MAGIC + b"".join(encode_record(e) for e in without)
    result = certify(data, MAKER, 1)
    assert isinstance(result, cert.Certificate), result
    assert result.unclosed == (2, 3) and result.ends[2].type == "deal_end"
    assert cert.read(result.raw).unclosed == (2, 3)


def test_a_seat_s_table_certifies_what_its_transcript_does() -> None:
    """At the end of a game the seat's own table gives the same certificate as its
    transcript read back (the same envelopes, the same outcome)."""
    tables, _ = play_sync(short_seed(("belka", 4)))
    live = certify_table(tables[2], MAKER, 5)
    assert isinstance(live, cert.Certificate), live
    assert live == certify(dump_transcript(tables[2].view.transcript), MAKER, 5)


def test_a_date_no_calendar_prints_is_refused() -> None:
    body = decode(made("game-ok").raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    body["at"] = 2**62
    body["sig"] = MAKER.sign(cert.signed_bytes(body))
    with pytest.raises(cert.CertificateError, match="before the year 10000"):
        cert.read(cert.MAGIC + encode(body))
