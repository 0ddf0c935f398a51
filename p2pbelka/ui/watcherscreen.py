"""A watcher's screen, any game's: the one table screen with every hand face down.

A watcher holds no seat.  What it sees comes from the observer table it runs on the
host's feed (``verify``'s table, live): the seats' cards as backs, each card as it is
played, the tricks, the score and the log; at a deal's end every hand and the audit's
verdict ("deal 3 verified: …"); at the end the verdict on the whole transcript and
where it is saved.  The seats' chat is shown; the chat box only when the host lets
watchers write.

:class:`WatchScreen` is :class:`~p2pbelka.ui.app.TableScreen` with no hand and no
moves; :class:`ScreenWatchFront` is the watcher's front end (``WatchFront``, the
interface of ``peer/watch.py``: ``lobby``, ``admitted``, ``fed``, ``chat``, ``note``,
``ended``, and ``join_chat`` to write when the host allows it); :func:`watch_on_screen`
runs both around the watcher's program.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import trio
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pbelka.peer.chat import ChatDropped, ChatLine
from p2pbelka.peer.watch import WatchNote
from p2pbelka.protocol.lobby import LobbyState
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from p2pbelka.table.verify import VerifyReport
from p2pbelka.ui import keymap, registry
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.gameui import GameUI
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.lobbypanel import LobbyPanel
from p2pbelka.ui.lobbyview import LobbyView
from p2pbelka.ui.panels import on_click
from p2pbelka.ui.tablekeys import PAGES
from p2pbelka.ui.view import DealEnd, TableView
from p2pbelka.ui.words.cardnames import fit
from p2pbelka.ui.words.i18n import _, set_language
from p2pbelka.ui.words.verdicts import verdict_words
from p2pbelka.ui.words.watchnotes import note_words

T = TypeVar("T")
CHAT_OFF = "off"  # the host's word for watchers who may only read the chat
NAME_WIDTH = 15


class WatchLobby:
    """The lobby's actions on a watcher's screen: there are none (a watcher takes no
    seat and changes no rule), only the lobby to look at."""

    def __init__(self, screen: WatchScreen) -> None:
        self.lobby = LobbyView("watch")
        self._screen = screen

    def pick(self, index: int) -> None: ...

    def dial(self, text: str) -> bool:
        return False

    def toggle_ready(self) -> None: ...

    def take_seat(self, seat: int) -> None: ...

    def fill_with_bots(self) -> None: ...

    def move_rule(self, step: int) -> None: ...

    def change_rule(self, step: int) -> None: ...

    def decide(self, admit: bool) -> None: ...

    def remove_seat(self, seat: int) -> None: ...

    def new_code(self) -> None: ...

    def shut_out(self, n: int) -> None: ...

    def give_code(self, code: str | None) -> None: ...

    def back_to_list(self) -> None: ...

    def invalidate(self) -> None:
        self._screen.invalidate()


def backs_lines(view: TableView, dealt: int, width: int) -> StyleAndTextTuples:
    """Every seat's hand face down, a back per card it holds, one seat a line."""
    out: StyleAndTextTuples = []
    held = [max(0, dealt - played) for played in view.played] if view.in_deal else []
    for seat, count in enumerate(held):
        mark = "▶" if view.turn == seat else " "
        style = "class:seat.turn" if view.turn == seat else ""
        name = fit(view.name(seat), NAME_WIDTH - 1).ljust(NAME_WIDTH)
        room = max(0, width - len(name) - 5)
        back = "▒▒ " if 3 * count <= room else "▒"
        backs = (back * count)[:room].rstrip()
        out.append((style, f" {mark}{name}"))
        out.append(("class:card.back", backs))
        out.append(("class:hint", f" {count}\n"))
    return out


