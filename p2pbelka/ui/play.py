"""``p2pbelka play``: you in seat 0 and a bot peer in every other seat, each with its
own keys.

The bots are real peers: their own tables, keys and deck secrets, talking to
yours only through signed envelopes.  They run in this process and meet over
loopback TCP exactly as on a LAN, through the host's lobby
(``p2pbelka.peer.loopback``); memory channels (``--transport memory``) skip the
sockets.  Over loopback every seat, of either game, keeps its game on disk
(``p2pbelka.peer.local_save``) until it ends, so a game left or killed goes on
with ``p2pbelka resume``.
"""

from __future__ import annotations

import contextlib
import math
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import trio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pbelka.bots import levels, make_bot
from p2pbelka.peer.driver import BotFrontEnd, FrontEnd, PeerDriver
from p2pbelka.peer.lan import NetOptions
from p2pbelka.peer.local import LocalGame, memory_transports
from p2pbelka.peer.local_save import (
    LocalPlan,
    LocalSave,
    new_plan,
    play_saved_table,
    resume_saved_table,
)
from p2pbelka.peer.loopback import BOT_NAMES
from p2pbelka.peer.results import keep_saved
from p2pbelka.peer.store import games_root
from p2pbelka.protocol.envelope import Signer
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.rules.registry import DEFAULT, spec
from p2pbelka.ui import registry
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.front import ScreenFrontEnd
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.words.i18n import set_language

DEFAULT_LEVEL = "heuristic" if "heuristic" in levels() else "random"


@dataclass
class PlayConfig:
    name: str = "You"
    seed: int | None = None
    preset: str = "classic"
    options: dict[str, str] = field(default_factory=dict)
    bot_levels: Sequence[str] = (DEFAULT_LEVEL,) * 3
    pace: float = 0.7  # seconds each other player's card is shown before the next
    transcript: Path | None = None
    lang: str = "en"
    transport: str = "loopback"  # or "memory": in-process channels, no sockets
    game: str = DEFAULT  # a game's name in the rules registry
    players: int = spec(DEFAULT).default_seats  # the game's own counts (bots: one less)
    resume: Path | None = None  # a saved local game to continue (``peer.local_save``)
    coach: bool = False  # the coach's lines on each deal's page (``--coach``)
    coach_worlds: int | None = None  # the deals it draws a decision (None: its own number)
    owner: bytes | None = None
    """The player's own key (its Ed25519 seed), at seat 0 of an unseeded loopback table:
    its results count in the player's ladder (``peer.local_save.new_plan``)."""


def data_dir(environ: dict[str, str] | None = None) -> Path:
    """Where games are saved: ``$P2PBELKA_HOME/games``, else
    ``$XDG_DATA_HOME/p2pbelka/games``, else ``~/.local/share/...`` (``store.games_root``)."""
    return games_root(environ)


def new_transcript_path(directory: Path, game: str = DEFAULT) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = directory / f"{game}-{stamp}.transcript"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{game}-{stamp}-{n}.transcript"
    return path


# the bots never give up on the person in seat 0, who may think as long as they like
PATIENT = NetOptions(give_up_after=math.inf)


async def run_loopback_table(config: PlayConfig, front_end: FrontEnd, home: Path) -> None:
    """Play one game over real sockets on this machine: ``front_end`` in seat 0 and bot
    peers in the other seats, each with its own listener and game files under ``home``,
    kept there so the game can be resumed (``peer.local_save``)."""
    save = LocalSave(home)
    if not save.plan_path.exists():
        home.mkdir(parents=True, exist_ok=True)
        save.save_plan(plan_of(config))
    await play_saved_table(save, front_end, net=PATIENT)


async def run_resumed_table(config: PlayConfig, front_end: FrontEnd, home: Path) -> None:
    """Continue the saved local game in ``home`` where it stopped."""
    await resume_saved_table(LocalSave(home), front_end, net=PATIENT)


def plan_of(config: PlayConfig) -> LocalPlan:
    return new_plan(
        config.name,
        config.bot_levels,
        transcript=config.transcript.resolve() if config.transcript else None,
        seed=config.seed,
        preset=config.preset,
        options=config.options,
        game=config.game,
        pace=config.pace,
        lang=config.lang,
        owner=config.owner,
    )


async def run_memory_table(config: PlayConfig, front_end: FrontEnd, home: Path) -> None:
    """The same table over in-process memory channels: no sockets at all."""
    game = LocalGame.seeded(
        config.seed, config.preset, config.options, game=config.game, players=config.players
    )
    game.names = [config.name, *BOT_NAMES][: config.players]
    tables = game.make_tables()
    transports = memory_transports(config.players)
    drivers = [PeerDriver(tables[0], transports[0], front_end)]
    for seat in range(1, config.players):
        seed = None if config.seed is None else config.seed * 10 + seat
        bot = make_bot(config.bot_levels[seat - 1], seed)
        drivers.append(
            PeerDriver(tables[seat], transports[seat], BotFrontEnd(bot), give_up_after=math.inf)
        )
    async with trio.open_nursery() as nursery:
        for driver in drivers:
            nursery.start_soon(driver.run)


TRANSPORTS = {"loopback": run_loopback_table, "memory": run_memory_table}
Extra = Callable[[TableScreen], Awaitable[None]]


def play_local(
    config: PlayConfig,
    *,
    input: Input | None = None,
    output: Output | None = None,
    extra: Extra | None = None,
) -> TableScreen:
    """Open the table screen and play until the player quits; return the screen (its view
    holds the game as seen).  ``extra`` runs beside the game in trio (tests drive keys)."""
    set_language(config.lang)
    path = config.transcript or new_transcript_path(data_dir(), config.game)
    game, view = registry.new_view(config.game, config.players)
    view.me, view.transcript_path = 0, str(path)
    screen = TableScreen(game, view, input=input, output=output)
    screen.coaching.on = config.coach
    screen.coaching.worlds = config.coach_worlds
    run_table = run_resumed_table if config.resume else TRANSPORTS[config.transport]

    async def main(bridge: Bridge) -> None:
        front = ScreenFrontEnd(screen, bridge, pace=config.pace, transcript=writer)
        async with trio.open_nursery() as outer:
            if extra is not None:
                outer.start_soon(extra, screen)
            await run_table(config, front, Path(home))

    with TranscriptWriter(path) as writer, table_home(config, path) as home:
        run_with_app(screen.app, main, screen.log_note)
        LocalSave(home).settle(over=screen.view.finished)
    if screen.view.finished and config.owner is not None and config.transport == "loopback":
        keep_saved(path, Signer.from_seed(config.owner), path.parent)
    return screen


@contextlib.contextmanager
def table_home(config: PlayConfig, transcript: Path) -> Iterator[Path]:
    """Where the peers keep their game files: a saved game's directory (kept in the
    games directory until the game ends, so it can be resumed), or, for in-process
    channels, a temporary one."""
    if config.resume is not None:
        yield config.resume
    elif config.transport == "loopback":
        yield LocalSave.create(plan_of(replace(config, transcript=transcript))).directory
    else:
        with tempfile.TemporaryDirectory(prefix="p2pbelka-") as home:
            yield Path(home)
