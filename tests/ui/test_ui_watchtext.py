"""``watch --text``: a watched game as a log in words, in the language chosen; every
card as it is played, each deal's verdict, the game's verdict at the end."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from p2pbelka.peer.watch import WatchNote
from p2pbelka.protocol.transcript import iter_records
from p2pbelka.table.observer import Observer
from p2pbelka.ui.watcherlog import WatchText
from p2pbelka.ui.words.i18n import set_language

VECTORS = Path(__file__).parents[2] / "protocol" / "vectors"


@pytest.fixture
def language() -> Iterator[None]:
    yield
    set_language("en")


def _log(name: str, lang: str) -> str:
    set_language(lang)
    out = io.StringIO()
    front = WatchText(out)
    observer = Observer()

    async def feed() -> None:
        await front.admitted("off")
        for record in iter_records((VECTORS / "paths" / name).read_bytes()):
            events = observer.feed(record.envelope)
            assert observer.table is not None
            await front.fed(observer.table, events)
        await front.chat("Ann", "well played", False)
        await front.note(WatchNote("not_back", {"why": "a cable", "delay": 4.0, "left": 110.0}))
        await front.ended(observer.report(), Path("/tmp/watched.p2pb"))

    trio.run(feed)
    return out.getvalue()


@pytest.mark.usefixtures("language")
def test_the_log_says_each_card_each_deal_and_the_verdict_in_english() -> None:
    log = _log("belot-2-game.p2pb", "en")
    assert "deal 3 verified: the shuffle was fair and every card checked (" in log
    assert " plays " in log and " takes the trick" in log
    assert "game started: Asel (seat 0), Bolat (seat 1)" in log
    assert "\nAsel plays " in log and " takes the trick" in log  # seats by name
    assert "game over: Asel wins; score: Asel " in log or "game over: Bolat wins; score:" in log
    assert not re.search(r"\b[2-9TJQKA][CDHS]\b", log)  # cards as the screen writes them
    assert "chat: Ann: well played" in log
    assert (
        "watch: the host is not back yet (a cable); dialling again in 4 s (110 s of the wait left)"
        in log
    )
    assert log.splitlines()[-2].startswith("the game's verdict: OK: ")
    assert log.splitlines()[-1] == "transcript saved to /tmp/watched.p2pb"


@pytest.mark.usefixtures("language")
@pytest.mark.parametrize(
    ("lang", "verified", "verdict"),
    [
        (
            "ru",
            "сдача 2 проверена: тасовка честная, каждая карта сверена",
            "итог проверки партии: OK",
        ),
        ("kk", "2-кон тексерілді: араластыру адал, әр карта салыстырылды", "ойынның тексеру"),
    ],
)
def test_the_log_is_in_the_language_chosen(lang: str, verified: str, verdict: str) -> None:
    log = _log("game-ok.p2pb", lang)
    assert verified in log
    assert verdict in log
    assert "deal " not in log and " plays " not in log  # nothing left in English


@pytest.mark.usefixtures("language")
@pytest.mark.parametrize("lang", ["ru", "kk"])
@pytest.mark.parametrize(
    "name", ["game-ok.p2pb", "eggs-plus4.p2pb", "belot-2-game.p2pb", "belot-sequences.p2pb"]
)
def test_the_game_s_own_events_are_in_the_language_chosen(lang: str, name: str) -> None:
    from tests.ui.test_text_mode_languages import ENGLISH

    log = _log(name, lang)
    english = [line for line in log.splitlines() if any(p in line for p in ENGLISH)]
    assert not english, english  # calls, trumps, declarations, each deal's summary
