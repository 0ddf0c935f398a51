"""The parts of the Belot table screen, drawn from a :class:`BelotView`.

The table has two or three seats: you at the bottom, the next player in the
order of play on your left (three seats) or opposite (two), and the stock with
the turned card under it in the fourth place.  The hand (up to nine cards) is
every game's panel (``ui/panels.py``).
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.cards import Card
from p2pbelka.rules.belot.core import TARGET
from p2pbelka.rules.belot.deal import PASS, PLAY
from p2pbelka.ui import panels
from p2pbelka.ui.canvas import Canvas
from p2pbelka.ui.games.belot.view import BelotView, call_name, combination_name
from p2pbelka.ui.panels import CARD_WIDTH, TABLE_HEIGHT, card_back, card_box
from p2pbelka.ui.view import TrickView
from p2pbelka.ui.words.cardnames import card_label, fit, suit_name
from p2pbelka.ui.words.i18n import _


def seat_label(view: BelotView, seat: int) -> tuple[str, str]:
    """A seat's name with its marks (turn, dealer, the declarer's trump) and style."""
    text = view.name(seat)
    if view.dealer == seat:
        text += " " + _("(deals)")
    if view.declarer == seat and view.trump is not None:
        text += " " + view.trump.symbol
    if view.turn == seat:
        return "▶ " + text, "class:seat.turn"
    return text, "class:seat"


def _last_call(view: BelotView, seat: int) -> str | None:
    """What ``seat`` said last in this deal's bidding (shown while bidding goes on)."""
    said = [call for s, call in view.calls if s == seat]
    if not said:
        return None
    call = said[-1]
    if call == PASS:
        return _("pass")
    if call == PLAY:
        return _("play")
    return call_name(call, view.turned)


