"""The start of a new game at one seat, the same for the host, a joiner and a table
seated up front: the seat's game files, its table, its saved meta, then play.

What comes before differs (a lobby, or seats known in advance); from the table
description on, every seat goes the same way: a new ``GameStore`` under the game
id (refused if this machine knows the id), a seed source that refuses saved
secrets, the table built (the host signs the description, a joiner receives it),
the meta saved for ``resume_game``, then ``play_seat`` over the mesh listener the
seat opened before it sat down.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import FrontEnd
from p2pbelka.peer.seat import (
    GameResult,
    MeshHolder,
    NetOptions,
    SeatTap,
    game_meta,
    play_seat,
    signer_of,
)
from p2pbelka.peer.store import GameMeta, GameStore
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table.session import Table


@dataclass(frozen=True)
class Seating:
    """What was settled for this seat before its game: the game id, the table
    description, every seat's mesh address (seat order), where this peer's mesh
    listener took connections, the bot level that plays for it (None: its front
    end) and the table's name, kept in the meta."""

    game_id: bytes
    setup: m.TableMsg
    peers: list[tuple[str, int]]
    mesh_port: int
    bot: str | None
    table_name: str


@dataclass(frozen=True)
class NewSeat:
    """A seat's new game, its files made, its table built and its meta saved."""

    table: Table
    store: GameStore
    writer: TranscriptWriter
    meta: GameMeta

    @property
    def seat(self) -> int:
        return self.meta.seat


def host_seat(identity: Identity, net: NetOptions, seating: Seating) -> NewSeat:
    """The host's seat: it signs the table description, which is on its disk before
    anyone else has it (like everything the seat signs; the driver keeps the rest)."""
    store, writer = _new_files(seating.game_id, net)
    source = store.seed_source(net.fresh_seeds, new_game=True)
    table = Table.host(signer_of(identity), seating.setup, seed_source=source)
    new = _saved(table, store, writer, seating, net)
    store.keep(table.take_signed())
    store.sync()
    return new


def join_seat(
    identity: Identity, net: NetOptions, seating: Seating, nonce: bytes, table_raw: bytes
) -> NewSeat:
    """A joiner's seat: the host's table description (``table_raw``, checked by the
    caller: it seats us with our ``nonce``) received into a new table."""
    store, writer = _new_files(seating.game_id, net)
    source = store.seed_source(net.fresh_seeds, new_game=True)
    table = Table(seating.game_id, signer=signer_of(identity), seed_source=source, nonce=nonce)
    table.receive(table_raw)
    return _saved(table, store, writer, seating, net)


async def play_new_seat(
    identity: Identity,
    new: NewSeat,
    front_end: FrontEnd,
    net: NetOptions,
    holder: MeshHolder,
    tap: SeatTap | None = None,
) -> GameResult:
    """Play the new game until it ends, over the listener ``holder`` serves (``tap``:
    the host's watchers, fed what the seat records)."""
    return await play_seat(
        identity, new.table, new.meta, new.store, new.writer, front_end, net, holder, tap=tap
    )


def _new_files(game_id: bytes, net: NetOptions) -> tuple[GameStore, TranscriptWriter]:
    store = GameStore.create(game_id, net.home, sync=net.sync)
    return store, store.transcript_writer()


def _saved(
    table: Table, store: GameStore, writer: TranscriptWriter, seating: Seating, net: NetOptions
) -> NewSeat:
    assert table.state.me is not None  # the host's own table, or a description checked to seat us
    meta = game_meta(
        seating.game_id,
        table.state.me,
        seating.setup,
        seating.peers,
        net,
        seating.mesh_port,
        seating.bot,
        seating.table_name,
    )
    store.save_meta(meta)
    return NewSeat(table, store, writer, meta)
