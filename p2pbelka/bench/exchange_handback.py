"""Exchange vectors of a seat taken back (protocol/SPEC.md section 9.5): the player of
the seat a bot holds asks for it (``seat_reclaim``), the bot's peer lets the bot finish
its deal and stop before the next (every table then waits there for that seat), offers
the change to the player's own key with the player's nonce, the remaining seats sign,
and the player takes the sealed continuation as its own table; a hand-back carrying
another nonce at the player's seat the player refuses.

The game is ``exchange_game``'s: seat 3 lost after the first deal and given to a bot
that seat 0 runs; the continuation is played by seeded random bots up to the next
deal.
"""

from __future__ import annotations

from typing import Any

from p2pbelka.bench.exchange_game import (
    BOT_NONCE,
    BOT_SEED,
    LOST,
    agree,
    bots_of,
    follows,
    lost_game,
    step,
)
from p2pbelka.peer.local import seed_stream
from p2pbelka.peer.seatchange.core import bot_name
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import seatchange as sc
from p2pbelka.protocol.envelope import Signer, open_envelope
from p2pbelka.table.segments import previous_of
from p2pbelka.table.session import Table

RECLAIM_NONCE = bytes([0x35]) * 16
"""The returning player's fresh nonce for the continuation that hands its seat back."""


def _continuation() -> tuple[Any, list[Table], int, bytes]:
    """The game after the bot took seat 3: every seat's table of the new segment (the
    bot's at seat 3), played until the bot stops before its next deal."""
    local, tables, seed = lost_game()
    signers = local.signers
    bot = Signer.from_seed(BOT_SEED)
    cuts = {s: previous_of(tables[s]) for s in (0, 1, 2)}
    done = agree(cuts, (bot.public_key, bot_name(local.names[LOST]), BOT_NONCE), signers, {})
    envelope = open_envelope(done.host.view.transcript[0].raw)
    following = [done.host]
    for s, signer in ((1, signers[1]), (2, signers[2]), (LOST, bot)):
        nonce = BOT_NONCE if s == LOST else None
        source = seed_stream(bytes([s]) + done.segment)
        cut = cuts[0 if s == LOST else s]
        table = Table(done.segment, signer=signer, seed_source=source, previous=cut, nonce=nonce)
        table.receive_envelope(envelope)
        following.append(table)
    return local, following, seed, done.segment


def hand_back() -> dict[str, Any]:
    local, following, seed, segment = _continuation()
    signers = local.signers
    reclaim = sc.Reclaim(segment, RECLAIM_NONCE)
    setup = following[0].state.setup
    assert setup is not None and setup.after is not None
    next_deal = setup.after.deal + 1  # the bot plays the continuation's first deal
    following[LOST].stop_at_deal(next_deal)
    run_sync(following, bots_of(seed, [0, 1, 2, 3]))
    waiting = {s: _waiting(following[s]) for s in (0, 1, 2)}
    if set(waiting.values()) != {f"waits for seat {LOST} at deal {next_deal}"}:
        raise AssertionError(waiting)
    steps = [step(LOST, [0, 1, 2], sc.encode_seat_change(reclaim), waiting)]
    cuts = {s: previous_of(following[s]) for s in (0, 1, 2)}
    player = signers[LOST]
    back = agree(cuts, (player.public_key, local.names[LOST], RECLAIM_NONCE), signers,
                 {1: (signers[1], None), 2: (signers[2], None),
                  LOST: (player, RECLAIM_NONCE)})  # fmt: skip
    steps += back.steps
    other = agree(cuts, (player.public_key, local.names[LOST], bytes(16)), signers,
                  {LOST: (player, RECLAIM_NONCE)})  # fmt: skip
    sealed_other = other.host.view.transcript[0].raw
    refused = follows(sealed_other, player, cuts[0], RECLAIM_NONCE)
    if not refused.startswith("refused"):
        raise AssertionError(refused)
    return {
        "about": "SPEC.md section 9.5: `seat-change.json`'s continuation (a bot at seat "
        f"{LOST}, run by seat 0) played to the next deal; seat {LOST}'s player (its own "
        "key) asks for its seat back with the nonce 0x35 x 16; `state` is what each "
        "receiver ends in (the last step's seat 3 is the returning player)",
        "keys": [s.public_key.hex() for s in signers],
        "bot_segment": segment.hex(),
        "segment": back.segment.hex(),
        "steps": steps,
        "refusal": {
            "path": "a hand-back whose table carries another nonce (16 zero bytes) at the "
            "player's seat: the player does not take it",
            "payload": sealed_other.hex(),
            "state": refused,
        },
    }


def _waiting(table: Table) -> str:
    missing = table.view.missing()
    return f"waits for seat {missing[0]} at deal {table.state.deal_id}" if missing else "moves"
