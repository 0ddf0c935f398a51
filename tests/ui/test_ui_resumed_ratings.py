"""The game-end page of a seat whose program was restarted after a seat changed hands
rates the players who sat down at the start (protocol/results.md 1.1), as the page of
a seat that never restarted does: not the bot that held a seat when it came back."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.ladder.ledger import Ledger
from p2pbelka.table import events as ev
from p2pbelka.table.segments import resume_segments
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.games.belka.screen import UI as BELKA
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.words import i18n
from tests.table.crash import catch_up
from tests.table.seatloss import CHANGED, crash_a_deal_after_the_change, first_seed


def _ratings(events: list[ev.Event], me: int) -> tuple[BelkaView, str]:
    """Seat ``me``'s view fed ``events``, and its game-end page's ratings lines."""
    view = BelkaView(me=me)
    for event in events:
        view.apply(event)
    lines = TableScreen(BELKA, view)._ratings(BELKA)
    return view, "".join(text for _style, text, *_ in lines)


def test_a_seat_resumed_after_the_change_rates_the_players_who_sat_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    i18n.set_language("en")
    monkeypatch.setenv("P2PBELKA_HOME", str(tmp_path))
    Ledger(tmp_path / "ladder.sqlite").close()  # an empty ledger: every player is new
    crash = first_seed(crash_a_deal_after_the_change, range(12, 44), "a game on at the crash")
    game = crash.game
    seated = game.tables[0].state.previous
    assert seated is not None
    started = seated.setup.seats  # the first segment's table: who sat down
    # seat 1's program restarts: its view is built afresh from what the resume replays
    resumed = resume_segments(crash.signer, game.files[1], seed_sources=crash.recorded.replaying())
    game.events[1] = resumed.take_events()
    catch_up(resumed, [t for s, t in enumerate(game.tables) if s != 1])
    resumed.release()
    game.tables[1] = resumed
    game.settle([0, 1, 2, 3])
    assert all(t.state.over for t in game.tables)
    kept, kept_lines = _ratings(game.events[0], 0)
    back, back_lines = _ratings(game.events[1], 1)
    assert back.keys[CHANGED] != started[CHANGED].key  # the bot holds the seat at the end
    assert kept.first_keys == back.first_keys == [s.key for s in started]
    assert kept.first_names == back.first_names == [s.name for s in started]
    assert back_lines == kept_lines and started[CHANGED].name in back_lines, back_lines
    assert "Bot" not in back_lines
