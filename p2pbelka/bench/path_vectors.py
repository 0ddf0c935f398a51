"""Game-protocol vectors for the paths a second implementation most needs beyond the
first deal and the scenarios: whole games to an OK verdict, INVALID files, views that
differ or count ahead, a host other than seat 0, faults on the face of a message and
at the audit, disputes inside a deal and false disputes, two-seat Belot.

``python -m p2pbelka.bench.path_vectors DIR`` writes ``DIR/paths/NAME.p2pb`` and
``NAME.json`` for each vector below (protocol/vectors/README.md says what each one
exercises).  Every vector is a seeded game between random bots (a dishonest seat is a
table that changes what it composes), or a few records of the first-deal game changed
and re-signed with the seat's own key, so the bytes are reproducible.  Each JSON has
the fields of a scenario vector (protocol/SPEC.md section 5.3), ``verify`` also giving
``error`` (null unless INVALID) and ``changes``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import msgpack

from p2pbelka.bench.vectors import record_rows
from p2pbelka.bots import make_bot
from p2pbelka.fairdeal.versions import FAIRDEAL_VERSION
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign, run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, open_envelope, seal_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes

CHEATER = 2
"""The dishonest seat of every vector that has one."""
ZERO_KEY = bytes(32)


# -- dishonest tables: each changes one thing it composes --------------------------------


class WrongInput(Table):
    """Its first shuffle names a deck it was not computed from: a fault on its face."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.ShuffleMsg) and self.deal_id == 1:
            return m.ShuffleMsg(msg.deck, bytes(32 * [0x5A]))
        return msg


class FalseDispute(Table):
    """Says its hand did not open when it did: a dispute the audit finds false."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.TrumpMsg) and self.deal_id == 1:
            return m.TrumpMsg(msg.jack, False)
        return msg


class HidesTheJack(Table):
    """Holds the J♣ and says nothing (the first deal it holds it in): no J♣ claim, a
    dispute (seat −1) the audit settles by naming the holder."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.TrumpMsg) and msg.jack is not None:
            return m.TrumpMsg(None, msg.hand_ok)
        return msg


class WrongShare(Table):
    """Publishes one share that is not its seed's: the position does not open, and the
    audit names it."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.SharesMsg) and self.deal_id == 1:
            last = msg.shares[-1]
            other = (int.from_bytes(last.key, "little") % 1000 + 7).to_bytes(32, "little")
            return m.SharesMsg((*msg.shares[:-1], m.Opening(last.pos, other)))
        return msg


class FalseUnopened(Table):
    """Belot: says its three more did not open when they did (a false dispute)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            return m.UnopenedMsg()
        return msg


class FalseClaim(Table):
    """Belot: claims 1001 at its first turn to play (before any trick: a false claim)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            return m.ClaimMsg()
        return msg


class FalseDeclaration(Table):
    """Belot: at its first turn to play, declares two cards of its own that make no
    combination (their positions opened with its own shares: no dispute)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            rnd = self.round
            cards = sorted(rnd.my_hand.items())
            for (p1, c1), (p2, c2) in itertools.pairwise(cards):
                if c1 >> 3 != c2 >> 3:  # two suits: never belle, never a sequence
                    return m.DeclareMsg((rnd.deck.my_opening(p1), rnd.deck.my_opening(p2)))
        return msg


# -- the vectors ------------------------------------------------------------------------


Edit = Callable[[list[Envelope], LocalGame], list[bytes]]
"""Turns a game's transcript into the vector's records (raw envelopes)."""


@dataclass
class PathVector:
    name: str
    seed: int
    what: str
    game: str = "belka"
    players: int = 4
    fairdeal: int | None = None
    host: int = 0
    cheat: type[Table] | None = None
    whole: bool = True
    """The whole transcript of seat 0 (else it is cut after the first deal)."""
    edit: Edit | None = None
    options: dict[str, str] = field(default_factory=dict)
    deals: int = 1
    """When cut (``whole`` false): the deals kept."""
    flow: int = m.FLOW
    """Before flow 3 the host names the game id (``OLD_GAME_ID``) and no nonce is sent."""


OLD_GAME_ID = hashlib.sha256(b"p2pbelka path vector: a game id its host chose").digest()[:16]


