"""Playing one seat of a game over the mesh: the driver, the transcript, resume.

The lobby (``lan/``) seats the players; from the ``table`` envelope on, every
peer runs ``play_seat`` (a new game through ``newgame.py``): a ``Mesh`` to the
other seats, a ``PeerDriver`` for its table, the transcript and secrets in its
``GameStore``.  ``resume_game`` rebuilds a seat's table after a crash and goes
the same way.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import trio

from p2pbelka.net.connection import SecureChannel, serve_secure
from p2pbelka.net.discovery import DEFAULT_GROUP, DEFAULT_PORT
from p2pbelka.net.identity import Identity
from p2pbelka.peer.chat import CHAT_LOG, Chat, Chatting
from p2pbelka.peer.driver import FrontEnd
from p2pbelka.peer.mesh import LINK_SILENCE, MAX_MESH_FRAME, Mesh
from p2pbelka.peer.results import keep_result
from p2pbelka.peer.seatchange.runner import RunnerOptions, SeatChangeRunner, SeatRecords
from p2pbelka.peer.store import GameMeta, GameStore, now
from p2pbelka.peer.tableshare import TableShare, TableShared
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table.errors import OrderError
from p2pbelka.table.segments import SeedSources, resume_segments, split_segments
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)


def signer_of(identity: Identity) -> Signer:
    """The envelope signer of a persistent identity: the same Ed25519 key."""
    return Signer(identity.private_key)


@dataclass
class NetOptions:
    """Where a peer listens and how it behaves on the network (tests shrink the times)."""

    listen_host: str = "0.0.0.0"
    listen_port: int = 0  # the mesh listener; 0 = any free port
    lobby_port: int = 0  # the host's lobby listener
    advertise_port: int | None = None  # tell the others this mesh port (a relay in front)
    announce: bool = True
    group: str = DEFAULT_GROUP
    beacon_port: int = DEFAULT_PORT
    interface: str | None = None
    pause_after: float = 10.0
    give_up_after: float = 60.0  # the reconnect window: then a bot is offered, or the end
    seat_bots: bool = True  # offer to seat a bot for a seat gone past the window
    offer_timeout: float = 60.0  # how long an offer waits for the players' answers
    resend_after: float = 1.0
    link_silence: float = LINK_SILENCE  # a link silent this long while we ask is dead
    decide_limit: float = 900.0  # a player who has not moved for this long is given up on
    linger: float = 5.0
    share_results: bool = True  # at the game's end, share ladder results with the seats
    share_in_lobby: bool = True  # and in the lobby, before it (if share_results)
    reach_for: float = 60.0  # a joiner gives up on a host's lobby that is silent this long
    home: str | os.PathLike[str] | None = None  # the config dir (P2PBELKA_HOME by default)
    fresh_seeds: Callable[[], bytes] | None = None  # reproducible tests only
    fresh_nonces: Callable[[], bytes] | None = None  # a seat's table nonces: the same
    fresh_bots: Callable[[], bytes] | None = None  # the bots it seats for lost seats: the same
    sync: bool = True  # what the seat signs is on the disk (fsync) before it is sent
    table_id: bytes | None = None  # the host's lobby table id, reproducible games only
    # (the game id is not chosen: it is derived from every seat's nonce)
    watchers: int = 8  # a host: how many may watch at once (0: none)
    watcher_chat: str = "off"  # a host: who a watcher's lines reach ("off", "watchers")
    lang: str = ""  # the player's language, kept with the game for resume (only its code)

    def new_nonce(self) -> bytes:
        """A fresh nonce for one table (a lobby connection, a seat reclaimed)."""
        nonce = self.fresh_nonces() if self.fresh_nonces is not None else os.urandom(16)
        assert len(nonce) == m.NONCE_SIZE
        return nonce

    def runner_options(self, bot_level: str | None) -> RunnerOptions:
        """What the seat change's runner takes of these (``bot_level``: the seat's own
        bot's, for the bots it seats)."""
        return RunnerOptions(
            pause_after=self.pause_after,
            give_up_after=self.give_up_after,
            resend_after=self.resend_after,
            offer_timeout=self.offer_timeout,
            seat_bots=self.seat_bots,
            bot_level=bot_level,
            decide_limit=self.decide_limit,
            new_nonce=self.new_nonce,
            fresh_bots=self.fresh_bots,
        )


