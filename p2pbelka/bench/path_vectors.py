"""Game-protocol vectors for the paths a second implementation most needs beyond the
first deal and the scenarios: whole games to an OK verdict, INVALID files, views that
differ or count ahead, a host other than seat 0, faults on the face of a message and
at the audit, disputes inside a deal and false disputes.

``python -m p2pbelka.bench.path_vectors DIR`` writes ``DIR/paths/NAME.p2pb`` and
``NAME.json`` for each vector of every game's own list (``bench/games/<game>/paths.py``,
``VECTORS``; protocol/vectors/README.md says what each one exercises).  Every vector
is a seeded game between random bots (a dishonest seat is a table that changes what
it composes), or a few records of the first-deal game changed and re-signed with the
seat's own key, so the bytes are reproducible.  Each JSON has the fields of a
scenario vector (protocol/SPEC.md section 5.3), ``verify`` also giving ``error``
(null unless INVALID) and ``changes``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import msgpack

from p2pbelka.bench.registry import game_part
from p2pbelka.bench.vectors import record_rows
from p2pbelka.bots import make_bot
from p2pbelka.bots.common.seat import Bot
from p2pbelka.fairdeal.versions import FAIRDEAL_VERSION
from p2pbelka.fairdeal.versions import remembering as remembering_products
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign, run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import MAX_FRAME, ProtocolError
from p2pbelka.protocol.envelope import (
    ZERO_HASH,
    Envelope,
    open_envelope,
    remembering,
    seal_envelope,
)
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.rules import registry
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from p2pbelka.table.state import TableState
from p2pbelka.table.verify import verify_bytes

CHEATER = 2
"""The dishonest seat of every vector that has one."""


# -- the vectors ------------------------------------------------------------------------


Edit = Callable[[list[Envelope], LocalGame], list[bytes]]
"""Turns a game's transcript into the vector's records (raw envelopes)."""


Drive = Callable[[int, LocalGame, list[Table], list[Bot], int | None], list[Envelope]]
"""``PathVector.drive``, given the seed, the game, every seat's table and bot, and the
oldest flow the tables sit down to (None: the current one)."""


@dataclass
class PathVector:
    name: str
    seed: int
    what: str
    game: str = registry.DEFAULT
    players: int = 4
    fairdeal: int | None = None
    host: int = 0
    cheat: type[TableState] | None = None
    """The cheater's dishonest state (a ``TableState`` whose ``compose`` or ``handle`` lies)."""
    whole: bool = True
    """The whole transcript of seat 0 (else it is cut after the first deal)."""
    edit: Edit | None = None
    options: dict[str, str] = field(default_factory=dict)
    deals: int = 1
    """When cut (``whole`` false): the deals kept."""
    flow: int = m.FLOW
    """Before flow 3 the host names the game id (``OLD_GAME_ID``) and no nonce is sent."""
    bots: Callable[[list[Table], int], list[Bot]] | None = None
    """The seats' bots, given every seat's table and the seed (else random bots)."""
    prepare: Callable[[LocalGame], None] | None = None
    """Changes the seeded game before the seats' tables are made (their nonces)."""
    drive: Drive | None = None
    """Plays the game itself and returns seat 0's file (a seat that changes hands:
    ``bench/path_segments.py``); else the seats play until ``whole`` or ``deals`` say."""
    frame: Callable[[list[bytes]], bytes] | None = None
    """Makes the file of the records (else the magic, then each record's length and
    bytes): a vector of bad framing."""
    cheats: Mapping[int, type[TableState]] = field(default_factory=dict)
    """Dishonest seats besides ``cheat`` (by seat: deviations of two seats that cancel)."""


OLD_GAME_ID = hashlib.sha256(b"p2pbelka path vector: a game id its host chose").digest()[:16]


