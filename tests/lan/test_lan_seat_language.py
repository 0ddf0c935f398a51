"""A LAN seat keeps its player's language with the game, and a table's names tell its
seats apart: two processes on loopback, a host and a joiner both ``--bot random``; the
joiner speaks Russian (``--lang ru``), is killed in the first deal and resumed with
no ``--lang`` under an English locale: it goes on in Russian."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.lan.helpers import PeerSet, wait_for_bytes

BOTS = ("--bot", "random", "--listen", "127.0.0.1")
TWO = ("--game", "belot", "--players", "2")


def test_a_seat_joined_in_russian_is_resumed_in_russian_and_two_bots_have_two_names(
    tmp_path: Path,
) -> None:
    with PeerSet(tmp_path) as peers:
        host = peers.spawn("host", "host", "--auto-approve", "--no-announce", *TWO, *BOTS)
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        joiner = peers.spawn(
            "joiner", "join", "--connect", f"127.0.0.1:{port}", "--lang", "ru", *BOTS
        )
        # two bots of one level, named after it as the guide says, told apart by the lobby
        started = host.wait_for(r"game started: (.+?) \(seat 0\), (.+?) \(seat 1\);", 30)
        assert started.groups() == ("Random bot", "Random bot 2"), host.dump()
        wait_for_bytes(joiner, 4_000, 60)
        joiner.kill()
        assert "игра началась" in joiner.text(), joiner.dump()
        (meta,) = joiner.home.glob("games/*/game.json")
        assert json.loads(meta.read_text())["lang"] == "ru"

        # LANGUAGE=en (PeerSet's default) and no --lang: the game's language wins
        back = peers.spawn("resumed", "resume", *BOTS, home=joiner.home)
        said = back.wait_for(r"(?m)^(\S.*) \w{32}", 30)  # "resuming game <id> …" in words
        assert not said.group(1).startswith("resuming"), back.dump()
        back.wait_for(r"место \d", 60)  # its event lines too
        assert not re.search(r"(?m)^(?:seat \d|your (?:hand|move))", back.text()), back.dump()

        # --lang overrides what was kept
        back.kill()
        again = peers.spawn("again", "resume", "--lang", "en", *BOTS, home=joiner.home)
        again.wait_for(r"resuming game \w+ in seat 1", 30)
