"""Each game's phases as data: every game's machine is whole (every phase reachable
from the first, every successor a phase or an end, the end reachable from every
phase), and real games take only the transitions their machine declares."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast

import pytest

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
from tests.table.helpers import faults_of, play_sync

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


class _Traced(Table):
    """An honest table that notes every change of phase it makes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.taken: set[tuple[PhaseId, PhaseId]] = set()
        self.on_transition = lambda before, after: self.taken.add((before, after))


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
    types: dict[int, type[Table]] = dict.fromkeys(range(players), _Traced)
    tables, events = play_sync(seed, game_name=game, players=players, table_types=types)
    assert all(t.phase is Phase.OVER for t in tables)
    assert not any(faults_of(e) for e in events)
    machine = registry.machine(game)
    for table in tables:
        assert isinstance(table, _Traced)
        for before, after in table.taken:
            assert after in machine[before], f"{before} -> {after} is not declared"
        taken = {(str(a), str(b)) for a, b in table.taken}
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
