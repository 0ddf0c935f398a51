"""Game-protocol vectors for what one segment never shows: a seat that changes hands
(a continuation segment, protocol/SPEC.md section 9), and a game whose id was refused
(a ``table`` whose ``game`` is not the one its nonces derive, section 2.3).

``python -m p2pbelka.bench.games.belka.segments DIR`` writes ``DIR/scenarios/NAME.p2pb`` and
``NAME.json`` for both, fields as in the other scenarios (protocol/SPEC.md section
5.3).  Everything is drawn from fixed seeds (the seats' keys, nonces and secrets, and
the new holder's), so the bytes are reproducible.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping
from typing import Any

from p2pbelka.bench.games.belka.scenarios import FAIRDEAL, Scenario, describe, write_scenarios
from p2pbelka.bench.vectors import record_rows
from p2pbelka.bots import Bot, make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer, seal_envelope
from p2pbelka.protocol.ids import derived_id, game_id_of
from p2pbelka.protocol.seatchange import sign_agreement, with_agreements
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table.segments import previous_of, propose
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes

LOST = 3
"""The seat that changes hands: lost for good during deal 2, given to a bot, which plays
deal 2 again from the start (the unfinished one is voided).  Seat 0, the lowest
remaining seat, proposes and hosts the continuation."""

SEAT_CHANGE = Scenario(
    "seat-change",
    1,
    f"seat {LOST} is lost for good during deal 2; seat 0 proposes a continuation segment"
    f" that gives seat {LOST} to a bot from deal 2, voided and dealt again (its key and"
    " fresh nonce in the new"
    " `table`, the segment id derived from it, every remaining seat's signature in"
    " after.agreed), and the new segment plays one audited deal: seat 0's file, both"
    " segments",
    lambda evs: False,
)

SEAT_BACK = Scenario(
    "seat-back",
    1,
    f"the seat-change game, then seat {LOST}'s player takes its seat back from the bot"
    " with its old key (a second continuation from deal 3, the player's fresh nonce,"
    " every other seat's signature) and deal 3 is played to its deal_ends: seat 0's"
    " file, three segments",
    lambda evs: False,
)

REFUSED_ID = Scenario(
    "refused-id",
    4,
    "a flow-3 `table` whose `game` is not the id its nonces derive (the host chose it),"
    " then seat 1's `sit` under it: verify refuses the file at its first record",
    lambda evs: False,
)


class _Seats:
    """Every seat's table of the current segment, driven in-process, and what seat
    0's transcript file holds so far (every segment)."""

    def __init__(self, seed: int) -> None:
        local = LocalGame.seeded(seed, fairdeal=FAIRDEAL)
        self.tables = local.make_tables()
        self.signers = list(local.signers)  # the generator drives every seat
        self.bots: list[Bot] = [make_bot("random", seed * 10 + s) for s in range(4)]
        self.file: list[Envelope] = []

    def settle(self, seats: list[int], until: Callable[[list[Table]], bool] | None = None) -> None:
        tables = [self.tables[s] for s in seats]
        stop = (lambda _events: until(tables)) if until is not None else None
        run_sync(tables, [self.bots[s] for s in seats], until=stop)
        for seat, table in zip(seats, tables, strict=True):
            accepted = table.take_accepted()
            if seat == 0:
                self.file += accepted


def _played(table: Table) -> int:
    try:
        return len(table.state.round.played)
    except AssertionError:
        return 0


def _deal_two_under_way(tables: list[Table]) -> bool:
    t = tables[0]
    return t.finished or (t.state.deal_id >= 2 and _played(t) >= 2)


def _stream(rng: random.Random) -> Callable[[], bytes]:
    return lambda: rng.randbytes(32)