def _tables(vector: PathVector, game: LocalGame) -> list[Table]:
    """Every seat's table, the host being ``vector.host``, the cheater's dishonest."""
    assert game.seed_sources is not None
    setup, game_id, old = game.setup(), game.game_id, vector.flow < m.NONCES_FLOW
    if old:
        setup, game_id = replace(setup, flow=vector.flow, nonces=()), OLD_GAME_ID
    tables: list[Table] = []
    for seat, signer in enumerate(game.signers):
        kind = vector.cheat if vector.cheat is not None and seat == CHEATER else TableState
        kind = vector.cheats.get(seat, kind)
        source = game.seed_sources[seat]
        if seat == vector.host:
            named, oldest = (game_id, vector.flow) if old else (None, None)
            tables.append(
                Table.host(
                    signer, setup, seed_source=source, game_id=named, oldest_flow=oldest, state=kind
                )
            )
        elif old:
            tables.append(
                Table(game_id, signer=signer, seed_source=source, oldest_flow=1, state=kind)
            )
        else:
            nonce = game.nonces[seat]
            tables.append(
                Table(game_id, signer=signer, seed_source=source, nonce=nonce, state=kind)
            )
    return tables


def _deals_over(deals: int) -> Callable[[list[list[ev.Event]]], bool]:
    def over(events: list[list[ev.Event]]) -> bool:
        audited = sum(isinstance(e, ev.DealAudited) for e in events[0])
        return audited >= deals or any(isinstance(e, ev.GameAborted) for e in events[0])

    return over


def play(vector: PathVector) -> tuple[LocalGame, list[Envelope]]:
    game = LocalGame.seeded(
        vector.seed,
        options=vector.options,
        game=vector.game,
        players=vector.players,
        fairdeal=vector.fairdeal if vector.fairdeal is not None else FAIRDEAL_VERSION,
    )
    if vector.prepare is not None:
        vector.prepare(game)
    tables = _tables(vector, game)
    if vector.bots is not None:
        bots = vector.bots(tables, vector.seed)
    else:
        bots = [make_bot("random", vector.seed * 10 + s) for s in range(vector.players)]
    if vector.drive is not None:
        oldest = 1 if vector.flow < m.NONCES_FLOW else None
        return game, vector.drive(vector.seed, game, tables, bots, oldest)
    whole = vector.whole and vector.edit is None and vector.deals == 1
    until = None if whole else _deals_over(vector.deals)
    run_sync(tables, bots, give_up=True, until=until)
    transcript = list(tables[0].view.transcript)
    if not vector.whole and not tables[0].finished:
        last = vector.deals
        ends = [i for i, e in enumerate(transcript) if e.type == "deal_end" and e.deal == last]
        transcript = transcript[: ends[0] + vector.players] if ends else transcript
    return game, transcript


# -- edits of the first-deal game (records re-signed with the seat's own key) ------------


def _signer_of(game: LocalGame, envelope: Envelope) -> Any:
    return next(s for s in game.signers if s.public_key == envelope.sender)


