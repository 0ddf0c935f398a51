"""The ledger counts a result once, only when its certificate checks out and its maker
sat at the game; what it does not count it keeps aside and says; two ledgers filled in
different orders print the same ladder, byte for byte."""

from __future__ import annotations

import functools
import json
import random
import sqlite3
from pathlib import Path

import pytest

from p2pbelka.bench.ladder import certificate_of, club
from p2pbelka.ladder import certificate as cert
from p2pbelka.ladder.certificate import Outcome
from p2pbelka.ladder.ledger import ASIDE, Ledger
from p2pbelka.ladder.ratings import history, ladder
from p2pbelka.protocol.codec import decode, encode
from p2pbelka.protocol.envelope import Signer


@functools.cache
def members_games() -> list[cert.Certificate]:
    """Sixty games of one club (made when a test first asks, not as every worker collects
    the suite: signing them is a fifth of a CPU-second)."""
    return list(club(60, 7))


def fill(path: Path, certificates: list[cert.Certificate]) -> Ledger:
    ledger = Ledger(path)
    for c in certificates:
        ledger.add(c.raw, "given")
    return ledger


def printed(ledger: Ledger, pairs: bool = False) -> str:
    return json.dumps([r.to_json() for r in ladder(ledger.results("belka"), pairs)])


def test_two_ledgers_filled_in_different_orders_print_the_same_ladder(tmp_path: Path) -> None:
    shuffled = members_games()[:]
    random.Random(3).shuffle(shuffled)
    one = fill(tmp_path / "one.sqlite", members_games())
    two = fill(tmp_path / "two.sqlite", shuffled + members_games()[:5])  # and some twice
    assert printed(one) == printed(two) and printed(one, True) == printed(two, True)
    rows = ladder(one.results("belka"))
    assert sum(r.games for r in rows) == 4 * len(members_games())
    assert sum(r.wins for r in rows) == 2 * len(members_games())


def test_the_same_certificate_twice_counts_once(tmp_path: Path) -> None:
    ledger = fill(tmp_path / "l.sqlite", members_games()[:3])
    assert ledger.add(members_games()[0].raw, "given") is None
    assert len(ledger.results()) == 3 and not ledger.notes


def test_a_forged_or_altered_certificate_is_kept_aside_never_counted(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "l.sqlite")
    raw = bytearray(members_games()[0].raw)
    raw[-70] ^= 0x04  # in the host's signature of the table (the last field)
    assert ledger.add(bytes(raw), "given") is None
    assert ledger.add(b"junk", "given") is None
    assert ledger.results() == []
    assert len(list((tmp_path / ASIDE).glob("*.cert"))) == 2
    assert "table: envelope.sig: bad signature" in ledger.notes[0]


