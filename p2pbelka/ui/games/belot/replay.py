"""A verified Belot game shown again at the table, card by card, with every hand open.

Every game's replay (``ui/replayscreen.py``) with Belot's two or three seats: the stock and
the turned card on the table, each hand's six and three more, the calls, the
declarations made so far in the deal, and the deal's result and verdict.
"""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.cards import Card
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.summary import BelotSummary
from p2pbelka.rules.common.summary import TrickSummary
from p2pbelka.table.games.belot import events as belot_ev
from p2pbelka.table.verify import VerifyReport
from p2pbelka.ui.games.belot import panels, reports
from p2pbelka.ui.games.belot.view import BelotView, combination_name, sort_belot_hand
from p2pbelka.ui.replayscreen import RIGHT_WIDTH, Replay, hand_rows, verdict_lines, wrapped
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _


@dataclass
class BelotReplay(Replay):
    """Where a Belot replay stands.  ``seats`` is 2 or 3."""

    @property
    def belot(self) -> BelotSummary:
        return reports.belot_summary(self.summary)

    def tricks(self) -> tuple[TrickSummary, ...]:
        deal = self.belot.played
        return deal.tricks if deal is not None else ()

    def hands(self) -> list[list[Card]]:
        """Each seat's nine cards (six, and three more) still in hand, trumps first."""
        summary = self.belot
        deal = summary.played
        played = {card for _seat, card in self.plays[: self.played]}
        trump = deal.trump if deal is not None else None
        extra = deal.extra if deal is not None else ((),) * self.seats
        return [
            sort_belot_hand([c for c in first + more if c not in played], trump)
            for first, more in zip(summary.hands, extra, strict=True)
        ]

    def trick_number(self) -> int:
        """The trick on the table (0-based; before the first card, the first)."""
        return (self.played - 1) // self.seats if self.played else 0

    def view(self) -> BelotView:
        summary = self.belot
        deal = summary.played
        trick = self.trick()
        view = BelotView(names=list(self.names), players=self.seats)
        view.dealer, view.deal_number = summary.dealer, summary.number
        view.turned = summary.turned
        n = self.seats
        view.calls = [((summary.dealer + 1 + i) % n, call) for i, call in enumerate(summary.bids)]
        if deal is not None:
            view.trump = deal.trump
            view.declarer = deal.declarer
        view.trick = trick
        if trick is not None and trick.winner is None:
            view.turn = (trick.leader + len(trick.cards)) % n
        elif self.played < len(self.plays):
            view.turn = self.plays[self.played][0]
        view.declared = [
            belot_ev.Declared(d.seat, d.cards, d.name, 0)
            for d in (deal.declarations if deal is not None else ())
            if d.trick <= self.trick_number()
        ]
        return view

    def title(self) -> str:
        return title(self)

    def table_lines(self, width: int) -> StyleAndTextTuples:
        return panels.table_panel(self.view(), width).fragments()

    def hands_lines(self, width: int) -> StyleAndTextTuples:
        return hands_lines(self, width)

    def side_lines(self) -> StyleAndTextTuples:
        return side_lines(self)


def title(replay: BelotReplay) -> str:
    deal = replay.belot.played
    parts = [
        _("p2pbelka replay"),
        _("Belot"),
        _("deal {n} of {m}").format(n=replay.deal + 1, m=len(replay.deals)),
    ]
    if deal is not None:
        parts.append(_("trumps: {suit}").format(suit=suit_name(deal.trump)))
        view = replay.view()
        parts.append(_("declarer: {name}").format(name=view.name(deal.declarer)))
    return " · ".join(parts)


def hands_lines(replay: BelotReplay, width: int) -> StyleAndTextTuples:
    """Every hand, open: each seat's remaining cards on its line."""
    view = replay.view()
    out: StyleAndTextTuples = [("class:heading", _("Hands") + "\n")]
    for seat, hand in enumerate(replay.hands()):
        mark = "▶" if view.turn == seat else " "
        name = view.name(seat)[:10].ljust(11)
        cards = [card_label(c) for c in hand]
        out.append(("class:seat.turn" if view.turn == seat else "", f"{mark}{name}"))
        out.append(("", hand_rows(cards, 12, width) + "\n"))
    return out


def side_lines(replay: BelotReplay) -> StyleAndTextTuples:
    """The deal's calls, its declarations so far, its result and the audit's verdict."""
    summary = replay.belot
    view = replay.view()
    out: StyleAndTextTuples = [
        ("class:heading", _("Deal {n}").format(n=summary.number + 1) + "\n"),
        ("", _("{name} deals.").format(name=view.name(summary.dealer)) + "\n"),
        ("", _("Calls:") + " " + reports.calls_text(view, summary) + "\n"),
    ]
    if summary.played is not None:
        shown = min(len(summary.played.tricks), replay.trick_number() + 1)
        out.append(("", _("trick {n} of 9").format(n=shown) + "\n"))
    for d in view.declared:
        cards = " ".join(card_label(c) for c in d.cards)
        what = combination_name(d.name, d.cards)
        out.append(("class:hint", f"{view.name(d.seat)}: {what} {cards}\n"))
    out.append(("", reports.outcome_text(view, summary) + "\n"))
    score = ", ".join(f"{view.name(s)} {points}" for s, points in enumerate(summary.score))
    out.append(("", _("Score: {score}").format(score=score) + "\n"))
    return wrapped([*out, *verdict_lines(replay)], RIGHT_WIDTH - 1)


def of_report(report: VerifyReport, deal: int) -> BelotReplay:
    """The replay of a verified Belot game, from ``deal`` (counted from 0)."""
    seats = report.game.players if isinstance(report.game, BelotGame) else len(report.names)
    replay = BelotReplay(
        report.deals,
        list(report.names),
        verdict=report.verdict,
        faults=list(report.faults),
        seats=seats,
    )
    replay.jump(deal)
    return replay
