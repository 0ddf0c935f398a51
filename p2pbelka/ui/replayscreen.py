"""A verified game shown again at the table, card by card, with every hand open: the
position and the screen, any game's.

The replay is drawn from the verifier's per-deal summaries (hands as dealt,
the tricks, the scores) and its faults, never from a live table.  A position
is a deal and how many of its cards have been played; the keys move it.  A game's
replay (``ui/games/<game>/replay.py``, registered as ``GameUI.replay``) subclasses
:class:`Replay` with what it reads off its own summaries and how it draws them; the
plain drawing here is what a game without one gets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import FormattedTextControl, HSplit, Layout, VSplit, Window
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import ColorDepth, Output

from p2pbelka.cards import Card
from p2pbelka.rules.common.summary import DealSummary, TrickSummary
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.verify import VerifiedDeal
from p2pbelka.ui import linewrap, panels, plainpages
from p2pbelka.ui.canvas import Canvas
from p2pbelka.ui.keymap import latin, same_place
from p2pbelka.ui.plainchars import screen_output
from p2pbelka.ui.style import STYLE
from p2pbelka.ui.toosmall import guarded
from p2pbelka.ui.view import TableView, TrickView
from p2pbelka.ui.words.cardnames import card_label, red_suits
from p2pbelka.ui.words.i18n import _

RIGHT_WIDTH = 34


@dataclass
class Replay:
    """Where the replay stands: a deal, and how many of its cards are on the table."""

    deals: list[VerifiedDeal]
    names: list[str]
    verdict: str = ""
    faults: list[ev.Fault] = field(default_factory=list)
    seats: int = 4  # the players a trick goes round
    deal: int = 0
    played: int = 0
    typed: str = ""  # a deal number being typed, for the jump
    changes: list[SeatChanged] = field(default_factory=list)
    """Every seat that changed hands (``follow``): ``names`` are those of the deal shown."""
    first_names: list[str] = field(default_factory=list)

    # -- the position ---------------------------------------------------------------

    @property
    def summary(self) -> DealSummary:
        return self.deals[self.deal].summary

    def tricks(self) -> tuple[TrickSummary, ...]:
        """This deal's tricks (a game's replay reads them off its own summary)."""
        return tuple(getattr(self.summary, "tricks", ()))

    @property
    def plays(self) -> list[tuple[int, Card]]:
        """Every card of this deal in order of play, with who played it."""
        out = []
        for trick in self.tricks():
            for i, card in enumerate(trick.cards):
                out.append(((trick.leader + i) % self.seats, card))
        return out

    def follow(self, changes: Sequence[SeatChanged]) -> None:
        """Name each deal's players as they were: a bot (or a player back) that took a
        seat from a deal on is named at that seat from that deal on."""
        self.first_names = self.first_names or list(self.names)
        self.changes = list(changes)
        self._name_players()

    def _name_players(self) -> None:
        if not self.changes or not self.deals:
            return
        names = list(self.first_names)
        deal_id = self.deals[self.deal].deal_id
        for change in self.changes:
            if change.from_deal <= deal_id and 0 <= change.seat < len(names):
                names[change.seat] = change.name
        self.names[:] = names

    def step(self, by: int) -> None:
        """Forward or back by ``by`` cards, across deals at either end."""
        target = self.played + by
        while target > len(self.plays) and self.deal + 1 < len(self.deals):
            target -= len(self.plays) + 1
            self.deal += 1
        while target < 0 and self.deal > 0:
            self.deal -= 1
            target += len(self.plays) + 1
        self.played = max(0, min(target, len(self.plays)))
        self._name_players()

    def trick_step(self, by: int) -> None:
        """To the end of the next trick (or the start of this one, going back)."""
        n = self.seats
        if by > 0:
            self.step(n - self.played % n if self.played % n else n)
        else:
            self.step(-(self.played % n or n))

    def jump(self, deal: int) -> None:
        """To the start of ``deal`` (counted from 0), kept within the game."""
        self.deal = max(0, min(deal, len(self.deals) - 1))
        self.played = 0
        self._name_players()

    def trick(self) -> TrickView | None:
        """The trick on the table: the cards of the one in progress, or the last one
        complete (with its winner) right after its fourth card."""
        if self.played == 0:
            return None
        n = self.seats
        index = (self.played - 1) // n
        trick = self.tricks()[index]
        cards = list(trick.cards[: self.played - n * index])
        winner = trick.winner if len(cards) == n else None
        return TrickView(trick.leader, cards, winner, n)

    def hands(self) -> list[list[Card]]:
        """Each seat's cards still in hand, in the order the game's view sorts them."""
        played = {card for _seat, card in self.plays[: self.played]}
        view = self.view()
        return [
            view.sorted_hand([c for c in hand if c not in played]) for hand in self.summary.hands
        ]

    def deal_faults(self) -> tuple[ev.Fault, ...]:
        deal_id = self.deals[self.deal].deal_id
        return tuple(f for f in self.faults if f.deal == deal_id)

    def new_view(self) -> TableView:
        """An empty view of the game's own kind."""
        return TableView(names=list(self.names), players=self.seats)

    def view(self) -> TableView:
        """A table view of this position, for the table panel."""
        summary = self.summary
        trick = self.trick()
        view = self.new_view()
        view.dealer = summary.dealer
        view.deal_number = summary.number
        view.trick = trick
        if trick is not None and trick.winner is None:
            view.turn = (trick.leader + len(trick.cards)) % self.seats
        elif self.played < len(self.plays):
            view.turn = self.plays[self.played][0]
        return view

    # -- what is drawn (a game's replay draws its own) ------------------------------------

    def title(self) -> str:
        return " · ".join(
            [
                _("p2pbelka replay"),
                _("deal {n} of {m}").format(n=self.deal + 1, m=len(self.deals)),
            ]
        )

    def table_lines(self, width: int) -> StyleAndTextTuples:
        """The trick on the table, its cards in a row, the leader's first."""
        trick = self.trick()
        canvas = Canvas(width, panels.TABLE_HEIGHT)
        if trick is not None:
            for i, card in enumerate(trick.cards):
                x = 2 + i * (panels.CARD_WIDTH + 1)
                canvas.blit(4, x, panels.card_box(card))
        return canvas.fragments()

    def hands_lines(self, width: int) -> StyleAndTextTuples:
        return hands_lines(self, width)

    def side_lines(self) -> StyleAndTextTuples:
        """The deal, the audit's verdict on it, and on the whole game."""
        out: StyleAndTextTuples = [
            ("class:heading", _("Deal {n}").format(n=self.summary.number + 1) + "\n"),
            ("", self.summary.line() + "\n"),
        ]
        return wrapped([*out, *verdict_lines(self)], RIGHT_WIDTH - 1)


