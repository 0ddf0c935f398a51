"""Shared pieces for table tests: a seeded game run synchronously, with optional cheats."""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import Deliver, Fork, Tamper, resign, run_sync
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table


def play_sync(
    seed: int,
    *,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    table_types: dict[int, type[Table]] | None = None,
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
    for seat, cls in (table_types or {}).items():
        tables[seat] = _rebuild(game, seat, cls, tables)
    bots = [make_bot(bot, seed * 10 + s) for s in range(players)]
    stop = (lambda events: until(tables)) if until is not None else None
    events = run_sync(tables, bots, tamper=tamper, deliver=deliver, give_up=give_up, until=stop)
    return tables, events


def _rebuild(game: LocalGame, seat: int, cls: type[Table], tables: list[Table]) -> Table:
    """The same seat, same keys and seeds, but running a (dishonest) subclass."""
    assert game.seed_sources is not None
    kwargs = {"seed_source": game.seed_sources[seat]}
    if seat == 0:
        return cls.host(game.signers[0], game.setup(), **kwargs)
    return cls(game.game_id, signer=game.signers[seat], nonce=game.nonces[seat], **kwargs)


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


__all__ = ["Fork", "faults_of", "honest", "play_sync", "resign"]
