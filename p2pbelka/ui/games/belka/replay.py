"""A verified Belka game shown again at the table (``ui/replayscreen.py``'s screen): the four
seats, the trumps and the trump team, the deal's points and the audit's verdict."""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.rules.common.summary import TrickSummary
from p2pbelka.table.verify import VerifyReport
from p2pbelka.ui.games.belka import panels
from p2pbelka.ui.games.belka.reports import belka_summary
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.games.belka.words import team_name
from p2pbelka.ui.replayscreen import RIGHT_WIDTH, Replay, verdict_lines, wrapped
from p2pbelka.ui.words.cardnames import suit_name
from p2pbelka.ui.words.i18n import _


@dataclass
class BelkaReplay(Replay):
    """Where a Belka replay stands."""

    scoring: str = "classic"

    @property
    def belka(self) -> BelkaSummary:
        return belka_summary(self.summary)

    def tricks(self) -> tuple[TrickSummary, ...]:
        return self.belka.tricks

    def new_view(self) -> BelkaView:
        view = BelkaView(names=list(self.names), scoring=self.scoring)
        view.trump, view.trump_team = self.belka.trump, self.belka.trump_team
        return view

    def view(self) -> BelkaView:
        view = super().view()
        assert isinstance(view, BelkaView)
        return view

    def title(self) -> str:
        summary = self.belka
        return " · ".join(
            [
                _("p2pbelka replay"),
                _("deal {n} of {m}").format(n=self.deal + 1, m=len(self.deals)),
                _("trumps: {suit}").format(suit=suit_name(summary.trump)),
                _("trump team: {team}").format(team=team_name(summary.trump_team, self.names)),
            ]
        )

    def table_lines(self, width: int) -> StyleAndTextTuples:
        return panels.table_panel(self.view(), width).fragments()

    def side_lines(self) -> StyleAndTextTuples:
        return side_lines(self)


def title(replay: BelkaReplay) -> str:
    return replay.title()


def side_lines(replay: BelkaReplay) -> StyleAndTextTuples:
    """The deal's facts, its score, and the audit's verdict on it."""
    summary = replay.belka
    names = replay.names
    tricks = len(summary.tricks)
    out: StyleAndTextTuples = [
        ("class:heading", _("Deal {n}").format(n=summary.number + 1) + "\n"),
        ("", _("{name} deals.").format(name=replay.view().name(summary.dealer)) + "\n"),
        (
            "class:hint",
            _("{a} against {b}").format(a=team_name(0, names), b=team_name(1, names)) + "\n",
        ),
    ]
    if summary.redeal_claim is not None:
        claim = replay.view().name(summary.redeal_claim)
        out.append(("", _("{name} claimed a re-deal.").format(name=claim) + "\n"))
    else:
        shown = (replay.played - 1) // 4 + 1 if replay.played else 1
        out.append(("", _("trick {n} of 8").format(n=min(tricks, shown)) + "\n"))
    a, b = summary.card_points
    out.append(("", _("Card points in the deal {a}:{b}").format(a=a, b=b) + "\n"))
    key = _("eyes opened") if replay.scoring == "eyes" else _("game points")
    awarded, score = summary.awarded, summary.score
    out.append(
        (
            "",
            _("This deal: {what} {a}:{b}; game score {c}:{d}").format(
                what=key, a=awarded[0], b=awarded[1], c=score[0], d=score[1]
            )
            + "\n",
        )
    )
    return wrapped([*out, *verdict_lines(replay)], RIGHT_WIDTH - 1)


def of_report(report: VerifyReport, deal: int) -> BelkaReplay:
    """The replay of a verified Belka game, from ``deal`` (counted from 0)."""
    scoring = report.game.options.scoring if isinstance(report.game, GameState) else "classic"
    replay = BelkaReplay(
        report.deals,
        list(report.names),
        verdict=report.verdict,
        faults=list(report.faults),
        scoring=scoring,
    )
    replay.jump(deal)
    return replay
