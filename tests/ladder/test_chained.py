"""A chained certificate: a game finished after a seat changed hands (protocol/results.md
section 1.1).  It counts for the players who sat down at the start, the one who left
included; every link from segment to segment is checked, and each way to forge one (a
link, a segment of another game, an agreement of the wrong seats, another outcome, a
chain cut short) is refused by the ledger, which names the byte, field or seat at fault.
Also: a certificate dated well after the machine's clock counts only from its date."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.bench.path_segments import _bot
from p2pbelka.ladder import certificate as cert
from p2pbelka.ladder.ledger import AHEAD, Ledger
from p2pbelka.ladder.make import certify
from p2pbelka.ladder.results import result_of
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import decode, encode
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.seatchange import sign_agreement, statement, with_agreements
from p2pbelka.protocol.transcript import iter_records

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"
NAME = "continuation-to-the-end"
"""Seed 2's Belka game: seat 3 (Nurlan) lost in deal 1, a bot finishes it; 6:2 for 0 and 2."""
SEATS = LocalGame.seeded(2).signers
BOT = _bot(2)[0]
AT = 1_767_225_600
LEFT = 3


def _envelopes(name: str) -> list[Envelope]:
    return [r.envelope for r in iter_records((VECTORS / "paths" / f"{name}.p2pb").read_bytes())]


def _made(maker: Signer = SEATS[0], at: int = AT, name: str = NAME) -> cert.Certificate:
    made = certify((VECTORS / "paths" / f"{name}.p2pb").read_bytes(), maker, at)
    assert isinstance(made, cert.Certificate), made
    return made


