"""Each game's phases as data: every game's machine is whole (every phase reachable
from the first, every successor a phase or an end, the end reachable from every
phase), and real games take only the transitions their machine declares."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import cast

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.table import registry
from p2pbelka.table.context import TableContext
from p2pbelka.table.flow import schedule_for
from p2pbelka.table.phase import (
    ENDS,
    FIRST,
    MachineError,
    Phase,
    PhaseId,
    Step,
    all_seats,
    leads_to,
)
from p2pbelka.table.session import Table
from tests.table.helpers import faults_of

Machine = Mapping[PhaseId, frozenset[PhaseId]]


def reachable(machine: Machine, start: PhaseId) -> set[PhaseId]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in machine.get(todo.pop(), frozenset()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


@pytest.mark.parametrize("game", registry.names())
def test_every_game_machine_is_whole(game: str) -> None:
    machine = registry.machine(game)
    assert FIRST in machine
    for phase, successors in machine.items():
        assert successors, f"{phase} leads nowhere"
        for nxt in successors:
            assert nxt in machine or nxt in ENDS, f"{phase} -> {nxt}: no such phase"
    assert reachable(machine, FIRST) == set(machine) | ENDS
    for phase in machine:
        assert Phase.OVER in reachable(machine, phase), f"the game cannot end after {phase}"


def test_the_machines_keep_the_phase_names_on_the_record() -> None:
    """A phase's value is in the records (a dispute names it): the names stay."""
    belka = {str(p) for p in registry.machine("belka")}
    belot = {str(p) for p in registry.machine("belot")}
    common = {"sit", "lot_commit", "lot_reveal", "commit", "shuffle", "lock", "shares"}
    common |= {"play", "reveal", "deal_end", "close"}
    assert belka == common | {"trump", "ready", "choice"}
    assert belot == common | {"turn", "bid", "extra"}


def _traced(table: Table) -> set[tuple[PhaseId, PhaseId]]:
    """Every change of phase ``table`` makes from now on, as it makes it."""
    taken: set[tuple[PhaseId, PhaseId]] = set()
    table.state.on_transition = lambda before, after: taken.add((before, after))
    return taken


@pytest.mark.parametrize(
    ("game", "players", "seed", "own"),
    [
        (
            "belka",
            4,
            11,
            {("shares", "trump"), ("trump", "ready"), ("ready", "play"), ("deal_end", "choice")},
        ),
        ("belot", 3, 1, {("shares", "turn"), ("turn", "bid"), ("bid", "extra")}),
        ("belot", 2, 3, {("shares", "turn"), ("turn", "bid"), ("extra", "play")}),
    ],
)
def test_real_games_take_only_declared_transitions(
    game: str, players: int, seed: int, own: set[tuple[str, str]]
) -> None:
    tables = LocalGame.seeded(seed, game=game, players=players).make_tables()
    traces = [_traced(table) for table in tables]
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    events = run_sync(tables, bots)  # as ``play_sync`` plays them
    assert all(t.state.phase is Phase.OVER for t in tables)
    assert not any(faults_of(e) for e in events)
    machine = registry.machine(game)
    for trace in traces:
        for before, after in trace:
            assert after in machine[before], f"{before} -> {after} is not declared"
        taken = {(str(a), str(b)) for a, b in trace}
        assert own <= taken
        # flow 3: a won game ends with the closing exchange
        assert ("deal_end", "close") in taken or ("choice", "close") in taken
        assert ("close", "over") in taken


def test_a_step_may_only_pick_a_declared_successor() -> None:
    """A next phase outside the step's successors is a bug in the schedule, not a
    peer's fault: it is raised, never turned into a fault."""
    step = Step(
        {}, all_seats, lambda t: None, leads_to(Phase.REVEAL, Phase.OVER), then=lambda t: Phase.LOCK
    )
    with pytest.raises(MachineError, match="lock"):
        step.leave(cast(TableContext, None))
    with pytest.raises(ValueError, match="say which"):
        Step({}, all_seats, lambda t: None, leads_to(Phase.REVEAL, Phase.OVER))


def test_a_schedule_names_only_phases_it_plays() -> None:
    belka = registry.game("belka").phases
    lost = replace(belka, after_shares=Phase.ABORTED)
    with pytest.raises(ValueError, match="which no step plays"):
        schedule_for(lost)


def test_the_registry_names_the_games_it_knows() -> None:
    assert {"belka", "belot"} <= set(registry.names())
    with pytest.raises(ValueError, match="this version plays belka, belot"):
        registry.track_class("skat")
    with pytest.raises(ValueError, match="unknown game"):
        registry.schedule("skat")
    belka = registry.game("belka")
    registry.register("belka", belka.track, belka.phases)  # the same again: nothing changes
    with pytest.raises(ValueError, match="registered already"):
        registry.register("belka", belka.track, registry.game("belot").phases)
    with pytest.raises(ValueError, match="unknown game"):
        registry.register("skat", belka.track, belka.phases)  # the rules must know it first
    registry.unregister("belka")  # a built-in game stays
    assert registry.track_class("belka") is belka.track
