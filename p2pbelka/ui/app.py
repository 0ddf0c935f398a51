"""The full-screen table: layout, keys and mouse, over a :class:`TableView`.

The screen never touches the table: a move goes out through ``post_move``
(to the peer driver, in trio) and comes back as events that update the view.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from typing import Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.data_structures import Point
from prompt_toolkit.filters import Condition, has_focus
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyBindingsBase, KeyPressEvent
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
from prompt_toolkit.output import ColorDepth, Output
from prompt_toolkit.widgets import Frame, TextArea

from p2pbelka.peer.chat import SLOW_DOWN, TOO_LONG, ChatDropped, ChatLine
from p2pbelka.protocol.chat import MAX_CHAT_TEXT, clean_chat
from p2pbelka.rules.belka import moves as belka_mv
from p2pbelka.rules.belka.game import EGGS_CHOICES
from p2pbelka.table import moves as mv
from p2pbelka.ui import panels, reports
from p2pbelka.ui.i18n import _
from p2pbelka.ui.panels import on_click
from p2pbelka.ui.style import STYLE
from p2pbelka.ui.text import card_label, red_suits
from p2pbelka.ui.view import DealEnd, TableView

MIN_COLUMNS, MIN_ROWS = 80, 24
RIGHT_WIDTH = 31
CHAT_ROWS = 4  # the chat panel's lines, under a rule, once there is chat


class TableScreen:
    """One seat's table on the terminal.  ``post_move`` hands a move to the driver.

    The screen makes its own prompt_toolkit ``Application``, or is given one that
    already runs (``app``) and takes it over: its layout and key bindings replace
    the application's (the LAN screen of a joiner, which learns the game in the
    lobby, ``ui/lan.py``)."""

    def __init__(
        self,
        view: TableView,
        post_move: Callable[[mv.Move], None],
        *,
        input: Input | None = None,
        output: Output | None = None,
        app: Application[None] | None = None,
    ) -> None:
        self.view = view
        self.post_move = post_move
        self.post_call: Callable[[Callable[[], None]], None] = lambda fn: fn()
        """Runs a callable in trio's context (the front end sets it to its bridge)."""
        self.overlay: str | None = None  # "help", "last", "sheet", "deal_end" or "quit"
        self.deal_ends_seen = 0
        self.help_scroll = 0
        self.quit_requested = False
        self._wrapped_log: tuple[tuple[int, int, int], list[str]] = ((-1, 0, 0), [])
        self.chatted = False
        self.send_chat: Callable[[str], None] | None = None  # set when the table has chat
        self.chat_lines: list[ChatLine] = []
        self.chat_note = ""  # why the last line was not sent
        self.chat = TextArea(
            height=1, multiline=False, prompt=_("chat> "), accept_handler=self._send_chat
        )
        self._home = Window(FormattedTextControl(self._status, focusable=True), height=1)
        if app is not None:
            self.app = app
            # prompt_toolkit reads both on every key and render: the new screen's from now
            app.key_bindings = self._keys()
            app.layout = Layout(self._root(), focused_element=self._home)
            app.invalidate()
            return
        self.app = Application(
            layout=Layout(self._root(), focused_element=self._home),
            key_bindings=self._keys(),
            style=STYLE,
            full_screen=True,
            mouse_support=True,
            input=input,
            output=output,
            # NO_COLOR (no-color.org): no colours at all, whatever the terminal can do
            color_depth=ColorDepth.DEPTH_1_BIT if os.environ.get("NO_COLOR") else None,
        )

    # -- called by the front end after each event -----------------------------------------

    def refresh(self) -> None:
        if len(self.view.deal_ends) > self.deal_ends_seen and self.overlay != "quit":
            self.overlay = "deal_end"
        self.app.invalidate()

    # -- the player's actions --------------------------------------------------------------

    def select(self, index: int) -> None:
        if 0 <= index < len(self.view.hand):
            self.view.selected = index
            self.app.invalidate()

    def play(self, index: int) -> None:
        view = self.view
        if not view.my_turn or not 0 <= index < len(view.hand):
            return
        card = view.hand[index]
        view.selected = index
        if card not in view.legal:
            view.status = _("{card} cannot be played now: follow the suit led.").format(
                card=card_label(card)
            )
        else:
            view.status = ""
            view.choice = None  # answered: no second card until the table asks again
            self.post_move(mv.PlayCard(card))
        self.app.invalidate()

    def claim_redeal(self, claim: bool) -> None:
        offer = self.view.offer
        if offer is not None:  # y / n answer the question about a lost seat first
            self.view.offer = None
            self.post_call(lambda: offer.decision.answer(claim))
            self.app.invalidate()
            return
        if self.view.choice == "redeal":
            self.view.choice, self.view.status = None, ""
            self.post_move(belka_mv.ClaimRedeal() if claim else belka_mv.Ready())
            self.app.invalidate()

    def choose_eggs(self, choice: str) -> None:
        if self.view.choice == "eggs":
            self.view.choice, self.view.status = None, ""
            self.post_move(belka_mv.ChooseEggs(choice))
            self.app.invalidate()

    def close_overlay(self) -> None:
        if self.overlay == "deal_end":
            self.deal_ends_seen = len(self.view.deal_ends)
        self.overlay = None
        self.app.invalidate()

    def toggle(self, overlay: str) -> None:
        if self.overlay == overlay:
            self.close_overlay()
        elif self.overlay != "quit":
            if self.overlay == "deal_end":
                self.deal_ends_seen = len(self.view.deal_ends)
            self.overlay, self.help_scroll = overlay, 0
            self.app.invalidate()

    def ask_quit(self) -> None:
        if self.view.finished or self.overlay == "lobby":
            self.quit()
        else:
            self.overlay = "quit"
            self.app.invalidate()

    def quit(self) -> None:
        self.quit_requested = True
        if self.app.is_running:
            self.app.exit()

    # -- chat -------------------------------------------------------------------------------

    def _send_chat(self, buffer: Any) -> bool:
        text = clean_chat(self.chat.text)
        self.chat_note = ""
        if len(text) > MAX_CHAT_TEXT:
            # kept in the box to be shortened
            self.chat_note = _("Too long: {n} characters (at most {limit}).").format(
                n=len(text), limit=MAX_CHAT_TEXT
            )
            self.app.invalidate()
            return True
        if text and self.view.finished:
            self.chat_note = _("The game is over: its chat is closed.")
        elif text and self.send_chat is not None:
            self.send_chat(text)  # the line comes back through show_chat once sent
        elif text:
            if not self.chatted:
                self.chatted = True
                self.chat_note = _("Nobody else reads this chat: the other seats are bots.")
            me = self.view.me if self.view.me is not None else 0
            self.chat_lines.append(ChatLine(me, self.view.name(me), text, mine=True))
        self.chat.text = ""
        self.app.layout.focus(self._home)
        self.app.invalidate()
        return True

    def show_chat(self, line: ChatLine) -> None:
        """A line of the table's chat (ours included), from the front end."""
        self.chat_lines.append(line)
        del self.chat_lines[:-50]
        # The note stays: sending cleared it, so it is about a later line (one refused
        # while this one was on its way back), which this line must not hide.
        self.app.invalidate()

    def chat_refused(self, refused: ChatDropped, text: str) -> None:
        """The chat did not send ``text``: say why, and give it back to edit or resend."""
        if refused.reason == SLOW_DOWN:
            self.chat_note = _("Slow down: wait {s} s before the next message.").format(
                s=max(1, round(refused.wait))
            )
        elif refused.reason == TOO_LONG:
            self.chat_note = _("Too long: {n} characters (at most {limit}).").format(
                n=len(text), limit=MAX_CHAT_TEXT
            )
        else:
            return
        if not self.chat.text:
            self.chat.text = text
        self.app.invalidate()

    def _chat_panel(self) -> StyleAndTextTuples:
        rows: list[tuple[str, str, int]] = []  # style, text, length of a bold name in front
        for line in self.chat_lines[-CHAT_ROWS:]:
            style = "class:hint" if line.earlier else ""
            head = f"{line.name}:"
            wrapped = textwrap.wrap(f"{head} {line.text}", RIGHT_WIDTH - 1, subsequent_indent="  ")
            rows += [(style, row, len(head) if i == 0 else 0) for i, row in enumerate(wrapped)]
        if self.chat_note:
            rows += [
                ("class:hint", row, 0) for row in textwrap.wrap(self.chat_note, RIGHT_WIDTH - 1)
            ]
        out: StyleAndTextTuples = []
        for style, row, bold in rows[-CHAT_ROWS:]:
            if bold and not style:
                out.append(("class:heading", row[:bold]))
            out.append((style, (row[bold:] if bold and not style else row) + "\n"))
        return out

    def _has_chat(self) -> bool:
        return bool(self.chat_lines or self.chat_note)

    # -- layout ----------------------------------------------------------------------------

    def _root(self) -> AnyContainer:
        main = HSplit(
            [
                Window(FormattedTextControl(self._title), height=1, style="class:title"),
                DynamicContainer(self._middle),
                self._home,
                self.chat,
                Window(FormattedTextControl(self._hints), height=1, style="class:hints"),
            ]
        )
        quit_box = Frame(
            Window(FormattedTextControl(self._quit_text), height=2, width=48),
            title=_("Quit"),
            style="class:dialog",
        )
        screen = FloatContainer(
            main,
            floats=[
                Float(ConditionalContainer(quit_box, Condition(lambda: self.overlay == "quit")))
            ],
        )
        too_small = Window(
            FormattedTextControl(self._too_small), style="class:small", wrap_lines=True
        )
        return DynamicContainer(lambda: too_small if self._is_too_small() else screen)

    def _is_too_small(self) -> bool:
        size = get_app().output.get_size()
        return size.columns < MIN_COLUMNS or size.rows < MIN_ROWS

    def _too_small(self) -> StyleAndTextTuples:
        size = get_app().output.get_size()
        return [
            (
                "",
                _("The terminal is {c}×{r}: too small.").format(c=size.columns, r=size.rows)
                + "\n"
                + _("p2pbelka needs at least {w}×{h}.").format(w=MIN_COLUMNS, h=MIN_ROWS)
                + "\n"
                + _("Make the window larger, or press q to quit."),
            )
        ]

    def _width(self) -> int:
        return get_app().output.get_size().columns

    def _middle(self) -> AnyContainer:
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
        if self.overlay == "deal_end" and self.view.deal_ends:
            end = self.view.deal_ends[-1]
            return self._report(lambda: self._deal_end_page(end), True)
        if self.overlay == "sheet":
            return self._report(self._sheet_page, True)
        return VSplit(
            [
                DynamicContainer(self._left),
                Window(width=1, char="│", style="class:rule"),
                HSplit(
                    [
                        Window(FormattedTextControl(self._score), dont_extend_height=True),
                        Window(FormattedTextControl(self._seats), height=5),
                        ConditionalContainer(
                            HSplit(
                                [
                                    Window(height=1, char="─", style="class:rule"),
                                    Window(
                                        FormattedTextControl(self._chat_panel), height=CHAT_ROWS
                                    ),
                                ]
                            ),
                            Condition(self._has_chat),
                        ),
                        Window(
                            FormattedTextControl(self._log, get_cursor_position=self._log_end),
                            style="class:log",
                        ),
                    ],
                    width=RIGHT_WIDTH,
                ),
            ]
        )

    def _left(self) -> AnyContainer:
        view = self.view
        if self.overlay == "last":
            return HSplit(
                [
                    Window(FormattedTextControl(self._last_trick), height=panels.TABLE_HEIGHT),
                    Window(FormattedTextControl(self._last_trick_footer), height=1),
                    Window(),
                ]
            )
        if view.finished:
            return self._report(self._game_end_page, False)
        return HSplit(
            [
                Window(FormattedTextControl(self._table), height=panels.TABLE_HEIGHT),
                Window(FormattedTextControl(self._info), height=1, style="class:hint"),
                Window(height=1),
                Window(FormattedTextControl(self._hand), height=panels.HAND_HEIGHT),
                Window(),
            ]
        )

    def _report(self, lines: Callable[[], StyleAndTextTuples], more: bool) -> AnyContainer:
        def painted() -> StyleAndTextTuples:
            return red_suits(lines())

        parts: list[AnyContainer] = [Window(FormattedTextControl(painted), wrap_lines=True)]
        if more:
            parts.append(Window(FormattedTextControl(self._continue), height=1))
        return HSplit(parts, style="class:report")

    def _left_width(self) -> int:
        return max(0, self._width() - RIGHT_WIDTH - 1)

    # -- content -----------------------------------------------------------------------------
    # The pages and lines a game draws its own way (ui/belot_app.py overrides them).

    def _deal_end_page(self, end: DealEnd) -> StyleAndTextTuples:
        return reports.deal_end_lines(self.view, end)

    def _sheet_page(self) -> StyleAndTextTuples:
        return reports.score_sheet_lines(self.view)

    def _game_end_page(self) -> StyleAndTextTuples:
        return reports.game_end_lines(self.view)

    def _deal_title(self, end: DealEnd) -> str:
        return reports.summary_title(self.view, end)

    def _title_line(self) -> str:
        return panels.title_line(self.view)

    def _help_text(self) -> str:
        return reports.help_text()

    def _title(self) -> StyleAndTextTuples:
        if self.overlay == "deal_end" and self.view.deal_ends:
            # the page is about the deal that ended, even once the next one is dealt
            return red_suits([("", " " + self._deal_title(self.view.deal_ends[-1]))])
        return red_suits([("", " " + self._title_line())])

    def _table(self) -> StyleAndTextTuples:
        return panels.table_panel(self.view, self._left_width()).fragments()

    def _last_trick(self) -> StyleAndTextTuples:
        trick = self.view.last_trick
        if trick is None:
            return [("class:hint", " " + _("No trick has been taken yet in this deal."))]
        return panels.table_panel(self.view, self._left_width(), trick).fragments()

    def _info(self) -> StyleAndTextTuples:
        return [("", " " + panels.info_line(self.view))]

    def _hand(self) -> StyleAndTextTuples:
        return panels.hand_panel(self.view, self._left_width(), self.select, self.play).fragments()

    def _score(self) -> StyleAndTextTuples:
        return panels.score_lines(self.view, RIGHT_WIDTH)

    def _seats(self) -> StyleAndTextTuples:
        return red_suits(panels.seats_lines(self.view, RIGHT_WIDTH))

    def _log_lines(self) -> list[str]:
        # wrapped here, between words, rather than by the window in mid-word; once per
        # new line said (a render asks several times, and a game says thousands)
        key = (self.view.said, len(self.view.log), id(self.view.log))
        if self._wrapped_log[0] != key:
            lines: list[str] = []
            for entry in self.view.log[-100:]:
                lines += textwrap.wrap(entry, RIGHT_WIDTH - 1, subsequent_indent="  ") or [""]
            self._wrapped_log = (key, lines)
        return self._wrapped_log[1]

    def _log(self) -> StyleAndTextTuples:
        return red_suits([("", "\n".join(self._log_lines()))])

    def _log_end(self) -> Point:
        return Point(0, max(0, len(self._log_lines()) - 1))

    def _help(self) -> StyleAndTextTuples:
        lines = self._help_text().splitlines()
        self.help_scroll = max(0, min(self.help_scroll, len(lines) - 1))
        return [("", "\n".join(" " + line for line in lines[self.help_scroll :]))]

    def _last_trick_footer(self) -> StyleAndTextTuples:
        trick = self.view.last_trick
        if trick is None or trick.winner is None:
            return self._continue()
        heading = _("Last trick, taken by {name}.").format(name=self.view.name(trick.winner))
        return [*red_suits([("class:heading", f" {heading}")]), *self._continue()]

    def _continue(self) -> StyleAndTextTuples:
        return [("class:button", " " + _("[Enter] continue"), on_click(self.close_overlay))]

    def _quit_text(self) -> StyleAndTextTuples:
        return [
            ("", _("Leave the game? The transcript so far is saved.") + "\n"),
            ("class:button", _("[y] leave"), on_click(self.quit)),
            ("", "   "),
            ("class:button", _("[n] stay"), on_click(self.close_overlay)),
        ]

    def _status(self) -> StyleAndTextTuples:
        view = self.view
        if view.offer is not None:
            return [
                ("class:status", view.offer_question(view.offer) + " "),
                ("class:button", _("[y] yes"), on_click(lambda: self.claim_redeal(True))),
                ("", "  "),
                ("class:button", _("[n] no"), on_click(lambda: self.claim_redeal(False))),
            ]
        if view.choice == "redeal":
            return [
                ("class:status", _("Your hand allows a re-deal:") + " "),
                ("class:button", _("[y] claim it"), on_click(lambda: self.claim_redeal(True))),
                ("", "  "),
                (
                    "class:button",
                    _("[n] play this hand"),
                    on_click(lambda: self.claim_redeal(False)),
                ),
            ]
        if view.choice == "eggs":
            return [
                ("class:status", _("After the eggs your pair chooses:") + " "),
                ("class:button", _("[1] +4 points"), on_click(lambda: self.choose_eggs("plus4"))),
                ("", "  "),
                (
                    "class:button",
                    _("[2] the title {title} for them").format(title="Жумыртка"),
                    on_click(lambda: self.choose_eggs("title")),
                ),
            ]
        if view.finished:
            return [("class:status", _("The game has ended. Press q to leave."))]
        if self.overlay in ("deal_end", "sheet"):
            # the next deal may already ask for a card: that waits for this page to close
            return [("class:hint", _("Press Enter to go back to the table."))]
        if view.waiting_for:
            names = ", ".join(view.name(s) for s in view.waiting_for)
            return [("class:status", _("Waiting for {names}…").format(names=names))]
        if view.status:
            return [("class:status", view.status)]
        if view.turn is not None and view.turn != view.me:
            return [("class:hint", _("{name} to play.").format(name=view.name(view.turn)))]
        return [("", "")]

    def _choose_hint(self) -> str:
        return _("←→/1-8 choose")  # eight cards in a Belka hand

    def _hints(self) -> StyleAndTextTuples:
        items = [
            (self._choose_hint(), None),
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
        kb = KeyBindings()
        chatting = has_focus(self.chat)
        quitting = Condition(lambda: self.overlay == "quit")
        helping = Condition(lambda: self.overlay == "help")
        free = ~chatting & ~quitting
        # the LAN screen's lobby comes first and has keys of its own
        in_lobby = Condition(lambda: self.overlay == "lobby")
        playing = free & ~helping & ~in_lobby

        @kb.add("left", filter=playing)
        def _left(event: KeyPressEvent) -> None:
            self.select(self.view.selected - 1)

        @kb.add("right", filter=playing)
        def _right(event: KeyPressEvent) -> None:
            self.select(self.view.selected + 1)

        for digit in "12345678":

            @kb.add(digit, filter=playing)
            def _digit(event: KeyPressEvent) -> None:
                index = int(event.data) - 1
                if self.view.choice == "eggs" and index in (0, 1):
                    self.choose_eggs(EGGS_CHOICES[index])
                else:
                    self.select(index)

        @kb.add("enter", filter=playing)
        def _enter(event: KeyPressEvent) -> None:
            if self.overlay in ("deal_end", "last", "sheet"):
                self.close_overlay()
            else:
                self.play(self.view.selected)

        @kb.add("y", filter=playing)
        def _yes(event: KeyPressEvent) -> None:
            self.claim_redeal(True)

        @kb.add("n", filter=playing)
        def _no(event: KeyPressEvent) -> None:
            self.claim_redeal(False)

        @kb.add("l", filter=playing)
        def _last(event: KeyPressEvent) -> None:
            self.toggle("last")

        @kb.add("s", filter=playing)
        def _sheet(event: KeyPressEvent) -> None:
            self.toggle("sheet")

        @kb.add("?", filter=free & ~in_lobby)
        def _help(event: KeyPressEvent) -> None:
            self.toggle("help")

        @kb.add("up", filter=helping & ~quitting)
        def _up(event: KeyPressEvent) -> None:
            self.help_scroll = max(0, self.help_scroll - 1)

        @kb.add("down", filter=helping & ~quitting)
        def _down(event: KeyPressEvent) -> None:
            self.help_scroll += 1

        @kb.add("escape", filter=~chatting & ~in_lobby, eager=True)
        def _escape(event: KeyPressEvent) -> None:
            self.close_overlay()

        @kb.add("c", filter=playing)
        @kb.add("/", filter=playing)
        def _chat(event: KeyPressEvent) -> None:
            event.app.layout.focus(self.chat)

        @kb.add("escape", filter=chatting, eager=True)
        def _leave_chat(event: KeyPressEvent) -> None:
            self.chat_note = ""
            event.app.layout.focus(self._home)

        @kb.add("q", filter=~chatting & ~quitting)
        @kb.add("c-c")
        @kb.add("c-q")
        def _quit(event: KeyPressEvent) -> None:
            self.ask_quit()

        @kb.add("y", filter=quitting)
        def _leave(event: KeyPressEvent) -> None:
            self.quit()

        @kb.add("n", filter=quitting)
        def _stay(event: KeyPressEvent) -> None:
            self.close_overlay()

        return kb
