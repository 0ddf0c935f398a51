"""The table's keys, any game's, as data (:class:`~p2pbelka.ui.gameui.Key`): choosing and
playing a card, the overlays, scrolling a page, the chat box, answering the question
about a lost seat, and quitting.  A game's keys come after these and win where both
apply (``GameUI.keys``)."""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.filters import Condition, has_focus
from prompt_toolkit.key_binding import KeyPressEvent
from prompt_toolkit.widgets import TextArea

from p2pbelka.ui.gameui import Key, KeyContext
from p2pbelka.ui.keymap import latin
from p2pbelka.ui.pageoverlay import Pages
from p2pbelka.ui.view import TableView

PAGES = ("deal_end", "sheet")


class TableScreen(Protocol):
    """What the keys act on (``ui/app.py``'s screen)."""

    overlay: str | None
    help_scroll: int
    help_bottom: int  # the help page's scroll with its last line at the bottom
    chat_note: str

    @property
    def view(self) -> TableView: ...

    @property
    def chat(self) -> TextArea: ...

    @property
    def pages(self) -> Pages: ...

    def select(self, index: int) -> None: ...

    def play(self, index: int) -> None: ...

    def answer_offer(self, yes: bool) -> bool: ...

    def asks_over_a_page(self) -> bool: ...

    def toggle(self, overlay: str) -> None: ...

    def close_overlay(self) -> None: ...

    def focus_table(self) -> None: ...

    def open_chat(self) -> None: ...

    def ask_quit(self) -> None: ...

    def interrupt(self) -> None: ...

    def quit(self) -> None: ...

    def redraw(self) -> None: ...

    def invalidate(self) -> None: ...


def context(screen: TableScreen) -> KeyContext:
    chatting = has_focus(screen.chat)
    quitting = Condition(lambda: screen.overlay == "quit")
    helping = Condition(lambda: screen.overlay == "help")
    in_lobby = Condition(lambda: screen.overlay == "lobby")
    return KeyContext(
        chatting=chatting,
        at_table=~chatting & Condition(lambda: screen.overlay in (None, "last")),
        paging=~chatting
        & Condition(
            lambda: screen.overlay in PAGES or (screen.overlay is None and screen.view.finished)
        ),
        playing=~chatting & ~quitting & ~helping & ~in_lobby,
    )


def table_keys(screen: TableScreen, when: KeyContext) -> list[Key]:
    chatting, playing = when.chatting, when.playing
    quitting = Condition(lambda: screen.overlay == "quit")
    helping = Condition(lambda: screen.overlay == "help") & ~quitting
    in_lobby = Condition(lambda: screen.overlay == "lobby")
    # y and n answer a question about a seat over the help page too (it is asked there)
    answering = playing | (helping & Condition(screen.asks_over_a_page))

    def enter(event: KeyPressEvent) -> None:
        if screen.overlay in (*PAGES, "last"):
            screen.close_overlay()
        else:
            screen.play(screen.view.selected)

    def help_scroll(by: int) -> None:
        screen.help_scroll = max(0, min(screen.help_scroll + by, screen.help_bottom))

    def leave_chat(event: KeyPressEvent) -> None:
        screen.chat_note = ""
        screen.focus_table()

    def scroll(by: int) -> Key:
        def do(event: KeyPressEvent) -> None:
            screen.pages.by(by)
            screen.invalidate()

        keys = {-1: ("up",), 1: ("down",), -10: ("pageup",), 10: ("pagedown",)}[by]
        return Key(keys, when.paging, do)

    return [
        Key(("left",), playing, lambda e: screen.select(screen.view.selected - 1)),
        Key(("right",), playing, lambda e: screen.select(screen.view.selected + 1)),
        Key(tuple("123456789"), playing, lambda e: screen.select(int(latin(e.data)) - 1)),
        Key(("enter",), playing, enter),
        Key(("y",), answering, lambda e: _ignore(screen.answer_offer(True))),
        Key(("n",), answering, lambda e: _ignore(screen.answer_offer(False))),
        Key(("l",), playing, lambda e: screen.toggle("last")),
        Key(("s",), playing, lambda e: screen.toggle("sheet")),
        Key(("?",), ~chatting & ~quitting & ~in_lobby, lambda e: screen.toggle("help")),
        Key(("up",), helping, lambda e: help_scroll(-1)),
        Key(("down",), helping, lambda e: help_scroll(1)),
        *(scroll(by) for by in (-1, 1, -10, 10)),
        Key(("escape",), ~chatting & ~in_lobby, lambda e: screen.close_overlay(), eager=True),
        Key(("c", "/"), playing, lambda e: screen.open_chat()),
        Key(("escape",), chatting, leave_chat, eager=True),
        Key(("q",), ~chatting & ~quitting, lambda e: screen.ask_quit()),
        Key(("c-q",), True, lambda e: screen.ask_quit()),
        Key(("c-c",), True, lambda e: screen.interrupt()),
        Key(("c-l",), True, lambda e: screen.redraw()),
        Key(("y",), quitting, lambda e: screen.quit()),
        Key(("n",), quitting, lambda e: screen.close_overlay()),
    ]


def _ignore(value: object) -> None:
    return None
