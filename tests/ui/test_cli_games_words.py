"""``p2pbelka games`` in Kazakh (and Russian) leaves no English: its states, the
commands' words in a column, and why a game stopped, which the seat kept in English
(the table's faults, an OS error a watch met) and the listing words anew."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from p2pbelka.peer.store import GameMeta
from p2pbelka.peer.watchsave import WATCH_META, WatchMeta
from p2pbelka.protocol.transcript import iter_records
from p2pbelka.ui.words import i18n
from tests.ui.cli import run_main, selfplayed

# what the seats of this version write in game.json's "ended" (peer/seat.py joins the
# fatal faults; net/oserrors.explain words what a dial met)
ENDED = {
    "aa" * 16: "deal 2: seat 1: went silent for 120 s while play was due; seat 3: went silent",
    "bb" * 16: "nothing listens at 127.0.0.1:9: check the address and port the host's"
    " screen shows, and that the host is running",
}
# and why a watch stopped (peer/watch.py)
WATCH_ENDED = "the host closed the connection before the game's end"
NAMES = ["Asel", "Bolat", "Saule", "Nurlan"]
VERDICTS = ("OK", "INCOMPLETE", "INVALID", "DISPUTED")  # the same in every language (the guide)


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished local game, and two LAN games stopped for the reasons of ``ENDED``."""
    home = tmp_path_factory.mktemp("home")
    games = home / "data" / "p2pbelka" / "games"
    games.mkdir(parents=True)
    finished = games / "belka-20261130-211000.transcript"
    selfplayed(finished)
    data = finished.read_bytes()
    cut = next(r.offset for r in iter_records(data) if r.index == 40)
    for n, (game_id, why) in enumerate(ENDED.items()):
        meta = GameMeta(game_id, 2, [], NAMES, [], "0.0.0.0", 0, ended=why)
        meta.started = 1_900_000_000.0 + n
        (games / game_id).mkdir()
        (games / game_id / "transcript.p2pb").write_bytes(data[:cut])
        (games / game_id / "game.json").write_text(json.dumps(meta.__dict__))
    watched = games / ("cc" * 16)
    watched.mkdir()
    (watched / "transcript.p2pb").write_bytes(data[:cut])
    meta_w = WatchMeta("cc" * 16, "127.0.0.1:9", "dd" * 32, started=1_900_000_009.0)
    meta_w.ended = WATCH_ENDED
    (watched / WATCH_META).write_text(json.dumps(meta_w.__dict__))
    return home


def _english_left(out: str) -> list[str]:
    """Latin words of two letters or more, once the commands, paths, ids, addresses and
    players' names are taken out: English the listing did not translate."""
    words = []
    for line in out.splitlines():
        line = re.sub(r"p2pbelka \w+ \S+", "", line)  # a command and its argument
        line = re.sub(r"\S*/\S*|\d+\.\d+\.\d+\.\d+:\d+", "", line)
        for name in NAMES:
            line = line.replace(name, "")
        words += [w for w in re.findall(r"[A-Za-z]{2,}", line) if w not in VERDICTS]
    return words


@pytest.mark.parametrize("lang", ["kk", "ru"])
def test_games_in_kazakh_and_russian_leave_no_english(home: Path, lang: str) -> None:
    out = run_main(home, "games", "--lang", lang, check=True).stdout
    assert not _english_left(out), out
    try:
        i18n.set_language(lang)
        resume, verify, replay = i18n._("resume"), i18n._("verify"), i18n._("replay")
        silent = i18n._("went silent for {s} s").format(s=120)
        refused = i18n._("nothing listens at {where}").format(where="127.0.0.1:9")
        closed = i18n._(WATCH_ENDED)
    finally:
        i18n.set_language("en")
    assert silent in out and refused in out and closed in out, out
    # the commands in a column, after their words and a space at least
    width = max(len(resume), len(verify), len(replay)) + 2
    for word in (resume, verify, replay):
        commands = re.findall(rf"(?m)^  {re.escape(word)}:( +)p2pbelka ", out)
        assert commands and {len(word) + 1 + len(pad) for pad in commands} == {width}, out


def test_games_in_english_keep_the_seats_words(home: Path) -> None:
    out = run_main(home, "games", "--lang", "en", check=True).stdout
    for why in (*ENDED.values(), WATCH_ENDED):
        assert f"ended: {why}" in out
    assert "  verify: p2pbelka verify " in out
