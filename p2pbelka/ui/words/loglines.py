"""The lines both text logs say, a seat's (``ui/words/seatlog.py``) and a watcher's
(``ui/watcherlog.py``), in the player's language: a game's own events (worded by the
game, asked of the registry), a seat changing hands, the end of a game.

In English the stable lines scripts read are kept (a game's own events included, worded
by its screen), as ``ui/words/faults.py`` keeps the layers' words.
"""

from __future__ import annotations

from p2pbelka.net.identity import fingerprint
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged, describe_change
from p2pbelka.table.session import Table
from p2pbelka.ui import registry
from p2pbelka.ui.gameui import GameUI
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.i18n import _


def _game(table: Table) -> GameUI | None:
    """The screen of the table's game, to word its own lines (None: none here)."""
    if table.state.setup is None:
        return None
    try:
        return registry.game(table.state.setup.game)
    except ValueError:  # a game with no screen here: its own words
        return None


def game_event_line(event: ev.GameEvent, table: Table) -> str:
    """A game's own event, worded by its game's screen, in English too (an event no
    screen here words is shown as the record it is)."""
    game = _game(table)
    said = game.event_line(event) if game is not None else None
    return said if said is not None else repr(event)


def summary_line(summary: DealSummary, table: Table) -> str:
    """What a deal came to, shortly, worded by its game's screen (its own words if none,
    and in English, where scripts read the summary's own)."""
    game = None if i18n.language() == "en" else _game(table)
    said = game.summary_line(summary) if game is not None else None
    return said if said is not None else summary.log_line()


def seat_change_line(change: SeatChanged) -> str:
    """Who plays a seat from which deal, who agreed, and what became of the deal cut."""
    if i18n.language() == "en":
        return describe_change(change)
    who = f"{change.name} [{fingerprint(change.key)}]"
    if change.back:
        what = _("seat {seat} handed back to {who}").format(seat=change.seat, who=who)
    else:
        what = _("seat {seat} ({was}) replaced by {who}").format(
            seat=change.seat, was=change.was_name, who=who
        )
    voided = ""
    if change.voided is not None and change.back:
        voided = _("; deal {n} starts over, no card of it dealt yet").format(n=change.voided)
    elif change.voided is not None:
        voided = _("; deal {n}, unfinished, voided").format(n=change.voided)
    agreed = ", ".join(str(s) for s in change.agreed)
    return (
        _("{what} from deal {n}, agreed by seats {agreed}").format(
            what=what, n=change.from_deal, agreed=agreed
        )
        + voided
    )


def game_over_line(event: ev.GameOver, table: Table) -> str:
    """Who won (a seat, where each plays for oneself, else a team) and the score."""
    score = ":".join(str(p) for p in event.score)
    if table.state.setup is not None and not spec(table.state.setup.game).partnership:
        return _("game over: seat {seat} wins, score {score}").format(
            seat=event.winner, score=score
        )
    return _("game over: team {team} wins {score}").format(team=event.winner, score=score)


def seats_list(names: tuple[str, ...] | list[str]) -> str:
    """``0=Ann, 1=Bob``: the seats by number and name."""
    return ", ".join(f"{i}={n}" for i, n in enumerate(names))
