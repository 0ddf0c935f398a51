"""The seat change's stages as data: the declared machine is whole (every stage
reachable from IDLE, every successor a stage, IDLE reachable from every stage), and
real seat changes take only the transitions it declares and, together, every one
of them but those named in ``NOT_PLAYED`` (each with why).

The seat changes are the machine tests' own scenarios (``test_seatchange.py``,
``test_seatchange_back.py``, ``test_agreement_journal.py``), played again here with
every machine's ``on_transition`` recording what it took; their machines are
strict (``seatnet.machine_of``), so an undeclared transition fails them there too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

import tests.peer.test_agreement_journal as crash
import tests.peer.test_seatchange as lost
import tests.peer.test_seatchange_back as back
from p2pbelka.peer.seatchange.effects import Switch
from p2pbelka.peer.seatchange.machine import SeatChange
from p2pbelka.peer.seatchange.stages import SUCCESSORS, TRANSITIONS, MachineError, Stage
from p2pbelka.protocol.seatchange import Agree
from tests.peer.seatnet import GIVE_UP

Transition = tuple[Stage, Stage]


def _enter_after_switch(name: str, players: int, seat: int, seed: int) -> None:
    """A seat given to a bot, and every remaining seat's runner entering the
    continuation: SWITCHED, then IDLE in the next segment."""
    _game, net = lost._lost(name, players, seat, seed)
    net.lost(seat)
    for node in net.nodes.values():
        switch = node.switched
        assert isinstance(switch, Switch)
        node.change.enter(switch.table, {s: t for t, s in switch.bots})
        assert node.change.stage is Stage.IDLE


def _awaiting_one_offer_then_another_comes() -> None:
    """A remaining seat awaiting an offer about one seat (its driver gave up on it)
    gets the bot's peer's offer handing another seat back: its player's no to that
    takes it back to awaiting its own (CONSIDERING -> AWAITING)."""
    handing = back._back()
    node = handing.signers()[1]  # (not the seat that would propose for the host's)
    node.answer = False
    handing.ask_back()
    handing.drain()
    assert node.change.lost([handing.host.seat], GIVE_UP, handing.net.now)
    assert node.change.stage is Stage.AWAITING
    handing.net.run(1.0)
    assert node.change.stage is Stage.AWAITING and node.change.busy == handing.host.seat


SCENARIOS: dict[str, Callable[[], None]] = {
    "a seat lost and given to a bot": lambda: (
        lost.test_agreed_every_remaining_seat_goes_on_in_one_continuation("belka", 4, 2, 5)
    ),
    "the continuation entered": lambda: _enter_after_switch("belka", 4, 2, 5),
    "an offer declined": lambda: lost.test_declined_by_a_player_ends_the_change_and_then_the_game(
        "belka", 4, 2, 5
    ),
    "the proposer's player says no": lambda: (
        lost.test_the_proposers_player_saying_no_offers_nothing("belka", 4, 2, 5)
    ),
    "a signer missing": lambda: lost.test_a_signer_missing_runs_the_offer_out_and_nobody_goes_on(
        "belka", 4, 2, 5
    ),
    "the lost player back during the question": lambda: (
        lost.test_the_lost_player_returning_during_the_question_stops_the_offer("belka", 4, 2, 5)
    ),
    "a hand-back": lambda: lost.test_the_player_takes_the_seat_back_from_the_bot("belka", 4, 2),
    "a hand-back refused": lambda: back.test_a_remaining_seat_saying_no_leaves_the_bot_playing(
        "belka", 4
    ),
    "a hand-back refused by the bot's peer": (
        back.test_the_bots_peer_saying_no_tells_the_player_and_asks_again_next_deal
    ),
    "an offer before this seat gave up": (
        back.test_a_pause_kept_up_past_an_offer_and_a_window_is_waited_out_no_longer
    ),
    "awaiting one offer, another comes": _awaiting_one_offer_then_another_comes,
    "the agreement restored after a crash": (
        crash.test_a_seat_resumed_after_agreeing_declines_a_second_continuation_and_follows_the_first
    ),
}

NOT_PLAYED: dict[Transition, str] = {
    (Stage.DRAINING, Stage.IDLE): (
        "the game ends while the bot finishes its deal before a hand-back: a won game"
        " in that very deal, which no seeded scenario here reaches"
    ),
}
"""Declared transitions no scenario takes, and why."""


@contextmanager
def _recording() -> Iterator[list[Transition]]:
    """Every transition any machine made meanwhile takes (``on_transition``)."""
    taken: list[Transition] = []
    made = SeatChange.__init__

    def init(self: SeatChange, *args: object, **kwargs: object) -> None:
        made(self, *args, **kwargs)  # type: ignore[arg-type]
        self.on_transition = lambda before, after: taken.append((before, after))

    SeatChange.__init__ = init  # type: ignore[method-assign]
    try:
        yield taken
    finally:
        SeatChange.__init__ = made  # type: ignore[method-assign]


def _reachable(start: Stage) -> set[Stage]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in SUCCESSORS[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_declared_machine_is_whole() -> None:
    assert set(SUCCESSORS) == set(Stage)
    for stage, successors in SUCCESSORS.items():
        assert successors, f"{stage} leads nowhere"
        assert stage not in successors, f"{stage} leads to itself: that is no transition"
        assert all(isinstance(s, Stage) for s in successors)
    assert _reachable(Stage.IDLE) == set(Stage)
    for stage in Stage:
        assert Stage.IDLE in _reachable(stage), f"no way back to IDLE from {stage}"


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_a_seat_change_takes_only_declared_transitions(scenario: str) -> None:
    with _recording() as taken:
        SCENARIOS[scenario]()
    assert taken, "no transition at all"
    assert set(taken) <= TRANSITIONS, set(taken) - TRANSITIONS


def test_the_seat_changes_together_cover_the_machine() -> None:
    with _recording() as taken:
        for play in SCENARIOS.values():
            play()
    missed = TRANSITIONS - set(taken)
    assert missed == set(NOT_PLAYED), sorted((a.value, b.value) for a, b in missed)


def test_an_undeclared_transition_is_refused_and_in_the_field_gives_the_change_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Were the code to take a transition the table does not declare (here: the table
    made to lack one), strict, the machine raises; in the field the change under way
    fails as any failed change does (no bot for that seat: its give-up ends the game)
    and the peer goes on, having signed nothing it did not keep."""
    _game, net = lost._lost("belka", 4, 2, 5)
    monkeypatch.setitem(SUCCESSORS, Stage.CONSIDERING, frozenset({Stage.IDLE, Stage.AWAITING}))
    strict, field = net.node(1), net.node(3)
    for node in (strict, field):
        node.answer = None  # asked at the loss; the offer comes: considering it
    field.change.strict = False
    net.lost(2)
    for node in (strict, field):
        assert node.change.stage is Stage.CONSIDERING
    with pytest.raises(MachineError, match="from considering to agreed"):
        strict.change.answered(strict.asked[0].ask, True, net.now)
    field.change.answered(field.asked[0].ask, True, net.now)
    net.settle()
    assert field.change.stage is Stage.IDLE and field.change.outcomes["machine error"] == 1
    assert [c.why for c in field.closed] == ["the seat change failed here"]
    assert not any(isinstance(m, Agree) for m in field.sent)  # kept, never sent
    assert not field.change.lost([2], GIVE_UP, net.now)  # the game ends, as before
