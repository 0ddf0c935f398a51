"""The compiled Belka solver gives the pure-Python solver's values, and falls back to it.

Random positions (a deal of 1 to 6 cards a hand, a random trump and leader,
0 to 3 cards of the current trick played at random) are solved by both
solvers; the values must be equal.  The default suite checks a few hundred
(the pure-Python solver sets the pace); ``-m slow`` checks thousands.
Without numba the equality tests skip; the fallback is tested in a real
process with ``P2PBELKA_NO_JIT=1``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from p2pbelka.bots.belka import fastsolver, solver
from p2pbelka.rules.belka import core
from tests.bots.jit_helpers import run_without_jit

ROOT = Path(__file__).resolve().parents[2]

needs_jit = pytest.mark.skipif("not fastsolver.available()", reason="numba is not installed")
"""A condition pytest reads as each test is set up, in this module's names: asking
imports numba and the kernels (a third of a CPU-second), which the collection of
every worker paid, most of them running none of these tests."""


def random_position(rng: random.Random, k: int) -> tuple[list[int], int, list[int], int]:
    """Hands of ``k`` cards (less the cards already on the trick), leader, trick, trump."""
    cards = list(range(32))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[i * k : (i + 1) * k]) for i in range(4)]
    leader, trump = rng.randrange(4), rng.randrange(4)
    trick: list[int] = []
    for n in range(rng.randrange(4)):
        seat = (leader + n) & 3
        led = core.EFFECTIVE_SUIT[trump][trick[0]] if trick else -1
        legal = core.legal_mask(hands[seat], led, trump)
        card = core.nth_card(legal, rng.randrange(legal.bit_count()))
        hands[seat] &= ~(1 << card)
        trick.append(card)
    return hands, leader, trick, trump


def check_equal(seed: int, count: int, sizes: tuple[int, ...]) -> int:
    rng = random.Random(seed)
    for i in range(count):
        hands, leader, trick, trump = random_position(rng, sizes[i % len(sizes)])
        expected = solver.solve(list(hands), leader, list(trick), trump, {})
        # Most solves start from a guess: right, near, or anywhere (even outside the range).
        guess = (None, expected, expected - 1, rng.randrange(-5, 130))[i % 4]
        got = fastsolver.solve(hands, leader, trick, trump, guess)
        assert got == expected, (hands, leader, trick, trump, guess)
    return count


@needs_jit
def test_equal_on_small_positions() -> None:
    assert check_equal(1, 300, (1, 2, 3, 4)) == 300


@needs_jit
def test_equal_on_five_and_six_cards() -> None:
    assert check_equal(2, 24, (5, 5, 6)) == 24


@needs_jit
def test_hands_are_left_as_given() -> None:
    hands, leader, trick, trump = random_position(random.Random(3), 5)
    before = (list(hands), list(trick))
    fastsolver.solve(hands, leader, trick, trump)
    assert (hands, trick) == before


@needs_jit
def test_the_table_kept_across_solves_gives_each_trump_its_own_values() -> None:
    # The table's rows outlive a solve: the same hands under each trump, one after
    # another and back again, must each get the pure-Python value.
    rng = random.Random(6)
    for _ in range(6):
        cards = rng.sample(range(32), 20)
        hands = [sum(1 << c for c in cards[i * 5 : i * 5 + 5]) for i in range(4)]
        leader = rng.randrange(4)
        expected = [solver.solve(list(hands), leader, [], t, {}) for t in range(4)]
        for trump in (0, 1, 2, 3, 2, 1, 0):
            assert fastsolver.solve(hands, leader, [], trump) == expected[trump]


@needs_jit
@pytest.mark.slow
def test_equal_on_thousands_of_positions() -> None:
    assert check_equal(4, 4000, (2, 3, 4, 5, 5, 6)) == 4000


def test_fallback_without_numba_gives_the_same_values() -> None:
    # A real process with the compiled path switched off, as where numba is missing.
    code = (
        "import random\n"
        "from p2pbelka.bots.belka import fastsolver, solver\n"
        "from tests.bots.test_bots_fastsolver import random_position\n"
        "assert not fastsolver.available()\n"
        "rng = random.Random(5)\n"
        "for _ in range(30):\n"
        "    h, l, t, tr = random_position(rng, 3)\n"
        "    assert fastsolver.solve(h, l, t, tr) == solver.solve(list(h), l, list(t), tr, {})\n"
        "print('fallback ok')\n"
    )
    assert "fallback ok" in run_without_jit(code)


def test_a_peer_program_starts_without_importing_numba() -> None:
    """numba is imported by the first search, not with the bots: most programs (random
    and heuristic seats, watchers, ``verify``) never search, and its import is most of
    their start-up.  A real process, so no earlier test has imported it already."""
    code = (
        "import sys\n"
        "import p2pbelka.peer.lan, p2pbelka.cli.join_cmd, p2pbelka.bots\n"
        "from p2pbelka.bots.belka import fastsolver\n"
        "from p2pbelka.bots.belot import fastsolver as belot_fast\n"
        "assert 'numba' not in sys.modules and 'numpy' not in sys.modules\n"
        "hands = [0b11 << (8 * seat) for seat in range(4)]\n"
        "fastsolver.solve(hands, 0, [], 0)\n"
        "print('lazy ok', fastsolver.available(), 'numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    jit = fastsolver.available()
    assert f"lazy ok {jit} {jit}" in done.stdout, done.stdout + done.stderr


def test_bench_solver_prints_both_solvers_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from p2pbelka.cli.main import main

    assert main(["bench", "solver", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["jit"] is fastsolver.available()
    for k in (5, 6, 7, 8):
        assert figures[f"k{k}_worlds"] > 0
        assert figures[f"k{k}_fast_ms_median"] > 0
        assert figures[f"k{k}_fast_ms_p90"] >= figures[f"k{k}_fast_ms_median"]
        assert figures[f"k{k}_nodes_median"] > 0 or not fastsolver.available()
    assert figures["k5_python_worlds"] == 1


def overtake_position(rng: random.Random) -> tuple[list[int], int, int]:
    """The leader holds two top trumps, its partner only the one above them, the others
    lower trumps: cashing the leader's trumps passes the lead to the partner at once."""
    jc, js, jh, jd = 4, 28, 20, 12  # J♣ J♠ J♥ J♦: the four highest trumps
    k = rng.choice((3, 4, 5))
    trump = rng.randrange(4)
    leader = rng.randrange(4)
    partner = leader ^ 2
    rest = [c for c in range(32) if c not in (jc, js, jh, jd)]
    rng.shuffle(rest)
    plain = [c for c in rest if core.EFFECTIVE_SUIT[trump][c] != trump]
    trumps = [c for c in rest if core.EFFECTIVE_SUIT[trump][c] == trump]
    hands = [0, 0, 0, 0]
    hands[leader] = 1 << js | 1 << jh
    hands[partner] = 1 << jc
    hands[(leader + 1) & 3] = 1 << jd
    hands[(leader + 3) & 3] = 1 << trumps.pop()
    for s in range(4):
        while hands[s].bit_count() < k:
            pool = plain if s in (leader, partner) or not trumps else rng.choice((plain, trumps))
            hands[s] |= 1 << pool.pop()
    return hands, leader, trump


