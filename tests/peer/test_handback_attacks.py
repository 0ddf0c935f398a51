"""Attacks on the refused hand-back (a no, or no answer, leaves the bot playing; the
player may ask again at most once a deal): a returning player spamming its request,
with a fresh nonce each time; a seat asking for a seat that is not its own; a seat
that must sign saying no, then yes; a request that comes after the game ended here.

The machines of real tables on a made-up network (``seatnet.py``, the set-up of
``test_seatchange_back.py``), and one peer's real runner for the late request.
"""

from __future__ import annotations

from pathlib import Path

import trio
from trio.testing import MockClock

from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import CUT_OFF_GRACE
from p2pbelka.peer.mesh import Mesh
from p2pbelka.peer.seatchange.machine import Stage
from p2pbelka.peer.seatchange.stages import Handing
from p2pbelka.protocol.seatchange import (
    Agree,
    Decline,
    Offer,
    Reclaim,
    encode_seat_change,
    sign_agreement,
)
from p2pbelka.protocol.transcript import TranscriptWriter
from tests.peer.seatrunners import unlinked_runner
from tests.peer.test_cut_off import VICTIM, _cut_game
from tests.peer.test_seatchange_back import LOST, NONCE, _back, _kept


def test_a_player_spamming_its_request_is_asked_about_once_with_its_first_nonce() -> None:
    """While the bot's peer's player thinks, every further request (each with a nonce of
    its own, as a new segment would) is dropped: one question on the screen, and the
    continuation, if any, carries the nonce the question was put for."""
    back = _back()
    host = back.host
    host.answer = None  # the bot's peer's player has not answered yet
    back.ask_back()
    for n in range(50):
        host.change.hand_back(LOST, back.segment, bytes([n + 1]) * 16, back.net.now)
        back.net.settle()
    assert len(host.asked) == 1
    handing = host.change.at
    assert isinstance(handing, Handing) and handing.nonce == NONCE
    assert not any(n.asked for n in back.signers())  # nobody else is bothered


def test_only_the_seat_a_bot_of_ours_plays_may_ask_and_a_stranger_has_no_link() -> None:
    """The runner hands a request on with the seat of the link it came on, so a seat
    its own player holds asks for that seat: no bot of ours plays it, nothing is asked.
    A key that sat at no seat is refused the link itself (``Mesh.authorize``)."""
    back = _back()
    host = back.host
    other = next(s for s in back.everyone if s not in (LOST, host.seat))
    host.change.hand_back(other, back.segment, NONCE, back.net.now)
    back.net.settle()
    assert not host.asked and host.change.stage is Stage.IDLE
    keys = [Identity.generate(f"seat {s}").public_key for s in back.everyone]
    mesh = Mesh(Identity.generate("me"), back.segment, 0, keys, [], source=_none, wants=list)
    assert all(mesh.authorize(k) for k in keys[1:])
    assert not mesh.authorize(Identity.generate("stranger").public_key)


def _none(seat: int, seq: int, *, newest: bool = False) -> list[bytes]:
    return []


def test_a_seat_that_said_no_then_signs_gets_nothing_sealed() -> None:
    """A seat that must sign says no (the seat that signed goes on in the old segment,
    released: SPEC 9.4), then sends a valid agreement after all.  The bot's peer closed
    the offer on the no: it seals nothing, so the released seat's envelopes after the
    cut never stand beside a sealed continuation carrying its agreement."""
    back = _back()
    first, second = back.signers()
    second.answer = False
    back.ask_back()
    back.drain()
    back.net.run(1.0)
    _kept(back)  # closed on the no; the bot plays on; nobody stays stopped
    offer = next(m for m in back.host.sent if isinstance(m, Offer))
    assert isinstance(offer, Offer)
    sig = sign_agreement(second.change.ids.signer, offer.segment, offer.table)
    for _ in range(3):
        back.net.deliver(second.seat, Agree(offer.segment, sig))
        back.net.run(1.0)
    assert back.host.change.outcomes["sealed"] == 0
    assert not back.net.sealed and not any(n.switched for n in back.net.nodes.values())
    assert not first.frozen and first.change.stage is Stage.IDLE
    # the no is said again to the seat still agreeing (its first no may have been lost)
    assert [m for m in second.sent if isinstance(m, Decline)]


async def test_a_request_after_the_game_ended_here_is_refused_not_crashed_on(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """The game stopped here (cut off past the bound); a request for a seat back that
    comes while the mesh lingers is counted and dropped, and asks our player nothing."""
    game = _cut_game()
    table = game.tables[VICTIM]
    with TranscriptWriter(tmp_path / "transcript.p2pb") as writer:
        runner, mesh = unlinked_runner(table, VICTIM, "Victim", writer, bot_seed=3)
        for failed in mesh._failed.values():
            failed.append(0.0)
        runner.start(table)
        with trio.fail_after(10 * CUT_OFF_GRACE):
            await runner.play()
    asked = list(runner._questions)
    request = encode_seat_change(Reclaim(table.game_id, NONCE))
    for seat in range(4):
        if seat != VICTIM:
            assert mesh.on_control is not None and mesh.on_control(seat, request)
    assert runner.change.refused["seat_reclaim"] == 3
    assert list(runner._questions) == asked
