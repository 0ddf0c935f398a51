"""Results are shared at a table's end by themselves: two homes whose ledgers hold
different games of one club play one short game together (real peers on loopback,
each with its own home), and after it both print the same ``ladder --json``, byte for
byte.  A seat that offers junk, forged results or a stranger's games gets none of them
counted, and the game and its result stand; a player who turned sharing off shares
nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from p2pbelka.bench.ladder import certificate_of
from p2pbelka.cli.main import main
from p2pbelka.ladder.certificate import MAGIC, Outcome, read
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.net.identity import Identity
from p2pbelka.peer import tableshare
from p2pbelka.peer.lan import NetOptions
from p2pbelka.peer.seat import GameResult
from p2pbelka.peer.store import seat_home
from p2pbelka.protocol.envelope import Signer
from tests.lan.helpers import belot_of_two, two_players

CLUB = [Signer.from_seed(bytes([n + 60]) * 32) for n in range(4)]
"""Members the two players met on other evenings (never both the same ones)."""


def _fill(root: Path, players: list[Identity]) -> None:
    """Each home's ledger: games its player played with members the other never met."""
    for n, player in enumerate(players):
        me = Signer(player.private_key)
        with Ledger(seat_home(root, n) / "ladder.sqlite", player.public_key) as ledger:
            for g in range(6):
                other = CLUB[2 * n + g % 2]
                seats = [me, other] if g % 3 else [other, me]
                made = certificate_of(seats, "belot", Outcome(g % 2, (151, g * 10)), 7000 + g)
                ledger.add(made.raw, "played")


def _ladder_json(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    capsys.readouterr()
    with monkeypatch.context() as patch:
        patch.setenv("P2PBELKA_HOME", str(home))
        assert main(["ladder", "--json"]) == 0
    return capsys.readouterr().out


async def _play(root: Path, players: list[Identity], **net: object) -> list[GameResult]:
    return await belot_of_two(root, players, NetOptions(linger=2.0, **net))  # type: ignore[arg-type]


async def test_two_homes_meet_at_a_table_and_print_the_same_ladder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    players = two_players(tmp_path)
    _fill(tmp_path, players)
    homes = [seat_home(tmp_path, n) for n in range(2)]
    before = [_ladder_json(h, monkeypatch, capsys) for h in homes]
    assert before[0] != before[1]
    results = await _play(tmp_path, players)
    assert all(r.finished for r in results)
    for r in results:
        assert r.shared is not None and len(r.shared.peers) == 1, r.shared
        peer = r.shared.peers[0]
        # the other's six games, and its certificate of the game just played
        assert (peer.came, peer.error) == (7, ""), peer
    after = [_ladder_json(h, monkeypatch, capsys) for h in homes]
    assert after[0] == after[1]
    with Ledger(homes[0] / "ladder.sqlite") as a, Ledger(homes[1] / "ladder.sqlite") as b:
        assert a.certificates() == b.certificates()
        assert len(a.certificates()) == 13


async def test_junk_and_forgeries_offered_at_a_table_are_not_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Seat 1's program offers what no honest ledger holds: a game whose outcome it
    altered (the maker's signature no longer holds), one signed by keys that are not
    the seats', and junk behind the certificate magic.  Seat 0 asks for them, refuses
    each, and keeps only the game they played (of its two certificates, the earlier)."""
    players = two_players(tmp_path)
    liar = players[1].public_key
    good = certificate_of(CLUB[:2], "belot", Outcome(0, (151, 20)), 8000)
    altered = good.raw.replace(b"\x97", b"\x98", 1)
    assert altered != good.raw
    wrong = certificate_of(CLUB[2:], "belot", Outcome(1, (40, 151)), 8001)
    # the seats' keys named, signed by others: the table of CLUB[2:] under CLUB[:2]'s names
    stolen = wrong.raw.replace(CLUB[2].public_key, CLUB[0].public_key)
    offered = {bytes([n]) * 16: raw for n, raw in enumerate([altered, stolen, MAGIC + b"junk"])}
    real = tableshare.TableShare._held

    def held(self: tableshare.TableShare) -> dict[bytes, bytes] | None:
        honest = real(self)
        return {**(honest or {}), **offered} if self.owner == liar else honest

    monkeypatch.setattr(tableshare.TableShare, "_held", held)
    caplog.set_level(logging.INFO)
    results = await _play(tmp_path, players)
    assert all(r.finished for r in results)
    honest = results[0].shared
    assert honest is not None and len(honest.peers) == 1, honest
    # the three offered and the liar's certificate of the game they played came; that
    # one counts if it is dated before seat 0's own (the same outcome: no lie)
    assert honest.peers[0].came == 4 and honest.counted <= 1, honest
    assert len(honest.peers[0].notes) == 3, honest
    with Ledger(seat_home(tmp_path, 0) / "ladder.sqlite") as ledger:
        kept = [read(raw) for _, raw in ledger.certificates()]
    assert [c.game_id for c in kept] == [results[0].game_id]
    assert "refused from a peer" in caplog.text


async def test_a_player_who_turned_sharing_off_shares_nothing(tmp_path: Path) -> None:
    players = two_players(tmp_path)
    _fill(tmp_path, players)
    results = await _play(tmp_path, players, share_results=False)
    assert all(r.finished and r.shared is None for r in results)
    for n, player in enumerate(players):
        with Ledger(seat_home(tmp_path, n) / "ladder.sqlite", player.public_key) as ledger:
            assert len(ledger.certificates()) == 7  # its own six and the game just played