class SeatTap(Protocol):
    """What follows a seat's game from outside without ever holding it up (the host's
    watchers): told each record as the seat appends it to its transcript (and how many
    it keeps when it cuts the file back, taking its seat back), and given
    the game's chat, whose every line sent or accepted it then hears.  Each returns at
    once: the seat's own tasks call them."""

    def record(self, envelope: Envelope) -> None: ...

    def rewind(self, records: int) -> None: ...

    def follow(self, chat: Chat, *, resumed: bool = False) -> None: ...

    def over(self) -> None:
        """The seat's transcript is whole (its linger is over): nothing more comes."""


CATCH_UP = 3.0
"""Seconds a resumed peer gives the others to say whether its seat changed hands."""


# --- a game's end, and resuming one ------------------------------------------------------


@dataclass
class GameResult:
    seat: int
    game_id: bytes
    finished: bool
    aborted: bool
    transcript: list[Envelope]
    store: GameStore
    bytes_sent: int = 0
    frames_sent: int = 0
    cut_off: bool = False
    """The game stopped here, unfinished, because no other seat could be reached
    (``CutOff``): the others went on without this seat (at a table of two, the other
    seat stopped as this one did)."""
    players: int = 0
    """How many seats the game has."""
    split: bool = False
    """With ``cut_off``: half the table or more was out of reach (``CutOff.split``), so
    no seat could change hands and the game did not go on without this seat."""
    shared: TableShared | None = None
    """What the results' exchange at the game's end did (None: there was none)."""


async def resume_game(
    identity: Identity,
    store: GameStore,
    front_end: FrontEnd,
    *,
    net: NetOptions | None = None,
    tap: SeatTap | None = None,
) -> GameResult:
    """Rebuild the seat's table from its transcript and saved secrets, reconnect to
    the others (listening on the same port as before), fetch what it missed, and
    play on (``tap``: a resumed host's watchers, told each new record).
    ``OrderError`` if the saved transcript does not replay, ``StoreBusy`` if
    another program plays this game (before anything is read)."""
    store.hold()
    meta = store.load_meta()
    net = net or NetOptions()
    store.syncs = store.syncs and net.sync
    if bytes.fromhex(meta.keys[meta.seat]) != identity.public_key:
        raise OrderError("this game was played with another identity")
    table = resumed_table(signer_of(identity), store, net.fresh_seeds)
    writer = store.transcript_writer()
    if net.listen_port == 0:
        net.listen_port = meta.listen_port
        net.listen_host = meta.listen_host
    holder = MeshHolder()
    dial_all = False
    async with trio.open_nursery() as nursery:
        try:
            await nursery.start(serve_mesh, identity, net, holder)
        except OSError as exc:
            # The higher seats redial the old port in vain: we dial them instead.
            log.warning("cannot listen on port %d again: %s", net.listen_port, exc)
            net.listen_port = 0
            dial_all = True
            await nursery.start(serve_mesh, identity, net, holder)
        result = await play_seat(
            identity,
            table,
            meta,
            store,
            writer,
            front_end,
            net,
            holder,
            resumed=True,
            dial_all=dial_all,
            tap=tap,
        )
        nursery.cancel_scope.cancel()
    return result


def resumed_table(
    signer: Signer, store: GameStore, fresh: Callable[[], bytes] | None = None
) -> Table:
    """A seat's table rebuilt from its files: the transcript replayed (a tail that
    cannot be read is moved aside), then what the seat signed and kept handed back.
    The table is held: the others must first send back what the files lost, the
    seat's own last envelopes above all (the mesh releases it; see ``Mesh``)."""
    # Segment by segment if a seat changed hands (each from secrets of its own).
    table = resume_segments(
        signer, store.saved_transcript(), seed_sources=_segment_sources(store, fresh)
    )
    # What we signed before the crash stands: the table reuses each one when its turn
    # comes, never signs another for the same place.
    for envelope in store.saved_signed():
        table.receive_envelope(envelope)
    return table


# --- play ----------------------------------------------------------------------------


