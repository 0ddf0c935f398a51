"""Belka's parts of the table screen: the four seats around the trick, the line under
the table, the title, the score (game points or eyes) and the seats with their suits."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.rules.belka.options import TARGET
from p2pbelka.ui import panels
from p2pbelka.ui.canvas import Canvas
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.games.belka.words import team_name
from p2pbelka.ui.panels import CARD_WIDTH, TABLE_HEIGHT, card_box
from p2pbelka.ui.view import TrickView
from p2pbelka.ui.words.cardnames import fit, suit_name
from p2pbelka.ui.words.i18n import _


def seat_label(view: BelkaView, seat: int) -> tuple[str, str]:
    """A seat's name with its marks (turn, dealer) and the style to draw it in."""
    marks = ""
    if view.dealer == seat:
        marks += " " + _("(deals)")
    style = "class:seat"
    if view.turn == seat:
        style = "class:seat.turn"
        marks = "▶ " + view.name(seat) + marks
    else:
        marks = view.name(seat) + marks
    if view.seat_suits is not None:
        marks += " " + view.seat_suits[seat].symbol
    return marks, style


def table_panel(view: BelkaView, width: int, trick: TrickView | None = None) -> Canvas:
    """The four seats around the table and the cards of the trick in front of them."""
    canvas = Canvas(width, TABLE_HEIGHT)
    me = view.me
    shown = trick if trick is not None else view.trick
    cards = shown.by_seat() if shown is not None else {}
    winner = shown.winner if shown is not None else None
    mid = width // 2
    top, left, right = (me + 2) % 4, (me + 1) % 4, (me + 3) % 4

    def box(seat: int) -> list[StyleAndTextTuples]:
        return card_box(cards.get(seat), "class:card.won" if seat == winner else "")

    label, style = seat_label(view, top)
    canvas.center(0, label, style)
    canvas.blit(1, mid - 2, box(top))
    lx, rx = max(0, mid - 14), min(width - CARD_WIDTH, mid + 9)
    canvas.blit(3, lx, box(left))
    canvas.blit(3, rx, box(right))
    label, style = seat_label(view, left)
    canvas.put(6, max(0, lx + 2 - len(label) // 2), label[: max(0, mid - 1)], style)
    label, style = seat_label(view, right)
    canvas.put(
        6, min(max(mid + 1, rx + 2 - len(label) // 2), max(0, width - len(label))), label, style
    )
    canvas.blit(7, mid - 2, box(me))
    label, style = seat_label(view, me)
    canvas.center(10, label, style)
    return canvas  # who takes the trick is said on the line under the table (info_line)


def info_line(view: BelkaView) -> str:
    winner = view.trick.winner if view.trick is not None else None
    if winner is not None:
        # here, not between the cards: a long name there ran over the cards of the trick
        return _("{name} takes it").format(name=view.name(winner))
    parts = []
    if view.trump is not None:
        parts.append(_("trick {n} of 8").format(n=min(8, sum(view.tricks_won) + 1)))
        parts.append(
            _("tricks {a}:{b}, points {c}:{d}").format(
                a=view.tricks_won[0],
                b=view.tricks_won[1],
                c=view.card_points[0],
                d=view.card_points[1],
            )
        )
    return " · ".join(parts)


def title_line(view: BelkaView) -> str:
    parts = ["p2pbelka"]
    if view.dealer is not None:
        parts.append(_("deal {n}").format(n=view.deal_number + 1))
    if view.trump is not None:
        parts.append(_("trumps: {suit}").format(suit=suit_name(view.trump)))
    if view.trump_team is not None:
        parts.append(_("trump team: {team}").format(team=team_name(view.trump_team, view.names)))
    return " · ".join(parts)


def score_lines(view: BelkaView, width: int) -> StyleAndTextTuples:
    """The score as players keep it: game points to 12, or each pair's two sixes."""
    out: StyleAndTextTuples = []
    name_width = max(8, width - 16)
    if view.scoring == "eyes":
        out.append(("class:heading", _("Eyes opened (12 loses)") + "\n"))
        for team in (0, 1):
            opened = view.score[team]
            name = team_name(team, view.names)
            if len(name) > name_width:
                out.append(("", fit(name, width) + "\n"))
                name = ""
            name = name.ljust(name_width)
            dice = [_die_rows(opened - 6 * d) for d in (0, 1)]
            out.append(("", f"{name} "))
            out += [*_pips(dice[0][0]), ("", " "), *_pips(dice[1][0]), ("", "\n")]
            out.append(("class:hint", (" " + _("{n} open").format(n=opened)).ljust(name_width + 1)))
            out += [*_pips(dice[0][1]), ("", " "), *_pips(dice[1][1]), ("", "\n")]
    else:
        out.append(("class:heading", _("Score (to {n})").format(n=TARGET) + "\n"))
        for team in (0, 1):
            points = min(TARGET, view.score[team])
            name = team_name(team, view.names)
            if len(name) > name_width:
                # a pair's names longer than the column take a line of their own
                out.append(("", fit(name, width) + "\n"))
                name = ""
            bar = "■" * points + "□" * (TARGET - points)
            out.append(("", f"{name.ljust(name_width)}{view.score[team]:>3} "))
            out.append(("class:bar", bar[: max(0, width - name_width - 4)] + "\n"))
    titles = [
        f"{team_name(t, view.names)}: {', '.join(view.titles[t])}" for t in (0, 1) if view.titles[t]
    ]
    for line in titles:
        out.append(("class:hint", line[:width] + "\n"))
    if view.eggs_pending:
        out.append(("class:hint", _("Eggs (60:60) carried to the next deal")[:width] + "\n"))
    return out


def _die_rows(opened: int) -> tuple[str, str]:
    """One six: two rows of three pips, ``opened`` of them (0..6) open."""
    pips = "".join("○" if i < opened else "●" for i in range(6))
    return pips[:3], pips[3:]


def _pips(row: str) -> StyleAndTextTuples:
    return [
        ("class:die", "["),
        *[("class:pip.open" if p == "○" else "class:pip", p) for p in row],
        ("class:die", "]"),
    ]


def seats_lines(view: BelkaView, width: int) -> StyleAndTextTuples:
    suits = view.seat_suits
    marks = [suits[seat].symbol if suits is not None else " " for seat in range(view.players)]
    return panels.seats_lines(view, width, marks)
