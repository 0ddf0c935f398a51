"""Blame that cannot be forged: a liar is named with proof, and an honest seat never is.

Each attack is played by a seat with real keys whose envelopes are validly
signed: it tells one peer something else than the others (two chains), or signs
a view of another seat's chain that nobody can back.  The honest peers must
name the liar with the two signatures that prove it, or end the game disputed;
``verify`` on an honest transcript must never say PROVEN against an honest seat.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.fairdeal import FAIRDEAL_VERSION, group_for
from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, open_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import Table
from p2pbelka.table import events as ev
from p2pbelka.table.phase import Question
from p2pbelka.table.state import TableState
from p2pbelka.table.verify import VerifyReport
from tests.audit import verify_bytes
from tests.table.helpers import Fork, faults_of, play_sync, resign

CHEATER = 2
GROUP = group_for(FAIRDEAL_VERSION)
SCALAR = GROUP.scalar_from_64(bytes(range(1, 65)))


def verdicts(tables: list[Table], cheater: int) -> list[VerifyReport]:
    return [
        verify_bytes(dump_transcript(t.view.transcript))
        for seat, t in enumerate(tables)
        if seat != cheater
    ]


def assert_proven(tables: list[Table], events: list[list[ev.Event]], cheater: int) -> None:
    for seat, table in enumerate(tables):
        if seat == cheater:
            continue
        assert table.state.aborted, f"seat {seat} did not stop the game"
        proven = [f for f in faults_of(events[seat]) if f.fatal and f.proven]
        assert proven and all(f.seat == cheater for f in proven), faults_of(events[seat])
        assert any(len(f.evidence) == 2 for f in proven), "two signatures are the proof"
    for report in verdicts(tables, cheater):
        assert report.error is None and report.proven, report.verdict
        assert {f.seat for f in report.faults if f.proven} == {cheater}


def assert_no_honest_seat_proven(tables: list[Table], cheater: int) -> None:
    for seat, table in enumerate(tables):
        if seat == cheater:
            continue
        assert all(f.seat == cheater for f in table.view.faults if f.proven), table.view.faults
    for report in verdicts(tables, cheater):
        assert report.error is None, report.error
        assert all(f.seat == cheater for f in report.faults if f.proven), report.verdict


def game_signer(seed: int, seat: int) -> LocalGame:
    return LocalGame.seeded(seed)


# -- the three attacks of the issue, as regression tests ----------------------------------


def test_a_false_report_names_nobody_as_proven() -> None:
    """Seat 2 signs a deal-end whose view of seat 1's chain is wrong, and shows only
    that one (its own table's other copy never leaves it).  Nobody can back the view
    with seat 1's signature, so the game ends disputed: never proven against seat 1,
    and seat 1, which knows its own chain, names only seat 2."""
    signer = LocalGame.seeded(50).signers[CHEATER]
    lies: dict[bytes, bytes] = {}

    def lie(seat: int, raw: bytes) -> list[bytes]:
        envelope = open_envelope(raw)
        mine = envelope.sender == signer.public_key  # not another's it passes on
        if seat != CHEATER or not mine or not isinstance(envelope.msg, m.DealEndMsg):
            return [raw]
        view = list(envelope.view)
        view[1] = (view[1][0], bytes(32 * [7]))
        lies[raw] = resign(signer, envelope, view=tuple(view))
        return [lies[raw]]

    def only_the_lie(source: int, dest: int, raw: bytes) -> bytes | None:
        return lies.get(raw, raw) if source == CHEATER else raw

    tables, events = play_sync(
        50, tamper=lie, deliver=only_the_lie, give_up=True, until=_first_deal_over
    )
    for seat in (0, 1, 3):
        assert tables[seat].state.aborted
        named = faults_of(events[seat])
        assert named and not any(f.proven for f in named), named
        assert {f.seat for f in named} <= {1, CHEATER}
    assert {f.seat for f in tables[1].view.faults} == {CHEATER}, "seat 1 knows its own chain"
    for report in verdicts(tables, CHEATER):
        assert report.disputed and not report.proven, report.verdict
        assert report.verdict.startswith("DISPUTED")


def test_a_false_report_shown_to_one_seat_is_proven_by_its_own_other_copy() -> None:
    """The same lie, but the liar's table keeps (and gives back when asked) the honest
    copy of its deal-end: the seat the lie is about asks every peer for the reporter's
    envelope at that place, and two signatures for one place prove the liar."""
    signer = LocalGame.seeded(50).signers[CHEATER]

    def lie(seat: int, raw: bytes) -> list[bytes]:
        envelope = open_envelope(raw)
        mine = envelope.sender == signer.public_key  # not another's it passes on
        if seat != CHEATER or not mine or not isinstance(envelope.msg, m.DealEndMsg):
            return [raw]
        view = list(envelope.view)
        view[1] = (view[1][0], bytes(32 * [7]))
        return [resign(signer, envelope, view=tuple(view))]

    tables, events = play_sync(50, tamper=lie, give_up=True, until=_first_deal_over)
    assert_proven(tables, events, CHEATER)


def _wrong_share_for(victim: int) -> object:
    def change(envelope: Envelope) -> m.Message | None:
        if not isinstance(envelope.msg, m.SharesMsg):
            return None
        shares = list(envelope.msg.shares)
        shares[0] = m.Opening(shares[0].pos, SCALAR)
        return m.SharesMsg(tuple(shares))

    return change


def test_equivocated_shares_are_proven_against_the_liar() -> None:
    """Seat 2 sends seat 3 one wrong key share (a second, consistently re-chained
    copy of its shares).  Seat 3's hand does not open; the views compared at the next
    message bring the two signed copies together: seat 2 is proven, not seat 3."""
    game = LocalGame.seeded(51)

    def change(envelope: Envelope) -> m.Message | None:
        if not isinstance(envelope.msg, m.SharesMsg):
            return None
        shares = list(envelope.msg.shares)
        i = next(i for i, o in enumerate(shares) if o.pos in _positions_of(game, 3))
        shares[i] = m.Opening(shares[i].pos, SCALAR)
        return m.SharesMsg(tuple(shares))

    fork = Fork(game.signers[CHEATER], CHEATER, 3, change)
    tables, events = play_sync(51, deliver=fork, give_up=True, until=_first_deal_over)
    assert fork.fork_seq is not None, "the attack did not happen"
    assert_proven(tables, events, CHEATER)


def test_an_equivocated_pass_is_proven_against_the_liar() -> None:
    """Seat 2 sends its shuffle with two points swapped to seat 3 only."""
    game = LocalGame.seeded(52)

    def change(envelope: Envelope) -> m.Message | None:
        if not isinstance(envelope.msg, m.ShuffleMsg):
            return None
        deck = list(envelope.msg.deck)
        deck[0], deck[1] = deck[1], deck[0]
        return m.ShuffleMsg(tuple(deck), envelope.msg.input)

    fork = Fork(game.signers[CHEATER], CHEATER, 3, change)
    tables, events = play_sync(52, deliver=fork, give_up=True, until=_first_deal_over)
    assert fork.fork_seq is not None
    assert_proven(tables, events, CHEATER)


def test_a_second_envelope_for_an_old_sequence_number_is_proof() -> None:
    """A replayed envelope (the same bytes) is ignored; a different one signed for a
    place already taken in the chain is two signatures on conflicting statements."""
    signer = LocalGame.seeded(53).signers[CHEATER]
    sent: list[bytes] = []

    def replay_old(seat: int, raw: bytes) -> list[bytes]:
        if seat != CHEATER:
            return [raw]
        sent.append(raw)
        if len(sent) == 12:
            old = open_envelope(sent[3])
            return [raw, sent[3], resign(signer, old, msg=m.ReadyMsg())]
        return [raw]

    tables, events = play_sync(53, tamper=replay_old, give_up=True)
    assert_proven(tables, events, CHEATER)


def _bogus_evidence(seed: int, seq_offset: int = 1, chained: bool = True) -> list[Table]:
    """Seat 2 sends seat 0, as its next envelope (or ``seq_offset`` past its chain's
    head, or off its chain), evidence whose two envelopes are the same one."""
    game = LocalGame.seeded(seed)
    signer = game.signers[CHEATER]
    tables = game.make_tables()
    from p2pbelka.bots import make_bot
    from p2pbelka.peer.sync import run_sync

    bots = [make_bot("random", s) for s in range(4)]
    run_sync(tables, bots, until=lambda events: tables[0].state.deal_id >= 1)
    honest = tables[1].view.transcript[-1]
    last = tables[0].view.transcript[-1]
    head = next(e for e in reversed(tables[0].view.transcript) if e.sender == signer.public_key)
    view = list(tables[0].view.accepted())
    view[CHEATER] = (head.seq + seq_offset, head.digest)
    bogus = resign(
        signer,
        last,
        seq=head.seq + seq_offset,
        prev=head.digest if chained else bytes(32),
        view=tuple(view),
        msg=m.EvidenceMsg(honest.raw, honest.raw),
    )
    tables[0].receive(bogus)
    tables[0].take_outgoing()  # the driver sends what the table passes on, then it goes on
    tables[0].proceed()
    return tables


def test_evidence_that_proves_nothing_is_the_senders_fault() -> None:
    tables = _bogus_evidence(54)
    assert tables[0].state.aborted
    (fault,) = tables[0].view.faults
    assert fault.seat == CHEATER and fault.proven and "proves nothing" in fault.what
    report = verify_bytes(dump_transcript(tables[0].view.transcript))
    assert report.proven and {f.seat for f in report.faults} == {CHEATER}, report.verdict


def test_an_ending_off_its_senders_chain_is_refused() -> None:
    """Endings are in the chain: one that does not follow its sender's last envelope
    is refused like any (nobody named), one far ahead is refused too, and one past a
    gap waits for the envelopes before it."""
    broken = _bogus_evidence(54, chained=False)
    assert not broken[0].finished and not broken[0].view.faults
    far = _bogus_evidence(54, seq_offset=99)
    assert not far[0].finished and not far[0].view.faults
    gap = _bogus_evidence(54, seq_offset=2)
    assert not gap[0].finished and CHEATER in gap[0].view.missing()


# -- helpers ----------------------------------------------------------------------------------


def _first_deal_over(tables: list[Table]) -> bool:
    return all(t.finished or t.state.deal_id > 1 for t in tables)


def _positions_of(game: LocalGame, seat: int) -> set[int]:
    # the deal pattern of the first deal, whoever deals: read it from a table
    probe = game.make_tables()
    from p2pbelka.bots import make_bot
    from p2pbelka.peer.sync import run_sync

    run_sync(
        probe,
        [make_bot("random", s) for s in range(4)],
        until=lambda events: probe[0].state.deal_id >= 1,
    )
    return set(probe[0].state.round.deck.positions_of(seat))


@pytest.mark.parametrize("victim", [0, 3])
def test_a_coalition_of_two_cannot_frame_an_honest_seat(victim: int) -> None:
    """Seats 1 and 2 both tell seat ``victim`` something else in their shares, and
    both sign views that back each other: the proof still names only them."""
    game = LocalGame.seeded(55)

    def change(envelope: Envelope) -> m.Message | None:
        if not isinstance(envelope.msg, m.SharesMsg):
            return None
        shares = list(envelope.msg.shares)
        shares[0] = m.Opening(shares[0].pos, SCALAR)
        return m.SharesMsg(tuple(shares))

    forks = [Fork(game.signers[s], s, victim, change) for s in (1, 2)]

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        out: bytes | None = raw
        for fork in forks:
            if out is None:
                return None
            out = fork(source, dest, out)
        return out

    tables, _events = play_sync(55, deliver=deliver, give_up=True, until=_first_deal_over)
    honest = [s for s in range(4) if s not in (1, 2)]
    for seat in honest:
        assert tables[seat].state.aborted
        assert all(f.seat in (1, 2) for f in tables[seat].view.faults if f.proven)
    for seat in honest:
        report = verify_bytes(dump_transcript(tables[seat].view.transcript))
        assert report.error is None
        assert all(f.seat in (1, 2) for f in report.faults if f.proven), report.verdict


# -- any single liar, any lie: a property ---------------------------------------------------

LIES = (
    "equivocate",
    "corrupt_point",
    "wrong_share",
    "lie_in_view",
    "replay_old",
    "dispute_for_one",
    "dispute_for_a_held_place",
    "dispute_in_view",
)


def _other_message(envelope: Envelope) -> m.Message | None:
    """A well-formed message of the same kind that says something else."""
    msg = envelope.msg
    if isinstance(msg, m.ShuffleMsg | m.LockMsg):
        deck = list(msg.deck)
        deck[0], deck[-1] = deck[-1], deck[0]
        return type(msg)(tuple(deck), msg.input)
    if isinstance(msg, m.SharesMsg) and msg.shares:
        first = msg.shares[0]
        return m.SharesMsg((m.Opening(first.pos, SCALAR), *msg.shares[1:]))
    if isinstance(msg, m.TrumpMsg):
        return m.TrumpMsg(msg.jack, not msg.hand_ok)
    if isinstance(msg, m.CommitMsg | m.LotCommitMsg | m.SitMsg):
        return type(msg)(bytes(32 * [9]))
    if isinstance(msg, m.LotRevealMsg | m.RevealMsg):
        return type(msg)(bytes(32 * [9]))
    if isinstance(msg, m.PlayMsg):
        return m.PlayMsg(msg.pos, SCALAR)
    return None


class CorruptsAPoint(TableState):
    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.ShuffleMsg | m.LockMsg) and self.deal_id == 1:
            deck = list(msg.deck)
            deck[3] = GROUP.mult(SCALAR, deck[3])
            return type(msg)(tuple(deck), msg.input)
        return msg


class SendsAWrongShare(TableState):
    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.SharesMsg) and self.deal_id == 1:
            last = msg.shares[-1]
            return m.SharesMsg((*msg.shares[:-1], m.Opening(last.pos, SCALAR)))
        return msg


def _play_a_lie(seed: int, cheater: int, lie: str, k: int, victim: int) -> list[Table]:
    game = LocalGame.seeded(seed)
    signer = game.signers[cheater]
    sent: list[bytes] = []
    if lie == "corrupt_point":
        tables, _ = play_sync(
            seed, states={cheater: CorruptsAPoint}, give_up=True, until=_first_deal_over
        )
        return tables
    if lie == "wrong_share":
        tables, _ = play_sync(
            seed, states={cheater: SendsAWrongShare}, give_up=True, until=_first_deal_over
        )
        return tables
    if lie == "equivocate":
        count = [0]

        def change(envelope: Envelope) -> m.Message | None:
            count[0] += 1
            return _other_message(envelope) if count[0] > k else None

        fork = Fork(signer, cheater, victim, change)
        tables, _ = play_sync(seed, deliver=fork, give_up=True, until=_first_deal_over)
        return tables
    named = (victim + 1) % 4
    if lie == "dispute_for_one":
        # The victim gets a dispute naming another seat where the others get the
        # cheater's next envelope (and a chain that follows the dispute after it).
        count = [0]

        def to_dispute(envelope: Envelope) -> m.Message | None:
            count[0] += 1
            return m.DisputeMsg((named,), "made up") if count[0] > k else None

        fork = Fork(signer, cheater, victim, to_dispute)
        tables, _ = play_sync(seed, deliver=fork, give_up=True, until=_first_deal_over)
        return tables

    def tamper(seat: int, raw: bytes) -> list[bytes]:
        if seat != cheater or open_envelope(raw).sender != signer.public_key:
            return [raw]
        sent.append(raw)
        if len(sent) != k + 1:
            return [raw]
        envelope = open_envelope(raw)
        if lie == "replay_old":
            return [raw, sent[len(sent) // 2]]
        if lie == "dispute_for_a_held_place":
            old = open_envelope(sent[len(sent) // 2])
            return [raw, resign(signer, old, msg=m.DisputeMsg((named,), "made up"))]
        view = list(envelope.view)
        if not view:
            return [raw]
        count, _head = view[victim]
        view[victim] = (count, bytes(32 * [5]))
        msg = m.DisputeMsg((named,), "made up") if lie == "dispute_in_view" else envelope.msg
        return [resign(signer, envelope, view=tuple(view), msg=msg)]

    tables, _ = play_sync(seed, tamper=tamper, give_up=True, until=_first_deal_over)
    return tables


def _check_no_frame(tables: list[Table], cheater: int) -> None:
    for seat, table in enumerate(tables):
        if seat == cheater:
            continue
        proven = [f for f in table.view.faults if f.fatal and f.proven]
        assert all(f.seat == cheater for f in proven), (seat, table.view.faults)
        if table.state.aborted:
            assert proven or all(not f.proven for f in table.view.faults), table.view.faults
        data = dump_transcript(table.view.transcript)
        report = verify_bytes(data)
        assert report.error is None, report.error
        # One liar cannot make deviations cancel out: replaying every pass agrees.
        forensic = verify_bytes(data, every_pass=True)
        assert (forensic.verdict, forensic.faults) == (report.verdict, report.faults)
        assert all(f.seat == cheater for f in report.faults if f.proven), report.verdict
        if report.proven:
            assert {f.seat for f in report.faults if f.proven} == {cheater}


lie_cases = st.tuples(
    st.integers(0, 10_000),
    st.integers(0, 3),
    st.sampled_from(LIES),
    st.integers(0, 17),
    st.integers(1, 3),
)


# 20 fixed cases in the default run (each a game played and audited twice); the
# 2000 random ones of the test below under -m slow.
@settings(max_examples=20, deadline=None, derandomize=True)
@given(case=lie_cases)
def test_no_single_liar_can_get_an_honest_seat_proven(
    case: tuple[int, int, str, int, int],
) -> None:
    seed, cheater, lie, k, offset = case
    victim = (cheater + offset) % 4
    _check_no_frame(_play_a_lie(seed, cheater, lie, k, victim), cheater)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(case=lie_cases)
def test_no_single_liar_can_get_an_honest_seat_proven_long(
    case: tuple[int, int, str, int, int],
) -> None:
    seed, cheater, lie, k, offset = case
    victim = (cheater + offset) % 4
    _check_no_frame(_play_a_lie(seed, cheater, lie, k, victim), cheater)
