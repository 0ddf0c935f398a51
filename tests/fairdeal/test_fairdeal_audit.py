from __future__ import annotations

import pytest

from p2pbelka.fairdeal import (
    AuditReport,
    BadDeck,
    LocalSeat,
    NotACard,
    Step,
    audit,
    card_point,
)
from tests.fairdeal.helpers import BAD_POINTS, Deal, int_scalar, make_deal


def run_audit(deal: Deal, **overrides: object) -> AuditReport:
    args: dict[str, object] = dict(
        commitments=deal.commitments(),
        seeds=deal.seeds(),
        shuffles=deal.shuffles,
        locks=deal.locks,
        shares=deal.all_shares(),
    )
    args.update(overrides)
    report = audit(deal.ctx, deal.order, **args)  # type: ignore[arg-type]
    # A seat's outcome check and a verifier's pass-by-pass replay reach one verdict.
    replayed = audit(deal.ctx, deal.order, **args, every_pass=True)  # type: ignore[arg-type]
    assert report == replayed
    return report


def redo_after(deal: Deal, kind: str, m: int, cheated: list[bytes]) -> None:
    """Replace pass m of ``kind`` with ``cheated`` and let later seats act honestly on it."""
    passes = deal.shuffles + deal.locks
    index = m if kind == "shuffle" else len(deal.order) + m
    passes[index] = cheated
    deck = cheated
    for i in range(index + 1, len(passes)):
        seat = deal.seats[deal.order[i % len(deal.order)]]
        deck = seat.shuffle(deck) if i < len(deal.order) else seat.lock(deck)
        passes[i] = deck
    deal.shuffles = passes[: len(deal.order)]
    deal.locks = passes[len(deal.order) :]


def only(report: AuditReport) -> tuple[int, Step, int | None]:
    assert len(report.faults) == 1, report.faults
    fault = report.faults[0]
    return fault.seat, fault.step, fault.position


@pytest.mark.parametrize("n_seats", [2, 3, 4])
def test_honest_deal_passes_audit(n_seats: int, version: int) -> None:
    deal = make_deal(n_seats, order=list(range(n_seats))[::-1], version=version)
    report = run_audit(deal)
    assert report.ok and not report.faults
    assert report.cards == tuple(deal.open(j, 0) for j in range(32))


def test_audit_without_shares_still_decodes(version: int) -> None:
    deal = make_deal(4, version=version)
    report = run_audit(deal, shares=[])
    assert report.ok


def test_shuffle_duplicating_a_card_is_caught_at_once_and_blamed(version: int) -> None:
    deal = make_deal(4, order=[1, 2, 3, 0], version=version)
    cheated = list(deal.shuffles[1])  # seat 2's pass
    cheated[3] = cheated[7]
    with pytest.raises(BadDeck) as info:
        deal.seats[3].shuffle(cheated)  # the next seat refuses it
    assert info.value.position == 7
    report = run_audit(deal, shuffles=[deal.shuffles[0], cheated], locks=[])
    assert report.blamed() == {2}
    assert {f.step for f in report.faults} == {Step.SHUFFLE}


def test_disguised_duplicate_is_caught_at_opening_and_audit(version: int) -> None:
    deal = make_deal(4, version=version)
    cheated = list(deal.shuffles[2])
    group = deal.ctx.group
    cheated[3] = group.mult(int_scalar(group, 2), cheated[7])
    redo_after(deal, "shuffle", 2, cheated)
    with pytest.raises(NotACard):
        for j in range(32):
            deal.open(j, 0)
    report = run_audit(deal)
    assert only(report) == (2, Step.SHUFFLE, 3)


def test_shuffle_replacing_a_card_with_another_point(version: int) -> None:
    deal = make_deal(3, version=version)
    cheated = list(deal.shuffles[0])
    group = deal.ctx.group
    cheated[10] = group.mult(group.random_scalar(), card_point(deal.ctx.game_id, 40, version))
    redo_after(deal, "shuffle", 0, cheated)
    report = run_audit(deal)
    assert only(report) == (0, Step.SHUFFLE, 10)
    assert report.cards.count(None) == 1  # that position no longer opens to a card


def test_wrong_lock_pass(version: int) -> None:
    deal = make_deal(4, version=version)
    other = LocalSeat(deal.ctx, 3)  # right seat, different (uncommitted) secrets
    cheated = other.lock(deal.locks[2])
    redo_after(deal, "lock", 3, cheated)
    report = run_audit(deal)
    seat, step, _ = only(report)
    assert (seat, step) == (3, Step.LOCK)


def test_lock_swapping_two_positions(version: int) -> None:
    deal = make_deal(4, version=version)
    cheated = list(deal.locks[1])
    cheated[0], cheated[1] = cheated[1], cheated[0]
    redo_after(deal, "lock", 1, cheated)
    report = run_audit(deal)
    assert only(report) == (1, Step.LOCK, 0)


def test_wrong_key_share(version: int) -> None:
    deal = make_deal(4, version=version)
    shares = deal.all_shares()
    seat, position, _ = shares[40]
    shares[40] = (seat, position, deal.ctx.group.random_scalar())
    shares.append((2, 5, b"\x00" * 32))
    shares.append((3, 99, deal.seats[3].share(0)))
    report = run_audit(deal, shares=shares)
    faults = {(f.seat, f.step, f.position) for f in report.faults}
    assert faults == {(seat, Step.SHARE, position), (2, Step.SHARE, 5), (3, Step.SHARE, None)}
    assert None not in report.cards


