"""Attacks tried on the promise (issue 23) after the refused records and the covered
closes landed: each a cheater's trick that once broke it, kept as a regression test.

- Two ``evidence`` envelopes for one place of a coalition seat, sent after an honest
  table proved the first liar: both prove the first liar again (each is valid), and
  a finished table took each only as the first liar's proof, never as an envelope of
  its sender's chain, so the second liar's two signatures for one place went
  unproven.
"""

from __future__ import annotations

import pytest

from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Signer, open_envelope
from tests.table.test_endings import TWO_HONEST, file_verdict, ids, live_verdict, play, report_of

FAKE = bytes(32 * [0x5A])


def _signers(seed: int, game: str, players: int) -> list[Signer]:
    return list(LocalGame.seeded(seed, game=game, players=players).signers)


@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_two_evidences_for_one_place_after_a_proven_end_prove_their_sender(
    case: tuple[str, int],
) -> None:
    """Seat 0 signs two lot commitments; seat 1 (its partner) proves it and signs two
    ``evidence`` envelopes of that pair for one place (the pair enclosed in either
    order: both valid).  Every honest table proves seat 0, then seat 1 by its two
    evidences, and ``verify`` of its file says the same; no honest seat is named."""
    game, players = case
    first_liar, second_liar = 0, 1
    signers = _signers(73, game, players)
    done: set[str] = set()

    def tamper(seat: int, raw: bytes) -> list[bytes]:
        envelope = open_envelope(raw)
        if envelope.sender != signers[seat].public_key:
            return [raw]
        msg = envelope.msg
        if seat == first_liar and isinstance(msg, m.LotCommitMsg) and "fork" not in done:
            done.add("fork")
            return [raw, resign(signers[seat], envelope, msg=m.LotCommitMsg(FAKE))]
        if seat == second_liar and isinstance(msg, m.EvidenceMsg) and "twice" not in done:
            done.add("twice")
            swapped = m.EvidenceMsg(msg.second, msg.first)
            return [raw, resign(signers[seat], envelope, msg=swapped)]
        return [raw]

    tables = play(73, game, players, tamper=tamper)
    assert done == {"fork", "twice"}, done
    liars = {first_liar, second_liar}
    for seat in range(players):
        if seat in liars:
            continue
        table = tables[seat]
        assert table.proven, (seat, table.faults)
        named = {f.seat for f in table.faults if f.fatal and f.proven}
        assert named == liars, (seat, table.faults)
        assert {f.seat for f in table.faults} <= liars, table.faults
        report = report_of(table)
        assert {f.seat for f in report.faults if f.fatal and f.proven} == liars, report.verdict
        assert live_verdict(table) == file_verdict(table)
