"""Belot in the text logs: what a text or bot seat and a watcher ask of the game, with
no screen library loaded (``ui/gamewords.py``); ``screen.UI`` says the same."""

from __future__ import annotations

from p2pbelka.rules.belot.spec import SPEC
from p2pbelka.ui.games.belot import events, rulewords
from p2pbelka.ui.games.belot.view import sort_belot_hand
from p2pbelka.ui.gamewords import GameWords

WORDS = GameWords(
    name=SPEC.name,
    event_line=events.event_line,
    summary_line=events.summary_line,
    sort_hand=sort_belot_hand,
    words=rulewords.words,
)
