"""``p2pbelka resume`` on screen: a local table, or one LAN seat, back where it stopped.

A local game (``p2pbelka play``: you and bot peers on this machine) is kept in
the games directory until it ends (``peer.local_save``); :func:`resume_local`
reopens its table with every seat rebuilt from its own files.  A LAN seat is
rebuilt by ``peer.seat.resume_game`` as in text; :func:`resume_on_screen` shows
it on the same table screen.  Either way the screen is the saved game's own
(``ui/registry.py``).  Either way the screen is first filled from the
game so far (the front end shows a held table's replay at once), then the game
goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import trio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pbelka.net.identity import Identity
from p2pbelka.peer.lan import resume_game
from p2pbelka.peer.local_save import LocalSave, bring_up_to_date
from p2pbelka.peer.seat import GameResult, NetOptions
from p2pbelka.peer.store import GameStore
from p2pbelka.protocol.messages import TableMsg
from p2pbelka.rules.registry import DEFAULT
from p2pbelka.ui import registry
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.front import ScreenFrontEnd
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.play import Extra, PlayConfig, data_dir, new_transcript_path, play_local
from p2pbelka.ui.words.i18n import _, set_language


def resume_command(game_id: str) -> str:
    return f"p2pbelka resume {game_id[:12]}"


def how_to_come_back(game_id: str) -> str:
    """What a player who left a saved game is told."""
    return _("The game is saved. To go on with it, run: {command}").format(
        command=resume_command(game_id)
    )


def left_game(transcript: Path) -> str | None:
    """The line to print after ``play`` or ``resume`` closed the screen, if the local
    game whose transcript is ``transcript`` can go on."""
    save = LocalSave.of_transcript(transcript)
    return how_to_come_back(save.game_id) if save is not None else None


@dataclass
class Overrides:
    """What the command line may change in a resumed local game (None: as it was)."""

    lang: str | None = None
    pace: float | None = None
    coach: bool = False  # --coach: the coach's lines on each deal's page
    coach_worlds: int | None = None  # --coach-worlds: the deals it draws a decision


def resume_local(
    save: LocalSave,
    overrides: Overrides | None = None,
    *,
    input: Input | None = None,
    output: Output | None = None,
    extra: Extra | None = None,
) -> TableScreen:
    """Reopen the table of a saved local game and play on; return the screen.
    ``LookupError`` (before the screen opens) if it cannot go on, with the reason;
    ``StoreBusy`` if it is open in another program."""
    overrides = overrides or Overrides()
    save.hold()  # ``StoreBusy`` now if the game is open elsewhere, before touching files
    plan = save.load_plan()
    if not save.resumable():
        raise LookupError(f"game {plan.game_id[:12]} cannot go on: it is over or never began")
    if not plan.transcript:  # a game begun without one (tests): it gets one now
        plan.transcript = str(new_transcript_path(data_dir(), plan.game).resolve())
        save.save_plan(plan)
    transcript = Path(plan.transcript)
    bring_up_to_date(transcript, save.store(0).saved_transcript())
    config = PlayConfig(
        name=plan.names[0],
        seed=plan.seed,
        preset=plan.preset,
        options=dict(plan.options),
        bot_levels=tuple(plan.bots),
        pace=plan.pace if overrides.pace is None else overrides.pace,
        transcript=transcript,
        lang=overrides.lang or plan.lang,
        game=plan.game,
        players=len(plan.keys),
        resume=save.directory,
        coach=overrides.coach,
        coach_worlds=overrides.coach_worlds,
    )
    return play_local(config, input=input, output=output, extra=extra)


def seat_screen(
    store: GameStore, seat: int, *, input: Input | None = None, output: Output | None = None
) -> TableScreen:
    """The screen of the game saved in ``store`` (its first envelope, the host's table,
    says which game and how many seats)."""
    saved = store.saved_transcript()
    table = saved[0].msg if saved else None
    if isinstance(table, TableMsg):
        game, view = registry.new_view(table.game, len(table.seats))
    else:
        game, view = registry.new_view(DEFAULT)
    view.me, view.transcript_path = seat, str(store.transcript_path)
    return TableScreen(game, view, input=input, output=output)


def resume_on_screen(
    identity: Identity,
    store: GameStore,
    *,
    net: NetOptions | None = None,
    lang: str = "en",
    pace: float = 0.0,
    input: Input | None = None,
    output: Output | None = None,
    extra: Extra | None = None,
    auto_approve: bool = False,
    coach: bool = False,
    coach_worlds: int | None = None,
) -> tuple[TableScreen, GameResult | None]:
    """Rebuild a LAN seat from its files, reconnect, and play it on the table screen;
    the result is None if the player left before the end."""
    set_language(lang)
    meta = store.load_meta()
    screen = seat_screen(store, meta.seat, input=input, output=output)
    screen.coaching.on = coach
    screen.coaching.worlds = coach_worlds
    result: list[GameResult] = []

    async def main(bridge: Bridge) -> None:
        front = ScreenFrontEnd(screen, bridge, pace=pace, auto_approve=auto_approve)
        async with trio.open_nursery() as outer:
            if extra is not None:
                outer.start_soon(extra, screen)
            # a host's lobby reopens to its watchers; the same word lets new ones in
            resumed = resume_game(identity, store, front, net=net, auto_approve=auto_approve)
            result.append(await resumed)

    run_with_app(screen.app, main, screen.log_note)
    return screen, result[0] if result else None
