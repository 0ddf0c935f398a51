"""Peers in one process: trio tasks that exchange encoded envelopes over memory channels.

Each peer has its own keys, its own table (and so its own rules engine and
deck bookkeeping) and its own bot; the only thing that passes between them
is the bytes of signed envelopes, exactly as on the network.
"""

from __future__ import annotations

import math
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import trio

from p2pbelka.bots import Bot, make_bot
from p2pbelka.fairdeal.derive import new_seed
from p2pbelka.fairdeal.versions import FAIRDEAL_VERSION
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver, TranscriptSink
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.ids import game_id_of
from p2pbelka.rules import registry
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table

SILENCE_TIMEOUT = 10.0


@dataclass
class PeerResult:
    seat: int
    transcript: list[Envelope]
    events: list[ev.Event] = field(default_factory=list)
    finished: bool = False
    aborted: bool = False


@dataclass
class LocalGame:
    """The ingredients of one in-process game; ``make_tables`` builds the tables.  The
    game id is not among them: it is derived from every seat's nonce (``game_id``)."""

    signers: list[Signer]
    names: list[str]
    preset: str = "classic"
    options: dict[str, str] = field(default_factory=dict)
    seed_sources: list[Callable[[], bytes]] | None = None
    game: str = registry.DEFAULT
    """The game's name in the table description (``rules.registry`` knows its seats)."""
    fairdeal: int = FAIRDEAL_VERSION
    """The fair-deal version the table description names."""
    nonces: list[bytes] = field(default_factory=list)
    """Every seat's fresh nonce for this table, in seat order (drawn from the OS when
    none are given)."""

    def __post_init__(self) -> None:
        if not self.nonces:
            self.nonces = [os.urandom(m.NONCE_SIZE) for _ in self.signers]

    @property
    def game_id(self) -> bytes:
        """The game id the seats' nonces give (``protocol/ids.py``): nobody chose it."""
        return game_id_of(self.nonces)

    @classmethod
    def seeded(
        cls,
        seed: int | None,
        preset: str = "classic",
        options: dict[str, str] | None = None,
        *,
        game: str = registry.DEFAULT,
        players: int | None = None,
        fairdeal: int = FAIRDEAL_VERSION,
    ) -> LocalGame:
        """Keys, nonces and every deal seed from one integer (reproducible, for tests and
        demos only: a real peer draws its nonces and seeds from the OS); ``None`` draws
        them fresh.  ``players`` seats play ``game`` (by default as many as its table has
        when not said)."""
        if players is None:
            players = registry.spec(game).default_seats
        names = _names()[:players]
        if seed is None:
            signers = [Signer.generate() for _ in range(players)]
            return cls(signers, names, preset, options or {}, game=game, fairdeal=fairdeal)
        rng = random.Random(seed)
        signers = [Signer.from_seed(rng.randbytes(32)) for _ in range(players)]
        nonces = [rng.randbytes(m.NONCE_SIZE) for _ in range(players)]
        sources = [seed_stream(rng.randbytes(8)) for _ in range(players)]
        return cls(signers, names, preset, options or {}, sources, game, fairdeal, nonces)

    def setup(self) -> m.TableMsg:
        seats = tuple(
            m.SeatInfo(s.public_key, n) for s, n in zip(self.signers, self.names, strict=True)
        )
        options = dict(sorted(self.options.items()))
        return m.TableMsg(
            self.game, self.preset, options, seats, self.fairdeal, nonces=tuple(self.nonces)
        )

    def make_tables(self) -> list[Table]:
        tables = []
        for seat, signer in enumerate(self.signers):
            source = self.seed_sources[seat] if self.seed_sources is not None else new_seed
            if seat == 0:
                tables.append(Table.host(signer, self.setup(), seed_source=source))
            else:
                tables.append(
                    Table(
                        self.game_id,
                        signer=signer,
                        seed_source=source,
                        nonce=self.nonces[seat],
                    )
                )
        return tables


SEAT_NAMES = ("Asel", "Bolat", "Saule", "Nurlan")
"""Default names by seat.  People's names, not compass points: a screen may draw the
table turning either way, and East drawn on the left would only confuse."""


def _names() -> list[str]:
    return list(SEAT_NAMES)


def seed_stream(key: bytes) -> Callable[[], bytes]:
    """32-byte secrets drawn from a stream keyed by ``key``: the same every run (tests,
    vectors and demos only)."""
    rng = random.Random(key)
    return lambda: rng.randbytes(32)


class MemoryTransport:
    """Envelopes between in-process peers: one inbox channel per seat."""

    def __init__(
        self, inbox: trio.MemoryReceiveChannel[bytes], outboxes: list[trio.MemorySendChannel[bytes]]
    ) -> None:
        self.inbox = inbox
        self.outboxes = outboxes

    async def broadcast(self, raw: bytes) -> None:
        for outbox in self.outboxes:
            await outbox.send(raw)

    async def receive(self) -> bytes:
        return await self.inbox.receive()


def memory_transports(n: int) -> list[MemoryTransport]:
    channels = [trio.open_memory_channel[bytes](math.inf) for _ in range(n)]
    return [
        MemoryTransport(channels[seat][1], [channels[j][0] for j in range(n) if j != seat])
        for seat in range(n)
    ]


async def play_local_game(
    game: LocalGame,
    bots: Sequence[Bot] | None = None,
    *,
    tables: Sequence[Table] | None = None,
    silence_timeout: float = SILENCE_TIMEOUT,
    transcript: TranscriptSink | None = None,
) -> list[PeerResult]:
    """Play one game between in-process peers; return each peer's transcript and events.
    ``transcript`` receives seat 0's envelopes as they are accepted."""
    tables = list(tables) if tables is not None else game.make_tables()
    bots = (
        list(bots)
        if bots is not None
        else [make_bot("random", seat) for seat in range(len(tables))]
    )
    front_ends = [BotFrontEnd(bot) for bot in bots]
    transports = memory_transports(len(tables))
    first_done, all_done = trio.Event(), trio.Event()
    running = len(tables)

    async def run_until_done(driver: PeerDriver) -> None:
        nonlocal running
        await driver.run()
        running -= 1
        first_done.set()
        if running == 0:
            all_done.set()

    async with trio.open_nursery() as nursery:
        for seat, table in enumerate(tables):
            driver = PeerDriver(
                table,
                transports[seat],
                front_ends[seat],
                pause_after=silence_timeout / 2,
                give_up_after=silence_timeout,
                transcript=transcript if seat == 0 else None,
            )
            nursery.start_soon(run_until_done, driver)
        # A peer left waiting on itself (a dishonest one that never sends) would wait
        # forever: once one peer is done, the rest get a grace period.
        await first_done.wait()
        with trio.move_on_after(silence_timeout):
            await all_done.wait()
        nursery.cancel_scope.cancel()
    return [
        PeerResult(
            seat,
            list(table.view.transcript),
            front_ends[seat].events,
            finished=table.state.over,
            aborted=table.state.aborted,
        )
        for seat, table in enumerate(tables)
    ]
