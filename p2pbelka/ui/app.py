"""The full-screen table, any game's: layout, overlays, keys and mouse, over a view.

The screen never touches the table: a move goes out through ``post_move`` (to the
peer driver, in trio) and comes back as events that update the view.  What a game
draws and asks its own way is its :class:`~p2pbelka.ui.gameui.GameUI` (registered in
``ui/registry.py``); the screen, the lobby in front of it (``ui/lobbypanel.py``),
chat (``ui/chatbox.py``), the pages (``ui/pageoverlay.py``) and quitting know no game.
A LAN joiner's screen opens on the lobby with no game, and gets one
(:meth:`TableScreen.use_game`) once the lobby names it.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindingsBase, merge_key_bindings
from prompt_toolkit.layout import (
    ConditionalContainer,
    DynamicContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.widgets import Frame, TextArea

from p2pbelka.peer.chat import ChatDropped, ChatLine
from p2pbelka.table import moves as mv
from p2pbelka.ui import hostwatchers, keymap, linewrap, panels, tablekeys, toosmall
from p2pbelka.ui.chatbox import CHAT_ROWS, ChatBox
from p2pbelka.ui.coachpage import Coaching, coach_fragments
from p2pbelka.ui.gameui import GameUI, bind
from p2pbelka.ui.lobbypanel import LobbyPanel
from p2pbelka.ui.pageoverlay import FRAME_ROWS, Pages
from p2pbelka.ui.panels import on_click
from p2pbelka.ui.plainchars import screen_output
from p2pbelka.ui.style import STYLE
from p2pbelka.ui.tablekeys import PAGES
from p2pbelka.ui.view import DealEnd, TableView
from p2pbelka.ui.words.cardnames import card_label, red_suits
from p2pbelka.ui.words.i18n import _

MIN_COLUMNS, MIN_ROWS = toosmall.MIN_COLUMNS, toosmall.MIN_ROWS
RIGHT_WIDTH = 31
ASK_WIDTH = 60
STATUS_ROWS = 3
"""The question about a seat, asked over a page, is wrapped at this width."""


def _exact(fragments: StyleAndTextTuples) -> Dimension:
    """As many rows as ``fragments`` draw (a panel that keeps them whole)."""
    text = "".join(fragment[1] for fragment in fragments)
    return Dimension.exact(max(0, len(text.rstrip("\n").split("\n")) if text else 0))


def _drop(move: mv.Move) -> None:
    return None


class TableScreen:
    """One seat's table on the terminal, of the game ``game`` (None: not known yet, the
    lobby in front).  ``post_move`` hands a move to the driver."""

    def __init__(
        self,
        game: GameUI | None,
        view: TableView | None = None,
        post_move: Callable[[mv.Move], None] = _drop,
        *,
        lobby: LobbyPanel | None = None,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.game = game
        self.view = view if view is not None else TableView()
        self.post_move = post_move
        self.post_call: Callable[[Callable[[], None]], None] = lambda fn: fn()
        """Runs a callable in trio's context (the front end sets it to its bridge)."""
        self.lobby = lobby
        self.decide_watcher: Callable[[bool], None] | None = None
        """The host's answer to the oldest person asking to watch (the LAN session's)."""
        # "lobby", "help", "last", "sheet", "deal_end", "quit", or a game's dialog
        self.overlay: str | None = "lobby" if lobby is not None else None
        self.deal_ends_seen = 0
        self.coaching = Coaching()  # --coach: the coach's lines at each deal's end
        self._rated: StyleAndTextTuples | None = None
        self.help_scroll = 0
        self.help_bottom = 0  # (set as the help page is drawn, for its size)
        self.quit_requested = False
        self.interrupted = False
        """The player left with Ctrl-C: the program ends with 130, as ``--help`` says."""
        self._wrapped_log: tuple[tuple[int, int, int], list[str]] = ((-1, 0, 0), [])
        # each entry of the last hundred wrapped once, not again at each new line said
        self._wrapped_entries: dict[str, list[str]] = {}
        self.chatbox = ChatBox(lambda: self.view, self.focus_table, self.invalidate)
        self.pages = Pages(lambda: (self.overlay, len(self.view.deal_ends), self.view.finished))
        # a second row only for a status longer than the screen is wide (the watched
        # seat's "a bot plays your seat", an offer): cut at 80 columns, it lost its end
        self._home = Window(
            FormattedTextControl(self._status, focusable=True),
            height=self._status_rows,
        )
        self.app: Application[None] = Application(
            layout=Layout(self._root(), focused_element=self._home),
            key_bindings=self._keys(),
            style=STYLE,
            full_screen=True,
            mouse_support=True,
            input=input,
            output=screen_output(output),  # plain characters on a terminal not UTF-8
            # NO_COLOR (no-color.org): no colours at all, whatever the terminal can do
            color_depth=ColorDepth.DEPTH_1_BIT if os.environ.get("NO_COLOR") else None,
        )

    def use_game(self, game: GameUI, view: TableView) -> None:
        """The game is known (a LAN joiner learns it in the lobby): from now on the screen
        draws and plays it, on ``view``; the game's keys join the table's."""
        view.transcript_path = view.transcript_path or self.view.transcript_path
        self.game, self.view = game, view
        self._rated = None  # another game: its own ratings
        self._screen.floats = self._all_floats()  # the question box and quit stay on top
        self.app.key_bindings = self._keys()
        self.invalidate()

    # -- the chat, as the front end and the tests see it ---------------------------------

    @property
    def chat(self) -> TextArea:
        return self.chatbox.box

    @property
    def chat_lines(self) -> list[ChatLine]:
        return self.chatbox.lines

    @property
    def chat_note(self) -> str:
        return self.chatbox.note

    @chat_note.setter
    def chat_note(self, note: str) -> None:
        self.chatbox.note = note

    @property
    def send_chat(self) -> Callable[[str], None] | None:
        return self.chatbox.send

    @send_chat.setter
    def send_chat(self, send: Callable[[str], None] | None) -> None:
        self.chatbox.send = send

    def show_chat(self, line: ChatLine) -> None:
        self.chatbox.show(line)

    def chat_refused(self, refused: ChatDropped, text: str) -> None:
        self.chatbox.refused(refused, text)

    # -- called by the front end after each event -----------------------------------------

    def refresh(self) -> None:
        if self.game is not None:
            self.game.on_refresh(self)
        if len(self.view.deal_ends) > self.deal_ends_seen and self.overlay not in ("quit", "lobby"):
            self.overlay = "deal_end"
        self.invalidate()

    def invalidate(self) -> None:
        self.app.invalidate()

    def log_note(self, line: str) -> None:
        """A line of the program's own in the screen's log (where a warning went)."""
        self.view.say(line)
        self.invalidate()

    def redraw(self) -> None:
        """Ctrl-L: the whole screen drawn anew (over whatever else wrote to the terminal)."""
        self.app.renderer.clear()
        self.invalidate()

    def focus_table(self) -> None:
        self.app.layout.focus(self._home)

    def open_chat(self) -> None:
        """The chat box takes the keys; after the game, a note says why it does not."""
        if self.view.finished:
            self.chat_note = _("The game is over: its chat is closed.")
            self.invalidate()
        else:
            self.app.layout.focus(self.chat)

    # -- the player's actions --------------------------------------------------------------

    def select(self, index: int) -> None:
        if 0 <= index < len(self.view.hand):
            self.view.selected = index
            self.invalidate()

    def play(self, index: int) -> None:
        view = self.view
        if not view.my_turn or not 0 <= index < len(view.hand):
            return
        card = view.hand[index]
        view.selected = index
        if card not in view.legal:
            view.status = self.game.cannot_play(view, card) if self.game else card_label(card)
            self.invalidate()
            return
        view.choice = None  # answered: no second card until the table asks again
        self.answer(mv.PlayCard(card))

    def answer(self, move: mv.Move) -> None:
        """Send ``move``, the answer to the rules' question, which closes it."""
        self.view.choice, self.view.status = None, ""
        self.post_move(move)
        self.invalidate()

    def answer_offer(self, yes: bool) -> bool:
        """Answer the question about a lost seat, if there is one (y and n do it first),
        else the host's about someone asking to watch."""
        offer = self.view.offer
        if offer is None:
            return self.answer_watcher(yes)
        self.view.offer = None
        self.post_call(lambda: offer.decision.answer(yes))
        self.invalidate()
        return True

    def answer_watcher(self, yes: bool) -> bool:
        """Let in (or turn away) the oldest person asking to watch during the game."""
        if not self.view.watch_asking or self.decide_watcher is None:
            return False
        self.view.watch_asking = ()
        self.decide_watcher(yes)
        self.invalidate()
        return True

    def close_overlay(self) -> None:
        if self.overlay == "quit":  # staying: a Ctrl-C answered "no" ends nothing
            self.interrupted = False
        if self.overlay == "deal_end":
            self.deal_ends_seen = len(self.view.deal_ends)
        self.overlay = None
        self.invalidate()

    def toggle(self, overlay: str) -> None:
        if self.overlay == overlay:
            self.close_overlay()
        elif self.overlay != "quit":
            if self.overlay == "deal_end":
                self.deal_ends_seen = len(self.view.deal_ends)
            self.overlay, self.help_scroll = overlay, 0
            self.invalidate()

    def interrupt(self) -> None:
        """Ctrl-C: leaving as with q (asked first during a game), with the status of an
        interrupted program."""
        self.ask_quit()
        self.interrupted = True

    def ask_quit(self) -> None:
        self.interrupted = False
        if self.view.finished or self.overlay == "lobby":
            self.quit()
        else:
            self.overlay = "quit"
            self.invalidate()

    def quit(self) -> None:
        self.quit_requested = True
        if self.app.is_running:
            self.app.exit()

    # -- layout ----------------------------------------------------------------------------

    def _root(self) -> AnyContainer:
        main = HSplit(
            [
                Window(
                    FormattedTextControl(self._title),
                    height=lambda: self._rows_of(self._title()),
                    style="class:title",
                ),
                DynamicContainer(self._middle),
                self._home,
                # the lobby has no chat: a chat line there would take keys the lobby reads
                ConditionalContainer(self.chat, Condition(self.chat_shown)),
                Window(FormattedTextControl(self._hints), height=1, style="class:hints"),
            ]
        )
        quit_box = Frame(
            Window(FormattedTextControl(self._quit_text), height=2, width=48),
            title=_("Quit"),
            style="class:dialog",
        )
        self._quitting = Float(
            ConditionalContainer(quit_box, Condition(lambda: self.overlay == "quit"))
        )
        ask_box = Frame(
            Window(FormattedTextControl(self._offer_box), width=ASK_WIDTH, dont_extend_height=True),
            title=_("A question about a seat"),
            style="class:dialog",
        )
        # over a page (the end of a deal, the sheet, the help) the status line is easy
        # to miss, and a question left unanswered is a no: it is asked above the page
        self._asking = Float(ConditionalContainer(ask_box, Condition(self.asks_over_a_page)))
        self._screen = FloatContainer(main, floats=self._all_floats())
        screen = self._screen
        too_small = Window(
            FormattedTextControl(self._too_small), style="class:small", wrap_lines=True
        )
        return DynamicContainer(lambda: too_small if self.is_too_small() else screen)

    def chat_shown(self) -> bool:
        """The chat box is drawn (a watcher's only when the host lets watchers write)."""
        return self.overlay != "lobby"

    def deal_end_lines(self, game: GameUI, end: DealEnd) -> StyleAndTextTuples:
        """The page at a deal's end (a watcher's heads it with the audit's verdict), the
        coach's lines under it when the player asked for them."""
        page = game.deal_end(self.view, end, self._width())
        return [*page, *coach_fragments(self.coaching, end.summary.number)]

    def game_end_lines(self, game: GameUI) -> StyleAndTextTuples:
        """The page at the game's end (a watcher's adds the verdict on its transcript):
        the result, then the players' ratings with the change the game made."""
        lines = game.game_end(self.view)
        return [*lines[:1], *self._ratings(game), *lines[1:]]

    def _ratings(self, game: GameUI) -> StyleAndTextTuples:
        """The ratings lines, worked out once, when the page is first drawn: the game
        is in no ledger yet then (a seat counts it once it stops lingering)."""
        over = self.view.game_over
        if over is None or over.winner is None or len(self.view.keys) != self.view.players:
            return []
        if self._rated is None:
            from p2pbelka.ui.ladder import end_of_game_ratings

            # the players who sat down: a bot that took a seat played it for them
            keys = self.view.first_keys or self.view.keys
            names = (self.view.first_names or self.view.names)[: self.view.players]
            found = end_of_game_ratings(game.name, keys, names, over.winner)
            self._rated = [("class:hint", line + "\n") for line in found]
        return self._rated

    def _all_floats(self) -> list[Float]:
        """The game's floats under the question about a seat and the quit dialog: a
        joiner's game comes from the lobby, and its floats must not drop those two."""
        return [*self._floats(), self._asking, self._quitting]

    def _floats(self) -> list[Float]:
        return list(self.game.floats(self)) if self.game is not None else []

    def is_too_small(self) -> bool:
        return toosmall.is_too_small()

    def _too_small(self) -> StyleAndTextTuples:
        # q asks first during a game: the question is on this page, not in a box off it
        asking = [("", "\n\n"), *self._quit_text()] if self.overlay == "quit" else []
        return [*toosmall.too_small_lines(), *asking]

    def _width(self) -> int:
        return get_app().output.get_size().columns

    def _left_width(self) -> int:
        return max(0, self._width() - RIGHT_WIDTH - 1)

    def _middle(self) -> AnyContainer:
        if self.overlay == "lobby" and self.lobby is not None:
            return self.lobby.container()
        if self.overlay == "help":
            footer: StyleAndTextTuples = [
                ("class:hint", " " + _("↑/↓ scroll · ? or Esc: back to the table"))
            ]
            return HSplit(
                [
                    Window(FormattedTextControl(self._help), style="class:report"),
                    Window(FormattedTextControl(footer), height=1),
                ]
            )
        game = self.game
        if game is not None and self.overlay == "deal_end" and self.view.deal_ends:
            end = self.view.deal_ends[-1]
            return self.pages.container(lambda: self.deal_end_lines(game, end), self._continue)
        if game is not None and self.overlay == "sheet":
            return self.pages.container(lambda: game.sheet(self.view), self._continue)
        chat = HSplit(
            [
                Window(height=1, char="─", style="class:rule"),
                # the seats and the watchers above are never pushed off: the chat
                # gives way first, its newest line kept in sight
                Window(
                    FormattedTextControl(
                        lambda: self.chatbox.panel(RIGHT_WIDTH),
                        get_cursor_position=self._chat_end,
                    ),
                    height=Dimension(min=1, max=CHAT_ROWS, preferred=CHAT_ROWS),
                ),
            ]
        )
        right = HSplit(
            [
                Window(FormattedTextControl(self._score), height=lambda: _exact(self._score())),
                Window(FormattedTextControl(self._seats), height=lambda: _exact(self._seats())),
                ConditionalContainer(chat, Condition(self.chatbox.has_lines)),
                Window(
                    FormattedTextControl(self._log, get_cursor_position=self._log_end),
                    style="class:log",
                ),
            ],
            width=RIGHT_WIDTH,
        )
        rule = Window(width=1, char="│", style="class:rule")
        return VSplit([DynamicContainer(self._left), rule, right])

    def _left(self) -> AnyContainer:
        game = self.game
        if self.overlay == "last":
            return HSplit(
                [
                    Window(FormattedTextControl(self._last_trick), height=panels.TABLE_HEIGHT),
                    Window(FormattedTextControl(self._last_trick_footer), height=1),
                    Window(),
                ]
            )
        if self.view.finished and game is not None:
            return self.pages.container(lambda: self.game_end_lines(game), None, self._left_width)
        return HSplit(
            [
                Window(FormattedTextControl(self._table), height=panels.TABLE_HEIGHT),
                Window(
                    FormattedTextControl(self._info),
                    height=lambda: self._rows_of(self._info()),
                    style="class:hint",
                ),
                Window(FormattedTextControl(self._under_table), height=1),
                Window(FormattedTextControl(self._hand), height=panels.HAND_HEIGHT),
                Window(),
            ]
        )

    # -- content -----------------------------------------------------------------------------

    @staticmethod
    def _rows_of(fragments: StyleAndTextTuples) -> Dimension:
        """One row, or two for a line wrapped (the row under it gives way first)."""
        rows = 1 + sum(fragment[1].count("\n") for fragment in fragments)
        return Dimension(min=1, preferred=min(2, rows), max=min(2, rows))

    def _title(self) -> StyleAndTextTuples:
        return linewrap.rows(self.title_text(), self._width())

    def title_text(self) -> str:
        game, view = self.game, self.view
        if game is None:
            return "p2pbelka"
        if self.overlay == "deal_end" and view.deal_ends:
            # the page is about the deal that ended, even once the next one is dealt
            return game.deal_title(view, view.deal_ends[-1])
        return game.title(view)

    def _table(self) -> StyleAndTextTuples:
        if self.game is None:
            return []
        return self.game.table(self.view, self._left_width(), None)

    def _last_trick(self) -> StyleAndTextTuples:
        trick = self.view.last_trick
        if trick is None or self.game is None:
            return [("class:hint", " " + _("No trick has been taken yet in this deal."))]
        return self.game.table(self.view, self._left_width(), trick)

    def _info(self) -> StyleAndTextTuples:
        info = self.game.info(self.view) if self.game is not None else ""
        return linewrap.rows(info, self._left_width())

    def _under_table(self) -> StyleAndTextTuples:
        if self.game is None:
            return []
        return red_suits(self.game.under_table(self.view, self._left_width()))

    def _hand(self) -> StyleAndTextTuples:
        return panels.hand_panel(self.view, self._left_width(), self.select, self.play).fragments()

    def _score(self) -> StyleAndTextTuples:
        return self.game.score(self.view, RIGHT_WIDTH) if self.game is not None else []

    def _seats(self) -> StyleAndTextTuples:
        if self.game is None:
            return []
        seats = red_suits(self.game.seats(self.view, RIGHT_WIDTH))
        return [*seats, *hostwatchers.watchers_line(self.view, RIGHT_WIDTH)]

    def _log_lines(self) -> list[str]:
        # wrapped here, between words, rather than by the window in mid-word; once per
        # new line said (a render asks several times, and a game says thousands), and
        # each entry once while it is among the last hundred
        key = (self.view.said, len(self.view.log), id(self.view.log))
        if self._wrapped_log[0] != key:
            lines: list[str] = []
            kept, wrapped = self._wrapped_entries, dict[str, list[str]]()
            for entry in self.view.log[-100:]:
                rows = wrapped.get(entry) or kept.get(entry)
                if rows is None:
                    rows = linewrap.wrap(entry, RIGHT_WIDTH - 1, indent="  ")
                wrapped[entry] = rows
                lines += rows
            self._wrapped_log, self._wrapped_entries = (key, lines), wrapped
        return self._wrapped_log[1]

    def _log(self) -> StyleAndTextTuples:
        return red_suits([("", "\n".join(self._log_lines()))])

    def _chat_end(self) -> Point:
        drawn = "".join(fragment[1] for fragment in self.chatbox.panel(RIGHT_WIDTH))
        return Point(0, max(0, drawn.count("\n") - 1))

    def _log_end(self) -> Point:
        return Point(0, max(0, len(self._log_lines()) - 1))

    def help_text(self) -> str:
        """The help page: the game's rules and keys, and the keyboard-layout note."""
        text = self.game.help_text() if self.game is not None else ""
        return f"{text}\n\n{keymap.layout_note()}" if text else text

    def _help(self) -> StyleAndTextTuples:
        lines = self.help_text().splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        # scrolled no further than its last line at the bottom (no blank page after it):
        # the page has the screen less the frame's rows and its footer
        height = max(1, get_app().output.get_size().rows - FRAME_ROWS - 1)
        self.help_bottom = max(0, len(lines) - height)
        self.help_scroll = min(self.help_scroll, self.help_bottom)
        return [("", "\n".join(" " + line for line in lines[self.help_scroll :]))]

    def _last_trick_footer(self) -> StyleAndTextTuples:
        trick = self.view.last_trick
        if trick is None or trick.winner is None:
            return self._continue()
        heading = _("Last trick, taken by {name}.").format(name=self.view.name(trick.winner))
        return [*red_suits([("class:heading", f" {heading}")]), *self._continue()]

    def _continue(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [
            ("class:button", " " + _("[Enter] continue"), on_click(self.close_overlay))
        ]
        if self.pages.overflows and self.overlay in PAGES:
            out.append(("class:hint", "  " + _("↑/↓ scroll")))
        return out

    def asks_over_a_page(self) -> bool:
        """A question about a seat is up while a page covers the table."""
        return self.view.offer is not None and self.overlay in (*PAGES, "help", "last")

    def _offer_box(self) -> StyleAndTextTuples:
        offer = self.view.offer
        if offer is None:
            return []
        lines = linewrap.wrap(self.view.offer_question(offer), ASK_WIDTH)
        hint = linewrap.wrap(_("No answer in time counts as no."), ASK_WIDTH)
        return [
            *(("", line + "\n") for line in lines),
            ("class:button", _("[y] yes"), on_click(lambda: self.answer_offer(True))),
            ("", "   "),
            ("class:button", _("[n] no"), on_click(lambda: self.answer_offer(False))),
            *(("class:hint", "\n" + line) for line in hint),
        ]

    def _quit_text(self) -> StyleAndTextTuples:
        return [
            ("", _("Leave the game? The transcript so far is saved.") + "\n"),
            ("class:button", _("[y] leave"), on_click(self.quit)),
            ("", "   "),
            ("class:button", _("[n] stay"), on_click(self.close_overlay)),
        ]

    def _status_rows(self) -> Dimension:
        rows = 1 + sum(text.count("\n") for _style, text, *_rest in self._status())
        # at 80x24 the table leaves the status three rows; past that it shrinks first
        return Dimension(min=1, preferred=min(STATUS_ROWS, rows), max=min(STATUS_ROWS, rows))

    def _status(self) -> StyleAndTextTuples:
        """The line under the table, wrapped between words onto more rows when it is
        longer than the screen is wide (a question's keys together on the last)."""
        return linewrap.joined(linewrap.wrap_fragments(self._status_line(), self._width()))

    def _status_line(self) -> StyleAndTextTuples:
        view = self.view
        if view.offer is not None:
            return [
                ("class:status", view.offer_question(view.offer) + " "),
                ("class:button", _("[y] yes"), on_click(lambda: self.answer_offer(True))),
                ("", "  "),
                ("class:button", _("[n] no"), on_click(lambda: self.answer_offer(False))),
            ]
        if view.finished:
            return [("class:status", _("The game has ended. Press q to leave."))]
        if view.watch_asking and self.decide_watcher is not None:
            return hostwatchers.question(view, self.answer_watcher)
        if self.overlay in PAGES:
            # the next deal may already ask for a card, a call or a re-deal: that waits
            # for this page to close, since no question about a hand is asked before
            # the hand is on screen (the game's keys wait too: KeyContext.at_table)
            if view.choice is not None:
                return [("class:status", _("The table asks you: press Enter to go back to it."))]
            return [("class:hint", _("Press Enter to go back to the table."))]
        if self.overlay == "help":
            return [("", "")]  # the same: the hand is under the help
        asked = self.game.prompt(self) if self.game is not None else None
        if asked is not None:
            return asked
        if view.alone:
            return [("class:status", view.alone_line())]
        if view.played_by is not None:  # what our table waits for is the bot's business
            return [("class:status", view.played_by_line())]
        if view.waiting:
            return [("class:status", view.waiting_line())]
        if view.status:
            return [("class:status", view.status)]
        if view.turn is not None and view.turn != view.me:
            return [("class:hint", _("{name} to play.").format(name=view.name(view.turn)))]
        return [("", "")]

    def _hints(self) -> StyleAndTextTuples:
        if self.overlay == "lobby" and self.lobby is not None:
            return self.lobby.hints()
        items = [
            (self.game.choose_hint() if self.game is not None else "", None),
            (_("Enter play"), None),
            (_("l last trick"), lambda: self.toggle("last")),
            (_("s scores"), lambda: self.toggle("sheet")),
            (_("? rules"), lambda: self.toggle("help")),
            (_("c chat"), lambda: self.app.layout.focus(self.chat)),
            (_("q quit"), self.ask_quit),
        ]
        out: StyleAndTextTuples = []
        for text, action in items:
            if action is None:
                out.append(("", f" {text} "))
            else:
                out.append(("class:hints.button", f" {text} ", on_click(action)))
        return out

    # -- keys ---------------------------------------------------------------------------------

    def _keys(self) -> KeyBindingsBase:
        """The table's keys, then the game's (they win where both apply), then the
        lobby's (in the lobby only)."""
        when = tablekeys.context(self)
        layers = [bind(tablekeys.table_keys(self, when))]
        if self.game is not None:
            layers.append(bind(self.game.keys(self, when)))
        if self.lobby is not None:
            in_lobby = Condition(lambda: self.overlay == "lobby")
            layers.append(bind(self.lobby.keys(in_lobby, self.focus_table)))
        return merge_key_bindings(layers)
