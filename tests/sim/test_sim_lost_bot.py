"""A bot lost with its peer while its player never returns (SPEC 9.5): the simulator's
whole games, a fixed schedule each.

A seat cut off for good goes to a bot run by the lowest other seat; that seat's program
is killed and resumed, and runs no bot (a bot's key and secrets are never kept).  Its
table waited a whole reconnect window for the silent bot before it seated another
(about a minute and a half from the resume: the hold on its own chain, then the
window).  It seats a fresh bot now as soon as it may sign again and the seat's player,
if back, had time to ask for it: one more change, agreed like any, never a second one
at one cut.  If the person at that peer says no to it, or never answers, the fresh bot
is only put off: the person is asked again when that question's time is out, and the
game goes on (it used to end, naming the bot's seat after half a minute of silence)."""

from __future__ import annotations

import pytest
import trio

from p2pbelka.peer.seatchange.drivers import SeatOffer
from p2pbelka.peer.seatchange.runner import LOST_BOT_AFTER
from p2pbelka.peer.seatchange.stages import Stage
from p2pbelka.sim.checks import bots_lost, violations
from p2pbelka.sim.faults import WINDOW, parse
from p2pbelka.sim.people import Person
from p2pbelka.sim.world import OFFER_TIMEOUT, WATCHER, Outcome, simulate
from p2pbelka.table.verify import verify_bytes

KILLED_AT, DOWN = 250.0, 10.0


def _offers(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, int, int]]:
    """When each person was asked about a seat (the time, the person's seat, the seat)."""
    asked: list[tuple[float, int, int]] = []
    real = Person.on_event

    async def on_event(self: Person, driver: object, event: object) -> None:
        if isinstance(event, SeatOffer):
            asked.append((trio.current_time(), self.seat, event.seat))
        await real(self, driver, event)  # type: ignore[arg-type]

    monkeypatch.setattr(Person, "on_event", on_event)
    return asked


def _changes(outcome: Outcome, seat: int) -> list[tuple[int, bool]]:
    copy = next(c.transcript for c in outcome.copies if c.seat == seat)
    return [(c.seat, c.back) for c in verify_bytes(copy).changes]


