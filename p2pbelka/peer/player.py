"""Answering a table's questions: a bot (or, later, a screen) decides for the local seat."""

from __future__ import annotations

from p2pbelka.bots.base import Bot
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table


def answer(table: Table, bot: Bot, event: ev.ChoiceNeeded) -> None:
    """Let ``bot`` make the choice ``event`` asks of ``table``'s seat."""
    assert table.me is not None and table.track is not None
    game = table.track.game
    if event.kind == "play":
        table.play(bot.play(game, table.me))
    elif event.kind == "redeal":
        table.claim_redeal(bot.claim_redeal(game, table.me))
    elif event.kind == "eggs":
        table.choose_eggs(bot.choose_eggs(game, table.me))


def pump(table: Table, bot: Bot, log: list[ev.Event]) -> list[bytes]:
    """Take everything ``table`` wants sent, answering its questions with ``bot``, until
    it is quiet; the events go to ``log``."""
    sent: list[bytes] = []
    while True:
        outgoing = table.take_outgoing()
        new = table.take_events()
        if not outgoing and not new:
            return sent
        sent += outgoing
        for event in new:
            log.append(event)
            if isinstance(event, ev.ChoiceNeeded):
                answer(table, bot, event)
