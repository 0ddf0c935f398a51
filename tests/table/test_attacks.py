"""Attacks tried on the promise (issue 23) after the refused records and the covered
closes landed: each a cheater's trick that once broke it, kept as a regression test.

- Two ``evidence`` envelopes for one place of a coalition seat, sent after an honest
  table proved the first liar: both prove the first liar again (each is valid), and
  a finished table took each only as the first liar's proof, never as an envelope of
  its sender's chain, so the second liar's two signatures for one place went
  unproven.  The same when the first evidence itself brought the first liar's pair
  (it ended the game, and was never held at its place).
- A resumed seat kept from its own chain (the cheater never hands it back) gives up
  mid-game: it may not sign a dispute, so its table once ended ABORTED while its file
  read INCOMPLETE.  It now stops unfinished (``left``), as the file reads.
- An ending that waits at its place when another envelope comes for it: the table
  records both as proof records, and ``verify`` once took the ending first (an
  evidence that proves nothing then proved its sender, and the proof record was a
  proven seat's second pair: INVALID).  The first of two is now held whatever its
  type.
"""

from __future__ import annotations

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign, run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Signer, open_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from tests.table.test_endings import TWO_HONEST, file_verdict, ids, live_verdict, play, report_of

FAKE = bytes(32 * [0x5A])


def _signers(seed: int, game: str, players: int) -> list[Signer]:
    return list(LocalGame.seeded(seed, game=game, players=players).signers)


@pytest.mark.parametrize("only_partner", [False, True], ids=["both", "partner"])
@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_two_evidences_for_one_place_after_a_proven_end_prove_their_sender(
    case: tuple[str, int], only_partner: bool
) -> None:
    """Seat 0 signs two lot commitments; seat 1 (its partner) proves it and signs two
    ``evidence`` envelopes of that pair for one place (the pair enclosed in either
    order: both valid).  Every honest table proves seat 0, then seat 1 by its two
    evidences, and ``verify`` of its file says the same; no honest seat is named.
    ``only_partner``: seat 0's second commitment goes to seat 1 alone, so the honest
    tables learn of seat 0's pair from the first evidence itself (which ends them)."""
    game, players = case
    first_liar, second_liar = 0, 1
    signers = _signers(73, game, players)
    done: set[str] = set()
    second_commit: list[bytes] = []

    def tamper(seat: int, raw: bytes) -> list[bytes]:
        envelope = open_envelope(raw)
        if envelope.sender != signers[seat].public_key:
            return [raw]
        msg = envelope.msg
        if seat == first_liar and isinstance(msg, m.LotCommitMsg) and "fork" not in done:
            done.add("fork")
            second_commit.append(resign(signers[seat], envelope, msg=m.LotCommitMsg(FAKE)))
            return [raw, second_commit[0]]
        if seat == second_liar and isinstance(msg, m.EvidenceMsg) and "twice" not in done:
            done.add("twice")
            swapped = m.EvidenceMsg(msg.second, msg.first)
            return [raw, resign(signers[seat], envelope, msg=swapped)]
        return [raw]

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        if only_partner and second_commit and raw == second_commit[0]:
            return raw if dest == second_liar else None
        return raw

    tables = play(73, game, players, tamper=tamper, deliver=deliver)
    assert done == {"fork", "twice"}, done
    liars = {first_liar, second_liar}
    for seat in range(players):
        if seat in liars:
            continue
        table = tables[seat]
        assert table.view.proven, (seat, table.view.faults)
        named = {f.seat for f in table.view.faults if f.fatal and f.proven}
        assert named == liars, (seat, table.view.faults)
        assert {f.seat for f in table.view.faults} <= liars, table.view.faults
        report = report_of(table)
        assert {f.seat for f in report.faults if f.fatal and f.proven} == liars, report.verdict
        assert live_verdict(table) == file_verdict(table)


