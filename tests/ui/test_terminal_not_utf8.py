"""A terminal that is not UTF-8 (``LANG=C``, Python's UTF-8 mode and locale coercion
off, so stdout is ASCII): the real program never stops on a letter it cannot write,
says so once, and writes the suits as letters a player tells apart (``10h``, ``Qs``),
Russian in Latin letters (a queen, Д, stays apart from a king, К);
``verify --lang ru`` keeps its exit status.  (The full screen: test_terminal_homes_tmux.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lan.helpers import PeerSet
from tests.ui.cli import cli_env, run_main, selfplayed

NOT_UTF8 = {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}
ROOT = Path(__file__).resolve().parents[2]
NOTE = "this terminal is not UTF-8"
# a card with its suit letter; a Russian rank in Latin letters (В Д К Т: V D K T)
SUITED = r"(?:[789]|10|[JQKAVDT])[cdhs]\b"


def _ascii(home: Path, *argv: str) -> subprocess.CompletedProcess[bytes]:
    env = dict(cli_env(home), PYTHONPATH=str(ROOT), **NOT_UTF8)
    env.pop("LANGUAGE", None)
    return subprocess.run(
        [sys.executable, "-m", "p2pbelka.cli.main", *argv],
        env=env,
        capture_output=True,
        check=False,
        stdin=subprocess.DEVNULL,
        cwd=home,
    )


@pytest.fixture(scope="module")
def transcript(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One game, saved once, verified in each language."""
    home = tmp_path_factory.mktemp("not-utf8")
    path = home / "game.transcript"
    return selfplayed(path)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_verify_in_a_terminal_not_utf8_keeps_its_report_and_exit_status(
    tmp_path: Path, transcript: Path, lang: str
) -> None:
    utf8 = run_main(tmp_path, "verify", "--lang", lang, str(transcript))
    plain = _ascii(tmp_path, "verify", "--lang", lang, str(transcript))
    out, err = plain.stdout.decode("ascii"), plain.stderr.decode("ascii")  # ASCII, all of it
    assert plain.returncode == utf8.returncode == 0, err
    assert "codec" not in err and "Traceback" not in err, err
    assert err.count(NOTE) == 1, err  # said once, in English: the terminal shows no Russian
    if lang == "ru":
        assert out.startswith("igroki: 0="), out  # игроки, in Latin letters
    assert len(out.splitlines()) == len(utf8.stdout.splitlines())
    assert out.splitlines()[-1].startswith("OK")  # a verdict's word, in every language


def test_a_text_mode_seat_in_a_terminal_not_utf8_writes_suits_as_letters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host in English and a joiner in Russian, bots of a Belot table of two, play as
    text in ASCII: neither stops, and the Russian one's cards (``открыта карта 10♦``)
    keep their suits."""
    for name in ("PYTHONCOERCECLOCALE", "PYTHONUTF8"):
        monkeypatch.setenv(name, NOT_UTF8[name])
    bots = ("--bot", "random", "--listen", "127.0.0.1", "--game", "belot", "--players", "2")
    with PeerSet(tmp_path) as peers:
        host = peers.spawn("host", "host", "--auto-approve", "--no-announce", *bots, locale="C")
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        join = ("join", "--connect", f"127.0.0.1:{port}", "--lang", "ru", *bots[:4])
        joiner = peers.spawn("joiner", *join, locale="C")
        joiner.wait_for(SUITED, 60)
        host.wait_for(r"deal 2 ", 60)  # a deal played through: the seats keep going
        for peer in (host, joiner):
            assert peer.log().count(NOTE) == 1, peer.dump()
            assert "codec" not in peer.log() and "Traceback" not in peer.log(), peer.dump()
            raw = peer.out.read_bytes()
            assert raw.isascii(), peer.dump()
        said = joiner.text()
        suits = set(re.findall(r"(?:[789]|10|[VDKT])([cdhs])\b", said))
        assert suits and not re.search(r"(?:[789]|10|\?)\?", said), said  # no card as ?
        assert "igra nacalas'" in said, said  # игра началась, in Latin letters


def test_a_usage_error_in_russian_in_a_terminal_not_utf8_is_said_not_crashed(
    tmp_path: Path,
) -> None:
    """argparse's own lines come before the command runs: they too are written plainly."""
    plain = _ascii(tmp_path, "verify", "--lang", "ru")
    err = plain.stderr.decode("ascii")
    assert plain.returncode == 2 and "Traceback" not in err, err
    assert "osibka" in err and err.count(NOTE) == 1, err  # ошибка: the usage error, said