class WatchScreen(TableScreen):
    """The table as a watcher sees it: the lobby until the game starts, then the table
    with every hand face down, and no move to make."""

    def __init__(self, *, input: Input | None = None, output: Output | None = None) -> None:
        self.actions = WatchLobby(self)
        super().__init__(
            None,
            TableView(watching=True),
            lobby=LobbyPanel(self.actions),
            input=input,
            output=output,
        )
        self.verdict = ""  # the verdict on the watched transcript, once the feed ended
        self.chat_allowed = False  # the host lets watchers write in the chat
        self.note = ""  # the last word of the watcher's program (lost, trying again...)

    # -- what the watcher's program tells it ---------------------------------------------

    def show_lobby(self, state: LobbyState) -> None:
        """The table before the start: its game is known from here on."""
        self.actions.lobby.state, self.actions.lobby.name = state, state.name
        self.take_game(state.variant, len(state.seats))
        self.invalidate()

    def take_game(self, game: str, seats: int) -> None:
        if self.game is not None and self.game.name == game and self.view.players == seats:
            return
        ui, view = registry.new_view(game, seats)
        view.watching = True
        view.log, view.said = self.view.log, self.view.said  # the notes so far stay
        self.use_game(ui, view)

    def event(self, game: Any, event: ev.Event) -> None:
        """One event of the observer table (``game``: its rules state)."""
        if isinstance(event, ev.GameStarted):
            self.take_game(event.game, len(event.names))
            if self.overlay == "lobby":
                self.overlay = None
        if isinstance(event, ev.CardPlayed) and self.overlay == "deal_end":
            self.close_overlay()  # the next deal is played: the table, not the last page
        self.view.observe(game)
        self.view.apply(event)

    # -- what differs from a seat's screen ------------------------------------------------

    def chat_shown(self) -> bool:
        return self.chat_allowed and self.overlay != "lobby"

    def open_chat(self) -> None:
        if self.chat_allowed and self.send_chat is not None:
            super().open_chat()
            return
        self.chat_note = _("The host lets watchers read the chat, not write in it.")
        self.invalidate()

    def ask_quit(self) -> None:
        self.interrupted = False
        self.quit()  # a watcher leaving changes nothing: the transcript so far is saved

    def play(self, index: int) -> None:
        return None

    def deal_end_lines(self, game: GameUI, end: DealEnd) -> StyleAndTextTuples:
        number, faults = end.summary.number, end.faults
        style = "class:verdict.bad" if faults else "class:verdict.ok"
        head: StyleAndTextTuples = [(style, self.view.audit_line(number, faults) + "\n\n")]
        return [*head, *super().deal_end_lines(game, end)]

    def game_end_lines(self, game: GameUI) -> StyleAndTextTuples:
        return [*self.verdict_lines(), *super().game_end_lines(game)]

    def verdict_lines(self) -> StyleAndTextTuples:
        if not self.verdict:
            return []
        style = "class:verdict.ok" if self.verdict.startswith("OK") else "class:verdict.bad"
        return [(style, self.verdict + "\n\n")]

    def title_text(self) -> str:
        return _("watching") + " · " + super().title_text()

    def _hand(self) -> StyleAndTextTuples:
        dealt = self.game.dealt(self.view) if self.game is not None else 0
        return backs_lines(self.view, dealt, self._left_width())

    def _status_line(self) -> StyleAndTextTuples:
        view = self.view
        if view.finished:
            return [("class:status", _("The game has ended. Press q to leave."))]
        if self.overlay in PAGES:
            return [("class:hint", _("Press Enter to go back to the table."))]
        if self.note:
            return [("class:status", self.note)]
        if self.verdict:
            return [("class:status", self.verdict)]
        if view.turn is not None:
            return [("class:hint", _("{name} to play.").format(name=view.name(view.turn)))]
        return [("class:hint", _("Watching: every hand stays face down until it is played."))]

    def help_text(self) -> str:
        """The game's rules and a watcher's keys (see the comment)."""
        # The game's help ends with a player's keys; a watcher plays no card and
        # quits nothing it could resume, so its own keys take that paragraph's place.
        rules = self.game.help_text().rsplit("\n\n", 1)[0] if self.game is not None else ""
        keys = _(
            "Keys: l shows the last trick, s the score sheet, c writes in the chat\n"
            "(where the host lets watchers write), q stops watching, Esc closes this help."
        )
        return f"{rules}\n\n{keys}\n\n{keymap.layout_note()}".strip()

    def _hints(self) -> StyleAndTextTuples:
        if self.overlay == "lobby" and self.lobby is not None:
            return self.lobby.hints()
        items: Sequence[tuple[str, Callable[[], object]]] = [
            (_("l last trick"), lambda: self.toggle("last")),
            (_("s scores"), lambda: self.toggle("sheet")),
            (_("? rules"), lambda: self.toggle("help")),
            *([(_("c chat"), self.open_chat)] if self.chat_allowed else []),
            (_("q stop watching"), self.ask_quit),
        ]
        return [("class:hints.button", f" {text} ", on_click(action)) for text, action in items]


