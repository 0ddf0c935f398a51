"""The parts of the table screen every game draws alike, from a :class:`TableView`: a
card, a card's back, the hand, a seat's line in the seats panel, a clickable fragment.
A game's own panels (``ui/games/<game>/panels.py``) are made of these."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from p2pbelka.cards import Card
from p2pbelka.net.identity import fingerprint
from p2pbelka.ui.canvas import Canvas, Handler
from p2pbelka.ui.view import TableView
from p2pbelka.ui.words.cardnames import card_label, fit, is_red
from p2pbelka.ui.words.i18n import _

TABLE_HEIGHT = 11
HAND_HEIGHT = 5
CARD_WIDTH = 5


def on_click(action: Callable[[], object]) -> Handler:
    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            action()
            return None
        return NotImplemented

    return handler


def card_back(style: str = "class:card.back") -> list[StyleAndTextTuples]:
    return [[(style, "┌───┐")], [(style, "│▒▒▒│")], [(style, "└───┘")]]


def card_box(card: Card | None, style: str = "") -> list[StyleAndTextTuples]:
    """A card three rows high: its rank and suit framed, or an empty place."""
    if card is None:
        return [[("class:place", "     ")]] * 3
    face = "class:card.red" if is_red(card) else "class:card"
    style = f"{face} {style}".strip()
    label = card_label(card).ljust(3)
    return [[(style, "┌───┐")], [(style, f"│{label}│")], [(style, "└───┘")]]


def hand_panel(
    view: TableView, width: int, select: Callable[[int], None], play: Callable[[int], None]
) -> Canvas:
    """Your cards, trumps first; the chosen one raised, legal ones bright, numbers below."""
    canvas = Canvas(width, HAND_HEIGHT)
    # a gap between cards when they fit with it (nine need not, at 80 columns)
    step = CARD_WIDTH + 1 if (CARD_WIDTH + 1) * len(view.hand) <= width else CARD_WIDTH
    x0 = max(0, (width - step * len(view.hand)) // 2)
    for i, card in enumerate(view.hand):
        chosen = i == view.selected and view.my_turn
        style = ""
        if view.my_turn:
            style = "class:card.legal" if card in view.legal else "class:card.dim"
        if chosen:
            style += " class:card.chosen"

        def clicked(i: int = i) -> None:
            (play if i == view.selected and view.my_turn else select)(i)

        handler = on_click(clicked)
        lines = [[(frag[0], frag[1], handler) for frag in line] for line in card_box(card, style)]
        canvas.blit(0 if chosen else 1, x0 + i * step, lines)  # type: ignore[arg-type]
        number_style = "class:number.legal" if card in view.legal else "class:number"
        canvas.put(4, x0 + i * step + 2, str(i + 1), number_style, handler)
    return canvas


def seats_lines(view: TableView, width: int, marks: list[str] | None = None) -> StyleAndTextTuples:
    """The seats panel: every seat in play order, with ``marks`` (a suit) beside each."""
    out: StyleAndTextTuples = [("class:heading", _("Seats in play order") + "\n")]
    leader = view.trick.leader if view.trick is not None and view.trick.winner is None else None
    for seat in range(view.players):
        mark = marks[seat] if marks is not None else " "
        out += seat_line(view, seat, mark, leader, width)
    return out


def seat_line(
    view: TableView, seat: int, suit: str, leader: int | None, width: int
) -> StyleAndTextTuples:
    """One seat in the seats panel: whose turn, name, a suit mark, dealer and leader
    flags, the start of its key's fingerprint (or "missing", while the table waits
    for it and it cannot be deciding: its link is down, not a person thinking)."""
    mark = "▶" if view.turn == seat else " "
    flags = (_("D") if view.dealer == seat else " ") + (_("L") if leader == seat else " ")
    key = fingerprint(view.keys[seat])[:9] if seat < len(view.keys) else ""
    room = max(4, width - 19)
    full = view.names[seat] if seat < len(view.names) else view.name(seat)
    style = "class:seat.turn" if view.turn == seat else ("class:seat.me" if seat == view.me else "")
    # silent past the pause: the mark stays while the prompt is up
    tail = (
        ("class:verdict.bad", _("missing") + "\n")
        if seat in view.waiting_for and seat not in view.thinking
        else ("class:hint", key + "\n")
    )
    if len(full) <= room:
        return [(style, f"{mark}{full.ljust(room)} {suit} {flags} "), tail]
    # the panel is the one place every name is shown in full: a long one takes a line
    # of its own (cut, with a mark, only past the panel's width), its marks the next
    name = full if len(full) < width else full[: width - 2] + "…"
    return [(style, f"{mark}{name}\n"), (style, f" {''.ljust(room)} {suit} {flags} "), tail]


def score_lines(view: TableView, width: int) -> StyleAndTextTuples:
    """The score, seat by seat (a game that keeps it otherwise draws its own)."""
    out: StyleAndTextTuples = [("class:heading", _("Score") + "\n")]
    name_width = max(4, width - 8)
    for seat, points in enumerate(view.score):
        style = "class:seat.me" if seat == view.me else ""
        out.append((style, f"{fit(view.name(seat), name_width).ljust(name_width)}{points:>6}\n"))
    return out
