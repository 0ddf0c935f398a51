"""Belka in the text logs: what a text or bot seat and a watcher ask of the game, with
no screen library loaded (``ui/gamewords.py``); ``screen.UI`` says the same."""

from __future__ import annotations

from p2pbelka.rules.belka.game import GAME
from p2pbelka.ui.games.belka import events, rulewords
from p2pbelka.ui.games.belka.view import sort_hand
from p2pbelka.ui.gamewords import GameWords

WORDS = GameWords(
    name=GAME,
    event_line=events.event_line,
    summary_line=events.summary_line,
    sort_hand=sort_hand,
    words=rulewords.words,
)