def _segment_sources(store: GameStore, fresh: Callable[[], bytes] | None) -> SeedSources:
    """Each segment's secrets from a file of its own (``GameStore.seed_source``), each
    opened once, when the segment first draws: a continuation heard and refused opens
    nothing."""
    opened: dict[bytes | None, Callable[[], bytes]] = {}

    def sources(segment: bytes | None) -> Callable[[], bytes]:
        def draw() -> bytes:
            if segment not in opened:
                opened[segment] = store.seed_source(fresh, segment=segment)
            return opened[segment]()

        return draw

    return sources


NO_GAME_YET = b"p2pbelka/v1 no game yet"
"""The game listener's context before the mesh exists: it matches no dialler."""


class MeshHolder:
    """The mesh listener starts before the mesh exists (its port goes in the hello),
    and before the game's id is known (it is derived from every seat's nonce when the
    host starts the game): the channels' context is the mesh's game id."""

    mesh: Mesh | None = None

    def context(self) -> bytes:
        return self.mesh.game_id if self.mesh is not None else NO_GAME_YET

    def authorize(self, key: bytes) -> bool:
        return self.mesh is not None and self.mesh.authorize(key)

    async def accept(self, channel: SecureChannel) -> None:
        if self.mesh is not None:
            await self.mesh.accept(channel)


