"""Exchange vectors that need a game in progress: recovery (``resend``, its answer,
``resent``: protocol/SPEC.md section 7.3) and the seat change's signatures (``seat_offer``,
``seat_agree``, the sealed continuation, ``seat_closed``: section 9.4).

The game is a seeded four-seat Belka game between random bots (``LocalGame.seeded``),
so every byte comes back the same.  Recovery: seat 3 never hears seat 1 directly and
stops short; it asks seat 0 (``resend`` with its first missing sequence numbers), seat 0
answers from its table, and seat 3 then holds what seat 0 holds.  Seat change: seat 3
is lost after the first deal; seat 0 offers a bot for it, seats 1 and 2 check the offer
and sign, seat 0 seals the continuation, and each remaining seat's table of the new
segment takes it; then the refusals (a chosen id, a signature not the seat's, a
continuation lacking one, a close not the proposer's).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame, seed_stream
from p2pbelka.peer.seatchange.core import bot_name
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import lobby as lb
from p2pbelka.protocol import messages as m
from p2pbelka.protocol import seatchange as sc
from p2pbelka.protocol.codec import encode
from p2pbelka.protocol.envelope import Signer, open_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.carry import Previous, check_change, check_continuation
from p2pbelka.table.segments import previous_of, propose
from p2pbelka.table.session import Table

GAME_SEED = 41
LOST = 3
BOT_SEED = bytes([0x33]) * 32
BOT_NONCE = bytes([0x34]) * 16


def _game(seed: int) -> tuple[LocalGame, list[Table]]:
    local = LocalGame.seeded(seed)
    return local, local.make_tables()


def bots_of(seed: int, seats: list[int]) -> list[Any]:
    return [make_bot("random", seed * 10 + s) for s in seats]


def _held(table: Table) -> list[int]:
    """How many envelopes of each seat's chain the table holds: its next ``resend``."""
    return list(table.view.wants()[:4])


# -- recovery -----------------------------------------------------------------------------


def recovery() -> dict[str, Any]:
    local, tables = _game(GAME_SEED)

    def deaf(source: int, dest: int, raw: bytes) -> bytes | None:
        return None if (source, dest) == (1, LOST) else raw

    run_sync(tables, bots_of(GAME_SEED, [0, 1, 2, 3]), deliver=deaf, resend=False)
    asker, answerer = tables[LOST], tables[0]
    before = _held(asker)
    ask = lb.Resend(tuple(before))
    answer = [
        raw
        for seat, seq in enumerate(ask.start)
        for raw in answerer.view.envelopes_from(seat, seq, newest=seat == LOST)
    ]
    for raw in answer:
        asker.receive(raw)
    after = _held(asker)
    if after == before or any(a < b for a, b in zip(after, _held(answerer), strict=True)):
        raise AssertionError(f"the resend did not bring seat {LOST} level: {before} {after}")
    return {
        "about": "SPEC.md section 7.3: a seeded Belka game (`LocalGame.seeded"
        f"({GAME_SEED})`) in which seat 1's envelopes never reach seat 3 directly; "
        "nothing more moves.  Seat 3 asks seat 0; `held` is, per seat, how many envelopes "
        "of its chain a table holds (the `start` of its next `resend`); after the answer "
        "the asker holds all the answerer held, and its own next envelope (the sits "
        "it lacked let it move on)",
        "keys": [s.public_key.hex() for s in local.signers],
        "asker": LOST,
        "answerer": 0,
        "held_before": {"asker": before, "answerer": _held(answerer)},
        "steps": [
            {"from": LOST, "to": 0, "payload": lb.encode_control(ask).hex()},
            *({"from": 0, "to": LOST, "payload": raw.hex()} for raw in answer),
            {"from": 0, "to": LOST, "payload": lb.encode_control(lb.Resent()).hex()},
        ],
        "held_after": {"asker": after, "answerer": _held(answerer)},
    }


# -- the seat change ----------------------------------------------------------------------


