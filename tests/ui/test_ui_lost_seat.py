"""The table screen through a lost seat's flow: a silent seat marked "missing" in the
seats panel (while the prompt keeps the line under the table), the wait of a peer cut
off from everyone and of a resumed seat said in words, and no lot drawn again when
the game goes on in a continuation after a seat changed hands."""

from __future__ import annotations

import pytest

from p2pbelka.cards import Card
from p2pbelka.peer.driver import CutOff, Resumed, Waiting
from p2pbelka.peer.local import LocalGame
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged
from p2pbelka.ui import i18n
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.games.belot.screen import UI as BELOT
from p2pbelka.ui.games.belot.view import BelotView
from p2pbelka.ui.panels import seats_lines
from p2pbelka.ui.seattext import SeatWords

NAMES = ("Asel", "Bolat", "Saule")


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


def _started(continued: bool = False) -> BelotView:
    view = BelotView(me=0)
    score = ev.Score((0, 0, 0))
    keys = (bytes(32), bytes([1]) * 32, bytes([2]) * 32)
    view.apply(ev.GameStarted("belot", NAMES, keys, 1, 0, {}, score, continued))
    return view


def _text(fragments: object) -> str:
    return "".join(f[1] for f in fragments)  # type: ignore[attr-defined]


def test_a_silent_seat_is_marked_missing_until_the_game_moves() -> None:
    view = _started()
    assert "missing" not in _text(seats_lines(view, 32))
    view.apply(Waiting((2,), 11.0))
    panel = _text(seats_lines(view, 32)).splitlines()
    assert "missing" in next(line for line in panel if "Saule" in line)
    assert "missing" not in next(line for line in panel if "Bolat" in line)
    assert view.log[-1] == "Waiting for Saule…"
    view.apply(Resumed())
    assert "missing" not in _text(seats_lines(view, 32))


def test_the_waits_without_a_seat_to_name_say_what_they_wait_for() -> None:
    view = _started()
    view.apply(Waiting((), 12.0))  # a resumed seat before it may sign again
    assert view.log[-1] == "Waiting for the others to send back this seat's last moves…"
    screen = TableScreen(BELOT, view)
    assert "send back this seat's last moves" in _text(screen._status())
    view.apply(Waiting((1,), 14.0, alone=True))
    assert "this machine's network may be down" in view.log[-1]
    assert "this machine's network may be down" in _text(screen._status())


def test_a_continuation_draws_no_lot() -> None:
    assert any("The lot chose" in line for line in _started().log)
    assert not any("The lot chose" in line for line in _started(continued=True).log)


def test_our_seat_played_by_a_bot_shows_no_voided_hand_and_says_who_plays() -> None:
    view = _started()
    view.apply(ev.HandDealt(0, (Card.parse("JH"), Card.parse("7C"))))
    assert view.hand
    screen = TableScreen(BELOT, view)
    view.apply(SeatChanged(0, "Bot for Asel", b"b" * 32, "Asel", (1, 2), 3, 3, False, b""))
    assert view.hand == [] and view.trick is None and view.choice is None
    assert view.log.count("Bot for Asel takes the seat of Asel from deal 3.") == 1
    view.apply(Waiting((1,), 12.0))  # the watched table waits: the bot's business
    assert "Bot for Asel plays your seat" in _text(screen._status())
    assert view.name(0) == "Bot for Asel"  # the trick lines name the bot, not us
    assert any("Bot for Asel" in line for line in _text(seats_lines(view, 32)).splitlines())
    view.apply(SeatChanged(0, "Asel", bytes(32), "Bot for Asel", (1, 2), 5, 5, True, b""))
    assert view.played_by is None
    assert view.name(0) == "Asel"
    assert "plays your seat" not in _text(screen._status())


@pytest.mark.parametrize(
    ("lang", "waits", "went_on"),
    [
        ("en", "until 420 s of silence at most", "The game went on without you"),
        ("ru", "не дольше 420 с тишины", "Партия продолжилась без вас"),
        ("kk", "ең көбі 420 с үнсіздікке дейін", "Ойын сізсіз жалғасты"),
    ],
)
def test_a_peer_cut_off_says_how_long_it_waits_and_what_it_kept(
    lang: str, waits: str, went_on: str
) -> None:
    i18n.set_language(lang)
    view = _started()
    view.game_id, view.transcript_path = bytes(range(16)), "/games/x/transcript.p2pb"
    view.apply(Waiting((1,), 14.0, alone=True, limit=420.0))
    assert waits in view.log[-1]
    assert waits in _text(TableScreen(BELOT, view)._status())
    view.apply(CutOff(421.0))
    said = view.log[-1]
    assert went_on in said and "INCOMPLETE" in said and "/games/x/transcript.p2pb" in said
    assert "p2pbelka resume 000102030405" in said and "p2pbelka verify" in said


@pytest.mark.parametrize("lang", ["ru", "kk"])
def test_text_mode_says_the_wait_and_the_stop_in_the_player_s_language(lang: str) -> None:
    i18n.set_language(lang)
    words = SeatWords()
    table = LocalGame.seeded(3).make_tables()[0]
    waiting = words.describe(Waiting((1,), 14.0, alone=True, limit=420.0), table)
    stopped = words.describe(CutOff(421.0), table)
    assert "420" in waiting and "421" in stopped
    assert not any(c.isascii() and c.isalpha() for c in waiting + stopped), (waiting, stopped)
