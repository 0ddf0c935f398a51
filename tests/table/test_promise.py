"""The promise, as a property: no honest seat is ever proven a cheater, by any honest
peer or by ``verify`` of any honest file, and every equivocation that reached an
honest peer is proven by it.

Each scenario combines two games of the same players, a seat change, a power cut
of an honest seat and one cheater or a coalition of all seats but one
(``promise.py``, checked by ``promise_checks.py``), at Belka for 4 and Belot for 3
and 2.  The default suite draws two short scenarios per table from the kinds of
cheating the protocol withstands today, and replays the counterexamples found so
far (``COUNTEREXAMPLES``).  ``-m slow`` is the fuzzer: every kind of cheating
(``promise_scenarios.WHATS``) at every table, ``PROMISE_EXAMPLES`` examples each
(60 by default), long games, late attacks; ``PROMISE_SHRINK=1`` shrinks what fails
to a minimal scenario (``scripts/promise-fuzz`` runs it).

What the protocol does not withstand yet is marked ``xfail`` per kind of cheating,
with the part of the work that fixes it (not strict: they pass once it lands).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.table.promise import KINDS, Change, Cut, Kind, Scenario, describe, play
from tests.table.promise_cheats import Attack, Conduct
from tests.table.promise_checks import Breach, breaches
from tests.table.promise_scenarios import WHATS, scenarios


class KnownBreach(Exception):
    """Only breaches of the kinds a known case makes: the case is not fixed yet."""


KNOWN: dict[str, tuple[str, frozenset[str]]] = {}
"""The kinds of cheating the protocol does not withstand yet, with the part that fixes
them and the kinds of breach they show.  Fixed so far (their counterexamples below
now pass): an ending outside the chain, a lie in a view about a third seat's chain
or the receiver's own (a suspicion against myself), a view over-count, the game's
last ``deal_end``, a fork that changes whose turn it is, a held seat's evidence,
verify of two proof records (endings); a second close of one seat, a close lying
in its view (closes); a power cut on the unsynced path (durable);
a second game under the first one's id, a continuation under another game's id
(ids); an envelope refused when it is due, then the other version of its place
(refused: the refused one is kept at its place)."""
ALWAYS: dict[str, str] = {}
"""Known in every kind of cheating that forks a chain: none now.  (Known here until
their fixes landed: ``late unproven``, a finished table that took nothing more;
``record refused``, verify taking the first of two proof records in the schedule;
``second unproven``, a proven table that took nothing more, so a coalition's second
liar went unproven; ``forgotten unproven``, an envelope refused when it was due and
forgotten.)"""
HOLDING = tuple(w for w in WHATS if w not in KNOWN)
EXAMPLES = int(os.environ.get("PROMISE_EXAMPLES", "60"))
SHRINK = os.environ.get("PROMISE_SHRINK") == "1"
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def known_kinds(what: str) -> set[str]:
    return set(ALWAYS) | (KNOWN[what][1] if what in KNOWN else frozenset())


def examine(sc: Scenario, what: str) -> list[Breach]:
    """The breaches of ``sc`` of known kinds; fails at once on any other."""
    found = breaches(play(sc))
    unknown = [b for b in found if b.kind not in known_kinds(what)]
    assert not unknown, report(sc, unknown)
    return found


def report(sc: Scenario, found: list[Breach]) -> str:
    return "\n".join([describe(sc), repr(sc), *map(str, found[:8])])


def settle(what: str, known: list[str]) -> None:
    """After the examples: the known breaches seen say the case is still open."""
    if not known:
        return
    if what in KNOWN:
        raise KnownBreach("\n\n".join(known[:3]))
    kinds = {line.split(" (game")[0] for case in known for line in case.splitlines()}
    reasons = "; ".join(reason for kind, reason in ALWAYS.items() if kind in kinds)
    pytest.xfail(f"{reasons}:\n" + "\n\n".join(known[:3]))


def xfail(what: str) -> list[pytest.MarkDecorator]:
    if what not in KNOWN:
        return []
    return [pytest.mark.xfail(strict=False, raises=KnownBreach, reason=KNOWN[what][0])]


# -- the default suite: a few short scenarios per table ---------------------------------------


@pytest.mark.parametrize("table", list(KINDS))
def test_no_honest_seat_is_proven_and_every_equivocation_is(table: str) -> None:
    kind = KINDS[table]
    what = st.sampled_from(HOLDING)
    short = what.flatmap(lambda w: scenarios(kind, w, short=True).map(lambda sc: (w, sc)))

    known: list[str] = []

    @settings(max_examples=2, deadline=None, derandomize=True, database=None, phases=NO_SHRINK)
    @given(case=short)
    def run(case: tuple[str, Scenario]) -> None:
        found = examine(case[1], case[0])
        if found:
            known.append(report(case[1], found))

    run()
    settle("network", known)  # only the kinds every fork may show (none of KNOWN's)


# -- the counterexamples found, minimized: each a regression test of its case -----------------

B4, B3, B2 = KINDS["belka4"], KINDS["belot3"], KINDS["belot2"]
HONEST = Conduct("honest")


def _attack(kind: str, liar: int, at: int, victims: tuple[int, ...], **more: int) -> Attack:
    return Attack(kind, more.pop("game", 0), liar, at, victims, **more)


COUNTEREXAMPLES: dict[str, tuple[str, Scenario]] = {
    # The first game ends at once (its host forks the table envelope); the second is
    # opened under its id, and the victim's old envelopes sent again frame it.
    "belot2-reuse_game_id": (
        "reuse_game_id",
        Scenario(
            B2,
            0,
            frozenset({0}),
            (_attack("fork_body", 0, 0, (1,)), _attack("replay_game1", 0, 0, (1,), game=1)),
            HONEST,
            reuse_game_id=True,
            quit=200,
        ),
    ),
    # In the second game seat 1 is lost, the cheating proposer names the first game's
    # id as the continuation's, and the honest seat signs it: its old envelopes count.
    "belot3-reuse_segment_id": (
        "reuse_segment_id",
        Scenario(
            B3,
            0,
            frozenset({0, 1}),
            (_attack("fork_body", 0, 0, (2,)), _attack("replay_game1", 0, 60, (2,), game=1)),
            HONEST,
            change=Change(1, 1, 60, "game1"),
            quit=500,
        ),
    ),
    # Seat 2 sends seat 1 a dispute for its lot reveal, the others the reveal.
    "belka4-ending_split": (
        "ending_split",
        Scenario(B4, 16, frozenset({2}), (_attack("ending_split", 2, 2, (1,)),), HONEST, games=1),
    ),
    "belot3-ending_split": (
        "ending_split",
        Scenario(B3, 0, frozenset({0}), (_attack("ending_split", 0, 1, (1,)),), HONEST, games=1),
    ),
    # Seat 0 tells seat 1 a false hash of seat 2's chain, the others the truth.
    "belka4-lie_view": (
        "lie_view",
        Scenario(
            B4, 0, frozenset({0}), (_attack("lie_view", 0, 1, (1,), target=2),), HONEST, games=1
        ),
    ),
    # Seat 1 tells seat 0 a false hash of seat 0's own last envelope.
    "belot2-lie_own_view": (
        "lie_own_view",
        Scenario(B2, 0, frozenset({1}), (_attack("lie_own_view", 1, 2, (0,)),), HONEST, games=1),
    ),
    "belka4-lie_own_view": (
        "lie_own_view",
        Scenario(B4, 0, frozenset({0}), (_attack("lie_own_view", 0, 1, (1,)),), HONEST, games=1),
    ),
    # Seat 1's first envelope claims one more of seat 0's chain than came before it.
    "belot2-overcount_view": (
        "overcount_view",
        Scenario(B2, 0, frozenset({1}), (_attack("overcount_view", 1, 0, (0,)),), HONEST, games=1),
    ),
    # Seat 0's deal_end of the game's last deal: one version to seat 1, another to 2, 3.
    "belka4-fork_final": (
        "fork_final",
        Scenario(B4, 16, frozenset({0}), (_attack("fork_final", 0, 0, (1,)),), HONEST, games=1),
    ),
    # Resumed after a power cut, seat 1 gets another version of seat 0's envelope it
    # lacks: it proves seat 0 while held, and its file has no evidence.
    "belot3-fork_on_resend": (
        "fork_on_resend",
        Scenario(
            B3,
            0,
            frozenset({0}),
            (_attack("fork_on_resend", 0, 0, (1, 2)),),
            Conduct("mine"),
            cut=Cut(0, 1, 131),
            games=1,
        ),
    ),
    # Just before its sit, seat 1 sends seat 0 one naming deal 1: refused, forgotten.
    "belot2-refused_first": (
        "refused_first",
        Scenario(
            B2, 0, frozenset({1}), (_attack("refused_first", 1, 0, (0,)),), HONEST, games=1, quit=60
        ),
    ),
    # Seat 1 shows seats 0 and 3 another shuffle late in the second game, its envelopes
    # to them delayed: seat 3 writes seat 1's two reveals as proof records, and verify
    # of its file takes the first in the schedule.
    "belka4-proof_records": (
        "fork_body",
        Scenario(
            B4,
            2411,
            frozenset({1}),
            (_attack("fork_body", 1, 113, (0, 3), game=1),),
            Conduct("mine", 0.3),
            schedule=532,
        ),
    ),
    # Seat 0 closes the game with an older view for seat 1, its true close for 2, 3.
    "belka4-fork_close": (
        "fork_close",
        Scenario(B4, 16, frozenset({0}), (_attack("fork_close", 0, 0, (1,)),), HONEST, games=1),
    ),
    # A coalition's close lies to seat 1 about seat 0's chain: seat 1 gives up with the
    # view unsettled, disputed, and verify of its file says the game was won.
    "belka4-close_dispute": (
        "fork_close",
        Scenario(
            B4,
            16,
            frozenset({0, 2, 3}),
            (_attack("fork_close", 2, 0, (1,), variant=1),),
            Conduct("mine"),
            games=1,
        ),
    ),
    # Seat 0 ends a trick with another card for seat 3: there seat 0 takes the trick
    # and leads, for seats 1 and 2 seat 3 does; no honest seat signs again.
    "belka4-fork_move": (
        "fork_move",
        Scenario(B4, 27, frozenset({0}), (_attack("fork_move", 0, 5, (3,)),), HONEST, games=1),
    ),
    # A coalition plays another card to seat 0; seat 3's re-chained envelope after it
    # is refused for its hash chain, and the other version is taken later.
    "belka4-fork_move_refused": (
        "refused_first",
        Scenario(
            B4, 0, frozenset({1, 2, 3}), (_attack("fork_move", 2, 10, (0,)),), HONEST, games=1
        ),
    ),
}


@pytest.mark.parametrize(
    "name", [pytest.param(name, marks=xfail(what)) for name, (what, _) in COUNTEREXAMPLES.items()]
)
def test_a_counterexample_found(name: str) -> None:
    what, sc = COUNTEREXAMPLES[name]
    found = examine(sc, what)
    settle(what, [report(sc, found)] if found else [])


# -- the fuzzer -------------------------------------------------------------------------------


def _cases() -> list[object]:
    return [
        pytest.param(table, what, marks=xfail(what), id=f"{table}-{what}")
        for what in WHATS
        for table in KINDS
    ]


@pytest.mark.slow
@pytest.mark.parametrize(("table", "what"), _cases())
def test_the_promise_long(table: str, what: str) -> None:
    kind: Kind = KINDS[table]
    known: list[str] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=tuple(Phase) if SHRINK else NO_SHRINK,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(sc=scenarios(kind, what))
    def run(sc: Scenario) -> None:
        found = examine(sc, what)
        if found:
            known.append(report(sc, found))

    run()
    settle(what, known)
