"""Text mode read by a person and by a script, through the real program on loopback:
a host and three joiners of bots print seats by name, hands sorted as the screen
sorts them, cards in one notation (the screen's) and a deal's result in words; a
``--json`` seat prints one JSON object a line carrying the raw figures; a seat run in
Russian at this table of English ones prints no English line; and a
text-mode host fills its free seats with its own bots when ``b`` is typed (``help``
lists the keys)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from p2pbelka.cards import Card
from p2pbelka.ui.games.belka.view import sort_hand
from tests.lan.helpers import PeerSet
from tests.ui.test_text_mode_languages import prints_no_english

GAME_TIMEOUT = 240.0
BOTS = ("--bot", "random", "--listen", "127.0.0.1")
NAMES = ("Asel", "Bolat", "Saule", "Nurlan")
SUITS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
LABEL = r"(?:10|[7-9JQKA])[♣♦♥♠]"
RECORD_CARD = re.compile(r"\b[2-9TJQKA][CDHS]\b")
RUSSIAN = "ru_RU.UTF-8"


def _card(label: str) -> Card:
    rank = "T" if label[:-1] == "10" else label[:-1]
    return Card.parse(rank + SUITS[label[-1]])


def test_a_text_mode_game_reads_well_and_json_carries_the_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the coach's few worlds (below) search quicker in Python than numba loads its
    # kernels in a new process (the same values: tests/bots check the compiled search)
    monkeypatch.setenv("P2PBELKA_NO_JIT", "1")
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host",
            "host",
            "--auto-approve",
            "--no-announce",
            "--text",
            "--coach",
            # a few worlds a decision: the coach's lines are the same kind, sooner
            "--coach-worlds",
            "4",
            "--player",
            NAMES[0],
            *BOTS,
        )
        port = host.wait_for(r"lobby port (\d+)", 20).group(1)
        joiners = [
            peers.spawn(
                f"joiner{n}",
                "join",
                "--connect",
                f"127.0.0.1:{port}",
                "--player",
                NAMES[n],
                *(("--json",) if n == 3 else ("--text",)),
                *BOTS,
                locale=RUSSIAN if n == 2 else None,
            )
            for n in range(1, 4)
        ]
        assert peers.wait([host, *joiners], GAME_TIMEOUT) == [0] * 4
        # a seat in Russian at a table of English ones speaks Russian only
        prints_no_english(joiners[1], RUSSIAN)

        game = host.text().split("\ngame started: ", 1)[1].splitlines()
        # --coach: each verified deal is followed by the coach's lines on the seat's play
        coached = [line for line in game if line.startswith("  ") and "cost more than" in line]
        verified = [line for line in game if re.match(r"deal \d+ verified", line)]
        assert coached and len(coached) == len(verified)
        assert all(name in game[0] for name in NAMES), game[0]  # "Asel (seat 0), ..."
        hands = [line.split(": ", 1)[1] for line in game if line.startswith("your hand: ")]
        assert hands, host.dump()
        for hand in hands:  # the screen's order: jacks on top, the suits apart
            cards = [_card(label) for label in hand.split()]
            assert all(re.fullmatch(LABEL, label) for label in hand.split()), hand
            assert cards == sort_hand(cards, None), hand
        plays = [line for line in game if " plays " in line]
        assert plays and all(
            re.fullmatch(rf"({'|'.join(NAMES)}) plays {LABEL}", line) for line in plays
        ), plays
        deals = [line for line in game if re.match(r"deal \d+ verified: ", line)]
        assert deals and all(
            ("card points: " in d and "score: " in d and " & " in d) or "re-deal" in d
            for d in deals
        ), deals
        assert any(re.match(r"game over: \S+ & \S+ win; score: ", line) for line in game), game
        assert not [line for line in game if RECORD_CARD.search(line)]  # one notation

        objects = [json.loads(line) for line in joiners[2].text().splitlines()]  # every line
        kinds = {o.get("event") for o in objects}
        assert {"game_started", "hand_dealt", "card_played", "deal_audited"} <= kinds, kinds
        started = next(o for o in objects if o.get("event") == "game_started")
        assert set(started["names"]) == set(NAMES) and isinstance(started["first_dealer"], int)
        played = next(o for o in objects if o.get("event") == "card_played")
        assert RECORD_CARD.fullmatch(played["card"]) and isinstance(played["seat"], int)
        audited = [o for o in objects if o.get("event") == "deal_audited"]
        points = audited[0]["summary"]["card_points"]
        assert len(points) == 2 and all(isinstance(p, int) for p in points), audited[0]
        over = next(o for o in objects if o.get("event") == "game_over")
        # the score the game ended on: the last deal's, or the eggs bonus chosen after it
        # (a 60:60 deal's +4 can end the game after the deal's audit)
        scored = [o for o in objects if o.get("event") in ("deal_audited", "eggs_chosen")]
        assert over["score"] == scored[-1]["score"]["points"], (over, scored[-1])


def test_a_text_mode_host_fills_its_seats_with_bots(tmp_path: Path) -> None:
    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host",
            "host",
            "--auto-approve",
            "--no-announce",
            "--text",
            "--player",
            "Asel",
            *BOTS,
            typed=True,
        )
        host.wait_for(r"lobby port (\d+)", 20)
        host.type("help")
        host.wait_for(r"b fills the free seats with bots", 20)
        host.type("b")
        host.wait_for(r"3 bots sit down", 20)
        assert peers.wait([host], GAME_TIMEOUT) == [0], host.dump()
        text = host.text()
        assert re.search(r"game started: Asel \(seat 0\), Bot \d \(seat 1\)", text), text
        assert "game over: " in text, host.dump()
