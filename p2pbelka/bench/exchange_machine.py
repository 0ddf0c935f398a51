"""Exchange vectors of the seat change as peers run it (protocol/SPEC.md section 9.4):
the reference's sans-IO machines (``SeatChange``) of the remaining seats of a seeded
game, on a made-up network with no trio, every message that crosses it in order with
its bytes, and each seat's state after it.

A seat's state is the machine's stage (``idle``: playing the segment in play;
``asking``: the proposer asks its player; ``offering``: its offer is out;
``considering``: a remaining seat asks its player; ``agreed``: it signed and waits
frozen for the continuation; ``switched``: it goes on in the new segment), whether its
table is frozen (stopped at the cut) and the segment it plays.  Cases: every seat says
yes (the change is sealed and every seat switches); seat 1 says no with the links in
a line 1 - 0 - 2 (its ``seat_decline`` reaches only the proposer, whose
``seat_closed`` tells seat 2, which signed, to go on); seat 2 never answers (the
offer times out, the proposer's ``seat_closed`` reaches seat 1).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from p2pbelka.bench.exchange_game import LOST, lost_game
from p2pbelka.peer.local import seed_stream
from p2pbelka.peer.seatchange import effects as fx
from p2pbelka.peer.seatchange.machine import SeatChange
from p2pbelka.protocol import seatchange as sc
from p2pbelka.protocol.envelope import Signer
from p2pbelka.table.session import Table

OFFER_TIMEOUT = 60.0
GIVE_UP = 120.0
REMAINING = (0, 1, 2)


def _source(seat: int) -> Callable[[bytes | None], Callable[[], bytes]]:
    """Each segment's secrets for ``seat``: a stream of its own, the same every run."""
    return lambda segment: seed_stream(bytes([seat]) + (segment or b"first"))


def _machine(table: Table, seat: int, signer: Signer) -> SeatChange:
    assert table.state.setup is not None
    rng = random.Random(f"seat {seat}")
    ids = fx.Identities(
        signer,
        [s.key for s in table.state.setup.seats],
        seat,
        [s.name for s in table.state.setup.seats],
        _source(seat),
        lambda segment: False,
        lambda: rng.randbytes(16),
        new_bot=lambda: Signer.from_seed(rng.randbytes(32)),
        bot_seeds=lambda: rng.randbytes(32),
    )
    change = SeatChange(ids, fx.Config(OFFER_TIMEOUT, GIVE_UP))
    change.strict = True
    change.enter(table, {})
    return change


@dataclass
class _Seat:
    seat: int
    change: SeatChange
    answer: bool | None
    frozen: bool = False
    segment: bytes = b""
    asked: list[fx.AskPlayer] = field(default_factory=list)


