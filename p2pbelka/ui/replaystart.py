"""The replay screen of a verified game, whichever game it is: the one place that asks
for a game's replay, so ``p2pbelka replay`` need not know the games."""

from __future__ import annotations

from p2pbelka.rules.registry import DEFAULT
from p2pbelka.table.verify import VerifyReport
from p2pbelka.ui import registry
from p2pbelka.ui.replayscreen import Replay, ReplayScreen


def replay_of(report: VerifyReport, deal: int) -> Replay:
    """The position of ``report``'s game at the start of its ``deal`` (counted from 0): the
    game's own replay, or the plain one of a game that registered none."""
    game = registry.game(report.game_name or DEFAULT)
    if game.replay is not None:
        found = game.replay(report, deal)
        assert isinstance(found, Replay)
        found.follow(report.changes)  # a deal a bot played names the bot
        return found
    seats = len(report.names)
    plain = Replay(report.deals, list(report.names), report.verdict, list(report.faults), seats)
    plain.follow(report.changes)
    plain.jump(deal)
    return plain


def replay_screen(report: VerifyReport, deal: int) -> ReplayScreen:
    """The replay of ``report``'s game (at least one deal verified), from its ``deal``
    (counted from 1)."""
    return ReplayScreen(replay_of(report, deal - 1))
