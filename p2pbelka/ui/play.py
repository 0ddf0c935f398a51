"""``p2pbelka play``: you in seat 0 and three bot peers, each with its own keys
(Belot: one or two).

The bots are real peers: their own tables, keys and deck secrets, talking to
yours only through signed envelopes.  They run in this process and meet over
loopback TCP exactly as on a LAN (``p2pbelka.peer.loopback``; Belot's table,
whose seats are all known here, skips the lobby: ``p2pbelka.peer.meshtable``);
memory channels (``--transport memory``) skip the sockets.
"""

from __future__ import annotations

import math
import random
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pbelka.bots.base import BOT_LEVELS, make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, FrontEnd, PeerDriver
from p2pbelka.peer.lan import NetOptions
from p2pbelka.peer.local import LocalGame, memory_transports
from p2pbelka.peer.loopback import BOT_NAMES, loopback_table
from p2pbelka.peer.meshtable import mesh_table, seeded_identities
from p2pbelka.peer.store import data_home
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.rules.game import GAME, SEATS
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.belot_app import BelotScreen
from p2pbelka.ui.belot_view import BelotView
from p2pbelka.ui.front import ScreenFrontEnd
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.i18n import set_language
from p2pbelka.ui.view import TableView

DEFAULT_LEVEL = "heuristic" if "heuristic" in BOT_LEVELS else "random"


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
    game: str = GAME  # or "belot"
    players: int = SEATS  # Belot: 2 or 3 (``bot_levels`` then holds one or two)


def data_dir(environ: dict[str, str] | None = None) -> Path:
    """Where games are saved: ``$XDG_DATA_HOME/p2pbelka/games``, else ``~/.local/share/...``."""
    return data_home(environ) / "games"


def new_transcript_path(directory: Path, game: str = GAME) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = directory / f"{game}-{stamp}.transcript"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{game}-{stamp}-{n}.transcript"
    return path


async def run_loopback_table(config: PlayConfig, front_end: FrontEnd, home: Path) -> None:
    """Play one game over real sockets on this machine: ``front_end`` in seat 0 and bot
    peers in seats 1-3, each with its own listener and game files under ``home``."""
    if config.game != GAME:
        return await run_mesh_table(config, front_end, home)
    if config.seed is None:
        identity = Identity.generate(config.name)
    else:
        identity = Identity.from_seed(random.Random(config.seed).randbytes(32), config.name)
    await loopback_table(
        front_end,
        config.bot_levels,
        preset=config.preset,
        options=config.options,
        seed=config.seed,
        transcript_dir=home,
        identity=identity,
        # the bots never give up on the person in seat 0, who may think as long as they like
        net=NetOptions(give_up_after=math.inf),
    )


async def run_mesh_table(config: PlayConfig, front_end: FrontEnd, home: Path) -> None:
    """A table of ``config.players`` seats over sockets on this machine, seated without
    a lobby (Belot: the LAN lobby seats four)."""
    names = [config.name, *BOT_NAMES][: config.players]
    ids, game_id, fresh = seeded_identities(names, config.seed)
    front_ends: list[FrontEnd] = [front_end]
    for seat in range(1, config.players):
        seed = None if config.seed is None else config.seed * 10 + seat
        front_ends.append(BotFrontEnd(make_bot(config.bot_levels[seat - 1], seed)))
    await mesh_table(
        ids,
        front_ends,
        game=config.game,
        home=home,
        preset=config.preset,
        options=config.options,
        game_id=game_id,
        fresh_seeds=fresh,
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
    screen: TableScreen
    if config.game == GAME:
        view = TableView(me=0, transcript_path=str(path))
        screen = TableScreen(view, lambda action: None, input=input, output=output)
    else:
        belot = BelotView(me=0, players=config.players, transcript_path=str(path))
        screen = BelotScreen(belot, lambda action: None, input=input, output=output)
    run_table = TRANSPORTS[config.transport]

    async def main(bridge: Bridge) -> None:
        front = ScreenFrontEnd(screen, bridge, pace=config.pace, transcript=writer)
        async with trio.open_nursery() as outer:
            if extra is not None:
                outer.start_soon(extra, screen)
            await run_table(config, front, Path(home))

    # The peers' own game files (keys' secrets, per-seat stores) live only as long as
    # the game: bots cannot be resumed, and the player's transcript is saved apart.
    with TranscriptWriter(path) as writer, tempfile.TemporaryDirectory(prefix="p2pbelka-") as home:
        run_with_app(screen.app, main)
    return screen