class ScreenWatchFront:
    """The watcher's front end on a :class:`WatchScreen` (the ``WatchFront`` the
    watcher's program calls; every call comes in trio, and returns at once)."""

    def __init__(self, screen: WatchScreen, bridge: Bridge | None = None) -> None:
        self.screen = screen
        self.bridge = bridge
        self._say: Callable[[str], None] | None = None

    async def lobby(self, state: LobbyState) -> None:
        self.screen.show_lobby(state)

    def join_chat(self, say: Callable[[str], None]) -> None:
        """How a watcher's line is said, when the host lets watchers write (before
        ``admitted``): ``say`` signs and sends it, in trio (``ChatDropped``: why not)."""
        self._say = say

    async def admitted(self, chat: str, send: Callable[[str], None] | None = None) -> None:
        """Let in; ``chat``: who a watcher's lines reach ("off": nobody, it only reads);
        ``send`` says a watcher's line where the host lets watchers write."""
        if send is not None:
            self._say = send
        screen = self.screen
        screen.chat_allowed = chat != CHAT_OFF and self._say is not None
        if screen.chat_allowed:
            screen.send_chat = self._post_chat
        screen.note = ""
        screen.view.say(_("The host lets you watch."))
        screen.refresh()

    def _post_chat(self, text: str) -> None:
        """The chat box's line, from a prompt_toolkit callback, said in trio."""
        if self.bridge is not None:
            self.bridge.call_soon(self._chat_now, text)
        else:
            self._chat_now(text)

    def _chat_now(self, text: str) -> None:
        assert self._say is not None
        try:
            self._say(text)
        except ChatDropped as refused:
            self.screen.chat_refused(refused, text)

    async def fed(self, table: Table, events: list[ev.Event]) -> None:
        screen = self.screen
        screen.note = ""
        for event in events:
            screen.event(table.state.game, event)
        screen.refresh()

    async def chat(self, sender_name: str, text: str, watcher: bool) -> None:
        name = _("{name} (watching)").format(name=sender_name) if watcher else sender_name
        self.screen.show_chat(ChatLine(-1, name, text))

    async def note(self, note: WatchNote) -> None:
        if note.kind == "watchers":  # shown under the seats, as at the seats' tables
            names = note.fields.get("names", ())
            self.screen.view.watchers = (
                tuple(str(n) for n in names) if isinstance(names, tuple) else ()
            )
            self.screen.refresh()
            return
        text = note_words(note)
        self.screen.note = text
        self.screen.view.say(text)
        self.screen.refresh()

    async def ended(self, report: VerifyReport, path: Path | None) -> None:
        """The watch is over: the verdict on what came, and where it is saved (None:
        no record came, nothing saved)."""
        screen = self.screen
        screen.verdict = verdict_words(report)
        screen.note = ""
        screen.view.say(screen.verdict)
        if path is not None:
            screen.view.transcript_path = str(path)
            screen.view.say(_("Transcript saved to {path}").format(path=path))
        if screen.overlay == "deal_end" and screen.view.finished:
            screen.close_overlay()  # the last deal's page gives way to the game's verdict
        screen.refresh()


Follow = Callable[[ScreenWatchFront], Awaitable[T]]
Extra = Callable[[WatchScreen], Awaitable[None]]


def watch_on_screen(
    follow: Follow[T],
    *,
    lang: str | None = None,
    input: Input | None = None,
    output: Output | None = None,
    extra: Extra | None = None,
) -> tuple[WatchScreen, T | None]:
    """Run the watcher's program ``follow`` (given the screen's front end) with the
    screen up; the screen stays after the feed ends, until the watcher leaves.
    ``extra`` runs beside it (the tests' robot).  Returns the screen and what
    ``follow`` returned (None if the watcher left first)."""
    if lang is not None:
        set_language(lang)
    screen = WatchScreen(input=input, output=output)
    found: list[T] = []

    async def main(bridge: Bridge) -> None:
        front = ScreenWatchFront(screen, bridge)
        async with trio.open_nursery() as nursery:
            if extra is not None:
                nursery.start_soon(extra, screen)
            found.append(await follow(front))

    run_with_app(screen.app, main, screen.log_note)
    return screen, (found[0] if found else None)
