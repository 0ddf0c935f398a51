"""The lines both text logs say, a seat's (``ui/words/seatlog.py``) and a watcher's
(``ui/watcherlog.py``), in the player's language: a game's own events (worded by the
game, asked of the registry), a seat changing hands, the end of a game.

In English the stable lines scripts read are kept (a game's own events included, worded
by its screen), as ``ui/words/faults.py`` keeps the layers' words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from p2pbelka.cards import Card, Suit
from p2pbelka.net.identity import fingerprint
from p2pbelka.rules.common.moves import Move, PlayCard
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged, describe_change
from p2pbelka.table.session import Table
from p2pbelka.ui import registry
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.cardnames import card_label
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.seatnames import by_side, cards_line, side

if TYPE_CHECKING:
    from p2pbelka.ui.gamewords import GameWords


def _game(table: Table) -> GameWords | None:
    """The words of the table's game, to word its own lines (None: none here)."""
    if table.state.setup is None:
        return None
    try:
        return registry.words(table.state.setup.game)
    except ValueError:  # a game with no screen here: its own words
        return None


def table_names(table: Table) -> tuple[str, ...]:
    """The names of the seats of the table's segment in play (a bot's where one sits)."""
    setup = table.state.setup
    return tuple(s.name for s in setup.seats) if setup is not None else ()


def game_event_line(event: ev.GameEvent, table: Table) -> str:
    """A game's own event, worded by its game's screen, its seats by name (an event no
    screen here words is shown as the record it is)."""
    game = _game(table)
    said = game.event_line(event, table_names(table)) if game is not None else None
    return said if said is not None else repr(event)


def summary_line(summary: DealSummary, table: Table) -> str:
    """What a deal came to in words, by its game's screen (the summary's own line if
    the game has no screen here)."""
    game = _game(table)
    said = game.summary_line(summary, table_names(table)) if game is not None else None
    return said if said is not None else summary.log_line()


def hand_order(table: Table) -> Callable[[list[Card], Suit | None], list[Card]] | None:
    """How the game's screen orders a hand (given the trump, or None); None: no screen."""
    game = _game(table)
    return game.sort_hand if game is not None else None


def hand_line(cards: Sequence[Card], table: Table, trump: Suit | None = None) -> str:
    """A hand sorted as the game's screen sorts it (``trump``: the deal's, None before
    it is known), its cards as the screen writes them."""
    order = hand_order(table)
    ordered = (
        order(list(cards), trump) if order is not None else sorted(cards, key=lambda c: c.index)
    )
    return cards_line(ordered)


def move_label(move: Move) -> str:
    """A move as the text log shows it: a card as the screen writes it, any other move
    as it is typed."""
    return card_label(move.card) if isinstance(move, PlayCard) else str(move)


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
    if change.voided is not None and not change.dealt:
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
    """Who won (a seat, where each plays for oneself, else a pair) and the score, by name."""
    names = table_names(table)
    score = by_side(event.score, names)
    if event.winner is None:
        return _("game over; score: {score}").format(score=score)
    winner = side(event.winner, names, len(event.score))
    if table.state.setup is not None and not spec(table.state.setup.game).partnership:
        return _("game over: {name} wins; score: {score}").format(name=winner, score=score)
    return _("game over: {pair} win; score: {score}").format(pair=winner, score=score)