def verdict_lines(replay: Replay) -> StyleAndTextTuples:
    """The audit's word on the deal, then on the whole game."""
    style, text = plainpages.verdict(replay.summary, replay.deal_faults())
    return [
        (style, text + "\n"),
        ("", "\n"),
        ("class:heading", _("The whole game") + "\n"),
        ("class:hint", replay.verdict + "\n"),
    ]


def hands_lines(replay: Replay, width: int) -> StyleAndTextTuples:
    """Every hand, open, each seat's remaining cards on its line."""
    view = replay.view()
    out: StyleAndTextTuples = [("class:heading", _("Hands") + "\n")]
    for seat, hand in enumerate(replay.hands()):
        mark = "▶" if view.turn == seat else " "
        name = view.name(seat).ljust(15)
        cards = [card_label(c).ljust(3) for c in hand]
        out.append(("class:seat.turn" if view.turn == seat else "", f"{mark}{name}"))
        out.append(("", hand_rows(cards, 16, width) + "\n"))
    return out


def hand_rows(cards: list[str], left: int, width: int) -> str:
    """A hand after its seat's name (``left`` columns): as many cards a row as fit,
    the rest on rows under them, never a card cut from its suit."""
    step = max((linewrap.cells(card) for card in cards), default=1) + 1
    per_row = max(1, (width - left + 1) // step)
    rows = [" ".join(cards[i : i + per_row]) for i in range(0, len(cards), per_row)]
    return ("\n" + " " * left).join(rows)


def wrapped(fragments: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    """Each line wrapped between words (a window would cut words in the middle)."""
    out: StyleAndTextTuples = []
    for style, text, *_rest in fragments:
        lines = text.split("\n")
        for i, line in enumerate(lines):
            parts = linewrap.wrap(line, width, indent=" ")
            end = "\n" if i < len(lines) - 1 else ""
            out.append((style, "\n".join(parts) + end))
    return out


def hint_line(replay: Replay) -> str:
    if replay.typed:
        return " " + _("go to deal {n}: Enter").format(n=replay.typed)
    return " " + _("←→ card  ↑↓ trick  PgUp/PgDn deal  number+Enter go to deal  q quit")


class ReplayScreen:
    """The replay on the terminal: the table, the open hands, the deal's verdict."""

    def __init__(
        self, replay: Replay, *, input: Input | None = None, output: Output | None = None
    ) -> None:
        import os

        self.replay = replay
        self.interrupted = False
        self.app: Application[None] = Application(
            layout=Layout(guarded(self._root())),
            key_bindings=self._keys(),
            style=STYLE,
            full_screen=True,
            input=input,
            output=screen_output(output),  # plain characters on a terminal not UTF-8
            color_depth=ColorDepth.DEPTH_1_BIT if os.environ.get("NO_COLOR") else None,
        )

    def _width(self) -> int:
        return max(0, get_app().output.get_size().columns - RIGHT_WIDTH - 1)

    # what a game draws its own way (its Replay's)

    def _title(self) -> str:
        return self.replay.title()

    def _title_rows(self) -> StyleAndTextTuples:
        return linewrap.rows(self._title(), get_app().output.get_size().columns)

    def _title_rows_count(self) -> int:
        return 1 + sum(fragment[1].count("\n") for fragment in self._title_rows())

    def _table(self) -> StyleAndTextTuples:
        return self.replay.table_lines(self._width())

    def _hand_rows(self) -> int:
        return 1 + sum(fragment[1].count("\n") for fragment in self._hands())

    def _hands(self) -> StyleAndTextTuples:
        out = self.replay.hands_lines(self._width())
        trick = self.replay.view().trick
        if trick is not None and trick.winner is not None:
            # under the hands, not between the cards, where a long name covered a frame
            if out and not out[-1][1].endswith("\n"):
                out = [*out, ("", "\n")]
            taken = _("{name} takes it").format(name=self.replay.view().name(trick.winner))
            out = [*out, ("class:hint", " " + taken)]
        return out

    def _side(self) -> StyleAndTextTuples:
        return self.replay.side_lines()

    def _root(self) -> HSplit:
        def text(make: Any) -> FormattedTextControl:
            return FormattedTextControl(lambda: red_suits(make()))

        left = HSplit(
            [
                Window(FormattedTextControl(self._table), height=panels.TABLE_HEIGHT),
                Window(
                    text(self._hands), height=lambda: Dimension(min=1, preferred=self._hand_rows())
                ),
                Window(),
            ]
        )
        return HSplit(
            [
                Window(
                    text(self._title_rows),
                    height=lambda: Dimension(min=1, max=2, preferred=self._title_rows_count()),
                    style="class:title",
                ),
                VSplit(
                    [
                        left,
                        Window(width=1, char="│", style="class:rule"),
                        Window(text(self._side), width=RIGHT_WIDTH, wrap_lines=True),
                    ]
                ),
                Window(
                    FormattedTextControl(lambda: hint_line(self.replay)),
                    height=1,
                    style="class:hints",
                ),
            ]
        )

    def _keys(self) -> KeyBindings:
        kb = KeyBindings()
        replay = self.replay
        moves = {
            "right": lambda: replay.step(1),
            " ": lambda: replay.step(1),
            "left": lambda: replay.step(-1),
            "down": lambda: replay.trick_step(1),
            "up": lambda: replay.trick_step(-1),
            "pagedown": lambda: replay.jump(replay.deal + 1),
            "]": lambda: replay.jump(replay.deal + 1),
            "pageup": lambda: replay.jump(replay.deal - 1),
            "[": lambda: replay.jump(replay.deal - 1),
            "home": lambda: replay.jump(replay.deal),
        }
        for key, move in moves.items():

            def _move(event: KeyPressEvent, move: Any = move) -> None:
                replay.typed = ""
                move()

            for typed in (key, *same_place(key)):  # [ ] at their place on any layout
                kb.add(typed)(_move)

        def _digit(event: KeyPressEvent) -> None:
            replay.typed = (replay.typed + latin(event.data))[-4:]

        for digit in "0123456789":
            for typed in (digit, *same_place(digit)):
                kb.add(typed)(_digit)

        @kb.add("enter")
        def _go(event: KeyPressEvent) -> None:
            if replay.typed:
                replay.jump(int(replay.typed) - 1)
                replay.typed = ""

        @kb.add("backspace")
        def _erase(event: KeyPressEvent) -> None:
            replay.typed = replay.typed[:-1]

        @kb.add("q")
        @kb.add(*same_place("q"))
        @kb.add("escape", eager=True)
        def _quit(event: KeyPressEvent) -> None:
            event.app.exit()

        @kb.add("c-c")
        def _interrupt(event: KeyPressEvent) -> None:
            self.interrupted = True  # the program ends with 130, as ``--help`` says
            event.app.exit()

        @kb.add("c-l")
        def _redraw(event: KeyPressEvent) -> None:
            event.app.renderer.clear()
            event.app.invalidate()

        return kb