class _Net:
    """The remaining seats' machines; ``apart``: pairs with no link between them.  A
    message is delivered, then every machine's effects are carried out (new messages
    queue behind it), then the step is written down with every seat's state."""

    def __init__(self, answers: dict[int, bool | None], apart: set[frozenset[int]]) -> None:
        local, tables, _seed = lost_game()
        self.seats = {
            s: _Seat(s, _machine(tables[s], s, local.signers[s]), answers.get(s, True))
            for s in REMAINING
        }
        for node in self.seats.values():
            node.segment = tables[node.seat].game_id
        self.apart = apart
        self.now = 0.0
        self.queue: deque[tuple[int, bytes, list[int]]] = deque()
        self.log: list[dict[str, Any]] = []

    def state(self) -> dict[str, Any]:
        return {
            str(n.seat): {"stage": n.change.stage.value, "frozen": n.frozen,
                          "segment": n.segment.hex()}
            for n in self.seats.values()
        }  # fmt: skip

    def _deliver(self, sender: int, payload: bytes, to: list[int]) -> None:
        reach = [s for s in to if frozenset((sender, s)) not in self.apart]
        for seat in reach:
            if payload[:1] == b"\x92":  # the sealed continuation, as the mesh routes it
                self.seats[seat].change.seen(payload, None)
                continue
            msg = sc.decode_seat_change(payload)
            if isinstance(msg, sc.Offer | sc.Agree | sc.Decline | sc.ClosedOffer):
                self.seats[seat].change.heard(sender, msg, self.now)
        self.settle()
        self.log.append({"at": self.now, "from": sender, "to": reach, "payload": payload.hex(),
                         "state": self.state()})  # fmt: skip

    def flush(self) -> None:
        self.settle()
        while self.queue:
            self._deliver(*self.queue.popleft())

    def settle(self) -> None:
        busy = True
        while busy:
            busy = False
            for node in self.seats.values():
                for effect in node.change.take():
                    busy = True
                    self._do(node, effect)

    def _do(self, node: _Seat, effect: object) -> None:
        others = [s for s in self.seats if s != node.seat]
        if isinstance(effect, fx.Broadcast):
            self.queue.append((node.seat, effect.payload, others))
        elif isinstance(effect, fx.SendTo):
            self.queue.append((node.seat, effect.payload, [effect.seat]))
        elif isinstance(effect, fx.AskPlayer):
            node.asked.append(effect)
            if node.answer is not None:
                node.change.answered(effect.ask, node.answer, self.now)
        elif isinstance(effect, fx.Freeze | fx.Thaw):
            node.frozen = isinstance(effect, fx.Freeze)
        elif isinstance(effect, fx.Switch):
            if effect.table.state.me == effect.table.state.host_seat:  # the proposer sealed it
                self.queue.append((node.seat, effect.table.view.transcript[0].raw, others))
            node.segment, node.frozen = effect.table.game_id, False
            node.change.enter(effect.table, {seat: table for table, seat in effect.bots})

    def lose(self) -> None:
        for node in self.seats.values():
            node.change.lost([LOST], GIVE_UP, self.now)
        self.flush()

    def run(self, seconds: float, every: float = 1.0) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now = min(end, self.now + every)
            for node in self.seats.values():
                node.change.tick(self.now)
            self.flush()


def _case(what: str, answers: dict[int, bool | None], apart: set[frozenset[int]],
          run: float, expect: dict[str, str]) -> dict[str, Any]:  # fmt: skip
    net = _Net(answers, apart)
    start = net.state()
    net.lose()
    net.run(run)
    end = net.state()
    stages = {seat: state["stage"] for seat, state in end.items()}
    if stages != expect:
        raise AssertionError(f"seat change case {what!r}: {stages}")
    return {"path": what, "answers": {str(s): a for s, a in answers.items()},
            "apart": sorted(sorted(p) for p in apart), "start": start, "steps": net.log,
            "end": end}  # fmt: skip


def machine() -> dict[str, Any]:
    return {
        "about": "SPEC.md section 9.4 as the reference's machines run it: the remaining "
        f"seats {list(REMAINING)} of `seat-change.json`'s game give up on seat {LOST} at "
        f"time 0 (offer timeout {OFFER_TIMEOUT:.0f} s); each step is a message on the "
        "wire (`to`: the seats it reached), `state` every seat's after it: `stage` "
        "(idle: plays the segment in play; asking, offering: the proposer; considering: "
        "a remaining seat asks its player; agreed: signed, waits frozen; switched: it "
        "took the continuation, and is idle again in the new segment once it entered "
        "it), `frozen` (its table stopped at the cut), `segment` (the one it plays)",
        "cases": [
            _case("every player says yes", {}, set(), 0.0,
                  {"0": "idle", "1": "idle", "2": "idle"}),
            _case("seat 1 says no, links in a line 1 - 0 - 2", {1: False},
                  {frozenset((1, 2))}, 0.0, {"0": "idle", "1": "idle", "2": "idle"}),
            _case("seat 2 never answers", {2: None}, set(), OFFER_TIMEOUT + 5,
                  {"0": "idle", "1": "idle", "2": "idle"}),
        ],
    }  # fmt: skip