def swapped_sits(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """The lot phase's first records with seat 3's ``sit`` before seat 2's: not the
    envelope due next (the sit phase is processed in ascending seat order)."""
    raws = [e.raw for e in envelopes[:8]]
    raws[2], raws[3] = raws[3], raws[2]
    return raws


def bad_signature(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Record 5 with the last byte of its signature flipped: it fails on its own."""
    raws = [e.raw for e in envelopes[:8]]
    raws[5] = raws[5][:-1] + bytes([raws[5][-1] ^ 1])
    return raws


def view_ahead(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seat 0's ``lot_reveal`` claims seat 3's ``lot_reveal`` (the real hash), which the
    schedule processes after it: a proven fault of seat 0, and the game ends there."""
    index, envelope = _first(envelopes, game, "lot_reveal", 0)
    seat3 = game.signers[3].public_key
    count = envelope.view[3][0]
    ahead = next(e for e in envelopes if e.sender == seat3 and e.seq == count)
    view = list(envelope.view)
    view[3] = (count + 1, ahead.digest)
    lie = resign(_signer_of(game, envelope), envelope, view=tuple(view))
    return [e.raw for e in envelopes[:index]] + [lie]


def view_differs(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seat 2's ``lot_reveal`` names, for seat 0's chain, a head that is not seat 0's
    envelope: a record its recorder could not have accepted (INVALID there)."""
    index, envelope = _first(envelopes, game, "lot_reveal", 2)
    view = list(envelope.view)
    view[0] = (view[0][0], bytes(32 * [7]))
    lie = resign(_signer_of(game, envelope), envelope, view=tuple(view))
    return [e.raw for e in envelopes[:index]] + [lie, *(e.raw for e in envelopes[index + 1 : 12])]


def _ending(envelopes: list[Envelope], game: LocalGame, seat: int, msg: m.Message) -> bytes:
    """``seat``'s next envelope after ``envelopes``, an ending ``msg``, with its view of
    every chain as the file holds it (its own entry its chain as signed)."""
    signer, heads = game.signers[seat], []
    for other in game.signers:
        chain = [e for e in envelopes if e.sender == other.public_key]
        heads.append((len(chain), chain[-1].digest if chain else ZERO_HASH))
    count, prev = heads[seat]
    deal = envelopes[-1].deal
    return seal_envelope(signer, envelopes[0].game, deal, count, prev, msg, tuple(heads)).raw


def evidence_of_nothing(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """After the lot, seat 1 sends evidence of two envelopes of seat 2 for two places
    (its lot_commit and its lot_reveal): a claim that proves nothing, its sender's
    fault, proven by the evidence itself."""
    prefix = envelopes[:13]
    key = game.signers[2].public_key
    first, second = [e for e in prefix if e.sender == key and e.type.startswith("lot_")][:2]
    msg = m.EvidenceMsg(first.raw, second.raw)
    return [*(e.raw for e in prefix), _ending(prefix, game, 1, msg)]


def dispute_of_odd_seats(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Three-seat Belot: after the lot, seat 1 signs a dispute whose seats repeat and
    name a seat the table does not have (3): it names seats 0 and 2 only."""
    prefix = envelopes[:10]
    msg = m.DisputeMsg((3, 2, 0, 2), "seats 3, 2, 0, 2 named")
    return [*(e.raw for e in prefix), _ending(prefix, game, 1, msg)]


def _first(
    envelopes: list[Envelope], game: LocalGame, kind: str, seat: int
) -> tuple[int, Envelope]:
    key = game.signers[seat].public_key
    return next((i, e) for i, e in enumerate(envelopes) if e.type == kind and e.sender == key)


def all_vectors() -> list[PathVector]:
    """Every game's path vectors (``bench/games/<game>/paths.py``, each a ``VECTORS`` list)."""
    vectors: list[PathVector] = []
    for name in registry.names():
        part = game_part("paths", name)
        vectors += getattr(part, "VECTORS", []) if part is not None else []
    return vectors


_PLAYED: dict[tuple[Any, ...], tuple[LocalGame, tuple[Envelope, ...]]] = {}
"""Each game played, by what made it (``_played``)."""


def _play_key(vector: PathVector) -> tuple[Any, ...]:
    """What decides a vector's game: every field but its name, its words and what is
    done to the transcript afterwards (``edit``, ``frame``)."""
    skip = {"name", "what", "edit", "frame"}
    values = [(f.name, getattr(vector, f.name)) for f in fields(vector) if f.name not in skip]
    return tuple((n, tuple(sorted(v.items())) if isinstance(v, Mapping) else v) for n, v in values)


def _played(vector: PathVector) -> tuple[LocalGame, list[Envelope]]:
    """``play``, once for the vectors that edit the same game (most edit the first
    deal of one seed): the game is seeded, so a second play makes the same bytes."""
    key = _play_key(vector)
    if key not in _PLAYED:
        game, envelopes = play(vector)
        _PLAYED[key] = game, tuple(envelopes)
    game, played = _PLAYED[key]
    return game, list(played)


def generate(vector: PathVector) -> tuple[bytes, dict[str, Any]]:
    # every seat in this process, then verify: each envelope opened once, each product
    # computed once
    with remembering(), remembering_products():
        return _generate(vector)


def _generate(vector: PathVector) -> tuple[bytes, dict[str, Any]]:
    game, envelopes = _played(vector)
    if vector.edit is not None:
        raws = vector.edit(envelopes, game)
    else:
        raws = [e.raw for e in envelopes]
    if vector.frame is not None:
        data = vector.frame(raws)
    else:
        data = b"".join([_magic(), *(len(r).to_bytes(4, "big") + r for r in raws)])
    return data, describe(vector, game, data)


def _magic() -> bytes:
    return dump_transcript([])


def describe(vector: PathVector, game: LocalGame, data: bytes) -> dict[str, Any]:
    report = verify_bytes(data)
    seats = [s.public_key for s in game.signers]
    rows = []
    segment_of: list[str] = []  # each record's ``game`` field, once a second one shows
    for raw in _raw_records(data):
        try:
            envelope = open_envelope(raw)
        except ProtocolError:  # it does not open: its hash is still SHA-256 of inner
            rows.append({"type": None, "seat": None, **_claimed(raw)})
            segment_of.append(_claimed_segment(raw))
            continue
        if isinstance(envelope.msg, m.TableMsg) and rows:  # a continuation: its own seats
            seats = [info.key for info in envelope.msg.seats]
        rows.extend(segment_rows(envelope, seats))
        segment_of.append(envelope.game.hex())
    tables = sum(row["type"] == "table" for row in rows)
    # a file of segments (a continuation's ``table`` after the first): the scenario
    # vectors' ``segment``; a refused first ``table`` under another id is one segment
    if tables > 1 and len(set(segment_of)) > 1:
        rows = [{**row, "segment": s} for row, s in zip(rows, segment_of, strict=True)]
    return {
        "about": f"p2pbelka game-protocol path vector: {vector.what}."
        " Fields as in the scenario vectors (protocol/SPEC.md section 5.3). Bytes are hex.",
        "seed": vector.seed,
        "game": vector.game,
        "players": vector.players,
        "host": vector.host,
        "options": vector.options,
        "game_id": (OLD_GAME_ID if vector.flow < m.NONCES_FLOW else game.game_id).hex(),
        "flow": vector.flow,
        "seat_keys": [k.hex() for k in seats],
        "transcript_sha256": _sha(data),
        "transcript_bytes": len(data),
        "records": rows,
        "verify": {
            "verdict": report.verdict.split(":", 1)[0],
            "records": report.records,
            "error": report.error,
            "faults": [
                {"seat": f.seat, "what": f.what, "proven": f.proven, "fatal": f.fatal}
                for f in report.faults
            ],
            "changes": list(report.change_lines),
            # a file whose last record is cut short: where (SPEC section 5.1)
            **({"damaged_at": report.cut_at} if report.cut_at is not None else {}),
        },
        "deals": [deal.to_json() for deal in report.deals],
    }


def segment_rows(envelope: Envelope, seats: list[bytes]) -> list[dict[str, Any]]:
    """``record_rows`` of one record, ``seat`` null for a key its segment does not seat
    (a continuation refused because a stranger signed it)."""
    if envelope.sender in seats:
        return record_rows([envelope], seats)
    return [{**record_rows([envelope], [envelope.sender])[0], "seat": None}]


def _claimed(raw: bytes) -> dict[str, Any]:
    """What the ``inner`` of a record that does not open still says: ``seq`` and
    ``deal`` as it claims them (however encoded: a float stays a float; bytes after
    a value are left aside, as ``verify``'s claim does), its hash; null for what does
    not read (no array, a value not a number)."""
    out: dict[str, Any] = {"seq": None, "deal": None, "hash": None}
    try:
        inner = _first_value(raw)[0]
        out["hash"] = _sha(inner)
        claimed = _first_value(inner)
        for name, value in (("seq", claimed[3]), ("deal", claimed[2])):
            out[name] = value if type(value) in (int, float) else None
    except Exception:  # bytes that do not read: nothing more is claimed
        pass
    return out


def _first_value(data: bytes) -> Any:
    unpacker = msgpack.Unpacker()
    unpacker.feed(data)
    return next(unpacker)


def _claimed_segment(raw: bytes) -> Any:
    """The game id (segment) the ``inner`` of a record that does not open claims, in
    hex; null where it does not read."""
    try:
        inner = _first_value(raw)[0]
        return inner and _first_value(inner)[1].hex()
    except Exception:  # bytes that do not read: no segment is claimed
        return None


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _raw_records(data: bytes) -> list[bytes]:
    """Every record whose length reads (in range, its bytes all there)."""
    out, at = [], len(_magic())
    while at + 4 <= len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        if not 0 < size <= MAX_FRAME or at + 4 + size > len(data):
            break
        out.append(data[at + 4 : at + 4 + size])
        at += 4 + size
    return out


def main(argv: list[str]) -> int:
    out = (Path(argv[0]) if argv else Path("protocol/vectors")) / "paths"
    out.mkdir(parents=True, exist_ok=True)
    for vector in all_vectors():
        data, description = generate(vector)
        (out / f"{vector.name}.p2pb").write_bytes(data)
        text = json.dumps(description, indent=1, ensure_ascii=False)
        (out / f"{vector.name}.json").write_text(text + "\n", encoding="utf-8")
        print(vector.name, len(data), description["verify"]["verdict"], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