def test_seed_not_matching_commitment(version: int) -> None:
    deal = make_deal(3, version=version)
    seeds = deal.seeds()
    seeds[1] = bytes(32)
    report = run_audit(deal, seeds=seeds)
    assert only(report) == (1, Step.COMMIT, None)
    # Seat 1's published shares still decode every position.
    assert None not in report.cards


def test_missing_reveal(version: int) -> None:
    deal = make_deal(4, version=version)
    seeds = deal.seeds()
    del seeds[2]
    shares = [s for s in deal.all_shares() if not (s[0] == 2 and s[1] < 8)]
    report = run_audit(deal, seeds=seeds, shares=shares)
    assert only(report) == (2, Step.REVEAL, None)
    assert report.cards[:8] == (None,) * 8
    assert None not in report.cards[8:]


def test_missing_pass(version: int) -> None:
    deal = make_deal(3, version=version)
    report = run_audit(deal, locks=deal.locks[:1])
    # Only the seat that stalled is named; seat 2 could not lock what never came.
    assert only(report) == (1, Step.LOCK, None)
    assert report.cards == (None,) * 32


def test_invalid_points_in_a_pass_are_a_fault_not_a_crash(version: int) -> None:
    deal = make_deal(3, version=version)
    for bad in BAD_POINTS[version]:
        cheated: list[object] = list(deal.shuffles[1])
        cheated[6] = bad
        # Honest seat 2 would refuse this deck; the audit of the transcript so far:
        report = run_audit(deal, shuffles=[deal.shuffles[0], cheated], locks=[])
        assert (1, Step.SHUFFLE, 6) in {(f.seat, f.step, f.position) for f in report.faults}
        # Seat 2 refused the broken deck, as an honest seat must: not its fault.
        assert report.blamed() == {1}, bad


def test_wrong_lengths_and_types(version: int) -> None:
    deal = make_deal(2, version=version)
    report = run_audit(
        deal,
        shuffles=[deal.shuffles[0][:5], "junk"],
        commitments={0: "x", 1: None},
        seeds={0: b"short", 1: 5},
    )
    assert {(f.seat, f.step) for f in report.faults} >= {
        (0, Step.SHUFFLE),
        (1, Step.SHUFFLE),
        (0, Step.REVEAL),
        (1, Step.REVEAL),
    }


def test_what_the_caller_knows_saves_work_and_changes_nothing(version: int) -> None:
    deal = make_deal(4, version=version)
    group = deal.ctx.group
    args = dict(
        commitments=deal.commitments(),
        seeds=deal.seeds(),
        shuffles=deal.shuffles,
        locks=deal.locks,
        shares=deal.all_shares(),
    )

    def mults(**extra: object) -> tuple[AuditReport, int]:
        before = group.ops.copy()
        report = audit(deal.ctx, deal.order, **args, **extra)  # type: ignore[arg-type]
        return report, group.ops.since(before).mult

    full, full_mults = mults(every_pass=True)
    assert full.ok and full_mults == 8 * 32 + 32  # every pass replayed, every position decoded
    me = deal.seats[2]
    computed = {(Step.SHUFFLE, 2): deal.shuffles[2], (Step.LOCK, 2): deal.locks[2]}
    opened = {j: full.cards[j] for j in range(0, 32, 2)}
    lean, lean_mults = mults(computed=computed, own=me.secrets, opened=opened, every_pass=True)
    assert lean == full and lean_mults == 6 * 32 + 16

    # A seat checks the outcome: one multiplication per position not opened in play.
    outcome, outcome_mults = mults()
    assert outcome == full and outcome_mults == 32
    outcome, outcome_mults = mults(own=me.secrets, opened=opened)
    assert outcome == full and outcome_mults == 16
    everything = {j: full.cards[j] for j in range(32)}
    outcome, outcome_mults = mults(own=me.secrets, opened=everything)
    assert outcome == full and outcome_mults == 0


def test_colluders_whose_deviations_cancel_pass_a_seat_but_not_a_verifier(version: int) -> None:
    """Seat order[1] publishes a shuffle with two cards swapped and order[2] undoes
    the swap: the deck comes out exactly as the seeds say, so no card changed and a
    seat's audit passes; a verifier's replay of every pass names both."""
    deal = make_deal(4, version=version)
    honest = run_audit(deal)
    first, second = deal.order[1], deal.order[2]
    cheated = list(deal.shuffles[1])
    cheated[0], cheated[1] = cheated[1], cheated[0]
    shuffles = [deal.shuffles[0], cheated, *deal.shuffles[2:]]
    args = dict(
        commitments=deal.commitments(),
        seeds=deal.seeds(),
        shuffles=shuffles,
        locks=deal.locks,
        shares=deal.all_shares(),
    )
    seat_view = audit(deal.ctx, deal.order, **args)  # type: ignore[arg-type]
    assert seat_view.ok and seat_view.cards == honest.cards
    verifier = audit(deal.ctx, deal.order, **args, every_pass=True)  # type: ignore[arg-type]
    # the deal stands (every seat accepted it) and both deviations are named beside it
    assert not verifier.faults and verifier.cards == honest.cards
    assert {f.seat for f in verifier.cancelled} == {first, second}
    assert all(f.step is Step.SHUFFLE for f in verifier.cancelled)


def test_opened_positions_do_not_hide_a_wrong_share(version: int) -> None:
    deal = make_deal(3, version=version)
    shares = deal.all_shares()
    seat, position, _ = shares[7]
    shares[7] = (seat, position, deal.seats[seat].share(position + 1))
    opened = {j: deal.open(j, 0) for j in range(32)}
    report = run_audit(deal, shares=shares, opened=opened)
    assert only(report) == (seat, Step.SHARE, position)