def _tables(vector: PathVector, game: LocalGame) -> list[Table]:
    """Every seat's table, the host being ``vector.host``, the cheater's dishonest."""
    assert game.seed_sources is not None
    setup, game_id, old = game.setup(), game.game_id, vector.flow < m.NONCES_FLOW
    if old:
        setup, game_id = replace(setup, flow=vector.flow, nonces=()), OLD_GAME_ID
    tables: list[Table] = []
    for seat, signer in enumerate(game.signers):
        cls = vector.cheat if vector.cheat is not None and seat == CHEATER else Table
        source = game.seed_sources[seat]
        if seat == vector.host:
            named, oldest = (game_id, vector.flow) if old else (None, None)
            tables.append(
                cls.host(signer, setup, seed_source=source, game_id=named, oldest_flow=oldest)
            )
        elif old:
            tables.append(cls(game_id, signer=signer, seed_source=source, oldest_flow=1))
        else:
            tables.append(cls(game_id, signer=signer, seed_source=source, nonce=game.nonces[seat]))
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
    tables = _tables(vector, game)
    bots = [make_bot("random", vector.seed * 10 + s) for s in range(vector.players)]
    whole = vector.whole and vector.edit is None and vector.deals == 1
    until = None if whole else _deals_over(vector.deals)
    run_sync(tables, bots, give_up=True, until=until)
    transcript = list(tables[0].transcript)
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


VECTORS = [
    PathVector(
        "game-ok",
        17,
        "a whole Belka game (classic preset, fair-deal version 2) played to OK: its"
        " first deal, then a second won outright (goli: all 120 card points, all eight"
        " tricks), the four closes",
    ),
    PathVector(
        "belot-2-game",
        8,
        "a whole two-seat Belot game (fair-deal version 2) played to OK: deals made,"
        " bait, a void deal, a hanging bait and its points paid, a true claim of 1001"
        " that ends the game, the closes",
        game="belot",
        players=2,
    ),
    PathVector(
        "host-seat-2",
        1,
        "a Belka game hosted by seat 2 (its table is record 0; seats 0, 1 and 3 sit),"
        " to the end of its first deal",
        host=2,
        whole=False,
    ),
    PathVector(
        "invalid-order",
        1,
        "INVALID: seat 3's sit recorded before seat 2's (not the envelope due next)",
        edit=swapped_sits,
    ),
    PathVector(
        "invalid-signature",
        1,
        "INVALID: record 5's signature does not verify (a record that fails on its own)",
        edit=bad_signature,
    ),
    PathVector(
        "view-ahead",
        1,
        "CHEATING PROVEN: seat 0's lot_reveal has a view that counts seat 3's lot_reveal,"
        " which comes after it in the schedule",
        edit=view_ahead,
    ),
    PathVector(
        "view-differs",
        1,
        "INVALID: seat 2's lot_reveal names a head of seat 0's chain that is not seat 0's envelope",
        edit=view_differs,
    ),
    PathVector(
        "evidence-of-nothing",
        1,
        "seat 1's evidence encloses two envelopes of seat 2 for two different places: it"
        " proves nothing, and is seat 1's own fault (an ending taken outside the schedule)",
        edit=evidence_of_nothing,
    ),
    PathVector(
        "dispute-odd-seats",
        4,
        "three-seat Belot: seat 1's dispute after the lot lists seats 3, 2, 0, 2; it names"
        " seats 0 and 2 (repeats collapse, a seat the table lacks is ignored)",
        game="belot",
        players=3,
        edit=dispute_of_odd_seats,
    ),
    PathVector(
        "wrong-input",
        1,
        f"CHEATING PROVEN on the face of a message: seat {CHEATER}'s shuffle names an"
        " input that is not the digest of the deck before it",
        cheat=WrongInput,
    ),
    PathVector(
        "false-dispute",
        1,
        f"a dispute inside a deal: seat {CHEATER} says its hand did not open; the audit"
        " finds the deck sound and proves the dispute false",
        cheat=FalseDispute,
    ),
    PathVector(
        "no-jack-claim",
        2,
        f"zero J♣ claims: seat {CHEATER}, in the first deal where it holds the J♣, sends"
        " jack nil; the deal is disputed (no seat) and the audit names the holder",
        cheat=HidesTheJack,
    ),
    PathVector(
        "wrong-share",
        1,
        f"an audit fault: seat {CHEATER} publishes a share off its seed, a position does"
        " not open, and the audit names the share's author",
        cheat=WrongShare,
    ),
    PathVector(
        "flow-1",
        1,
        "a Belka table of flow 1 (no flow key, no nonces: a game id its host chose): every"
        " deal starts with the commit phase and deal_end is {}; two deals",
        flow=1,
        whole=False,
        deals=2,
    ),
    PathVector(
        "flow-2",
        1,
        "a Belka table of flow 2 (a game id its host chose, no nonces): the next deal's"
        " commitments on the deal_ends; to the end of the first deal",
        flow=2,
        whole=False,
    ),
    PathVector(
        "belot-fairdeal-1",
        4,
        "three-seat Belot under fair-deal version 1 (32-byte points), to the end of its first deal",
        game="belot",
        players=3,
        fairdeal=1,
        whole=False,
    ),
    PathVector(
        "options",
        1,
        "Belka with trump_order=DSH, first_lead=before_dealer and first_deal_two=on: the"
        " first deal led by the seat before the dealer and awarded exactly 2, then the"
        " second deal, whose trump is the J♣ holder's seat suit by the DSH order",
        options={"first_deal_two": "on", "first_lead": "before_dealer", "trump_order": "DSH"},
        whole=False,
        deals=2,
    ),
    PathVector(
        "belot-false-claim",
        4,
        f"three-seat Belot: seat {CHEATER} claims 1001 at its first turn to play (a false"
        " claim, a fault on its face)",
        game="belot",
        players=3,
        cheat=FalseClaim,
    ),
    PathVector(
        "belot-false-declaration",
        4,
        f"three-seat Belot: seat {CHEATER} declares two of its own cards that make no"
        " combination (a false declaration, a fault on its face)",
        game="belot",
        players=3,
        cheat=FalseDeclaration,
    ),
    PathVector(
        "belot-false-unopened",
        4,
        f"three-seat Belot: seat {CHEATER} sends unopened when its cards opened (a false"
        " dispute the audit proves)",
        game="belot",
        players=3,
        cheat=FalseUnopened,
    ),
]


