"""The replay screen of a verified game, whichever game it is: the one place that picks a
game's replay screen, so ``p2pbelka replay`` need not know the games."""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.table.verify import VerifyReport
from p2pbelka.ui.replay import ReplayScreen


def _belka(report: VerifyReport, deal: int) -> ReplayScreen:
    from p2pbelka.rules.belka.game import GameState
    from p2pbelka.ui.replay import Replay

    scoring = report.game.options.scoring if isinstance(report.game, GameState) else "classic"
    replay = Replay(
        report.deals,
        list(report.names),
        verdict=report.verdict,
        scoring=scoring,
        faults=list(report.faults),
    )
    replay.jump(deal)
    return ReplayScreen(replay)


def _belot(report: VerifyReport, deal: int) -> ReplayScreen:
    from p2pbelka.rules.belot.game import BelotGame
    from p2pbelka.ui.belot_replay import BelotReplay, BelotReplayScreen

    seats = report.game.players if isinstance(report.game, BelotGame) else len(report.names)
    replay = BelotReplay(
        report.deals,
        list(report.names),
        verdict=report.verdict,
        faults=list(report.faults),
        seats=seats,
    )
    replay.jump(deal)
    return BelotReplayScreen(replay)


_SCREENS: dict[str, Callable[[VerifyReport, int], ReplayScreen]] = {
    "belka": _belka,
    "belot": _belot,
}


def replay_screen(report: VerifyReport, deal: int) -> ReplayScreen:
    """The replay of ``report``'s game (at least one deal verified), from its ``deal``
    (counted from 1); a game without a screen of its own is shown as Belka's is."""
    return _SCREENS.get(report.game_name or "", _belka)(report, deal - 1)
