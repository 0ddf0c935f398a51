"""Admission of incoming connections by source address (sans-IO, time passed in)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NoReturn

import trio
import trio.testing
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.net import connection
from p2pbelka.net.door import Door, DoorPolicy, Ticket

FLOODER = "10.77.0.66"
JOINER = "10.77.0.2"


def test_one_address_holds_at_most_a_few_half_open_handshakes() -> None:
    door = Door(DoorPolicy(per_address=4, burst=100))
    tickets = [door.arrive(FLOODER, 0.0)[0] for _ in range(500)]
    assert sum(t is not None for t in tickets) == 4
    ticket, evicted = door.arrive(JOINER, 0.0)
    assert ticket is not None and evicted is None
    assert door.stats["refused"] == 496


def test_new_handshakes_per_address_are_rate_limited() -> None:
    door = Door(DoorPolicy(per_address=1000, rate=4.0, burst=12.0))
    admitted = 0
    for n in range(1000):  # 100 connections a second for 10 s, each closed at once
        ticket, _ = door.arrive(FLOODER, n * 0.01)
        if ticket is not None:
            admitted += 1
            door.leave(ticket)
    assert 12 <= admitted <= 12 + 4 * 10 + 1
    assert door.arrive(JOINER, 10.0)[0] is not None


def test_a_newcomer_takes_a_slot_from_the_busiest_address() -> None:
    door = Door(DoorPolicy(max_pending=8, per_address=8, burst=100))
    flood = [door.arrive(FLOODER, 0.0)[0] for _ in range(8)]
    assert door.pending == 8
    ticket, evicted = door.arrive(JOINER, 0.1)
    assert ticket is not None and evicted is flood[0] and evicted.evicted
    assert not door.established(evicted, 0.2)  # its handshake may not finish now
    assert door.established(ticket, 0.2)
    # the flooder refills the freed slot, and the next newcomer takes one again
    assert door.arrive(FLOODER, 0.3)[0] is not None and door.pending == 8
    assert door.arrive(FLOODER, 0.3) == (None, None)
    late, evicted = door.arrive("10.77.0.3", 0.4)
    assert late is not None and evicted is not None and evicted.address == FLOODER


def test_established_channels_per_address_are_capped_and_released() -> None:
    door = Door(DoorPolicy(per_address_open=2, burst=100))
    tickets = [door.arrive(FLOODER, 0.0)[0] for _ in range(3)]
    assert [door.established(t, 0.1) for t in tickets if t] == [True, True, False]
    for t in tickets:
        assert t is not None
        door.leave(t)
    again = door.arrive(FLOODER, 1.0)[0]
    assert again is not None and door.established(again, 1.1)


def test_loopback_is_not_limited_per_address() -> None:
    door = Door(DoorPolicy(per_address=2, burst=2))
    assert all(door.arrive("127.0.0.1", 0.0)[0] for _ in range(20))
    assert all(door.arrive("::1", 0.0)[0] for _ in range(20))


def test_refusals_come_as_one_summary_line() -> None:
    door = Door(DoorPolicy(per_address=1, burst=100))
    for n in range(1000):
        door.arrive(FLOODER, n * 0.005)
    line = door.take_summary(5.0)
    assert line is not None and "refused 999 connection(s)" in line and FLOODER in line
    assert door.take_summary(10.0) is None


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["arrive", "establish", "leave"]), st.integers(0, 5)),
        max_size=300,
    )
)
def test_the_limits_hold_whatever_happens(steps: list[tuple[str, int]]) -> None:
    policy = DoorPolicy(max_pending=6, per_address=3, per_address_open=2, rate=2.0, burst=4.0)
    door = Door(policy)
    addresses = [f"10.77.0.{n}" for n in range(5)] + ["127.0.0.1"]
    tickets: list[Ticket] = []
    for n, (action, which) in enumerate(steps):
        now = n * 0.05
        if action == "arrive":
            ticket, evicted = door.arrive(addresses[which], now)
            if ticket is not None:
                tickets.append(ticket)
            assert evicted is None or evicted.evicted
        elif tickets:
            ticket = tickets[which % len(tickets)]
            if action == "establish" and ticket.pending:
                door.established(ticket, now)
            elif action == "leave":
                door.leave(ticket)
                tickets.remove(ticket)
        live = [t for t in tickets if t.state != "gone"]
        assert door.pending == sum(t.pending for t in live) <= policy.max_pending
        for address in addresses[:-1]:  # loopback is exempt from the per-address limits
            mine = [t for t in live if t.address == address]
            assert sum(t.pending for t in mine) <= policy.per_address
            assert sum(t.state == "open" for t in mine) <= policy.per_address_open


def test_a_channel_cut_off_by_its_handler_is_counted_in_the_summary() -> None:
    door = Door()
    door.cut_off("10.0.0.9", 1.0, "watcher cut off: a chat flood")
    line = door.take_summary(6.0)
    assert line is not None and "watcher cut off: a chat flood" in line and "10.0.0.9" in line
    assert door.stats["refused"] == 1


def test_the_summary_sleeps_while_none_is_refused_and_speaks_at_its_tick() -> None:
    """``_summarise`` sleeps until a refusal comes, and says it at the tick and in the words
    a summary taken every ``summary_every`` seconds would (the ticks slept through found
    nothing): the same lines at the same times."""
    refusals = [3.0, 4.5, 17.25, 17.5, 18.0, 41.0, 198.5]

    async def run(summarise: Callable[[Door], Awaitable[NoReturn]]) -> list[tuple[float, str]]:
        door, lines = Door(DoorPolicy(summary_every=5.0)), []

        def take(now: float) -> str | None:
            line = Door.take_summary(door, now)
            if line is not None:
                lines.append((now, line))
            return line

        door.take_summary = take  # type: ignore[method-assign]
        with trio.move_on_after(300.0):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(summarise, door)
                for at in refusals:
                    await trio.sleep_until(at)
                    door.cut_off(f"10.0.0.{int(at) % 3}", at, "flooded")
        return lines

    async def every_tick(door: Door) -> NoReturn:
        while True:
            await trio.sleep(door.policy.summary_every)
            door.take_summary(trio.current_time())

    def lines(summarise: Callable[[Door], Awaitable[NoReturn]]) -> list[tuple[float, str]]:
        return trio.run(run, summarise, clock=trio.testing.MockClock(autojump_threshold=0))

    expected = lines(every_tick)
    assert [t for t, _ in expected] == [5.0, 20.0, 45.0, 200.0]
    assert lines(connection._summarise) == expected