def _body(made: cert.Certificate) -> dict[str, Any]:
    body: dict[str, Any] = decode(made.raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    return body


def _sealed(body: dict[str, Any], maker: Signer = SEATS[0]) -> bytes:
    """The certificate of ``body`` signed again by its maker (a seat of the game: only
    the part changed is at fault)."""
    body = {k: v for k, v in body.items() if k != "sig"}
    body["sig"] = maker.sign(cert.signed_bytes(body))
    return cert.MAGIC + encode(dict(sorted(body.items())))


def _link(made: cert.Certificate, k: int = 0) -> tuple[Envelope, m.TableMsg]:
    segment = made.segments[k]
    assert isinstance(segment.msg, m.TableMsg)
    return segment, segment.msg


def _relinked(made: cert.Certificate, table: m.TableMsg, host: Signer = SEATS[0]) -> bytes:
    """The certificate with its continuation ``table`` sealed again by ``host``."""
    segment, _setup = _link(made)
    body = _body(made)
    body["segments"] = [resign(host, segment, msg=table)]
    return _sealed(body)


def _refused(raw: bytes, tmp_path: Path, where: str, why: str) -> str:
    """``raw`` is refused by the reader and set aside by a seat's ledger, the note naming
    ``where`` (a regular expression) and ``why``."""
    with pytest.raises(cert.CertificateError) as caught:
        cert.read(raw)
    assert re.fullmatch(where, caught.value.where), caught.value
    assert why in caught.value.reason, caught.value
    with Ledger(tmp_path / "ladder.sqlite", SEATS[1].public_key) as ledger:
        assert ledger.add(raw, "given") is None
        assert ledger.results() == []
        note = ledger.notes[-1]
    assert note.startswith(f"refused: {caught.value.where}: ") and why in note, note
    return note


def test_a_game_a_bot_finished_counts_for_the_player_who_left(tmp_path: Path) -> None:
    made = _made()
    assert made.kind == cert.CHAINED and len(made.segments) == len(made.cuts) == 1
    assert made.cuts[0].sender == SEATS[LEFT].public_key  # Nurlan's last word in segment 0
    assert made.last.msg.seats[LEFT].key == BOT.public_key  # type: ignore[attr-defined]
    assert [e.type for e in made.ends] == ["close"] * 4
    assert made.holders[LEFT] == (SEATS[LEFT].public_key, BOT.public_key)
    result = result_of(made)
    assert [s.key for s in result.seats] == [s.public_key for s in SEATS]
    assert made.outcome.winner == 0 and [s.rank for s in result.seats] == [0, 1, 0, 1]
    with Ledger(tmp_path / "ladder.sqlite", SEATS[1].public_key) as ledger:
        assert ledger.add(made.raw, "given") is not None
        assert ledger.games_of(SEATS[LEFT].public_key) == 1  # Nurlan lost it, gone or not
        assert ledger.games_of(BOT.public_key) == 0  # it played for Nurlan: not rated
    assert _made(BOT).maker_seat == LEFT  # the bot's runner may sign as the seat too


def test_every_flipped_byte_of_a_chain_is_refused() -> None:
    raw = _made().raw
    for i in range(len(raw)):
        with pytest.raises(cert.CertificateError):
            cert.read(raw[:i] + bytes([raw[i] ^ 0x01]) + raw[i + 1 :])


def test_a_forged_link_is_refused_naming_the_seat(tmp_path: Path) -> None:
    made = _made()
    segment, table = _link(made)
    agreed = dict(table.after.agreed)  # type: ignore[union-attr]
    agreed[1] = SEATS[1].sign(b"a signature on something else")
    _refused(
        _relinked(made, with_agreements(table, agreed)),
        tmp_path,
        r"byte \d+, segments\[0\]",
        "seat 1's agreement is not its signature on this change",
    )
    # the host's own signature over the link: a byte of it changed is the envelope's
    body = _body(made)
    body["segments"] = [segment.raw[:-1] + bytes([segment.raw[-1] ^ 1])]
    _refused(_sealed(body), tmp_path / "sig", r"byte \d+, segments\[0\]", "signature")


def test_agreements_signed_by_the_wrong_seats_are_refused(tmp_path: Path) -> None:
    made = _made()
    segment, table = _link(made)
    agreed = dict(table.after.agreed)  # type: ignore[union-attr]
    words = statement(segment.game, table)
    # seat 2's place holds the signature of the player who left (seat 3)
    wrong = with_agreements(table, {**agreed, 2: SEATS[LEFT].sign(words)})
    _refused(_relinked(made, wrong), tmp_path / "a", r"byte \d+, segments\[0\]", "seat 2's")
    # the seat that changes hands agrees to its own change
    own = with_agreements(table, {**agreed, LEFT: sign_agreement(SEATS[LEFT], segment.game, table)})
    _refused(
        _relinked(made, own), tmp_path / "b", r"byte \d+, segments\[0\]", "seat 3, the seat that"
    )
    # a seat's agreement left out
    lacking = with_agreements(table, {s: v for s, v in agreed.items() if s != 1})
    _refused(
        _relinked(made, lacking),
        tmp_path / "c",
        r"byte \d+, segments\[0\]",
        "seat 1 did not sign the change (signed by 0, 2)",
    )
    # the link hosted by the bot, the seat that changes hands
    _refused(
        _relinked(made, table, host=BOT),
        tmp_path / "d",
        r"byte \d+, segments\[0\]",
        "signed by seat 3, the seat that changes hands",
    )


def test_a_segment_of_another_game_is_refused(tmp_path: Path) -> None:
    made = _made()
    other = next(e for e in _envelopes("continuation-accepted")[1:] if e.type == "table")
    body = _body(made)
    body["segments"] = [other.raw]
    _refused(_sealed(body), tmp_path, r"byte \d+, segments\[0\]", "it continues segment")
    # and this game's link carried by the first table of another game
    game_ok = _made(name="game-ok")
    body = _body(made)
    body["table"] = game_ok.table.raw
    _refused(_sealed(body), tmp_path / "b", r"byte \d+, segments\[0\]", "it continues segment")


def test_a_cut_not_the_last_word_of_the_seat_that_left_is_refused(tmp_path: Path) -> None:
    made = _made()
    first = _envelopes(NAME)
    body = _body(made)
    body["cuts"] = [next(e for e in first if e.sender == SEATS[2].public_key).raw]
    _refused(
        _sealed(body),
        tmp_path / "a",
        r"cuts\[0\], seat 3 \(Nurlan\)",
        "not signed by that seat's key in the segment before",
    )
    body["cuts"] = [next(e for e in first if e.sender == SEATS[LEFT].public_key).raw]
    _refused(
        _sealed(body),
        tmp_path / "b",
        r"cuts\[0\], seat 3 \(Nurlan\)",
        "not the envelope at the head the continuation names",
    )


def test_a_replay_with_another_outcome_is_never_counted(tmp_path: Path) -> None:
    honest, own = _made(SEATS[0]), _made(SEATS[1], at=AT + 5)
    body = _body(honest)
    body["outcome"] = {"score": [2, 6], "winner": 1}
    lie = _sealed(body)
    assert cert.read(lie).outcome.winner == 1  # the maker's word, as a closed one's
    # on a seat's own ledger: its own certificate stays, the liar's is set aside
    with Ledger(tmp_path / "seat1.sqlite", SEATS[1].public_key) as ledger:
        ledger.add(own.raw, "played")
        assert ledger.add(lie, "shared") is None
        assert ledger.notes[-1].startswith("refused: it names another outcome than your own")
        assert [r.seats[0].rank for r in ledger.results()] == [0]
    # on a ledger of another: the game is set aside, counted for nobody
    with Ledger(tmp_path / "club.sqlite", b"\x07" * 32) as ledger:
        ledger.add(honest.raw, "given")
        ledger.add(lie, "given")
        assert ledger.results() == []
        assert "two certificates of one game name different outcomes" in ledger.notes[-1]
    # the closes of another game as this one's end
    body = _body(honest)
    body["ends"] = [e.raw for e in _made(name="game-ok").ends]
    _refused(
        _sealed(body),
        tmp_path / "ends",
        r"ends\[0\], seat 0 \(Asel\)",
        "not signed by that seat's key in this game",
    )


def test_a_chain_cut_short_is_refused(tmp_path: Path) -> None:
    made = _made()
    body = _body(made)
    body["segments"], body["cuts"] = [], []
    _refused(_sealed(body), tmp_path / "a", "segments", "expected 1 to 32")
    # its end as a closed game's, the links left out: the bot is no seat of the table
    body = {k: v for k, v in _body(made).items() if k not in ("segments", "cuts")}
    body["kind"] = cert.CLOSED
    _refused(
        _sealed(body),
        tmp_path / "b",
        r"ends\[0\], seat 0 \(Asel\)",
        "not signed by that seat's key in this game",
    )
    # the links without a cut each
    body = _body(made)
    body["cuts"] = []
    _refused(_sealed(body), tmp_path / "c", "cuts", "expected one envelope for each continuation")


def test_a_certificate_dated_after_the_machine_s_clock_counts_from_its_date(
    tmp_path: Path,
) -> None:
    now = [float(AT)]
    ahead = _made(SEATS[0], at=AT + AHEAD + 1)
    with Ledger(tmp_path / "ladder.sqlite", SEATS[1].public_key, now=lambda: now[0]) as ledger:
        assert ledger.add(ahead.raw, "shared") is None
        assert ledger.notes[-1].startswith(
            "refused: dated more than 10 minutes after this machine's clock"
        )
        assert ledger.results() == []
        now[0] += AHEAD + 1  # its date has come: offered again, it counts
        assert ledger.add(ahead.raw, "shared") is not None
    # within the tolerance (clocks differ by seconds), and the owner's own, count at once
    with Ledger(tmp_path / "b.sqlite", SEATS[1].public_key, now=lambda: float(AT)) as ledger:
        assert ledger.add(_made(SEATS[0], at=AT + AHEAD).raw, "shared") is not None
    with Ledger(tmp_path / "c.sqlite", SEATS[1].public_key, now=lambda: float(AT)) as ledger:
        assert ledger.add(_made(SEATS[1], at=AT + 10 * AHEAD).raw, "played") is not None


def test_the_player_who_left_is_given_it_by_an_exchange(tmp_path: Path) -> None:
    """Seat 3's player stopped before the end: it has no certificate of the game.  The
    next exchange with a seat it played with brings it (within section 6's bounds: a
    certificate of one message), and its ledger counts its loss."""
    from p2pbelka.ladder.share import BATCH, Sharing

    made = _made(SEATS[0])
    assert len(made.raw) <= BATCH
    giver, taker = Sharing({made.game_id: made.raw}), Sharing({})
    queue = [(taker, m) for m in giver.start()] + [(giver, m) for m in taker.start()]
    while queue:
        to, message = queue.pop(0)
        other = giver if to is taker else taker
        queue += [(other, answer) for answer in to.receive(message)]
    assert giver.done and taker.done and taker.received == [made.raw]
    with Ledger(tmp_path / "nurlan.sqlite", SEATS[LEFT].public_key) as ledger:
        counted = ledger.add_shared(made.raw, SEATS[0].public_key, taker.wanted)
        assert counted is not None and ledger.notes == []
        [result] = ledger.results()
        assert result.seats[LEFT].key == SEATS[LEFT].public_key and result.seats[LEFT].rank == 1