def lost_game() -> tuple[LocalGame, list[Table], int]:
    """A seeded game whose remaining seats are stuck on seat ``LOST`` after a deal."""
    for seed in range(GAME_SEED, GAME_SEED + 30):
        local, tables = _game(seed)
        bots = bots_of(seed, [0, 1, 2, 3])
        run_sync(tables, bots, until=_after_first_deal(tables))
        rest = [0, 1, 2]
        run_sync([tables[s] for s in rest], [bots[s] for s in rest])
        if all(not tables[s].finished and tables[s].view.missing() == [LOST] for s in rest):
            return local, tables, seed
    raise AssertionError("no seed leaves the game stuck on the lost seat")


def _after_first_deal(tables: list[Table]) -> Callable[[Any], bool]:
    def far(_events: Any) -> bool:
        t = tables[0]
        return t.state.started and t.state.deal_id > 1

    return far


@dataclass
class Agreement:
    """A change offered by seat 0, signed by seats 1 and 2, sealed and followed."""

    segment: bytes
    proposal: m.TableMsg
    signed: dict[int, bytes]
    host: Table
    steps: list[dict[str, Any]]


def agree(
    cuts: dict[int, Previous],
    new: tuple[bytes, str, bytes],
    signers: list[Signer],
    followers: dict[int, tuple[Signer, bytes | None]],
) -> Agreement:
    """Seat 0 offers ``new`` (key, name, nonce) for seat ``LOST`` at its cut; seats 1 and
    2 check the offer and sign; seat 0 seals it; each of ``followers`` (its signer, and
    the nonce it brought if the seat comes back to it) takes the sealed ``table``."""
    key, name, nonce = new
    segment, proposal = propose(cuts[0], LOST, key, name, nonce, signers[0])
    checks = {s: check_change(cuts[s], 0, segment, proposal) or "may sign" for s in (1, 2)}
    if set(checks.values()) != {"may sign"}:
        raise AssertionError(checks)
    offer = sc.encode_seat_change(sc.Offer(segment, proposal))
    steps = [step(0, [1, 2], offer, checks)]
    signed = dict(proposal.after.agreed if proposal.after else ())
    for s in (1, 2):
        sig = sc.sign_agreement(signers[s], segment, proposal)
        counted = _counted(signers[s].public_key, sig, segment, proposal)
        steps.append(step(s, [0], sc.encode_seat_change(sc.Agree(segment, sig)), {0: counted}))
        signed[s] = sig
    final = sc.with_agreements(proposal, signed)
    host = Table.host(signers[0], final, seed_source=seed_stream(segment), previous=cuts[0])
    sealed = host.view.transcript[0].raw
    taken = {s: follows(sealed, signer, cuts[0 if s == LOST else s], mine)
             for s, (signer, mine) in followers.items()}  # fmt: skip
    steps.append(step(0, sorted(followers), sealed, taken))
    return Agreement(segment, proposal, signed, host, steps)


def seat_change() -> dict[str, Any]:
    local, tables, seed = lost_game()
    signers = local.signers
    bot = Signer.from_seed(BOT_SEED)
    cuts = {s: previous_of(tables[s]) for s in (0, 1, 2)}
    name = bot_name(local.names[LOST])
    done = agree(cuts, (bot.public_key, name, BOT_NONCE), signers,
                 {s: (signers[s], None) for s in (1, 2)})  # fmt: skip
    return {
        "about": "SPEC.md sections 9.2 to 9.4: a seeded Belka game (`LocalGame.seeded"
        f"({seed})`) whose seat {LOST} is lost after the first deal; seat 0 proposes a "
        f"bot (key of the seed 0x33 x 32, nonce 0x34 x 16) for it; `state` is what each "
        "receiver ends in: an offer it may sign (else the reason), an agreement counted, "
        "the continuation followed (the new segment's id) or refused (the reason)",
        "keys": [s.public_key.hex() for s in signers],
        "segment": done.segment.hex(),
        "statement": sc.statement(done.segment, done.proposal).hex(),
        "steps": done.steps,
        "refusals": _refusals(signers, cuts, done.segment, done.proposal, done.signed, name),
        "closed": _closed(signers, done.segment),
    }


