"""The LAN lobby as a part of the table screen, any game's: drawn in front of the table
until the game starts, with its address box and its keys (choose a table, take a seat,
say ready, fill the free seats with bots, change the rules, let joiners in).

What the keys do is the session's (``ui/lan.py``'s ``LanSession``, declared here as
:class:`LobbyActions`); what is drawn is ``ui/lobbyview.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from prompt_toolkit.filters import Condition, Filter, has_focus
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyPressEvent
from prompt_toolkit.layout import ConditionalContainer, FormattedTextControl, HSplit, Window
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.widgets import TextArea

from p2pbelka.ui.gameui import Key
from p2pbelka.ui.keymap import latin
from p2pbelka.ui.lobbyview import LobbyView, lobby_keys, lobby_lines
from p2pbelka.ui.words.i18n import _


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

    def container(self) -> AnyContainer:
        return HSplit(
            [
                Window(FormattedTextControl(lambda: lobby_lines(self.view)), wrap_lines=True),
                ConditionalContainer(self.address, has_focus(self.address)),
            ]
        )

    def hints(self) -> StyleAndTextTuples:
        return [("", " " + lobby_keys(self.view))]

    def keys(self, in_lobby: Filter, back: Callable[[], None]) -> list[Key]:
        """The lobby's keys while it is shown; ``back`` gives the keys back to the screen
        (the address box closes)."""
        self._back = back
        session, view = self.session, self.view
        # a closed lobby (refused, or the host left) takes no key but q
        lobby = in_lobby & ~has_focus(self.address) & Condition(lambda: not view.closed)
        choosing = lobby & Condition(lambda: view.listening and not view.seated)
        seated = lobby & Condition(lambda: view.seated)
        hosting = seated & Condition(lambda: view.role == "host")
        asking = hosting & Condition(lambda: bool(view.asking))
        editing = hosting & Condition(lambda: view.editing)

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
            Key(tuple("123456789"), lobby, digit),
            Key(("r",), seated, lambda e: session.toggle_ready()),
            Key(("b",), seated, lambda e: session.fill_with_bots()),
            Key(("o",), hosting, rules),
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
