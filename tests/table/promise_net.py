"""The in-process world of the promise property: seats' nodes and the links between them.

Sans-IO all through: every seat is a real ``Table`` with a seeded bot, and this
module moves the bytes.  A ``Network`` holds one queue per (sender, recipient)
link, so what a seat sends can differ by recipient (the cheaters' routing,
``promise_cheats.py``); honest links keep their order, as TCP does, while the
links are served in an order the test's random stream picks.

A ``Node`` is one seat's peer: its table, the file it writes (every accepted
envelope, all segments of one game), what it signed, what reached it, and what
of that is durable (``Disk``): the rule a peer's driver follows, one group commit
before anything leaves, so everything the seat had accepted and signed before its
last send is on its disk, and a power cut loses only what came after.  The
secrets are durable as drawn, a source of their own for each segment
(``Secrets``, of ``crash.Recorded``).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from p2pbelka.bots.common.seat import Bot
from p2pbelka.peer.sync import answer
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.segments import resume_segments
from p2pbelka.table.session import Table
from tests.table.crash import Recorded


@dataclass
class Packet:
    number: int
    source: int
    dest: int
    raw: bytes


class Network:
    """One queue per link; ``pop`` serves the oldest packet mostly, else the head of a
    link picked at random (a late link: packets from different seats arrive in any
    order, each link's in the order sent)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.links: dict[tuple[int, int], deque[Packet]] = {}
        self._numbers = 0
        self.delivered = 0

    def send(self, source: int, dest: int, raw: bytes) -> None:
        self._numbers += 1
        link = self.links.setdefault((source, dest), deque())
        link.append(Packet(self._numbers, source, dest, raw))

    def pending(self) -> bool:
        return any(self.links.values())

    def pop(self) -> Packet | None:
        busy = [link for link in self.links.values() if link]
        if not busy:
            return None
        if self.rng.random() < 0.75:
            link = min(busy, key=lambda q: q[0].number)
        else:
            link = self.rng.choice(busy)
        self.delivered += 1
        return link.popleft()

    def drop_to(self, dest: int) -> None:
        """A seat that lost power gets nothing of what was on its way."""
        for (_, to), link in self.links.items():
            if to == dest:
                link.clear()

    def clear(self) -> None:
        for link in self.links.values():
            link.clear()


def opened(raw: bytes) -> Envelope | None:
    try:
        return open_envelope(raw)
    except ProtocolError:
        return None


Place = tuple[bytes, bytes, int]
"""(segment id, sender key, seq): a place in a chain."""


@dataclass
class Incarnation:
    """One table a node ran (a power cut ends one, a seat change starts the next), and
    every envelope that reached it: what the property's equivocation check reads."""

    table: Table
    segment: int
    """Which segment of the game (0 first; a seat change starts the next)."""
    held: dict[Place, dict[bytes, Envelope]] = field(default_factory=dict)
    late: set[bytes] = field(default_factory=set)
    """What reached the table after it had finished (a finished table takes nothing)."""
    events: list[ev.Event] = field(default_factory=list)
    lost: bool = False
    """The seat was lost for good (its seat changed hands) while this table ran."""

    def hold(self, envelope: Envelope) -> None:
        place = (envelope.game, envelope.sender, envelope.seq)
        versions = self.held.setdefault(place, {})
        if envelope.digest not in versions and self.table.finished:
            self.late.add(envelope.digest)
        versions[envelope.digest] = envelope


@dataclass
class Disk:
    """What a node's files hold durably: the first ``file`` records of its transcript
    and the first ``journal`` of what it signed."""

    file: int = 0
    journal: int = 0


class Secrets:
    """A seat's secrets as its peer keeps them: one recorded source per segment it sat
    in (None: the game's first), replayed segment by segment on resume."""

    def __init__(self) -> None:
        self.by_segment: dict[bytes | None, Recorded] = {}

    def new(self, segment: bytes | None, stream: Callable[[], bytes]) -> Recorded:
        source = self.by_segment[segment] = Recorded(stream)
        return source

    def replaying(self) -> Callable[[bytes | None], Callable[[], bytes]]:
        """``resume_segments``'s sources: each segment's values again, in order (one the
        seat did not sit in draws nothing)."""
        return lambda segment: (
            self.by_segment[segment].replaying() if segment in self.by_segment else _none
        )

    def __repr__(self) -> str:
        return f"Secrets({len(self.by_segment)} segments)"


def _none() -> bytes:
    raise AssertionError("a seat drew a secret in a segment it did not sit in")


@dataclass
class Node:
    seat: int
    honest: bool
    signer: Signer
    bot: Bot
    secrets: Secrets
    table: Table
    disk: Disk
    file: list[Envelope] = field(default_factory=list)
    journal: list[Envelope] = field(default_factory=list)
    up: bool = True
    lost: bool = False
    sends: int = 0
    incarnations: list[Incarnation] = field(default_factory=list)

    @property
    def now(self) -> Incarnation:
        return self.incarnations[-1]

    def start(self, table: Table, segment: int) -> None:
        self.table = table
        self.incarnations.append(Incarnation(table, segment))

    def receive(self, raw: bytes) -> None:
        envelope = opened(raw)
        if envelope is None:
            self.table.receive(raw)  # refused, naming why
            return
        self.now.hold(envelope)
        self.table.receive_envelope(envelope)

    # -- the local seat's part: the driver's flush, without trio --------------------------

    def pump(self, moves: Callable[[Table, ev.ChoiceNeeded], None] | None = None) -> list[bytes]:
        """What the table sends until it is quiet, answering its questions with the bot
        (or ``moves``), keeping the file and the journal as a driver does and making
        them durable before each send."""
        sent: list[bytes] = []
        table = self.table
        while True:
            self.file += table.take_accepted()
            signed = table.take_signed()
            self.journal += signed
            outgoing = table.take_outgoing()
            new = table.take_events()
            if not outgoing and not new:
                if not table.deferred:
                    return sent
                table.proceed()
                continue
            if outgoing or signed:
                self.disk.file, self.disk.journal = len(self.file), len(self.journal)
            sent += outgoing
            self.sends += len(outgoing)
            for event in new:
                self.now.events.append(event)
                if isinstance(event, ev.ChoiceNeeded):
                    if moves is not None:
                        moves(table, event)
                    else:
                        table.apply(answer(self.bot, table, event))

    # -- a power cut -------------------------------------------------------------------------

    def cut(self) -> None:
        """The power goes: the table is gone, the files keep what was durable."""
        self.up = False
        self.file = self.file[: self.disk.file]
        self.journal = self.journal[: self.disk.journal]

    def can_resume(self) -> bool:
        return bool(self.file)

    def has_sent(self) -> bool:
        """Whether anything of it is durable yet (a cut before that is no resume)."""
        return self.disk.file > 0

    def resume(self, segment: int) -> None:
        """Rebuild the table from the files, as ``p2pbelka resume`` does
        (``peer.seat.resumed_table``): held until the others answered."""
        table = resume_segments(self.signer, self.file, seed_sources=self.secrets.replaying())
        self.start(table, segment)
        for envelope in [*self.file, *self.journal]:
            self.now.hold(envelope)
        for envelope in self.journal:
            table.receive_envelope(envelope)
        self.up = True


def answer_resend(table: Table, asker: int, wants: Iterable[int]) -> list[bytes]:
    """An honest peer's answer to a resend request (the mesh's): what it holds of each
    chain from the asker's first missing seq, the asker's own ending with the newest."""
    out: list[bytes] = []
    for seat, seq in enumerate(wants):
        out += table.view.envelopes_from(seat, seq, newest=seat == asker)
    return out


def is_final_deal_end(table: Table, envelope: Envelope) -> bool:
    """``envelope`` (the local seat's, just sent) is its ``deal_end`` of the game's last
    deal: the audit before it found the game won."""
    return (
        isinstance(envelope.msg, m.DealEndMsg)
        and table.state.started
        and table.state.track.finished
        and not table.state.aborted
    )