def _hand_over(seats: _Seats, holder: Signer, name: str, rng: random.Random) -> int:
    """Give seat ``LOST`` to ``holder`` (called ``name``), its nonce and secrets drawn
    from ``rng``: seat 0 proposes the continuation, seats 1 and 2 sign it, every
    seat's table of the next segment replaces the old (each remaining seat with a new
    stream of secrets, drawn from its old one: no secret of one segment is used in
    another).  The new segment's first deal id."""
    holder_secrets = _stream(random.Random(rng.randbytes(8)))
    nonce = rng.randbytes(m.NONCE_SIZE)
    others = [s for s in range(4) if s != LOST]
    signers = seats.signers
    previous = previous_of(seats.tables[0])
    segment, proposal = propose(previous, LOST, holder.public_key, name, nonce, signers[0])
    agreed = dict(proposal.after.agreed) if proposal.after else {}
    for s in others[1:]:
        assert previous_of(seats.tables[s]).view == previous.view, "the views differ at the cut"
        agreed[s] = sign_agreement(signers[s], segment, proposal)
    final = with_agreements(proposal, agreed)
    new: list[Table] = []
    for s, old in enumerate(seats.tables):
        if s == LOST:
            table = Table(segment, signer=holder, seed_source=holder_secrets, previous=previous)
        elif s == 0:
            source = _stream(random.Random(old.state.deals.seed_source()))
            table = Table.host(
                signers[0], final, seed_source=source, previous=previous, game_id=segment
            )
        else:
            source = _stream(random.Random(old.state.deals.seed_source()))
            table = Table(segment, signer=signers[s], seed_source=source, previous=previous_of(old))
        new.append(table)
    seats.tables = new
    signers[LOST] = holder
    assert final.after is not None
    return final.after.deal


def _to_the_bot(seats: _Seats, seed: int) -> int:
    """Seat ``LOST`` to a bot whose key, nonce and secrets come from ``seed``."""
    rng = random.Random(f"the bot of game {seed}")
    bot = Signer.from_seed(rng.randbytes(32))
    return _hand_over(seats, bot, "Bot", rng)


def _play_segment(seats: _Seats, first: int) -> None:
    """The new segment's first deal, to its ``deal_end``s."""
    for table in seats.tables:
        table.stop_at_deal(first + 1)
    seats.settle(list(range(4)))


def _lose_seat(seats: _Seats, seed: int) -> None:
    seats.settle(list(range(4)), _deal_two_under_way)
    seats.settle([s for s in range(4) if s != LOST])
    if any(t.finished for t in seats.tables):
        raise RuntimeError(f"seed {seed}: the game ended before the seat changed hands")


def seat_change(seed: int) -> list[Envelope]:
    """Seat 0's file: deal 1 played, deal 2 cut short by the lost seat, the
    continuation, and the new segment's first deal to its ``deal_end``s."""
    return seat_changed(seed)[1]


def seat_changed(seed: int) -> tuple[Table, list[Envelope]]:
    """``seat_change``: seat 0's table of the new segment, and its file."""
    seats = _Seats(seed)
    _lose_seat(seats, seed)
    _play_segment(seats, _to_the_bot(seats, seed))
    return seats.tables[0], seats.file


def seat_back(seed: int) -> list[Envelope]:
    """``seat_change``'s file, then its player takes seat ``LOST`` back with its old key
    (section 9.5: a second continuation, deal 3 on), and deal 3 to its ``deal_end``s."""
    seats = _Seats(seed)
    player = seats.signers[LOST]
    _lose_seat(seats, seed)
    setup = seats.tables[0].state.setup
    assert setup is not None
    name = setup.seats[LOST].name
    _play_segment(seats, _to_the_bot(seats, seed))
    back = _hand_over(seats, player, name, random.Random(f"seat {LOST} back in game {seed}"))
    _play_segment(seats, back)
    return seats.file


def refused_id(seed: int) -> list[Envelope]:
    """A host's ``table`` under a game id it chose (not the nonces' derivation), and
    seat 1's ``sit`` under it, each signed and chained as any first envelope is."""
    local = LocalGame.seeded(seed, fairdeal=FAIRDEAL)
    setup = local.setup()
    chosen = CHOSEN_ID
    assert chosen != game_id_of(setup.nonces)
    zero = bytes(32)
    host = seal_envelope(local.signers[0], chosen, 0, 0, zero, setup)
    view: tuple[tuple[int, bytes], ...] = ((1, host.digest),) + ((0, zero),) * (
        len(setup.seats) - 1
    )
    sit = seal_envelope(local.signers[1], chosen, 0, 0, zero, m.SitMsg(host.digest), view)
    return [host, sit]