async def serve_mesh(
    identity: Identity,
    net: NetOptions,
    holder: MeshHolder,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    await serve_secure(
        holder.accept,
        identity,
        host=net.listen_host,
        port=net.listen_port,
        context=holder.context,
        authorize=holder.authorize,
        max_frame_size=MAX_MESH_FRAME,
        task_status=task_status,
    )


def game_meta(
    game_id: bytes,
    seat: int,
    setup: m.TableMsg,
    peers: list[tuple[str, int]],
    net: NetOptions,
    mesh_port: int,
    bot: str | None,
    table_name: str,
) -> GameMeta:
    return GameMeta(
        game_id=game_id.hex(),
        seat=seat,
        keys=[s.key.hex() for s in setup.seats],
        names=[s.name for s in setup.seats],
        peers=peers,
        listen_host=net.listen_host,
        listen_port=mesh_port,
        bot=bot,
        table_name=table_name,
        started=now(),
        lang=net.lang,
    )


async def play_seat(
    identity: Identity,
    table: Table,
    meta: GameMeta,
    store: GameStore,
    writer: TranscriptWriter,
    front_end: FrontEnd,
    net: NetOptions,
    holder: MeshHolder,
    *,
    resumed: bool = False,
    dial_all: bool = False,
    tap: SeatTap | None = None,
) -> GameResult:
    mesh = _seat_mesh(identity, table, meta, net, resumed=resumed, dial_all=dial_all)
    holder.mesh = mesh
    earlier = split_segments(store.saved_transcript()) if resumed else []
    ids = [segment[0].game for segment in earlier]
    chat = _open_chat(identity, meta, mesh.keys, mesh, store, table.game_id, ids)
    if tap is not None:
        writer.taps.append(tap.record)
        writer.cut_taps.append(tap.rewind)
        tap.follow(chat, resumed=resumed)
    # The game's segments (a seat may change hands, seatchange/runner.py): the first is this table.
    segments = SeatChangeRunner(
        identity,
        mesh,
        front_end,
        SeatRecords(writer, journal=store, known=store, agreements=store),
        net.runner_options(meta.bot),
        seed_sources=_segment_sources(store, net.fresh_seeds),
        home_seat=meta.seat,
        names=meta.names,
        entered=chat.enter,
    )
    if resumed:  # the game so far (a new table's records reach it through the driver)
        segments.transcript += store.saved_transcript()
    driver = segments.start(table)
    sharer = (
        TableShare(mesh, store.directory.parent, identity.public_key, table.game_id)
        if net.share_results
        else None
    )
    shared = None
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(mesh.run)
            nursery.start_soon(store.keep_ahead)
            # a standing line the sending limit held back waits in the game's nursery
            with chat.waiting_in(nursery):
                if isinstance(front_end, Chatting):  # a bot's front end is left out
                    chat.attach(front_end)
                    nursery.start_soon(chat.deliver)
                if resumed:
                    # once the others gave back what this seat signed (the mesh's Release),
                    # the table speaks again, or (its seat is a bot's) the player watches
                    # and asks for the seat back
                    nursery.start_soon(segments.reclaim.catch_up, driver, CATCH_UP)
                table = await segments.play()
                await _stay_after_end(segments, mesh, table, net.linger)
                if tap is not None:
                    tap.over()  # the watchers get the game's end before any sharing
                if table.state.over or table.state.aborted:
                    # counted before sharing: the seats met here are no strangers then
                    game = segments.transcript
                    keep_result(table, signer_of(identity), store.transcript_path, "played", game)
                    if sharer is not None:
                        shared = await sharer.run(_others(mesh, _skipped(segments, table)))
            nursery.cancel_scope.cancel()
    finally:
        writer.close()
        store.close()
    _mark_if_finished(store, table)
    result = _result(meta, segments, mesh, table, store)
    result.shared = shared
    return result


def _others(mesh: Mesh, skip: set[int]) -> set[int]:
    """The seats to share results with: every other seat of another key, but ``skip``
    (found at fault, given up on)."""
    me = mesh.identity.public_key
    return {s for s, key in enumerate(mesh.keys) if key != me and s not in skip}


def _seat_mesh(
    identity: Identity,
    table: Table,
    meta: GameMeta,
    net: NetOptions,
    *,
    resumed: bool,
    dial_all: bool,
) -> Mesh:
    """The links of seat ``meta.seat`` to every other seat of the game."""
    return Mesh(
        identity,
        bytes.fromhex(meta.game_id),
        meta.seat,
        [bytes.fromhex(k) for k in meta.keys],
        meta.peers,
        source=table.view.envelopes_from,
        wants=table.view.wants,
        dial_all=dial_all,
        # A seat out of reach for half the reconnect window is taken for gone (a bot
        # may play it by now): the others' answers are then enough.
        hold=net.give_up_after / 2 if resumed else None,
        link_silence=net.link_silence,
    )


async def _stay_after_end(
    segments: SeatChangeRunner, mesh: Mesh, table: Table, linger: float
) -> None:
    """Linger on the mesh once the game ended, so the others get what they miss."""
    skip = _skipped(segments, table)
    async with trio.open_nursery() as after:
        # The table still takes what arrives while we stay: a proof may come.
        after.start_soon(segments.after_end)
        await mesh.linger(linger, skip, segments.settled)
        after.cancel_scope.cancel()


def _skipped(segments: SeatChangeRunner, table: Table) -> set[int]:
    """The seats nobody waits for at the end: found at fault, or given up on."""
    return {f.seat for f in table.view.faults} | segments.lost_seats


def _mark_if_finished(store: GameStore, table: Table) -> None:
    if table.state.over or table.state.aborted:
        # Why it ended, in the saved game too: a seat that could not sign has no
        # dispute of its own in the transcript.  (A game that stopped unfinished,
        # ``LEFT``, stays on ``resume``'s list.)
        store.mark_finished("; ".join(str(f) for f in table.view.faults if f.fatal))


def _result(
    meta: GameMeta, segments: SeatChangeRunner, mesh: Mesh, table: Table, store: GameStore
) -> GameResult:
    return GameResult(
        meta.seat,
        bytes.fromhex(meta.game_id),
        table.state.over,
        table.state.aborted,
        segments.transcript,
        store,
        mesh.bytes_sent,
        mesh.frames_sent,
        segments.stopped_alone,
        len(mesh.keys),
        segments.stopped_split,
    )


def _open_chat(
    identity: Identity,
    meta: GameMeta,
    keys: list[bytes],
    mesh: Mesh,
    store: GameStore,
    segment: bytes,
    earlier: list[bytes],
) -> Chat:
    """The table's chat, bound to the segment in play (``segment``; ``earlier``: the
    game's segments so far, whose saved lines are read back), kept beside the
    transcript; the mesh hands it what it hears."""
    chat = Chat(
        identity,
        segment,
        meta.seat,
        keys,
        meta.names,
        mesh.send_chat,
        log_path=store.directory / CHAT_LOG,
        earlier=earlier,
    )
    mesh.on_chat = chat.heard
    mesh.standing_chat = lambda: chat.standing
    return chat
