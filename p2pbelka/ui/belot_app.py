"""The Belot table screen: Belka's screen with Belot's drawing, prompts and keys.

Everything the two games share (the layout, the log, chat, the last trick, the
quit dialog, the pages after a deal) is :class:`~p2pbelka.ui.app.TableScreen`'s;
this draws the two or three seats, the stock and the turned card, and asks
for what only Belot asks: the calls, the declarations at one's lead (``d``),
the claim of 1001 (``w``).  Long pages (nine tricks, a score sheet of many
deals) scroll with ↑/↓.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from prompt_toolkit.application import Application, get_app
from prompt_toolkit.filters import Condition, has_focus
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import (
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.output import Output
from prompt_toolkit.widgets import Frame

from p2pbelka.cards import SUIT_LETTERS, Suit
from p2pbelka.rules.belot import moves as belot_mv
from p2pbelka.rules.belot.deal import PASS, PLAY
from p2pbelka.table import moves as mv
from p2pbelka.ui import belot_panels, belot_reports, panels
from p2pbelka.ui.app import RIGHT_WIDTH, TableScreen
from p2pbelka.ui.belot_view import BelotView
from p2pbelka.ui.i18n import _
from p2pbelka.ui.panels import on_click
from p2pbelka.ui.text import card_label, red_suits, suit_name
from p2pbelka.ui.view import DealEnd

DECLARE_WIDTH = 60


class BelotScreen(TableScreen):
    """One seat's Belot table on the terminal."""

    view: BelotView

    def __init__(
        self,
        view: BelotView,
        post_move: Callable[[mv.Move], None],
        *,
        input: Input | None = None,
        output: Output | None = None,
        app: Application[None] | None = None,
    ) -> None:
        self.page_scroll = 0
        self.page_overflows = False
        self._page: tuple[object, ...] = ()
        self.declare_index = 0
        super().__init__(view, post_move, input=input, output=output, app=app)

    # -- the player's actions ------------------------------------------------------------

    def refresh(self) -> None:
        if self.overlay == "declare" and not self.view.may_declare:
            self.overlay = None
        super().refresh()

    def other_suits(self) -> list[str]:
        """Round 2's suits, as numbered on screen (the calls the rules offer, in order)."""
        return [c for c in self.view.offered_calls if c in SUIT_LETTERS]

    def bid(self, call: str) -> None:
        view = self.view
        if view.bidding and call in view.offered_calls:
            view.choice, view.status = None, ""
            self.post_move(belot_mv.Bid(call))
            self.app.invalidate()

    def open_declarations(self) -> None:
        if self.view.may_declare and self.overlay in (None, "last"):
            self.overlay, self.declare_index = "declare", 0
            self.app.invalidate()

    def declare(self, index: int) -> None:
        view = self.view
        if view.may_declare and 0 <= index < len(view.offered):
            cards = view.offered[index]
            # answered: nothing more until the table asks again (or refuses, and the
            # same choice is open again)
            view.choice, view.status = None, ""
            self.overlay = None
            self.post_move(belot_mv.Declare(cards))
            self.app.invalidate()

    def claim(self) -> None:
        view = self.view
        if view.my_turn and view.claim_offered:
            view.choice, view.status = None, ""
            self.post_move(belot_mv.Claim1001())
            self.app.invalidate()

    def play(self, index: int) -> None:
        view = self.view
        if view.my_turn and 0 <= index < len(view.hand) and view.hand[index] not in view.legal:
            view.selected = index
            view.status = _(
                "{card} cannot be played now: follow the suit led, and beat a led trump."
            ).format(card=card_label(view.hand[index]))
            self.app.invalidate()
            return
        super().play(index)

    def scroll(self, by: int) -> None:
        self.page_scroll = max(0, self.page_scroll + by)
        self.app.invalidate()

    # -- layout ----------------------------------------------------------------------------

    def _root(self) -> AnyContainer:
        box = Frame(
            Window(
                FormattedTextControl(self._declare_text),
                height=lambda: len(self.view.offered) + 1,
                width=DECLARE_WIDTH,
            ),
            title=_("Declare"),
            style="class:dialog",
        )
        showing = Condition(lambda: self.overlay == "declare" and not self._is_too_small())
        return FloatContainer(super()._root(), floats=[Float(ConditionalContainer(box, showing))])

    def _left(self) -> AnyContainer:
        if self.overlay == "last" or self.view.finished:
            return super()._left()
        return HSplit(
            [
                Window(FormattedTextControl(self._table), height=panels.TABLE_HEIGHT),
                Window(FormattedTextControl(self._info), height=1, style="class:hint"),
                Window(FormattedTextControl(self._declared), height=1),
                Window(FormattedTextControl(self._hand), height=panels.HAND_HEIGHT),
                Window(),
            ]
        )

    def _report(self, lines: Callable[[], StyleAndTextTuples], more: bool) -> AnyContainer:
        """A page that scrolls when it is longer than the screen."""

        def painted() -> StyleAndTextTuples:
            page = (self.overlay, len(self.view.deal_ends), self.view.finished)
            if page != self._page:
                self._page, self.page_scroll = page, 0
            rows = list(split_lines(red_suits(lines())))
            while rows and not "".join(f[1] for f in rows[-1]).strip():
                rows.pop()
            height = max(1, get_app().output.get_size().rows - 4 - (1 if more else 0))
            self.page_overflows = len(rows) > height
            self.page_scroll = max(0, min(self.page_scroll, len(rows) - height))
            out: StyleAndTextTuples = []
            for i, row in enumerate(rows[self.page_scroll : self.page_scroll + height]):
                if i:
                    out.append(("", "\n"))
                out += row
            return out

        parts: list[AnyContainer] = [Window(FormattedTextControl(painted))]
        if more:
            parts.append(Window(FormattedTextControl(self._continue), height=1))
        return HSplit(parts, style="class:report")

    # -- content -----------------------------------------------------------------------------

    def _deal_end_page(self, end: DealEnd) -> StyleAndTextTuples:
        return belot_reports.deal_end_lines(self.view, end, self._width())

    def _sheet_page(self) -> StyleAndTextTuples:
        return belot_reports.score_sheet_lines(self.view)

    def _game_end_page(self) -> StyleAndTextTuples:
        return belot_reports.game_end_lines(self.view)

    def _deal_title(self, end: DealEnd) -> str:
        return belot_reports.summary_title(self.view, end)

    def _title_line(self) -> str:
        return belot_panels.title_line(self.view)

    def _help_text(self) -> str:
        return belot_reports.help_text()

    def _table(self) -> StyleAndTextTuples:
        return red_suits(belot_panels.table_panel(self.view, self._left_width()).fragments())

    def _last_trick(self) -> StyleAndTextTuples:
        trick = self.view.last_trick
        if trick is None:
            return [("class:hint", " " + _("No trick has been taken yet in this deal."))]
        return belot_panels.table_panel(self.view, self._left_width(), trick).fragments()

    def _info(self) -> StyleAndTextTuples:
        return red_suits([("", " " + belot_panels.info_line(self.view))])

    def _declared(self) -> StyleAndTextTuples:
        return red_suits(belot_panels.declared_line(self.view, self._left_width()))

    def _score(self) -> StyleAndTextTuples:
        return belot_panels.score_lines(self.view, RIGHT_WIDTH)

    def _seats(self) -> StyleAndTextTuples:
        return red_suits(belot_panels.seats_lines(self.view, RIGHT_WIDTH))

    def _continue(self) -> StyleAndTextTuples:
        out = super()._continue()
        if self.page_overflows:
            out.append(("class:hint", "  " + _("↑/↓ scroll")))
        return out

    def _declare_text(self) -> StyleAndTextTuples:
        view = self.view
        out: StyleAndTextTuples = []
        for i, cards in enumerate(view.offered):
            style = "class:button" if i == self.declare_index else ""
            line = f"[{i + 1}] {belot_panels.combination_line(view, cards)}"
            out.append((style, line, on_click(partial(self.declare, i))))
            out.append(("", "\n"))
        out.append(("", _("Enter declares the chosen one; Esc goes back.")))
        return red_suits(out)

    def _status(self) -> StyleAndTextTuples:
        view = self.view
        if view.offer is not None or view.finished or self.overlay in ("deal_end", "sheet"):
            # a bot for a lost seat is asked first, even in the middle of the calls
            return super()._status()
        if view.bidding and view.turned is not None:
            return self._bid_prompt()
        if view.my_turn and (view.offered or view.claim_offered) and not view.status:
            return self._lead_prompt()
        if (
            view.trump is None
            and view.turned is not None
            and view.turn is not None
            and view.turn != view.me
            and not view.waiting_for
        ):
            return [("class:hint", _("{name} to call.").format(name=view.name(view.turn)))]
        return super()._status()

    def _bid_prompt(self) -> StyleAndTextTuples:
        view = self.view
        assert view.turned is not None
        out: StyleAndTextTuples = [("class:status", _("Your call:") + " ")]
        if PLAY in view.offered_calls:
            label = _("[y] play {suit}").format(suit=suit_name(view.turned.suit))
            out.append(("class:button", label, on_click(lambda: self.bid(PLAY))))
            out.append(("", "  "))
        for i, letter in enumerate(self.other_suits()):
            label = f"[{i + 1}] {suit_name(Suit.parse(letter))}"
            out.append(("class:button", label, on_click(partial(self.bid, letter))))
            out.append(("", "  "))
        out.append(("class:button", _("[n] pass"), on_click(lambda: self.bid(PASS))))
        return red_suits(out)

    def _lead_prompt(self) -> StyleAndTextTuples:
        view = self.view
        out: StyleAndTextTuples = [("class:status", _("Your lead:") + " ")]
        if view.claim_offered:
            label = _("[w] claim 1001 ({total})").format(total=view.claim_total())
            out.append(("class:button", label, on_click(self.claim)))
            out.append(("", "  "))
        if view.offered:
            label = _("[d] declare ({n} possible)").format(n=len(view.offered))
            out.append(("class:button", label, on_click(self.open_declarations)))
            out.append(("", "  "))
        out.append(("class:status", _("or play a card.")))
        return out

    def _choose_hint(self) -> str:
        return _("←→/1-9 choose")  # nine cards in a Belot hand

    # -- keys ---------------------------------------------------------------------------------

    def _keys(self) -> KeyBindingsBase:
        kb = KeyBindings()
        chatting = has_focus(self.chat)
        at_table = ~chatting & Condition(lambda: self.overlay in (None, "last"))
        # y and n answer the question about a lost seat first (TableScreen's keys)
        bidding = at_table & Condition(lambda: self.view.bidding and self.view.offer is None)
        leading = at_table & Condition(lambda: self.view.my_turn)
        declaring = ~chatting & Condition(lambda: self.overlay == "declare")
        paging = ~chatting & Condition(
            lambda: (
                self.overlay in ("deal_end", "sheet")
                or (self.overlay is None and self.view.finished)
            )
        )

        @kb.add("y", filter=bidding)
        @kb.add("p", filter=bidding)
        def _play(event: KeyPressEvent) -> None:
            self.bid(PLAY)

        @kb.add("n", filter=bidding)
        @kb.add("0", filter=bidding)
        def _pass(event: KeyPressEvent) -> None:
            self.bid(PASS)

        for digit in "123":

            @kb.add(digit, filter=bidding)
            def _suit(event: KeyPressEvent) -> None:
                suits = self.other_suits()
                index = int(event.data) - 1
                if index < len(suits):
                    self.bid(suits[index])

        @kb.add("9", filter=at_table)
        def _ninth(event: KeyPressEvent) -> None:
            self.select(8)

        @kb.add("d", filter=leading)
        def _declare(event: KeyPressEvent) -> None:
            self.open_declarations()

        @kb.add("w", filter=leading)
        def _claim(event: KeyPressEvent) -> None:
            self.claim()

        for digit in "123456789":

            @kb.add(digit, filter=declaring)
            def _choose(event: KeyPressEvent) -> None:
                self.declare(int(event.data) - 1)

        @kb.add("up", filter=declaring)
        def _up(event: KeyPressEvent) -> None:
            self.declare_index = max(0, self.declare_index - 1)

        @kb.add("down", filter=declaring)
        def _down(event: KeyPressEvent) -> None:
            self.declare_index = min(len(self.view.offered) - 1, self.declare_index + 1)

        @kb.add("enter", filter=declaring)
        def _enter(event: KeyPressEvent) -> None:
            self.declare(self.declare_index)

        @kb.add("up", filter=paging)
        def _page_up(event: KeyPressEvent) -> None:
            self.scroll(-1)

        @kb.add("down", filter=paging)
        def _page_down(event: KeyPressEvent) -> None:
            self.scroll(1)

        @kb.add("pageup", filter=paging)
        def _more_up(event: KeyPressEvent) -> None:
            self.scroll(-10)

        @kb.add("pagedown", filter=paging)
        def _more_down(event: KeyPressEvent) -> None:
            self.scroll(10)

        # Belot's keys come last: where both apply (y, n, digits, Enter), they win
        return merge_key_bindings([super()._keys(), kb])
