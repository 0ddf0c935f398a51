"""Toy on the one table screen: a view and a table drawn from every game's parts; every
page, prompt and key is the screen's own default."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.ui import panels
from p2pbelka.ui.canvas import Canvas
from p2pbelka.ui.gameui import GameUI
from p2pbelka.ui.view import TableView, TrickView
from tests.toygame.rules import game as rules


def new_view(seats: int) -> TableView:
    return TableView(players=seats, names=["0", "1"])


def table(view: TableView, width: int, trick: TrickView | None) -> StyleAndTextTuples:
    """The other seat at the top, ours at the bottom, each with its card of the trick."""
    canvas = Canvas(width, panels.TABLE_HEIGHT)
    shown = trick if trick is not None else view.trick
    cards = shown.by_seat() if shown is not None else {}
    mid = width // 2
    for seat, label_row, card_row in ((1 - view.me, 0, 1), (view.me, 10, 7)):
        mark = "▶ " if view.turn == seat else ""
        canvas.center(label_row, mark + view.name(seat), "class:seat")
        canvas.blit(card_row, mid - 2, panels.card_box(cards.get(seat)))
    return canvas.fragments()


UI = GameUI(name=rules.NAME, new_view=new_view, table=table)