@pytest.mark.parametrize(
    ("seed", "game", "players", "lost"), [(5, "belka", 4, 3), (8, "belot", 3, 2)]
)
def test_a_bot_lost_with_its_peer_is_seated_again_at_once(
    seed: int, game: str, players: int, lost: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = _offers(monkeypatch)
    schedule = f"cut {lost}<->*@100+inf; kill 0@{KILLED_AT:g}+{DOWN:g}"
    outcome = simulate(seed, game, players, parse(schedule), twice=False)
    assert violations(outcome) == []
    seated = [e for e in outcome.exits if e.seat < WATCHER and e.seat != lost and not e.killed]
    assert [e.what for e in seated] == ["finished"] * (players - 1)
    assert _changes(outcome, 1) == [(lost, False), (lost, False)]
    # the resumed peer asked its player for a fresh bot well inside a window of its resume
    # (its table holds for its own chain first, up to half a window)
    again = [t for t, person, seat in asked if person == 0 and seat == lost and t > KILLED_AT]
    assert again and again[0] - (KILLED_AT + DOWN) < WINDOW / 2 + 3 * LOST_BOT_AFTER


def test_a_player_back_after_its_lost_bot_was_replaced_takes_its_seat_back() -> None:
    """Its seat changed hands three times for one absence: a bot, a fresh bot for the one
    lost with its peer, and back to the player; the checks allow the third
    (``bots_lost``), and every seat finishes the same game."""
    schedule = parse(f"cut 3<->*@100+300; kill 0@{KILLED_AT:g}+{DOWN:g}")
    assert bots_lost(schedule, 3) == 1 and bots_lost(schedule, 1) == 0
    outcome = simulate(5, "belka", 4, schedule, twice=False)
    assert violations(outcome) == []
    assert _changes(outcome, 3) == [(3, False), (3, False), (3, True)]
    assert outcome.counts[f"transition {Stage.HANDING.value} -> {Stage.DRAINING.value}"] == 1


def test_a_kill_of_the_bot_s_peer_outside_the_seat_s_absence_allows_no_extra_change() -> None:
    assert bots_lost(parse("cut 3<->*@100+300; kill 0@120+10"), 3) == 0  # before any bot
    assert bots_lost(parse("cut 3<->*@100+300; kill 0@450+10"), 3) == 0  # the seat is back
    assert bots_lost(parse("cut 0<->*@100+inf; kill 1@250+10"), 0) == 1  # the host's bot


def test_a_seat_resumed_after_the_change_still_shows_who_sat_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 0's program, killed after a bot took seat 3 and resumed, builds its view
    afresh from what the resume replays: its first ``GameStarted`` is the later
    segment's, the bot in seat 3.  The game-end page's ratings are still those of the
    players who sat down (results.md 1.1), as on the seats that never restarted."""
    from p2pbelka.sim.world import World
    from p2pbelka.table import events as ev
    from p2pbelka.ui import registry

    runs: dict[int, list[list[ev.Event]]] = {s: [[]] for s in range(4)}
    real_event, real_resume = Person.on_event, World._resume

    async def on_event(self: Person, driver: object, event: object) -> None:
        if isinstance(event, ev.Event) and self.seat in runs:
            runs[self.seat][-1].append(event)
        await real_event(self, driver, event)  # type: ignore[arg-type]

    async def resume(self: World, seat: int, directory: object) -> object:
        runs[seat].append([])  # a program's view starts empty
        return await real_resume(self, seat, directory)  # type: ignore[arg-type]

    monkeypatch.setattr(Person, "on_event", on_event)
    monkeypatch.setattr(World, "_resume", resume)
    schedule = f"cut 3<->*@100+inf; kill 0@{KILLED_AT:g}+{DOWN:g}"
    outcome = simulate(5, "belka", 4, parse(schedule), twice=False)
    assert violations(outcome) == []
    started = [e for e in runs[1][0] if isinstance(e, ev.GameStarted)]
    names = list(started[0].names)
    assert not started[0].continued and list(started[0].keys) == outcome.keys
    resumed = runs[0][-1]
    first = next(e for e in resumed if isinstance(e, ev.GameStarted))
    assert len(runs[0]) == 2 and first.continued and first.keys[3] != outcome.keys[3]
    for seat in (0, 1, 2):
        _ui, view = registry.new_view("belka", 4)
        for event in runs[seat][-1]:
            view.apply(event)
        assert view.game_over is not None and view.keys[3] != outcome.keys[3]
        assert (view.first_keys, view.first_names) == (outcome.keys, names), seat


@pytest.mark.parametrize("how", ["no", "never"])
def test_a_fresh_bot_declined_by_the_restarted_peer_is_asked_again_and_the_game_goes_on(
    how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The person at the restarted peer answers its first question about a fresh bot no
    (or never): nothing ends, it is asked again a question's time later, says yes, and
    every seat goes on with the fresh bot (the world stopped once it plays)."""
    asked: list[tuple[float, bool]] = []
    real = Person._answer

    async def answer(self: Person, offer: SeatOffer) -> None:
        if self.seat == 0 and offer.seat == 3 and trio.current_time() > KILLED_AT:
            asked.append((trio.current_time(), getattr(offer, "later", True)))
            if len(asked) == 1:
                self.answers[how] += 1
                if how == "no":
                    await trio.sleep(1.0)
                    offer.decision.answer(False)
                return
            offer.decision.answer(True)
            return
        await real(self, offer)

    monkeypatch.setattr(Person, "_answer", answer)
    schedule = parse(f"cut 3<->*@100+inf; kill 0@{KILLED_AT:g}+{DOWN:g}")
    outcome = simulate(5, "belka", 4, schedule, twice=False, stop=KILLED_AT + 150.0)
    assert violations(outcome) == []
    # put off, not closed: asked again once the first question's time was out, in time
    # for the others, asked at their own window
    (first, later), (again, _) = asked
    assert later and again - first >= OFFER_TIMEOUT
    assert not [e for e in outcome.exits if e.seat < WATCHER and not e.stopped and not e.killed]
    for seat in (0, 1, 2):
        assert _changes(outcome, seat) == [(3, False), (3, False)]