@needs_jit
def test_the_sure_points_bound_holds() -> None:
    # At a trick start the compiled search bounds the value by the trumps one team
    # surely wins (and what they draw): never past the exact value.
    from p2pbelka.bots.belka import jitsearch

    rng = random.Random(8)
    for i in range(400):
        if i % 2:
            hands, leader, trump = overtake_position(rng)
        else:
            k = rng.choice((2, 3, 4, 5))
            cards = rng.sample(range(32), 4 * k)
            hands = [sum(1 << c for c in cards[s * k : s * k + k]) for s in range(4)]
            leader, trump = rng.randrange(4), rng.randrange(4)
        assert [h.bit_count() for h in hands] == [hands[0].bit_count()] * 4
        value = solver.solve(list(hands), leader, [], trump, {})
        sure = jitsearch._sure(jitsearch.words(hands), leader, trump)
        left = core.mask_points(hands[0] | hands[1] | hands[2] | hands[3])
        assert value >= sure if sure > 0 else value <= left + sure, (hands, leader, trump)
        assert fastsolver.solve(hands, leader, [], trump) == value


def relabelled(hands: list[int]) -> list[int]:
    """The table key's relabelling, card by card: each suit's cards other than its jack
    left moved to that suit's highest such places (A T K Q 9 8 7), in order; the jacks
    left to the highest jacks' places (J♣ J♠ J♥ J♦), in order."""
    out = list(hands)
    every = hands[0] | hands[1] | hands[2] | hands[3]
    groups = [[s * 8 + r for r in (7, 3, 6, 5, 2, 1, 0)] for s in range(4)] + [[4, 28, 20, 12]]
    for places in groups:
        present = [c for c in places if every >> c & 1]
        for seat in range(4):
            out[seat] &= ~sum(1 << c for c in places)
        for to, c in zip(places, present, strict=False):
            owner = next(s for s in range(4) if hands[s] >> c & 1)
            out[owner] |= 1 << to
    return out


