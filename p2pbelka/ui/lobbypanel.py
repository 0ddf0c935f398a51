"""The LAN lobby as a part of the table screen, any game's: drawn in front of the table
until the game starts, with its address box and its keys (choose a table, take a seat,
say ready, fill the free seats with bots, change the rules, let joiners in).

What the keys do is the session's (``ui/lan.py``'s ``LanSession``, declared here as
:class:`LobbyActions`); what is drawn is ``ui/lobbyview.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from prompt_toolkit.application.current import get_app
from prompt_toolkit.filters import Condition, Filter, has_focus
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, FormattedTextControl, HSplit, Window
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.utils import get_cwidth
from prompt_toolkit.widgets import TextArea

from p2pbelka.ui.gameui import Key
from p2pbelka.ui.keymap import latin
from p2pbelka.ui.lobbyview import LobbyView, key_hints, lobby_lines
from p2pbelka.ui.words.i18n import _

SCREEN_ROWS = 3
"""Rows of the table screen around the lobby: its title, status and keys lines."""


class LobbyActions(Protocol):
    """What the lobby's keys ask of the session."""

    @property
    def lobby(self) -> LobbyView: ...

    def pick(self, index: int) -> None: ...

    def dial(self, text: str) -> bool: ...

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

    def invalidate(self) -> None: ...


class LobbyPanel:
    """The lobby in front of the table: its lines, its address box and its keys."""

    def __init__(self, session: LobbyActions) -> None:
        self.session = session
        self._back: Callable[[], None] = lambda: None
        self.address = TextArea(
            height=1,
            multiline=False,
            prompt=_("address (host:port)> "),
            accept_handler=self._address_entered,
        )
        self.code = TextArea(
            height=1,
            multiline=False,
            prompt=_("invite code> "),
            accept_handler=self._code_entered,
        )

    @property
    def view(self) -> LobbyView:
        return self.session.lobby

    def _address_entered(self, buffer: Any) -> bool:
        if self.session.dial(self.address.text):
            self._back()
        else:
            self.view.notes.append(_("An address looks like 192.168.1.5:40123."))
        self.session.invalidate()
        return True

    def _code_entered(self, buffer: Any) -> bool:
        code, self.code.text = self.code.text.strip(), ""
        self._back()  # the keys are the lobby's again (r, digits) while the host is tried
        self.session.give_code(code)
        self.session.invalidate()
        return False

    def container(self) -> AnyContainer:
        return HSplit(
            [
                Window(FormattedTextControl(self._lines), wrap_lines=True),
                ConditionalContainer(self.address, has_focus(self.address)),
                ConditionalContainer(self.code, has_focus(self.code)),
            ]
        )

    def _lines(self) -> StyleAndTextTuples:
        """The lobby fitted to the rows it has: the screen's, less its title, status and
        keys lines, and the box being typed in."""
        size = get_app().output.get_size()
        boxes = has_focus(self.address)() or has_focus(self.code)()
        return lobby_lines(self.view, size.columns, max(1, size.rows - SCREEN_ROWS - boxes))

    def hints(self) -> StyleAndTextTuples:
        """The keys that work now, as many as the line holds (q, last, always)."""
        keys = key_hints(self.view)
        width = get_app().output.get_size().columns - 1
        while len(keys) > 1 and get_cwidth("  ".join(keys)) > width:
            keys = [*keys[:-2], keys[-1]]
        return [("", " " + "  ".join(keys))]

    def keys(self, in_lobby: Filter, back: Callable[[], None]) -> list[Key]:
        """The lobby's keys while it is shown; ``back`` gives the keys back to the screen
        (the address box closes)."""
        self._back = back
        session, view = self.session, self.view
        # a closed lobby (refused, or the host left) takes no key but q
        typing = has_focus(self.address) | has_focus(self.code)
        lobby = in_lobby & ~typing & Condition(lambda: not view.closed)
        choosing = lobby & Condition(lambda: view.listening and not view.seated)
        seated = lobby & Condition(lambda: view.seated)
        hosting = seated & Condition(lambda: view.role == "host")
        asking = hosting & Condition(lambda: bool(view.asking))
        editing = hosting & Condition(lambda: view.editing)
        joining = seated & Condition(lambda: view.role == "join")
        # reaching a host chosen on the list: q goes back to the list, not out
        reaching = lobby & Condition(lambda: view.from_list and view.state is None)

        def up(event: KeyPressEvent) -> None:
            view.chosen = max(0, view.chosen - 1)

        def down(event: KeyPressEvent) -> None:
            view.chosen = min(max(0, len(view.tables) - 1), view.chosen + 1)

        def digit(event: KeyPressEvent) -> None:
            n = int(latin(event.data))
            if view.seated:
                session.take_seat(n)  # seats as the list numbers them (0 is the host's)
            else:
                view.chosen = n - 1
                session.pick(n - 1)

        def rules(event: KeyPressEvent) -> None:
            view.editing = not view.editing

        def rules_done(event: KeyPressEvent) -> None:
            view.editing = False

        def show_rules(event: KeyPressEvent) -> None:
            view.rules_open = not view.rules_open

        def back_list(event: KeyPressEvent) -> None:
            session.back_to_list()

        def leave_code(event: KeyPressEvent) -> None:
            back()
            session.give_code(None)

        def remove(event: KeyPressEvent) -> None:
            session.remove_seat(int(latin(event.key_sequence[-1].data)))

        def shut(event: KeyPressEvent) -> None:
            session.shut_out(int(latin(event.key_sequence[-1].data)))

        coded = hosting & Condition(lambda: bool(view.invite))

        return [
            Key(("up",), choosing, up),
            Key(("down",), choosing, down),
            Key(("enter",), choosing, lambda e: session.pick(view.chosen)),
            Key(("a",), choosing, lambda e: e.app.layout.focus(self.address)),
            Key(("escape",), has_focus(self.address), lambda e: back(), eager=True),
            Key(("escape",), has_focus(self.code), leave_code, eager=True),
            # a q typed in a box is a letter, not the table's q that leaves
            Key(("q",), typing, lambda e: e.current_buffer.insert_text(e.data)),
            Key(("q",), reaching & Condition(lambda: not view.code_asked), back_list),
            Key(tuple("123456789"), lobby, digit),
            Key(("r",), seated, lambda e: session.toggle_ready()),
            Key(("b",), seated, lambda e: session.fill_with_bots()),
            Key(("o",), hosting, rules),
            Key(("o",), joining, show_rules),
            Key(("escape",), editing, rules_done, eager=True),
            Key(("up",), editing, lambda e: session.move_rule(-1)),
            Key(("down",), editing, lambda e: session.move_rule(1)),
            Key(("left",), editing, lambda e: session.change_rule(-1)),
            Key(("right", "enter", "space"), editing, lambda e: session.change_rule(1)),
            Key(("y",), asking, lambda e: session.decide(True)),
            Key(("n",), asking, lambda e: session.decide(False)),
            Key(tuple(("x", d) for d in "123"), hosting, remove),
            Key(("c",), coded, lambda e: session.new_code()),
            Key(tuple(("s", d) for d in "1234"), coded, shut),
        ]