@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_the_evidence_that_brings_the_first_proof_is_its_senders_envelope_too(
    case: tuple[str, int],
) -> None:
    """An honest table in the middle of a game gets, from seat 1, two ``evidence``
    envelopes for one place of seat 1's chain, each enclosing a pair seat 0 signed
    that the table did not hold: the first ends the game proving seat 0, and the
    second proves seat 1 (before, the first was taken only as seat 0's proof and
    never held at its sender's place, so the second found that place empty)."""
    game, players = case
    signers = _signers(73, game, players)
    tables = play(73, game, players)
    table = tables[2]
    zero = next(e for e in table.view.transcript if e.sender == signers[0].public_key and e.seq > 0)
    one = next(e for e in reversed(table.view.transcript) if e.sender == signers[1].public_key)
    fork = resign(signers[0], zero, view=tuple((0, bytes(32)) for _ in zero.view))
    pair = (zero.raw, fork)
    ending = {
        "seq": one.seq + 1,
        "prev": one.digest,
        "view": tuple(table._chains.view()),
    }
    first = resign(signers[1], one, msg=m.EvidenceMsg(*pair), **ending)
    second = resign(signers[1], one, msg=m.EvidenceMsg(*reversed(pair)), **ending)
    table.receive(first)
    assert table.view.proven and {f.seat for f in table.view.faults if f.fatal} == {0}, (
        table.view.faults
    )
    table.receive(second)
    assert {f.seat for f in table.view.faults if f.fatal and f.proven} == {0, 1}, table.view.faults
    assert live_verdict(table) == file_verdict(table)


@pytest.mark.parametrize("case", [("belka", 4), ("belot", 3), ("belot", 2)], ids=ids)
def test_a_held_seat_giving_up_mid_game_ends_as_its_file_reads(case: tuple[str, int]) -> None:
    """A seat resumed from its file is held (it may not sign until it has what it signed
    before); its driver gives up on a silent seat.  What its table concludes must be
    what ``verify`` of its file says."""
    game, players = case
    local = LocalGame.seeded(70, game=game, players=players)
    tables = local.make_tables()
    bots = [make_bot("random", s) for s in range(players)]
    run_sync(
        tables,
        bots,
        until=lambda _: tables[0].state.deal_id >= 1 and len(tables[0].view.transcript) > 30,
    )
    fresh = LocalGame.seeded(70, game=game, players=players)
    assert fresh.seed_sources is not None
    held = Table.resume(
        local.signers[0], list(tables[0].view.transcript), seed_source=fresh.seed_sources[0]
    )
    assert held.state.held and not held.finished
    held.abandon([1], "went silent")
    assert held.finished and not held.state.aborted and not held.state.over
    assert live_verdict(held) == file_verdict(held) == ("INCOMPLETE", frozenset())
    (stopped,) = [e for e in held.take_events() if isinstance(e, ev.GameAborted)]
    assert [(f.seat, f.fatal) for f in stopped.faults] == [(1, False)]  # told, not blamed
    assert "can be resumed" in stopped.faults[0].what


@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_an_ending_waiting_at_its_place_and_another_there_are_the_first_of_two(
    case: tuple[str, int],
) -> None:
    """Seat 1's ``evidence`` that proves nothing waits, two places past its chain (the
    place between never came); then another envelope of seat 1 comes for the same
    place.  The table records both as proof records and proves seat 1; ``verify`` of
    its file must read the waiting ending as the first of two, never take it (taken,
    it would prove seat 1 first, and the second record would be a proven seat's
    second pair: INVALID)."""
    game, players = case
    signers = _signers(73, game, players)
    table = play(73, game, players)[2]
    one = next(e for e in reversed(table.view.transcript) if e.sender == signers[1].public_key)
    zero = [e for e in table.view.transcript if e.sender == signers[0].public_key]
    view = list(table._chains.view())
    view[1] = (one.seq + 2, FAKE)  # its own entry as signed: only the gap keeps it waiting
    place = {"seq": one.seq + 2, "prev": FAKE, "view": tuple(view)}
    nothing = m.EvidenceMsg(zero[1].raw, zero[2].raw)
    table.receive(resign(signers[1], one, msg=nothing, **place))
    assert not table.finished
    table.receive(resign(signers[1], one, msg=m.DisputeMsg((0,), "went silent"), **place))
    assert table.view.proven and {f.seat for f in table.view.faults if f.fatal} == {1}
    assert [e.type for e in table.view.transcript[-3:]] == ["evidence", "dispute", "evidence"]
    assert live_verdict(table) == file_verdict(table)
