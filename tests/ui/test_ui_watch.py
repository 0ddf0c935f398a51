"""A watcher's screen, fed a whole game envelope by envelope (Belka for four, Belot for
two and for three, in every language): the lobby, every hand face down as backs, each
card as it is played, the page at each deal's end with every hand and the audit's
verdict, the last trick, the score sheet, the help, the game's end with the verdict on
the transcript.  Each state is drawn at 80×24 and 120×40: nothing cut or drawn over, and
no card face up on the table or in the hands' place that was not played or shown.
The default suite watches each game in one language (``tests/ui/matrix.py``); ``-m slow``
watches each in all three."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input

from p2pbelka.cards import Card
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from p2pbelka.ui import panels
from p2pbelka.ui.app import RIGHT_WIDTH
from p2pbelka.ui.watcherscreen import ScreenWatchFront, WatchScreen, watch_on_screen
from p2pbelka.ui.words.cardnames import card_label
from p2pbelka.ui.words.i18n import set_language
from tests.ui.matrix import diagonal
from tests.ui.render import Terminal, render
from tests.ui.watching import feed, game_of, lobby_of, report_of

SIZES = ((80, 24), (120, 40))
GAMES = [("belka", 4, 5), ("belot", 2, 3), ("belot", 3, 4)]
EVERY_CARD = [Card.from_index(i) for i in range(32)]
VERIFIED = {
    "en": "deal 1 verified: the shuffle was fair and every card checked",
    "ru": "сдача 1 проверена: тасовка честная, каждая карта сверена",
    "kk": "1-кон тексерілді: араластыру адал, әр карта салыстырылды",
}


class Watched:
    """The screen drawn once per state at both sizes, and what was wrong in it."""

    def __init__(self, screen: WatchScreen, terminal: Terminal) -> None:
        self.screen, self.terminal = screen, terminal
        self.seen: set[tuple[object, ...]] = set()
        self.wrong: list[str] = []
        self.texts: dict[str, str] = {}
        self.shown: set[Card] = set()  # every card an event showed in this deal

    def take(self, what: str) -> None:
        screen, view = self.screen, self.screen.view
        trick = view.trick
        state = (what, screen.overlay, view.in_deal, trick is not None and trick.winner is None)
        if state in self.seen:
            return
        self.seen.add(state)
        for columns, rows in SIZES:
            drawn = render(screen, self.terminal, columns, rows)
            where = f"{state} at {columns}x{rows}"
            if os.environ.get("LAYOUT_DUMP"):
                print(f"===== {where}\n{drawn.text}")
            self.texts.setdefault(what or str(screen.overlay), drawn.text)
            self.wrong += [f"{where}: {fault}" for fault in drawn.faults]
            if screen.overlay is None and view.in_deal:
                self._nothing_hidden_shown(drawn.lines, columns - RIGHT_WIDTH - 1, where)

    def _nothing_hidden_shown(self, lines: list[str], left: int, where: str) -> None:
        """The table and the hands' place show no card that is still in a hand."""
        rows = lines[1 : 1 + panels.TABLE_HEIGHT + 2 + panels.HAND_HEIGHT]
        text = "\n".join(line[:left] for line in rows)
        for card in EVERY_CARD:
            if card not in self.shown and f"│{card_label(card).ljust(3)}│" in text:
                self.wrong.append(f"{where}: {card} face up before it was played\n{text}")
        if "▒▒" not in text and "▒" not in text:
            self.wrong.append(f"{where}: no hand face down\n{text}")

    def saw(self, events: list[ev.Event]) -> None:
        for event in events:
            if isinstance(event, ev.DealStarted):
                self.shown = set()
            for name in ("card", "cards"):
                found = getattr(event, name, None)
                if isinstance(found, Card):
                    self.shown.add(found)
                elif isinstance(found, tuple):
                    self.shown.update(c for c in found if isinstance(c, Card))


def watch_a_game(game: str, players: int, seed: int, lang: str, tmp_path: Path) -> Watched:
    envelopes = game_of(game, players, seed)
    report = report_of(envelopes)
    terminal = Terminal()
    with create_pipe_input() as pipe:
        watched: list[Watched] = []

        async def follow(front: ScreenWatchFront) -> None:
            screen = front.screen
            shots = Watched(screen, terminal)
            watched.append(shots)
            await front.lobby(lobby_of(game, report.names))
            shots.take("lobby")
            await front.admitted("off")
            ends = 0

            async def after(table: Table, events: list[ev.Event]) -> None:
                nonlocal ends
                shots.saw(events)
                shots.take("")
                if screen.overlay == "deal_end" and ends < len(screen.view.deal_ends):
                    ends = len(screen.view.deal_ends)
                    shots.take(f"deal_end {ends}")
                    if ends == 1:
                        for overlay in ("last", "sheet", "help"):
                            screen.toggle(overlay)
                            shots.take(overlay)
                        screen.close_overlay()

            await feed(front, envelopes, after)
            await front.ended(report, tmp_path / "watched.transcript")
            shots.take("game over")
            pipe.send_text("q")

        watch_on_screen(follow, lang=lang, input=pipe, output=terminal.output)
    set_language("en")
    return watched[0]


@pytest.mark.parametrize(("game", "players", "seed", "lang"), diagonal(GAMES))
def test_a_watcher_sees_every_state_and_no_hidden_card(
    tmp_path: Path, game: str, players: int, seed: int, lang: str
) -> None:
    shots = watch_a_game(game, players, seed, lang, tmp_path)
    assert not shots.wrong, "\n".join(shots.wrong[:10])
    texts = shots.texts
    assert {"lobby", "deal_end 1", "last", "sheet", "help", "game over"} <= set(texts)
    assert VERIFIED[lang] in texts["deal_end 1"]
    names = report_of(game_of(game, players, seed)).names
    for name in names:  # every hand shown at the deal's end
        assert name in texts["deal_end 1"]
    assert "OK:" in texts["game over"] and "watched.transcript" in texts["game over"]


@pytest.mark.parametrize("lang", ["en", "ru", "kk"])
@pytest.mark.parametrize(("game", "players"), [("belka", 4), ("belot", 2)])
def test_a_watcher_s_help_gives_the_rules_and_a_watcher_s_keys_only(
    game: str, players: int, lang: str
) -> None:
    set_language(lang)
    try:
        with create_pipe_input() as pipe:
            screen = WatchScreen(input=pipe, output=Terminal().output)
            screen.take_game(game, players)
            help_page = "".join(text for _, text, *_ in screen._help())
            player_help = screen.game.help_text() if screen.game is not None else ""
    finally:
        set_language("en")
    rules, player_keys = player_help.rsplit("\n\n", 1)
    assert rules.splitlines()[0].strip() in help_page  # the game's rules stay
    assert player_keys.splitlines()[0] not in help_page  # no "Enter plays it"
    stops = {"en": "q stops watching", "ru": "q — перестать смотреть", "kk": "q — көруді"}[lang]
    assert stops in help_page
    widest = max(help_page.splitlines(), key=len)
    assert len(widest) <= 80, widest  # the page at 80 columns: nothing cut