def word(x: int) -> int:
    """``x`` as the kernels' signed 64-bit word holds it."""
    return x - (1 << 64) if x >> 63 else x


@needs_jit
def test_the_table_key_keeps_only_the_order_of_the_cards_left() -> None:
    from p2pbelka.bots.belka import jitsearch

    rng = random.Random(9)
    for _ in range(300):
        cards = rng.sample(range(32), rng.randrange(4, 33))
        hands = [0, 0, 0, 0]
        for c in cards:
            hands[rng.randrange(4)] |= 1 << c
        ka, kb, kc = jitsearch.key(jitsearch.words(hands))
        h = relabelled(hands)
        assert (ka, kb) == (word(h[0] | h[1] << 32), word(h[2] | h[3] << 32)), hands
        every = hands[0] | hands[1] | hands[2] | hands[3]
        # The third word: each suit's non-jack cards left, seven bits a suit.
        seven = [(every >> 8 * s & 15) | (every >> 8 * s + 5 & 7) << 4 for s in range(4)]
        assert kc == sum(x << 7 * s for s, x in enumerate(seven)), hands


def shifted(hands: list[int], rng: random.Random) -> list[int]:
    """``hands`` with the cards of each suit (its jack aside) swapped for others of that
    suit not in play, keeping their order: a position with the same table key."""
    every = hands[0] | hands[1] | hands[2] | hands[3]
    out = [h & core.JACKS_MASK for h in hands]
    for suit in range(4):
        ranks = [suit * 8 + r for r in (7, 3, 6, 5, 2, 1, 0)]
        held = [c for c in ranks if every >> c & 1]
        chosen = sorted(rng.sample(ranks, len(held)), key=ranks.index)
        for old, new in zip(held, chosen, strict=True):
            owner = next(s for s in range(4) if hands[s] >> old & 1)
            out[owner] |= 1 << new
    return out


@needs_jit
def test_positions_sharing_a_key_bound_each_other_by_their_points() -> None:
    # Two positions with one key: the value of one, moved by the points its cards are
    # worth less or more card for card, bounds the other's (what the table relies on).
    from p2pbelka.bots.belka import jitsearch

    rng = random.Random(10)
    for _ in range(150):
        k = rng.choice((1, 2, 3, 4))
        cards = rng.sample(range(32), 4 * k)
        hands = [sum(1 << c for c in cards[s * k : s * k + k]) for s in range(4)]
        leader, trump = rng.randrange(4), rng.randrange(4)
        other = shifted(hands, rng)
        ka, kb, kc = jitsearch.key(jitsearch.words(hands))
        oa, ob, oc = jitsearch.key(jitsearch.words(other))
        assert (ka, kb) == (oa, ob)
        v = solver.solve(list(hands), leader, [], trump, {})
        w = solver.solve(list(other), leader, [], trump, {})
        top = core.mask_points(hands[0] | hands[1] | hands[2] | hands[3])
        lo, hi = jitsearch.shift_bounds(w, w, kc, oc, top)
        assert lo <= v <= hi, (hands, other, leader, trump)


def check_shifted(seed: int, count: int) -> int:
    """Positions sharing a key solved one after another (the table kept between them)."""
    rng = random.Random(seed)
    for _ in range(count):
        k = rng.choice((3, 4, 5))
        cards = rng.sample(range(32), 4 * k)
        hands = [sum(1 << c for c in cards[s * k : s * k + k]) for s in range(4)]
        leader, trump = rng.randrange(4), rng.randrange(4)
        for h in (hands, shifted(hands, rng), shifted(hands, rng)):
            expected = solver.solve(list(h), leader, [], trump, {})
            assert fastsolver.solve(h, leader, [], trump) == expected, (h, leader, trump)
    return count


@needs_jit
def test_a_row_of_a_position_sharing_the_key_gives_the_exact_value() -> None:
    # The compiled solver meets the rows its last solve left for positions with the
    # same key and other points (the table outlives a solve): still the exact values.
    assert check_shifted(11, 40) == 40


@needs_jit
@pytest.mark.slow
def test_thousands_of_positions_sharing_keys() -> None:
    assert check_shifted(12, 1000) == 1000
