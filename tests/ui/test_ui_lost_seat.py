"""The table screen through a lost seat's flow: a silent seat marked "missing" in the
seats panel (while the prompt keeps the line under the table), but not a person who
only thinks over a live link; the wait of a peer cut off from everyone and of a
resumed seat said in words; no lot drawn again when the game goes on in a
continuation after a seat changed hands; the seat's new key in the panel and no
trick count of the voided deal under the table, on the screen of the player who lost
the seat and of one who plays on (drawn at 80x24, nothing cut)."""

from __future__ import annotations

import pytest
import trio
from prompt_toolkit.input import create_pipe_input

from p2pbelka.cards import Card
from p2pbelka.net.identity import Identity, fingerprint
from p2pbelka.peer.driver import CutOff, Resumed, Waiting
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.seatchange.drivers import Decision, SeatOffer
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka.events import TrumpAnnounced
from p2pbelka.table.segments import SeatChanged
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.games.belka.screen import UI as BELKA
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.games.belot.screen import UI as BELOT
from p2pbelka.ui.games.belot.view import BelotView
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.panels import seats_lines
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.seatlog import SeatWords
from tests.ui.render import Drawn, Terminal, render

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


# -- a seat handed to a bot, on the screens of four at a Belka table, at 80x24 -------------

BELKA_NAMES = ("Asel", "Bolat", "Saule", "Nurlan")
KEYS = tuple(Identity.generate().public_key for _ in range(5))  # the four, and the bot's
BOT_KEY = KEYS[4]


def _belka(me: int) -> BelkaView:
    """Seat ``me``'s Belka table in deal 4, six tricks taken (2:4): trick 7 of 8."""
    view = BelkaView(me=me)
    score = ev.Score((0, 0))
    view.apply(ev.GameStarted("belka", BELKA_NAMES, KEYS[:4], 0, me, {}, score))
    view.apply(ev.DealStarted(3, 3, 3, score))
    view.apply(ev.HandDealt(me, (Card.parse("7H"), Card.parse("8H"))))
    view.apply(TrumpAnnounced(1, "C", 1, None))
    cards = tuple(Card.parse(c) for c in ("9S", "TS", "KS", "AS"))
    view.apply(ev.TrickTaken(0, cards, 1, 1, (2, 4), (20, 41)))
    view.apply(ev.CardPlayed(1, Card.parse("JD"), 1, (Card.parse("JD"),), 2))
    return view


def _drawn(view: BelkaView) -> str:
    """The table screen as a player sees it at 80x24 (nothing cut)."""
    terminal = Terminal()
    drawn: list[Drawn] = []
    with create_pipe_input() as pipe:
        screen = TableScreen(BELKA, view, input=pipe, output=terminal.output)

        async def main(bridge: Bridge) -> None:
            while not screen.app.is_running:  # quit only works on a running app
                await trio.sleep(0.001)
            drawn.append(render(screen, terminal, 80, 24))
            screen.quit()

        run_with_app(screen.app, main)
    assert not drawn[0].faults, drawn[0].faults
    return drawn[0].text


def _seat_row(text: str, name: str) -> str:
    """The seats panel's row of ``name`` (after the turn's mark): name, flags, key."""
    rows = [line.rsplit("│", 1)[1] for line in text.splitlines() if "│" in line]
    return next(row for row in rows if row[1:].startswith(name + " "))


def _lost_saule(back: bool = False) -> SeatChanged:
    if back:
        return SeatChanged(2, "Saule", KEYS[2], "Bot for Saule", (0, 1, 3), 5, 5, True, b"")
    return SeatChanged(2, "Bot for Saule", BOT_KEY, "Saule", (0, 1, 3), 3, 3, False, b"")


def test_the_seats_panel_shows_the_key_of_whoever_plays_the_seat_now() -> None:
    # Saule's own screen (she watches while the bot plays: no new GameStarted there),
    # and Asel's, whose table enters the continuation
    own, bot = fingerprint(KEYS[2])[:9], fingerprint(BOT_KEY)[:9]
    for me in (2, 0):
        view = _belka(me)
        assert own in _drawn(view)
        view.apply(_lost_saule())
        text = _drawn(view)
        # the name is long for the panel: its key is on the line under it
        rows = text.splitlines()
        named = next(i for i, line in enumerate(rows) if line.endswith("│ Bot for Saule"))
        assert bot in rows[named + 1] and own not in text, text
        view.apply(_lost_saule(back=True))
        assert own in _seat_row(_drawn(view), "Saule") and bot not in _drawn(view)


def test_a_deal_voided_by_the_cut_leaves_no_trick_count_under_the_table() -> None:
    for me in (2, 0):  # the player who lost the seat, and one who plays on
        view = _belka(me)
        assert "trick 7 of 8 · tricks 2:4" in _drawn(view)
        view.apply(_lost_saule())
        text = _drawn(view)
        assert "trick 7 of" not in text and "tricks 2:4" not in text, text
        assert view.hand == [] and view.trick is None and view.trump is None
        # the continuation's first deal shows its own count from its own events
        view.apply(ev.GameStarted("belka", BELKA_NAMES, KEYS[:4], 3, None, {}, ev.Score((0, 0)),
                                  continued=True))  # fmt: skip
        view.apply(ev.DealStarted(4, 3, 3, ev.Score((0, 0))))
        view.apply(TrumpAnnounced(1, "C", 1, None))
        assert "trick 1 of 8 · tricks 0:0" in _drawn(view)


def test_a_person_thinking_over_a_live_link_is_not_marked_missing() -> None:
    view = _belka(0)
    view.apply(Waiting((2,), 11.0, thinking=(2,)))  # Saule's turn, her link alive
    assert "missing" not in _seat_row(_drawn(view), "Saule")
    assert fingerprint(KEYS[2])[:9] in _seat_row(_drawn(view), "Saule")
    assert view.log[-1] == "Waiting for Saule…"
    view.apply(Waiting((2,), 25.0))  # her link died: said again, the mark moves
    assert "missing" in _seat_row(_drawn(view), "Saule")
    assert view.log.count("Waiting for Saule…") == 1
    view.apply(Resumed())
    assert "missing" not in _drawn(view)


def test_a_status_longer_than_the_screen_is_wide_wraps_between_words() -> None:
    view = _belka(2)
    view.apply(_lost_saule())
    rows = _drawn(view).splitlines()  # (no line cut: ``_drawn`` checks)
    assert rows[-4:-2] == [
        "Bot for Saule plays your seat; you get it back between deals, once the others",
        "agree.",
    ]
    view.names[1] = "Александра Петровна"
    view.apply(SeatOffer(1, "Александра Петровна", 61.0, "Bot for Александра Петровна",
                         Decision()))  # fmt: skip
    rows = _drawn(view).splitlines()
    assert rows[-3].endswith("[y] yes  [n] no"), rows[-4:]


def test_the_game_end_rates_the_players_who_sat_down_not_the_bot() -> None:
    """The ladder counts a game a bot finished for the player who left (results.md
    1.1): the view keeps the keys and names of the start for the ratings lines."""
    view = _belka(0)
    view.apply(_lost_saule())
    names = ("Asel", "Bolat", "Bot for Saule", "Nurlan")
    keys = (*KEYS[:2], BOT_KEY, KEYS[3])
    view.apply(ev.GameStarted("belka", names, keys, 3, 0, {}, ev.Score((0, 0)), continued=True))
    assert view.keys[2] == BOT_KEY and view.names[2] == "Bot for Saule"
    assert view.first_keys == list(KEYS[:4]) and view.first_names == list(BELKA_NAMES)