def test_a_stranger_s_relabelled_outcome_is_not_counted(tmp_path: Path) -> None:
    body = decode(members_games()[0].raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    body["outcome"] = {"score": [0, 12], "winner": 1 - members_games()[0].outcome.winner}  # type: ignore[operator]
    stranger = Signer.generate()
    body["by"], body["sig"] = stranger.public_key, b""
    body["sig"] = stranger.sign(cert.signed_bytes(body))
    ledger = Ledger(tmp_path / "l.sqlite")
    assert ledger.add(cert.MAGIC + encode(body), "given") is None
    assert "sat at no seat" in ledger.notes[0]
    # ... though its owner's own certificate of a game it watched counts for it
    mine = Ledger(tmp_path / "mine.sqlite", owner=stranger.public_key)
    assert mine.add(cert.MAGIC + encode(body), "watched") is not None


def test_two_seats_that_disagree_set_the_game_aside(tmp_path: Path) -> None:
    seats = [Signer.from_seed(bytes([n]) * 32) for n in range(4)]
    won = certificate_of(seats, "belka", Outcome(0, (12, 3)), 100)
    lost = certificate_of(seats, "belka", Outcome(1, (3, 12)), 100)
    for order in ((won, lost), (lost, won)):
        ledger = Ledger(tmp_path / f"{order[0].outcome.winner}.sqlite")
        for c in (*order, order[0]):
            ledger.add(c.raw, "given")
        assert ledger.results() == []
        assert any("different outcomes" in n for n in ledger.notes)


def test_a_damaged_row_is_mended_from_its_certificate_or_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    fill(path, members_games()[:4]).close()
    with sqlite3.connect(path) as db:
        ids = [r[0] for r in db.execute("SELECT game_id FROM results ORDER BY game_id")]
        db.execute("UPDATE results SET at = at + 1 WHERE game_id = ?", (ids[0],))
        db.execute("UPDATE results SET cert = ? WHERE game_id = ?", (b"rot", ids[1]))
        db.execute("UPDATE results SET facts = ? WHERE game_id = ?", (b"\x90", ids[2]))
    ledger = Ledger(path)
    assert len(ledger.results()) == 4  # the first mended from its certificate
    assert len(ledger.certificates()) == 3  # the second's certificate is gone
    results = ledger.results()
    assert len(results) == 3 and ids[1] not in {r.game_id for r in results}
    assert any("was damaged" in n for n in ledger.notes)
    assert (tmp_path / ASIDE).is_dir()
    kept = [c for c in members_games()[:4] if c.game_id != ids[1]]
    assert ledger.notes[0].startswith("the certificate of game")
    assert printed(ledger) == printed(fill(tmp_path / "fresh.sqlite", kept))


def test_a_damaged_database_file_is_moved_aside_and_begun_again(tmp_path: Path) -> None:
    path = tmp_path / "l.sqlite"
    path.write_bytes(b"this is no database" * 100)
    ledger = Ledger(path)
    assert ledger.results() == [] and "unreadable" in ledger.notes[0]
    aside = [p.read_bytes() for p in tmp_path.glob("l.sqlite.damaged-*")]
    assert aside == [b"this is no database" * 100]


def test_the_record_against_each_opponent(tmp_path: Path) -> None:
    ledger = fill(tmp_path / "l.sqlite", members_games())
    me = members_games()[0].keys[0]
    rows = history(ledger.results(), me)
    assert sum(r.games for r in rows) == 2 * ledger.games_of(me)
    assert all(r.wins + r.losses == r.games for r in rows)


def test_a_ledger_another_program_writes_is_waited_for_never_moved_aside(
    tmp_path: Path,
) -> None:
    path = tmp_path / "l.sqlite"
    fill(path, members_games()[:2]).close()
    other = sqlite3.connect(path)
    other.execute("BEGIN EXCLUSIVE")
    import p2pbelka.ladder.ledger as ledger_module

    ledger_module.BUSY_WAIT, before = 0.1, ledger_module.BUSY_WAIT
    try:
        with pytest.raises(sqlite3.OperationalError):
            Ledger(path).results()
    finally:
        ledger_module.BUSY_WAIT = before
        other.rollback()
    assert not list(tmp_path.glob("*.damaged-*"))
    assert len(Ledger(path).results()) == 2


def test_a_liar_cannot_take_the_owner_s_own_result_away(tmp_path: Path) -> None:
    seats = [Signer.from_seed(bytes([n + 9]) * 32) for n in range(4)]
    owner, liar = seats[0], seats[1]
    won = certificate_of(seats, "belka", Outcome(0, (12, 3)), 100)  # made by seat 0
    body = decode(won.raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    body["outcome"], body["by"] = {"score": [3, 12], "winner": 1}, liar.public_key
    body["sig"] = liar.sign(cert.signed_bytes(body))
    lie = cert.MAGIC + encode(body)
    for n, order in enumerate(((won.raw, lie), (lie, won.raw))):
        ledger = Ledger(tmp_path / f"{n}.sqlite", owner.public_key)
        for raw in order:
            ledger.add(raw, "given")
        assert [r.seats[0].rank for r in ledger.results()] == [0]
        assert "another outcome than your own" in ledger.notes[-1]


def _made_by(made: cert.Certificate, maker: Signer, at: int) -> cert.Certificate:
    """The same game and outcome, certified by ``maker`` (a seat) dated ``at``."""
    return cert.seal(cert.CLOSED, made.table, made.outcome, at, maker, made.ends)


def test_a_seat_cannot_back_date_the_game_on_the_owner_s_ledger(tmp_path: Path) -> None:
    """A seat signs its certificate of the game with the true outcome but dated an hour
    early, so that the ladder would take it as played then (its place in the rating
    order, "last played").  The owner's ledger refuses one dated more than
    ``BACKDATED`` seconds before its own, before or after its own, and even once it
    keeps a third seat's earlier certificate (dated a few seconds before its own: as at
    a table's end, where a seat counts its own first)."""
    seats = [Signer.from_seed(bytes([n + 30]) * 32) for n in range(4)]
    owner, liar, honest = seats[0], seats[1], seats[2]
    own = certificate_of(seats, "belka", Outcome(0, (12, 3)), 100_000)  # made by seat 0
    early = _made_by(own, liar, own.at - 3600)
    near = _made_by(own, honest, own.at - 20)
    orders = [(own, early), (early, own), (own, near, early), (own, early, near)]
    for n, order in enumerate(orders):
        ledger = Ledger(tmp_path / f"{n}.sqlite", owner.public_key)
        for made in order:
            ledger.add(made.raw, "given")
        [kept] = [cert.read(raw) for _, raw in ledger.certificates()]
        assert kept.by == (honest if near in order else owner).public_key, n
        assert [r.at for r in ledger.results()] == [kept.at]
        assert any("minutes before your own" in note for note in ledger.notes), n
        ledger.close()
    # a ledger that holds no certificate of its own of the game keeps the earliest
    # (results.md section 4 says what that leaves)
    other = Ledger(tmp_path / "other.sqlite", seats[3].public_key)
    for made in (own, early):
        other.add(made.raw, "given")
    assert [r.at for r in other.results()] == [early.at]
