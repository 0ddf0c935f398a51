"""Answering a table's questions with a bot: the bot's choice as a move (plain data)."""

from __future__ import annotations

import random
from typing import Any

from p2pbelka.bots.base import Bot, RandomBot
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.session import Table


def choose(bot: Bot, game: Any, seat: int, question: ev.ChoiceNeeded) -> mv.Move:
    """The move ``bot`` makes for ``seat`` when the table asks ``question``."""
    if isinstance(game, BelotGame):
        return choose_belot_at_random(_rng_of(bot), question)
    if question.kind == "play":
        return mv.PlayCard(bot.play(game, seat))
    if question.kind == "redeal":
        return mv.ClaimRedeal() if bot.claim_redeal(game, seat) else mv.Ready()
    if question.kind == "eggs":
        return mv.ChooseEggs(bot.choose_eggs(game, seat))
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


# -- Belot: a stand-in chooser ----------------------------------------------------------
# STAND-IN until the Belot bots (p2pbelka/bots/belot) land: a random legal move, whatever
# the bot's level.  The merge replaces ``choose_belot_at_random`` with the Belot bot.


def _rng_of(bot: Bot) -> random.Random:
    """A seeded random bot's generator (so seeded games repeat), else a fresh one."""
    return bot.rng if isinstance(bot, RandomBot) else random.Random()


def choose_belot_at_random(rng: random.Random, question: ev.ChoiceNeeded) -> mv.Move:
    """Calls: take the deal (``play`` or a suit) one time in four.  At its lead: claim
    1001 whenever it is true, declare a combination one time in two, else a random card."""
    moves = question.moves
    if question.kind == "bid":
        takes = [mv_ for mv_ in moves if isinstance(mv_, mv.Bid) and mv_.call != "pass"]
        if takes and rng.random() < 0.25:
            return rng.choice(takes)
        return mv.Bid("pass")
    claims = [mv_ for mv_ in moves if isinstance(mv_, mv.Claim1001)]
    if claims:
        return claims[0]
    declarations = [mv_ for mv_ in moves if isinstance(mv_, mv.Declare)]
    if declarations and rng.random() < 0.5:
        return rng.choice(declarations)
    return rng.choice([mv_ for mv_ in moves if isinstance(mv_, mv.PlayCard)])