def step(sender: int, to: list[int], payload: bytes, state: dict[int, str]) -> dict[str, Any]:
    return {
        "from": sender,
        "to": to,
        "payload": payload.hex(),
        "state": {str(k): v for k, v in state.items()},
    }


def follows(raw: bytes, signer: Signer, cut: Previous, nonce: bytes | None = None) -> str:
    """The continuation as a seat takes it: its table of the new segment (``nonce``: the
    one a returning player brought, which the table must carry at its seat)."""
    envelope = open_envelope(raw)
    table = Table(
        envelope.game, signer=signer, seed_source=seed_stream(raw), previous=cut, nonce=nonce
    )
    table.receive_envelope(envelope)
    if table.state.setup is None:
        refused = [e.reason for e in table.take_events() if isinstance(e, ev.Rejected)]
        return "refused: " + "; ".join(refused)
    return "in segment " + envelope.game.hex()


def _refusals(
    signers: list[Signer],
    cuts: dict[int, Previous],
    segment: bytes,
    proposal: Any,
    signed: dict[int, bytes],
    name: str,
) -> list[dict[str, Any]]:
    bot = Signer.from_seed(BOT_SEED)
    chosen, forged = propose(
        cuts[0], LOST, bot.public_key, name, BOT_NONCE, signers[0], segment=bytes(16)
    )
    lacking = sc.with_agreements(proposal, {s: v for s, v in signed.items() if s != 2})
    rows = [
        {
            "path": "an offer under an id the body does not derive (16 zero bytes)",
            "payload": sc.encode_seat_change(sc.Offer(chosen, forged)).hex(),
            "receiver": 1,
            "state": check_change(cuts[1], 0, chosen, forged),
        },
        {
            "path": "seat 2's signature sent as seat 1's agreement",
            "payload": sc.encode_seat_change(sc.Agree(segment, signed[2])).hex(),
            "receiver": 0,
            "state": _counted(signers[1].public_key, signed[2], segment, proposal),
        },
        {
            "path": "seat 1's signature on another segment's statement",
            "payload": sc.encode_seat_change(
                sc.Agree(segment, sc.sign_agreement(signers[1], bytes(16), proposal))
            ).hex(),
            "receiver": 0,
            "state": _counted(
                signers[1].public_key,
                sc.sign_agreement(signers[1], bytes(16), proposal),
                segment,
                proposal,
            ),
        },
        {
            "path": "a continuation lacking seat 2's agreement",
            "receiver": 1,
            "payload": encode_table(lacking).hex(),
            "state": check_continuation(cuts[1], 0, segment, lacking),
        },
    ]
    if not all(row["state"] not in ("", "counted") for row in rows):
        raise AssertionError(rows)
    return rows


def encode_table(table: Any) -> bytes:
    return encode(table.to_wire())


def _counted(key: bytes, sig: bytes, segment: bytes, proposal: Any) -> str:
    return "counted" if sc.agreement_holds(key, sig, segment, proposal) else "not counted"


def _closed(signers: list[Signer], segment: bytes) -> list[dict[str, Any]]:
    """The proposer's ``seat_closed``: a seat that signed takes it from the proposer's
    key and goes on in the segment in play; under another key it stays frozen."""
    why = "seat 1 said no"
    close = sc.ClosedOffer(segment, why, signers[0].sign(sc.closed_statement(segment, why)))
    liar = sc.ClosedOffer(segment, why, signers[1].sign(sc.closed_statement(segment, why)))
    rows = []
    for what, msg in (("signed by the proposer (seat 0)", close), ("signed by seat 1", liar)):
        holds = sc.close_holds(signers[0].public_key, msg)
        rows.append(
            {
                "path": what,
                "payload": sc.encode_seat_change(msg).hex(),
                "state": "goes on in the segment in play"
                if holds
                else "refused and counted: stays frozen",
            }
        )
    return rows
