"""Shared pieces for table tests: a seeded game run synchronously, with optional cheats."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from p2pbelka.bots import make_bot
from p2pbelka.fairdeal.secp256k1 import SECP256K1
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import Deliver, Fork, Tamper, resign, run_sync
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from p2pbelka.table.state import TableState


def play_sync(
    seed: int,
    *,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    states: dict[int, type[TableState]] | None = None,
    tamper: Tamper | None = None,
    deliver: Deliver | None = None,
    give_up: bool = False,
    until: Callable[[list[Table]], bool] | None = None,
    bot: str = "random",
    game_name: str = "belka",
    players: int = 4,
    fairdeal: int | None = None,
) -> tuple[list[Table], list[list[ev.Event]]]:
    versions = {} if fairdeal is None else {"fairdeal": fairdeal}
    game = LocalGame.seeded(seed, preset, options, game=game_name, players=players, **versions)
    tables = game.make_tables()
    for seat, kind in (states or {}).items():
        tables[seat] = _rebuild(game, seat, kind)
    bots = [make_bot(bot, seed * 10 + s) for s in range(players)]
    stop = (lambda events: until(tables)) if until is not None else None
    # every seat in this process: a product one seat's table computes (each audits the
    # same deal) is given to the others, as the simulator does (``remembering``)
    with SECP256K1.remembering():
        events = run_sync(tables, bots, tamper=tamper, deliver=deliver, give_up=give_up, until=stop)
    return tables, events


@dataclass(frozen=True)
class Played:
    """An honest seeded game of random bots, played to its end: what every seat holds."""

    transcripts: tuple[tuple[Envelope, ...], ...]
    events: tuple[tuple[ev.Event, ...], ...]
    over: tuple[bool, ...]


@functools.cache
def played(seed: int, game_name: str = "belka", players: int = 4) -> Played:
    """``play_sync(seed)`` of an honest game, played once per test process for every test
    that only reads it (the tests of the table, the watcher's screens, the watcher's
    decoding play the same few seeds); nothing in it can be changed by a test."""
    tables, events = play_sync(seed, game_name=game_name, players=players)
    return Played(
        tuple(tuple(t.view.transcript) for t in tables),
        tuple(tuple(log) for log in events),
        tuple(t.state.over for t in tables),
    )


SHORT_GAMES = {("belka", 4): 17, ("belot", 3): 1, ("belot", 2): 10}
"""For each game, a seed whose honest game between random bots is short: Belka's is won
in its second deal (140 records, where most seeds play 9 or 10 deals), Belot's are the
shortest of the first seeds.  A test of how a whole game ends plays it to its end."""


def short_seed(case: tuple[str, int]) -> int:
    return SHORT_GAMES[case]


def _rebuild(game: LocalGame, seat: int, state: type[TableState]) -> Table:
    """The same seat, same keys and seeds, but its phases' state a (dishonest) subclass."""
    assert game.seed_sources is not None
    source = game.seed_sources[seat]
    if seat == 0:
        return Table.host(game.signers[0], game.setup(), seed_source=source, state=state)
    signer, nonce = game.signers[seat], game.nonces[seat]
    return Table(game.game_id, signer=signer, nonce=nonce, seed_source=source, state=state)


def faults_of(events: list[ev.Event]) -> list[ev.Fault]:
    found: list[ev.Fault] = []
    for event in events:
        if isinstance(event, ev.GameAborted):
            found.extend(event.faults)
        elif isinstance(event, ev.FaultFound) and event.fault not in found:
            found.append(event.fault)
    return found


def honest(tables: list[Table], cheater: int) -> list[int]:
    return [s for s in range(len(tables)) if s != cheater]


Cheat = Callable[[Table], None]


__all__ = [
    "Fork",
    "Played",
    "faults_of",
    "honest",
    "play_sync",
    "played",
    "resign",
    "short_seed",
]
