"""Answering a table's questions with a bot: the bot's choice as a move (plain data)."""

from __future__ import annotations

import random
from typing import Any

from p2pbelka.bots.base import BOT_LEVELS, Bot
from p2pbelka.bots.belot import decide, make_belot_bot
from p2pbelka.rules.belka import moves as belka_mv
from p2pbelka.rules.belot import moves as belot_mv
from p2pbelka.rules.belot.deal import Bid as BelotBid
from p2pbelka.rules.belot.deal import Claim as BelotClaim
from p2pbelka.rules.belot.deal import Declare as BelotDeclare
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.play import Play
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.session import Table


def choose(bot: Bot, game: Any, seat: int, question: ev.ChoiceNeeded) -> mv.Move:
    """The move ``bot`` makes for ``seat`` when the table asks ``question``."""
    if isinstance(game, BelotGame):
        return _belot_seat(bot).choose(game, seat, question)
    if question.kind == "play":
        return mv.PlayCard(bot.play(game, seat))
    if question.kind == "redeal":
        return belka_mv.ClaimRedeal() if bot.claim_redeal(game, seat) else belka_mv.Ready()
    if question.kind == "eggs":
        return belka_mv.ChooseEggs(bot.choose_eggs(game, seat))
    raise ValueError(f"a bot cannot answer a {question.kind!r} question")


def pump(table: Table, bot: Bot, log: list[ev.Event]) -> list[bytes]:
    """Take everything ``table`` wants sent, answering its questions with ``bot``, until
    it is quiet; the events go to ``log``."""
    sent: list[bytes] = []
    while True:
        outgoing = table.take_outgoing()
        new = table.take_events()
        if not outgoing and not new:
            if not table.deferred:
                return sent
            table.proceed()
            continue
        sent += outgoing
        for event in new:
            log.append(event)
            if isinstance(event, ev.ChoiceNeeded):
                assert table.me is not None
                table.apply(choose(bot, table.game, table.me, event))


# -- Belot: the Belot bot of the same level ---------------------------------------------


class BelotSeat:
    """A seat's Belot bot, of the level of the (Belka) bot a front end holds, and the
    rest of its turn: the bot plans a whole turn (declarations, then a claim or a
    card) and the table asks for it one move at a time."""

    def __init__(self, bot: Bot) -> None:
        level = next((name for name, cls in BOT_LEVELS.items() if isinstance(bot, cls)), "random")
        self.rng = _rng_of(bot)
        self.bot = make_belot_bot(level, self.rng.getrandbits(32))
        self.plan: list[mv.Move] = []

    def choose(self, game: BelotGame, seat: int, question: ev.ChoiceNeeded) -> mv.Move:
        if not self.plan:
            try:
                self.plan = [_as_move(a) for a in decide(self.bot, game, seat)]
            except (ValueError, RuleViolation):  # a bot's bug must not stop the table
                self.plan = []
        move = self.plan.pop(0) if self.plan else None
        if move is None or move not in question.moves:
            self.plan = []
            return self.rng.choice(list(question.moves))
        return move


_BELOT_SEATS: dict[int, tuple[Bot, BelotSeat]] = {}


def _belot_seat(bot: Bot) -> BelotSeat:
    kept = _BELOT_SEATS.get(id(bot))
    if kept is None or kept[0] is not bot:
        kept = (bot, BelotSeat(bot))
        _BELOT_SEATS[id(bot)] = kept
    return kept[1]


def _as_move(action: object) -> mv.Move:
    if isinstance(action, BelotBid):
        return belot_mv.Bid(action.call)
    if isinstance(action, BelotDeclare):
        return belot_mv.Declare(tuple(action.cards))
    if isinstance(action, BelotClaim):
        return belot_mv.Claim1001()
    if isinstance(action, Play):
        return mv.PlayCard(action.card)
    raise ValueError(f"not a Belot action: {action!r}")


def _rng_of(bot: Bot) -> random.Random:
    """A seeded bot's generator (so seeded games repeat), else a fresh one."""
    rng = getattr(bot, "rng", None)
    return rng if isinstance(rng, random.Random) else random.Random()
