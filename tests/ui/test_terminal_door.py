"""The text-mode host's door: what it says of watchers, in the player's language."""

from __future__ import annotations

import pytest

from p2pbelka.cli.terminal_door import TerminalDoor
from p2pbelka.net.identity import Identity
from p2pbelka.peer.lan.events import JoinRequest, WatchersChanged
from p2pbelka.ui.words.i18n import set_language
from p2pbelka.ui.words.lobbylog import event_line

DANA = JoinRequest(Identity.generate("Dana").public_key, "Dana", "10.0.0.7", watcher=True)


async def _printed(event: object) -> None:
    pass


async def test_a_watcher_after_the_start_is_told_away_with_the_reason_on_the_host_s_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    set_language("en")  # another test may have left the screen in Kazakh
    door = TerminalDoor(_printed)  # type: ignore[arg-type]
    door._open.cancel()  # the game has started: the terminal is the game's
    assert await door.approve(DANA) is False
    out = capsys.readouterr().out
    assert "Dana [" in out and "turned away" in out and "--auto-approve" in out


@pytest.mark.parametrize(
    ("lang", "nobody", "two"),
    [
        ("en", "nobody is watching (8 more places)", "2 watching: Dana ["),
        ("ru", "никто не смотрит", "2 смотрят: Dana ["),
    ],
)
def test_the_host_s_text_mode_lists_its_watchers(lang: str, nobody: str, two: str) -> None:
    set_language(lang)
    try:
        empty = event_line(WatchersChanged((), 8))
        both = event_line(WatchersChanged((DANA, DANA), 6))
    finally:
        set_language("en")
    assert empty is not None and nobody in empty
    assert both is not None and two in both
