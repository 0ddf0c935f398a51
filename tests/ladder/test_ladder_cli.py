"""``p2pbelka ladder`` and ``verify`` of certificates, as a player runs them: whole at
80x24 in every language, the same JSON on two machines, a bad certificate named."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from p2pbelka.bench.ladder import certificate_of, club
from p2pbelka.ladder import certificate as cert
from p2pbelka.ladder.certificate import Outcome
from p2pbelka.ladder.ledger import Ledger, ledger_path
from p2pbelka.ladder.ratings import history
from p2pbelka.net.identity import Identity
from p2pbelka.peer.local_save import new_plan, own_bots
from p2pbelka.peer.results import keep_saved
from p2pbelka.protocol.envelope import Signer
from tests.ui.cli import run_main

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("certs")
    paths = []
    for n, c in enumerate([*club(40, 5), *club(12, 6, game="belot", players=5)]):
        paths.append(folder / f"{n}.cert")
        paths[-1].write_bytes(c.raw)
    return paths


@pytest.mark.parametrize("lang", ["en", "ru", "kk"])
def test_the_ladder_is_whole_at_80x24(tmp_path: Path, certificates: list[Path], lang: str) -> None:
    run_main(tmp_path, "ladder", "--add", *map(str, certificates), check=True)
    for extra in ([], ["--pairs"], ["--game", "belot"], ["--me"]):
        out = run_main(tmp_path, "ladder", "--lang", lang, *extra, check=True).stdout
        lines = out.splitlines()
        assert len(lines) <= 22 and max(len(line) for line in lines) <= 80, out
    out = run_main(tmp_path, "ladder", "--lang", lang, "--pairs", "--all", check=True).stdout
    assert len(out.splitlines()) > 22


def test_two_machines_print_the_same_json(tmp_path: Path, certificates: list[Path]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    run_main(tmp_path / "a", "ladder", "--add", *map(str, certificates), check=True)
    run_main(tmp_path / "b", "ladder", "--add", *map(str, reversed(certificates)), check=True)
    for extra in ([], ["--pairs"]):
        a = run_main(tmp_path / "a", "ladder", "--json", *extra, check=True).stdout
        b = run_main(tmp_path / "b", "ladder", "--json", *extra, check=True).stdout
        assert a == b
    games = json.loads(a)["games"]
    assert games["belka"]["results"] == 40 and games["belot"]["results"] == 12


def test_a_refused_certificate_is_said_and_kept(tmp_path: Path, certificates: list[Path]) -> None:
    bad = tmp_path / "bad.cert"
    raw = bytearray(certificates[0].read_bytes())
    raw[200] ^= 1
    bad.write_bytes(bytes(raw))
    ran = run_main(tmp_path, "ladder", "--add", str(bad), str(certificates[1]))
    assert ran.returncode == 1
    assert "refused: byte" in ran.stderr and "kept as" in ran.stderr
    assert f"{certificates[1]}: counted" in ran.stdout


def test_verify_names_the_seat_of_a_bad_close(tmp_path: Path) -> None:
    good = VECTORS / "results" / "game-ok.cert"
    assert run_main(tmp_path, "verify", str(good)).returncode == 0
    made = cert.read(good.read_bytes())
    where = made.raw.find(made.ends[3].raw) + 100
    bad = bytearray(made.raw)
    bad[where] ^= 1
    (tmp_path / "bad.cert").write_bytes(bytes(bad))
    ran = run_main(tmp_path, "verify", str(tmp_path / "bad.cert"))
    assert ran.returncode == 1
    assert "ends[3], seat 3 (Nurlan)" in ran.stdout and "INVALID: byte" in ran.stdout


def test_verify_writes_the_certificate_of_a_transcript(tmp_path: Path) -> None:
    out = tmp_path / "game.cert"
    path = str(VECTORS / "paths" / "game-ok.p2pb")
    run_main(tmp_path, "verify", path, "--certificate", str(out), check=True)
    assert cert.read(out.read_bytes()).outcome == Outcome(0, (2, 1))


def test_a_local_game_s_result_counts_for_the_player_and_names_its_bots(tmp_path: Path) -> None:
    """The player's key sits at seat 0 of ``play``'s tables and its bots' keys come from
    it: the same in every game, so ``--me`` has a row for each bot level."""
    me = Identity.generate("Me")
    seed = me.private_key.private_bytes_raw()
    plan = new_plan("Me", ["strong", "random", "strong"], transcript=None, owner=seed)
    again = new_plan("Me", ["strong", "random", "strong"], transcript=None, owner=seed)
    assert plan.keys == again.keys and plan.keys[0] == seed.hex()
    assert len(set(plan.keys)) == 4 and plan.game_id != again.game_id
    signers = [Signer.from_seed(bytes.fromhex(k)) for k in plan.keys]
    bots = own_bots(seed, ["random", "strong"])
    assert [bots.get(s.public_key) for s in signers] == [None, "strong", "random", "strong"]
    games = tmp_path / "games"
    games.mkdir()
    transcript = games / "belka-1.transcript"
    shutil.copy(VECTORS / "paths" / "game-ok.p2pb", transcript)
    assert keep_saved(transcript, signers[0], games) is not None  # the owner's word
    assert (games / "belka-1.cert").is_file()
    won = certificate_of(signers, "belka", Outcome(0, (12, 2)), 5)
    with Ledger(ledger_path(games), me.public_key) as ledger:
        ledger.add(won.raw, "played")
        rows = history(ledger.results(), me.public_key)
    # the opponents are seats 1 and 3 (Belka's sides: 0 and 2 against 1 and 3)
    assert sorted((bots[r.key], r.wins) for r in rows) == [("strong", 1), ("strong", 1)]


def test_games_saved_before_are_certified_once(tmp_path: Path) -> None:
    games = tmp_path / "data" / "p2pbelka" / "games"
    (games / "abc").mkdir(parents=True)
    shutil.copy(VECTORS / "paths" / "game-ok.p2pb", games / "belka-1.transcript")
    shutil.copy(VECTORS / "paths" / "dispute-odd-seats.p2pb", games / "belka-2.transcript")
    shutil.copy(VECTORS / "paths" / "belot-2-game.p2pb", games / "abc" / "transcript.p2pb")
    out = run_main(tmp_path, "ladder", "--saved", check=True).stdout
    assert "2 saved games counted" in out and "Belot: 2 players" in out
    assert (games / "belka-1.cert").is_file() and (games / "abc" / "result.cert").is_file()
    assert not (games / "belka-2.cert").exists()  # disputed: no certificate
    assert "0 saved games counted" in run_main(tmp_path, "ladder", "--saved", check=True).stdout