def generate(vector: PathVector) -> tuple[bytes, dict[str, Any]]:
    game, envelopes = play(vector)
    if vector.edit is not None:
        raws = vector.edit(envelopes, game)
    else:
        raws = [e.raw for e in envelopes]
    data = b"".join([_magic(), *(len(r).to_bytes(4, "big") + r for r in raws)])
    return data, describe(vector, game, data)


def _magic() -> bytes:
    return dump_transcript([])


def describe(vector: PathVector, game: LocalGame, data: bytes) -> dict[str, Any]:
    report = verify_bytes(data)
    seats = [s.public_key for s in game.signers]
    rows = []
    for raw in _raw_records(data):
        try:
            rows.extend(record_rows([open_envelope(raw)], seats))
        except ProtocolError:  # it does not open: its hash is still SHA-256 of inner
            inner = msgpack.unpackb(raw)[0]
            row = dict(zip(("seq", "deal"), msgpack.unpackb(inner)[3:1:-1], strict=True))
            rows.append({"type": None, "seat": None, **row, "hash": _sha(inner)})
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
        },
        "deals": [deal.to_json() for deal in report.deals],
    }


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _raw_records(data: bytes) -> list[bytes]:
    out, at = [], len(_magic())
    while at + 4 <= len(data):
        size = int.from_bytes(data[at : at + 4], "big")
        out.append(data[at + 4 : at + 4 + size])
        at += 4 + size
    return out


def main(argv: list[str]) -> int:
    out = (Path(argv[0]) if argv else Path("protocol/vectors")) / "paths"
    out.mkdir(parents=True, exist_ok=True)
    for vector in VECTORS:
        data, description = generate(vector)
        (out / f"{vector.name}.p2pb").write_bytes(data)
        text = json.dumps(description, indent=1, ensure_ascii=False)
        (out / f"{vector.name}.json").write_text(text + "\n", encoding="utf-8")
        print(vector.name, len(data), description["verify"]["verdict"], flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
