"""Seat-change machines (``SeatChange``) of real tables on a made-up network, no trio.

``Net`` holds one machine per seat that is still here, each beside its seat's real
table (``tests/table/seatloss.py`` loses a seat for good).  It does what a runner
does with the machines' effects: a broadcast reaches every other machine still
linked (``cut`` leaves one out), a question is answered by the seat's player
(``answers``: yes, no, or None for never), a proposer's word that its offer is
closed reaches the seat it is sent to (the other messages sent to one seat are
only kept), a switch is kept, and the proposer's
sealed ``table`` envelope reaches the others as the mesh would route it.  The
clock is the test's: ``run`` advances it and ticks every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from p2pbelka.peer.seatchange.effects import (
    AskPlayer,
    BotGoesOn,
    Broadcast,
    Closed,
    Config,
    Freeze,
    Identities,
    Kept,
    Remember,
    Replaced,
    SendTo,
    Switch,
    Thaw,
)
from p2pbelka.peer.seatchange.machine import SeatChange
from p2pbelka.protocol.envelope import Signer
from p2pbelka.protocol.lobby import is_envelope
from p2pbelka.protocol.seatchange import (
    Agree,
    ClosedOffer,
    Decline,
    Offer,
    SeatChangeMsg,
    decode_seat_change,
)
from p2pbelka.table.session import Table

OFFER_TIMEOUT = 30.0
GIVE_UP = 5.0


def seed_sources(seat: int) -> Callable[[bytes | None], Callable[[], bytes]]:
    """Each segment's own stream of secrets for ``seat``, reproducible."""

    def source(segment: bytes | None) -> Callable[[], bytes]:
        rng = random.Random(bytes([seat]) + (segment or b"first"))
        return lambda: rng.randbytes(32)

    return source


def machine_of(table: Table, seat: int, *, bot_seed: int = 1) -> SeatChange:
    """``table``'s seat ``seat`` (its own key, as the test holds every key)."""
    assert table.state.setup is not None
    signer = table._signer
    assert signer is not None
    nonces = random.Random(f"nonces of seat {seat}")
    bots = random.Random(f"bots of seat {seat} {bot_seed}")
    known: set[bytes] = set()
    ids = Identities(
        signer,
        [s.key for s in table.state.setup.seats],
        seat,
        [s.name for s in table.state.setup.seats],
        seed_sources(seat),
        known.__contains__,
        lambda: nonces.randbytes(16),
        new_bot=lambda: Signer.from_seed(bots.randbytes(32)),
        bot_seeds=lambda: bots.randbytes(32),
    )
    change = SeatChange(ids, Config(OFFER_TIMEOUT, GIVE_UP))
    change.strict = True  # an undeclared transition fails the test
    change.enter(table, {})
    return change


@dataclass
class Node:
    """One seat's machine, and what its runner did with its effects."""

    seat: int
    change: SeatChange
    answer: bool | None = True
    switched: Switch | None = None
    closed: list[Closed] = field(default_factory=list)
    asked: list[AskPlayer] = field(default_factory=list)
    sent: list[SeatChangeMsg] = field(default_factory=list)
    frozen: bool = False
    remembered: list[bytes] = field(default_factory=list)
    replaced: int = 0
    told: list[tuple[int, SeatChangeMsg]] = field(default_factory=list)
    """Messages sent to one seat alone (``SendTo``), with the seat."""
    goes_on: list[int] = field(default_factory=list)
    """Seats whose bot was told to play on (``BotGoesOn``)."""
    kept: list[Kept] = field(default_factory=list)


class Net:
    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = {n.seat: n for n in nodes}
        self.now = 0.0
        self.cut: set[int] = set()
        """Seats no message reaches and none leaves (a second loss)."""
        self.deaf: set[int] = set()
        """Seats no message reaches (what they send goes out)."""
        self.apart: set[frozenset[int]] = set()
        """Pairs of seats with no link between them (a line of links): nothing goes
        from one to the other, either way."""
        self.sealed: list[bytes] = []
        """The continuations' ``table`` envelopes, as the mesh would route them."""

    def node(self, seat: int) -> Node:
        return self.nodes[seat]

    def lost(self, seat: int, silent: float = GIVE_UP) -> dict[int, bool]:
        """Every node's driver gives up on ``seat``: what each machine said."""
        said = {s: n.change.lost([seat], silent, self.now) for s, n in self.nodes.items()}
        self.settle()
        return said

    def settle(self) -> None:
        """Carry out every effect until no machine has any left."""
        busy = True
        while busy:
            busy = False
            for node in list(self.nodes.values()):
                for effect in node.change.take():
                    busy = True
                    self._do(node, effect)

    def run(self, seconds: float, every: float = 0.5) -> None:
        """Let ``seconds`` pass, ticking every machine ``every`` seconds."""
        end = self.now + seconds
        while self.now < end:
            self.now = min(end, self.now + every)
            for node in self.nodes.values():
                node.change.tick(self.now)
            self.settle()

    def deliver(self, sender: int, msg: SeatChangeMsg, to: list[int] | None = None) -> None:
        """``msg`` as if ``sender``'s peer sent it (to ``to``, or every linked node)."""
        for seat, node in self.nodes.items():
            if seat == sender or (to is not None and seat not in to):
                continue
            if seat in self.cut or (seat in self.deaf and to is None):
                continue
            if frozenset((sender, seat)) in self.apart:
                continue
            if isinstance(msg, Offer | Agree | Decline | ClosedOffer):
                node.change.heard(sender, msg, self.now)
        self.settle()

    def _do(self, node: Node, effect: object) -> None:
        if isinstance(effect, Broadcast):
            msg = decode_seat_change(effect.payload)
            node.sent.append(msg)
            if node.seat not in self.cut:
                self.deliver(node.seat, msg)
        elif isinstance(effect, AskPlayer):
            node.asked.append(effect)
            if node.answer is not None:
                node.change.answered(effect.ask, node.answer, self.now)
        elif isinstance(effect, Switch):
            node.switched = effect
            if effect.table.state.me == effect.table.state.host_seat:  # the proposer sealed it
                raw = effect.table.view.transcript[0].raw
                self.sealed.append(raw)
                for other in self.nodes.values():
                    if other is not node and other.seat not in self.cut:
                        other.change.seen(raw, None)
        elif isinstance(effect, Closed):
            node.closed.append(effect)
        elif isinstance(effect, Freeze):
            node.frozen = True
        elif isinstance(effect, Thaw):
            node.frozen = False
        elif isinstance(effect, Remember):
            node.remembered.append(effect.segment)
        elif isinstance(effect, Replaced):
            node.replaced += 1
        elif isinstance(effect, SendTo) and is_envelope(effect.payload):
            # a continuation's ``table`` sent to one seat, which the mesh routes
            if effect.seat not in self.cut and node.seat not in self.cut:
                self.nodes[effect.seat].change.seen(effect.payload, None)
        elif isinstance(effect, SendTo):
            msg = decode_seat_change(effect.payload)
            node.told.append((effect.seat, msg))
            if isinstance(msg, ClosedOffer) and node.seat not in self.cut:
                self.deliver(node.seat, msg, [effect.seat])
        elif isinstance(effect, BotGoesOn):
            node.goes_on.append(effect.seat)
        elif isinstance(effect, Kept):
            node.kept.append(effect)
