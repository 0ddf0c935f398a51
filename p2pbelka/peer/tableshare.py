"""Sharing results at a table's end: once a seat's game is over, counted in its ledger
and its linger done, it runs the exchange of ``ladder/share.py`` with every other seat
still linked, each message wrapped in a ``ladder`` control message on the game's own
link (protocol/SPEC.md 7.3, results.md section 6), and counts what came, each
certificate checked first.

Only seated keys hold a game link (the mesh's listener and dialler pin them), so only
the players of this table can offer anything.  Everything is bounded: the exchange's
own counts and bytes, at most ``EARLY`` messages kept from a seat before this side
begins, ``STALL`` seconds for a seat's next message, and ``SHARE_TIME`` seconds for it
all; a peer that breaks the exchange, or is
slow, or is gone, ends its part only, logged.  The game is over by then: nothing here
can change it, nor make its end fail.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import trio

from p2pbelka.ladder.ledger import Ledger, ledger_path
from p2pbelka.ladder.share import ShareError, Sharing, unwrap, wrap
from p2pbelka.peer import disk
from p2pbelka.peer.mesh import FRAME_OVERHEAD, Mesh
from p2pbelka.peer.share import STALL, Shared, count_received

log = logging.getLogger(__name__)

SHARE_TIME = 20.0
"""Seconds the exchange at a table's end may take at most (1,000 results take a few)."""
EARLY = 2
"""Wrapped messages kept from one seat before this side begins (its ``have`` is the
only one it may send before it heard ours); more are ignored."""


@dataclass
class TableShared:
    """What the exchange at a table did: one ``Shared`` a seat shared with, the bytes
    this side sent (framing included), and how long it took."""

    peers: list[Shared] = field(default_factory=list)
    sent: int = 0
    seconds: float = 0.0

    @property
    def came(self) -> int:
        return sum(p.came for p in self.peers)

    @property
    def counted(self) -> int:
        return sum(p.counted for p in self.peers)


class TableShare:
    """One seat's side of the exchanges at its table's end.  Made with the mesh, so that
    a seat that finishes first and sends its ``have`` is heard; ``run`` then shares."""

    def __init__(self, mesh: Mesh, games: Path, owner: bytes, game_id: bytes) -> None:
        self.mesh = mesh
        self.path = ledger_path(games)
        self.owner = owner
        # the game just played is asked for even though it is held: each side keeps
        # the earlier certificate of it, so both print the same "last played"
        self.also = frozenset({game_id})
        self.limit = SHARE_TIME
        self.done = TableShared()
        self._early: dict[int, list[bytes]] = {}
        self._sharing: dict[int, Sharing] = {}
        self._ended: dict[int, str] = {}
        self._heard: dict[int, float] = {}  # when each seat's last message came
        self._started = False  # the ledger was read: no more early messages kept
        self._opened = False  # every exchange began: the last one to end says so
        self._all_ended = trio.Event()
        mesh.on_ladder = self.heard

    def heard(self, seat: int, payload: bytes) -> None:
        """A wrapped message from ``seat`` (the mesh's receiving task: never blocks)."""
        if seat in self._ended:
            log.info("ignored a results message from seat %d: its exchange is over", seat)
            return
        sharing = self._sharing.get(seat)
        if sharing is None:
            early = self._early.setdefault(seat, [])
            if self._started or len(early) >= EARLY:
                log.info("ignored a results message from seat %d: not asked for now", seat)
            else:
                early.append(payload)
            return
        try:
            answer = sharing.receive(unwrap(payload))
        except ShareError as exc:
            self._end(seat, f"the peer {exc}")
            return
        self._heard[seat] = trio.current_time()
        self._send(seat, answer)
        if sharing.done:
            self._end(seat, "")

    def _send(self, seat: int, messages: list[bytes]) -> None:
        for message in messages:
            wrapped = wrap(message)
            if not self.mesh.send_newest(seat, wrapped):
                self._end(seat, "the exchange stopped: the link is down")
                return
            self.done.sent += len(wrapped) + FRAME_OVERHEAD

    def _end(self, seat: int, error: str) -> None:
        if seat in self._ended:
            return
        self._ended[seat] = error
        if self._opened and set(self._sharing) <= set(self._ended):
            self._all_ended.set()

    async def run(self, seats: Iterable[int]) -> TableShared:
        """Share with each of ``seats`` that has a link up, at most ``limit`` seconds,
        then count what came (sqlite and the checks run where they may block: a worker
        thread, or the simulator's disk)."""
        start = trio.current_time()
        held = await disk.current().blocking(self._held)
        self._started = True
        if held is None:
            return self.done
        for seat in sorted(seats):
            if self.mesh.links_to(seat):
                self._heard[seat] = trio.current_time()
                self._sharing[seat] = sharing = Sharing(held, self.also)
                self._send(seat, sharing.start())
                for payload in self._early.pop(seat, []):
                    self.heard(seat, payload)
        self._opened = True
        if set(self._sharing) <= set(self._ended):
            self._all_ended.set()
        with trio.move_on_after(self.limit):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._watch_links)
                nursery.start_soon(self._watch_stalls)
                await self._all_ended.wait()
                nursery.cancel_scope.cancel()
        for seat in self._sharing:
            self._end(seat, "the exchange stopped: too slow")
        await self.mesh.flushed(1.0)  # our last messages leave before the links close
        await disk.current().blocking(self._count)
        self.done.seconds = trio.current_time() - start
        return self.done

    async def _watch_links(self) -> None:
        """End the part of a seat whose links are all down (its program left)."""
        while True:
            for seat in self._sharing:
                if not self.mesh.links_to(seat):
                    self._end(seat, "the exchange stopped: the link is down")
            await self.mesh.changed()

    async def _watch_stalls(self) -> None:
        """End the part of a seat that sent nothing for ``STALL`` seconds while this side
        still waits for its messages: a silent seat holds the others' exit that long,
        not the whole ``limit`` (every message it may send moves the exchange on: a
        ``certs`` carries at least one certificate it was asked for)."""
        while True:
            waiting = {
                seat: heard + STALL
                for seat, heard in self._heard.items()
                if seat not in self._ended and not self._sharing[seat].got_all
            }
            now = trio.current_time()
            for seat, until in waiting.items():
                if until <= now:
                    self._end(seat, f"the exchange stopped: no word for {STALL:g} s")
            soonest = min((u for u in waiting.values() if u > now), default=now + STALL)
            await trio.sleep_until(soonest)

    def _held(self) -> dict[bytes, bytes] | None:
        try:
            with Ledger(self.path, self.owner) as ledger:
                held = dict(ledger.certificates())
                _log_notes(ledger.notes)
                return held
        except (OSError, sqlite3.Error) as exc:
            log.warning("%s: no results shared: %s", self.path, exc)
            return None

    def _count(self) -> None:
        try:
            with Ledger(self.path, self.owner) as ledger:
                for seat, sharing in sorted(self._sharing.items()):
                    shared = Shared(self.mesh.keys[seat], error=self._ended[seat])
                    count_received(ledger, sharing, shared)
                    self.done.peers.append(shared)
                    _log_shared(seat, shared)
        except (OSError, sqlite3.Error) as exc:
            log.warning("%s: the results shared could not be counted: %s", self.path, exc)


def _log_shared(seat: int, shared: Shared) -> None:
    log.info("results shared with seat %d: %d came, %d counted", seat, shared.came, shared.counted)
    if shared.error:
        log.warning("results shared with seat %d: %s", seat, shared.error)
    _log_notes(shared.notes)


def _log_notes(notes: list[str]) -> None:
    for note in notes:
        log.warning("ladder: %s", note)
