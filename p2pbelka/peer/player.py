"""Answering a table's questions with a bot: the bot's choice as a move (plain data)."""

from __future__ import annotations

from typing import Any

from p2pbelka.bots.base import Bot
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.session import Table


def choose(bot: Bot, game: Any, seat: int, question: ev.ChoiceNeeded) -> mv.Move:
    """The move ``bot`` makes for ``seat`` when the table asks ``question``."""
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