def table_panel(view: BelotView, width: int, trick: TrickView | None = None) -> Canvas:
    """The seats, the stock and the turned card, and the trick (or the calls) between them."""
    canvas = Canvas(width, TABLE_HEIGHT)
    n, me = view.players, view.me
    shown = trick if trick is not None else view.trick
    cards = shown.by_seat() if shown is not None else {}
    winner = shown.winner if shown is not None else None
    bidding = view.trump is None and trick is None
    mid = width // 2
    lx, rx = max(0, mid - 14), min(width - CARD_WIDTH, mid + 9)

    def place(seat: int, y: int, x: int) -> None:
        """The seat's card in the trick, or while bidding its last call."""
        call = _last_call(view, seat) if bidding else None
        if call is not None:
            canvas.put(y + 1, max(0, x + 2 - len(call) // 2), call, "class:call")
            return
        canvas.blit(y, x, card_box(cards.get(seat), "class:card.won" if seat == winner else ""))

    def label_at(seat: int, y: int, x: int) -> None:
        label, style = seat_label(view, seat)
        canvas.put(
            y, min(max(0, x + 2 - len(label) // 2), max(0, width - len(label))), label, style
        )

    if n == 3:
        left, right = (me + 1) % 3, (me + 2) % 3
        _stock(canvas, view, 0, mid - 6, above=True)
        place(left, 3, lx)
        place(right, 3, rx)
        label_at(left, 6, lx)
        label_at(right, 6, rx)
    else:
        other = (me + 1) % 2
        label, style = seat_label(view, other)
        canvas.center(0, label, style)
        place(other, 1, mid - 2)
        _stock(canvas, view, 3, max(0, lx - 3), above=False)
    place(me, 7, mid - 2)
    label, style = seat_label(view, me)
    canvas.center(10, label, style)
    return canvas  # who takes the trick is said on the line under the table (info_line)


def _stock(canvas: Canvas, view: BelotView, y: int, x: int, *, above: bool) -> None:
    """The face-down stock and the turned card beside it, with a line naming them."""
    if view.turned is None:
        return  # still dealing: nothing on the table yet
    left = view.stock_left
    words = _("stock {n}").format(n=left)
    if view.turned is not None:
        words += " · " + _("turned {card}").format(card=card_label(view.turned))
    text_y, box_y = (y, y + 1) if above else (y + 3, y)
    canvas.put(text_y, max(0, x + 6 - len(words) // 2), words, "class:hint")
    if left:
        canvas.blit(box_y, x, card_back())
    if view.turned is not None:
        canvas.blit(box_y, x + CARD_WIDTH + 2, card_box(view.turned))


def title_line(view: BelotView) -> str:
    parts = ["p2pbelka", _("Belot")]
    if view.dealer is not None:
        parts.append(_("deal {n}").format(n=view.deal_number + 1))
    if view.trump is not None:
        parts.append(_("trumps: {suit}").format(suit=suit_name(view.trump)))
    if view.declarer is not None:
        parts.append(_("declarer: {name}").format(name=view.name(view.declarer)))
    return " · ".join(parts)


def info_line(view: BelotView) -> str:
    """Under the table: the bidding round, or the trick and the turned card."""
    if view.dealer is None or view.turned is None:
        return ""
    if view.trump is None:
        deal = view.deal
        if deal is not None and deal.bidding_round == 2:
            return _("bidding, round 2: name a suit other than {suit}, or pass").format(
                suit=suit_name(view.turned.suit)
            )
        return _("bidding, round 1: play {suit}, or pass").format(suit=suit_name(view.turned.suit))
    trick = _("trick {n} of 9").format(n=min(9, sum(view.tricks_won) + 1))
    winner = view.trick.winner if view.trick is not None else None
    if winner is None:
        return trick
    # here, not between the cards: a long name there ran over the stock and the turned card
    return trick + " · " + _("{name} takes it").format(name=view.name(winner))


def declared_line(view: BelotView, width: int = 80) -> StyleAndTextTuples:
    """This deal's declarations as everyone saw them: with their cards when they fit."""
    if not view.declared:
        return []
    head = " " + _("Declared:") + " "
    text = ""
    for shown in (True, False):
        parts = []
        for d in view.declared:
            cards = " " + " ".join(card_label(c) for c in d.cards) if shown else ""
            parts.append(
                f"{view.name(d.seat)} {combination_name(d.name, d.cards)}{cards} {d.value}"
            )
        text = "; ".join(parts)
        if len(head) + len(text) <= width:
            break
    return [("class:hint", head), ("", text)]


def score_lines(view: BelotView, width: int) -> StyleAndTextTuples:
    """The written scores towards 1001, this deal's points so far, the hanging points."""
    out: StyleAndTextTuples = []
    heading = _("Score (to {n})").format(n=TARGET)
    deal = _("deal")
    totals = view.deal_totals()
    out.append(("class:heading", heading))
    out.append(("class:hint", deal.rjust(max(0, width - len(heading))) + "\n" if totals else "\n"))
    name_width = max(6, width - 21)
    bar_width = max(0, width - name_width - 5 - 1 - 1 - 4)
    for seat in range(view.players):
        points = view.score[seat] if seat < len(view.score) else 0
        name = fit(view.names[seat] if seat < len(view.names) else view.name(seat), name_width)
        name = name.ljust(name_width)
        filled = min(bar_width, points * bar_width // TARGET)
        style = "class:seat.me" if seat == view.me else ""
        out.append((style, f"{name}{points:>5} "))
        out.append(("class:bar", "■" * filled + "□" * (bar_width - filled)))
        now = f"{totals[seat]:>4}" if totals is not None else ""
        out.append(("", f" {now}\n"))
    if view.hanging:
        out.append(("class:status", _("Hanging: {n} points").format(n=view.hanging)[:width] + "\n"))
    return out


def seats_lines(view: BelotView, width: int) -> StyleAndTextTuples:
    trump = view.trump
    marks = [
        trump.symbol if view.declarer == seat and trump is not None else " "
        for seat in range(view.players)
    ]
    return panels.seats_lines(view, width, marks)


def combination_line(view: BelotView, cards: tuple[Card, ...]) -> str:
    """An offered combination: its name, cards and value ("terz 7♥ 8♥ 9♥ · 20")."""
    name, value = view.worth(cards)
    shown = " ".join(card_label(c) for c in cards)
    return f"{combination_name(name, cards)}  {shown}  · {value}"
