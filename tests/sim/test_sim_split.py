"""A table of four split in two halves, by a bad network or by a cheating pair: the
simulator's whole games (one seed's game, a schedule of cuts and kills given).

What the split wait (``Mesh.split``) buys and costs.  Neither half can tell a cut
cable from the other half walking away, so a pair that leaves together, or cuts its
links to the other team, stops the game for everyone and is named by nobody: the
game stays unfinished (INCOMPLETE), never won by anyone.  What a single seat cannot
do: stall the game by cutting its own links to the other team (the game is relayed
through its partner), or keep a majority from seating a bot for it."""

from __future__ import annotations

from p2pbelka.sim.checks import violations
from p2pbelka.sim.faults import parse
from p2pbelka.sim.world import Outcome, simulate
from p2pbelka.table.verify import verify_bytes

SEED = 20076  # Belka for four; its game is under way at 200 s (test_sim.py's seed)
TEAMS_APART = "cut 0<->1@200+{n}; cut 0<->3@200+{n}; cut 2<->1@200+{n}; cut 2<->3@200+{n}"
"""Seats 0 and 2 (one team) cut from seats 1 and 3 (the other) for ``n`` seconds."""


def _run(schedule: str) -> Outcome:
    outcome = simulate(SEED, "belka", 4, parse(schedule), twice=False)
    assert violations(outcome) == []
    return outcome


def _verdicts(outcome: Outcome) -> list[str]:
    return [verify_bytes(c.transcript).verdict.split(":")[0] for c in outcome.copies]


def test_a_team_cut_from_the_other_for_good_stops_every_seat_naming_nobody() -> None:
    """Every seat reaches its partner only: each waits as one cut off, and stops at the
    bound, unsigned: nobody won, nobody is named (the losing team gains an unfinished
    game, no more: it is what a cable pulled between the two halves leaves too)."""
    outcome = _run(TEAMS_APART.format(n="inf"))
    results = [e.result for e in outcome.exits]
    assert len(results) == 4
    assert all(r is not None and r.cut_off and r.split and not r.finished for r in results)
    assert _verdicts(outcome) == ["INCOMPLETE"] * 4
    assert not outcome.answers["yes"], "no bot offered: no seat could change hands"


def test_a_pair_that_walks_away_together_is_named_by_nobody() -> None:
    """Both partners' programs end past the window and never come back: the other two
    reach each other only, wait as split, and stop naming nobody (before the split wait
    they named seat 0 silent, DISPUTED).  A known cost of the wait: from the remaining
    half a pair that left is a half cut off (a cheater can make its leaving look like a
    cut), so the game ends unfinished, INCOMPLETE, never as a loss of the pair."""
    outcome = _run("kill 0@200+100000; kill 2@200.5+100000")
    stayed = [e for e in outcome.exits if not e.killed]
    assert sorted(e.seat for e in stayed) == [1, 3]
    assert all(e.result is not None and e.result.split for e in stayed)
    assert _verdicts(outcome) == ["INCOMPLETE"] * 4


def test_one_seat_cutting_its_links_to_the_other_team_stalls_nothing() -> None:
    """Seat 0 alone drops its links to seats 1 and 3: it reaches half the table (split),
    but the others reach three seats of four, and every envelope goes round through
    seat 2: the game is played to its end on every seat."""
    outcome = _run("cut 0<->1@200+inf; cut 0<->3@200+inf")
    assert [e.what for e in outcome.exits] == ["finished"] * 4
    assert _verdicts(outcome) == ["OK"] * 4


def test_the_three_that_reach_each_other_seat_a_bot_for_the_one_cut_off() -> None:
    """3 against 1, as before the split wait: the three seat a bot and finish; the seat
    cut off stops alone (not split), unsigned."""
    outcome = _run("cut 0<->*@200+inf")
    by_seat = {e.seat: e for e in outcome.exits}
    assert [by_seat[s].what for s in (1, 2, 3)] == ["finished"] * 3
    cut = by_seat[0].result
    assert cut is not None and cut.cut_off and not cut.split
    assert outcome.answers["yes"] == 3
    assert _verdicts(outcome) == ["INCOMPLETE", "OK", "OK", "OK"]


def test_halves_that_meet_again_within_the_bound_play_on() -> None:
    """Past the window (no seat named, none offered a bot) and back within the bound:
    all four finish the game."""
    outcome = _run(TEAMS_APART.format(n=150))
    assert [e.what for e in outcome.exits] == ["finished"] * 4
    assert _verdicts(outcome) == ["OK"] * 4
    assert not outcome.answers["yes"]


def test_a_seat_back_by_one_link_only_takes_its_seat_back_and_finishes() -> None:
    """Seat 0 cut off past the window (the others seat a bot for it), then back by its
    link to seat 1 only: it reaches half the table, but asks first whether its seat
    changed hands (split or not), learns it did, asks it back, and plays the rest
    relayed through seat 1: a bot seated, the seat handed back, all four finish."""
    outcome = _run("cut 0<->1@200+150; cut 0<->2@200+inf; cut 0<->3@200+inf")
    assert [e.what for e in outcome.exits] == ["finished"] * 4
    assert _verdicts(outcome) == ["OK"] * 4
    assert outcome.counts["transition offering -> switched"] == 2  # to the bot, and back
    assert outcome.counts["transition handing -> draining"] == 1


def test_a_split_healing_into_a_line_of_links_finishes() -> None:
    """The halves 0+2 and 1+3 meet again by one link (0-1) after 60 s; 2 reaches only 0,
    3 only 1, and the game is relayed to its end.  On the way, seat 0, reaching three
    seats, offers a bot for seat 3 (out of its reach); seat 1 says no (seat 3 is back),
    and seat 0 closes the offer; seat 2, whose player answered a moment later, has
    signed it.  Seat 1's no never reaches seat 2 (no link between them, and a
    ``seat_decline`` is not relayed): the proposer's signed ``seat_closed`` does (SPEC
    9.4), and seat 2 goes on.  Without it seat 2 stayed frozen on the offer, seat 1
    named it silent (DISPUTED, an honest seat) and seat 2 stopped, split."""
    cuts = "cut 0<->1@200+60; cut 0<->3@200+inf; cut 2<->1@200+inf; cut 2<->3@200+inf"
    outcome = _run(cuts)
    assert [e.what for e in outcome.exits] == ["finished"] * 4
    assert _verdicts(outcome) == ["OK"] * 4
    assert outcome.counts["transition agreed -> idle"] == 1  # seat 2, on seat 0's word