CHOSEN_ID = bytes(16 * [0x0C])
"""The id the host of ``refused-id`` names instead of the derived one."""

# reporting and framing (issue 41 items 14-17)

SEGMENT_UNSEATED = Scenario(
    "segment-unseated",
    1,
    f"the seat-change game to its continuation's table, then a sit signed by the key"
    f" that held seat {LOST} in the first segment: a key no seat holds in the segment"
    " the record is read in, so verify refuses it naming an unknown sender",
    lambda evs: False,
)


def segment_unseated(seed: int) -> list[Envelope]:
    """``seat_change``'s file up to the continuation's ``table``, then a ``sit`` for it
    signed by the first segment's holder of seat ``LOST`` (seq 0 of the new segment,
    viewing the table as seat 1's sit does)."""
    file = seat_change(seed)
    at = next(i for i, e in enumerate(file) if i and e.type == "table")
    table, sit = file[at], file[at + 1]
    old = LocalGame.seeded(seed, fairdeal=FAIRDEAL).signers[LOST]
    stray = seal_envelope(old, table.game, 0, 0, bytes(32), m.SitMsg(table.digest), sit.view)
    return [*file[: at + 1], stray]


PLAYS: Mapping[str, Callable[[int], list[Envelope]]] = {
    SEAT_CHANGE.name: seat_change,
    SEAT_BACK.name: seat_back,
    REFUSED_ID.name: refused_id,
    SEGMENT_UNSEATED.name: segment_unseated,
}
SCENARIOS = [SEAT_CHANGE, SEAT_BACK, REFUSED_ID, SEGMENT_UNSEATED]


def _hex(value: bytes | None) -> str | None:
    return value.hex() if value is not None else None


def _rows(envelopes: list[Envelope]) -> list[dict[str, Any]]:
    """Each record as ``record_rows`` gives it, plus its ``segment`` (the envelope's
    ``game`` field): ``seat`` is the sender's seat in its own segment's ``table``."""
    rows: list[dict[str, Any]] = []
    seats: list[bytes] = []
    for envelope in envelopes:
        if isinstance(envelope.msg, m.TableMsg):
            seats = [s.key for s in envelope.msg.seats]
        if envelope.sender in seats:
            row = record_rows([envelope], seats)[0]
        else:  # a key no seat of its segment holds
            row = {**record_rows([envelope], [envelope.sender])[0], "seat": None}
        rows.append({**row, "segment": envelope.game.hex()})
    return rows


def generate(scenario: Scenario) -> tuple[bytes, dict[str, Any]]:
    """The file of ``scenario`` and its description: the fields of every scenario, plus
    what this one is about (the lines ``verify --json`` gives for the seat changes, or
    the refused record and the id it should have had)."""
    envelopes = PLAYS[scenario.name](scenario.seed)
    data = dump_transcript(envelopes)
    description = describe(scenario, scenario.seed, envelopes, _rows(envelopes))
    report = verify_bytes(data)
    description["verify"]["changes"] = report.change_lines
    description["segments"] = [
        {"record": i, "id": e.game.hex(), "derived_id": _hex(derived_id(e.msg))}
        for i, e in enumerate(envelopes)
        if isinstance(e.msg, m.TableMsg)
    ]
    if scenario is SEGMENT_UNSEATED:
        description["verify"]["error"] = report.error
    if scenario is REFUSED_ID:
        setup = envelopes[0].msg
        assert isinstance(setup, m.TableMsg)
        description["derived_game_id"] = game_id_of(setup.nonces).hex()
        description["verify"]["verdict_line"] = report.verdict
        description["verify"]["error"] = report.error
    return data, description


def main(argv: list[str]) -> int:
    return write_scenarios(argv, SCENARIOS, generate)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
