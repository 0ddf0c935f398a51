"""Belot's fast exact endgame search gives the value a plain minimax gives, on random
small endgames of 2 and 3 players: mid-trick or at a lead, with scores near 1001 (so
claims and wins at the end count), hanging points, and seats still to declare."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.bots.belot import search, solver
from p2pbelka.bots.belot.search import Sim, at_lead, sim_start, step, utility
from p2pbelka.cards import iter_bits
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.options import belot_options

FOURS = tuple(belot_options().fours)


def minimax(sim: Sim, me: int) -> float:
    """The value by definition: every line played to its end, no pruning, no table."""
    if not sim.trick:
        if sim.tricks < 9:
            at_lead(sim)
        if sim.over:
            return utility(sim, me)
    seat = sim.turn
    values = []
    for card in iter_bits(sim.legal(seat)):
        child = sim.copy()
        step(child, card)
        values.append(minimax(child, me))
    return max(values) if seat == me else min(values)


def endgame(seed: int, players: int, cards: int) -> Sim:
    """A random deal played at random to ``cards`` cards a hand (plus a part trick)."""
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[9 * s : 9 * s + 9]) for s in range(players)]
    sim = sim_start(
        players,
        rng.randrange(4),
        deck[9 * players],
        rng.randrange(players),
        hands,
        rng.randrange(players),
        tuple(rng.choice((0, 400, 850, 920, 960)) for _ in range(players)),
        rng.choice((0, 0, 40, 90)),
        FOURS,
    )
    # Leads in the random part declare only sometimes: later leaders still have to.
    while not sim.over:
        if not sim.trick:
            if sim.hands[sim.leader].bit_count() <= cards:
                break
            if rng.random() < 0.5:
                at_lead(sim)
                if sim.over:
                    break
        step(sim, rng.choice(list(iter_bits(sim.legal(sim.turn)))))
    for _ in range(rng.randrange(players)):
        if sim.over:
            break
        step(sim, rng.choice(list(iter_bits(sim.legal(sim.turn)))))
    return sim


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    players=st.sampled_from((2, 3)),
    cards=st.integers(1, 3),
    me=st.integers(0, 2),
)
def test_the_fast_search_finds_the_minimax_value(
    seed: int, players: int, cards: int, me: int
) -> None:
    sim = endgame(seed, players, cards)
    me %= players
    expected = minimax(sim.copy(), me)
    assert solver.solve(sim.copy(), me) == expected


def test_the_fast_search_leaves_the_position_as_given() -> None:
    sim = endgame(7, 3, 3)
    before = sim.copy()
    solver.solve(sim, 1)
    assert sim.hands == before.hands and sim.points == before.points
    assert sim.trick == before.trick and sim.declared == before.declared


def test_larger_endgames_agree_with_the_minimax() -> None:
    for seed in range(3):
        for players, cards in ((3, 4), (2, 4)):
            sim = endgame(seed, players, cards)
            assert solver.solve(sim.copy(), seed % players) == minimax(sim.copy(), seed % players)


def test_a_claim_at_the_lead_ends_the_search() -> None:
    # Seat 0 has 995 written and takes the trick led now: at its lead it claims.
    for seed in range(40):
        sim = endgame(seed, 3, 2)
        if sim.trick or sim.over:
            continue
        sim.scores = (core.TARGET - 1, 0, 0)
        sim.points[0] = max(sim.points[0], 1)
        sim.led |= 1
        sim.leader = 0
        assert solver.solve(sim.copy(), 0) == search.WIN
        assert solver.solve(sim.copy(), 1) == -search.WIN


def test_alike_cards_are_tried_once_unless_a_card_to_fall_lies_between() -> None:
    # Clubs are plain (hearts trump): 7C and 8C are worth nothing and adjacent.
    seven, eight, nine, ace = 0, 1, 2, 7
    legal = 1 << seven | 1 << eight | 1 << ace
    assert solver.distinct_moves(legal, 2, 0) == [ace, eight]
    # 9C between them in another hand still to fall: both are tried.
    legal = 1 << seven | 1 << nine | 1 << ace
    assert solver.distinct_moves(legal, 2, 1 << eight) == [ace, nine, seven]
    assert solver.distinct_moves(legal, 2, 0) == [ace, nine]


def leads_sharing_a_table(seeds: int, cards: int) -> Iterator[tuple[Sim, int, solver.Table]]:
    """Each lead's position in endgames of ``cards`` a hand (two and three players by
    turns), the leader, and one table shared by the leads of a world."""
    for seed in range(seeds):
        sim = endgame(seed, 2 + seed % 2, cards)
        if sim.over or sim.trick:
            continue
        me = sim.leader
        table: solver.Table = {}
        for card in iter_bits(sim.legal(me)):
            child = sim.copy()
            step(child, card)
            yield child, me, table


def test_one_table_shared_by_the_moves_of_a_world_changes_no_value() -> None:
    for child, me, table in leads_sharing_a_table(12, 3):
        assert solver.solve(child.copy(), me, table) == minimax(child.copy(), me)
