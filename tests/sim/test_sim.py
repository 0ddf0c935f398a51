"""The deterministic simulator of whole games (p2pbelka/sim): a seed replays, the short
run of seeds holds every invariant, and the seeds the long runs found stay checked.

The long run is ``scripts/simulate`` (and the ``slow`` tests here)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
import trio
import trio.testing

from p2pbelka import edkeys
from p2pbelka.fairdeal.secp256k1 import SECP256K1
from p2pbelka.net.identity import Identity
from p2pbelka.peer.storelock import StoreBusy
from p2pbelka.protocol import envelope
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Signer, open_envelope, seal_envelope
from p2pbelka.protocol.messages import SitMsg
from p2pbelka.sim import world
from p2pbelka.sim.checks import gone_from, times_gone, violations
from p2pbelka.sim.disk import SimDisk
from p2pbelka.sim.faults import Cut, Kill, Reset, Schedule, parse
from p2pbelka.sim.main import main, replay_command
from p2pbelka.sim.network import Alarm, SimNetwork, SimStream
from p2pbelka.sim.shrink import shrink
from p2pbelka.sim.world import WATCHER, Outcome, deterministic, quiet_io, sim_clock, simulate
from p2pbelka.table.errors import OrderError
from p2pbelka.table.verify import verify_bytes
from tests.sim.replay import assert_same_run

SHORT = [("belka", 4, 5), ("belka", 4, 6), ("belot", 3, 47), ("belot", 3, 49), ("belot", 2, 1)]
"""(game, players, seed): a few runs of every table, chosen for what they reach: a seat
cut off past the window handed to a bot and back (belka 5, with a power cut), a hand-back
declined and watchers (belka 6), a kill and a declined offer (belot 47), a seat change
handed back, then a pile-up: the seat cut off again and another killed (belot 49)."""


SHORT_STOP = 120.0
"""Simulated seconds a short game runs (its faults fall in the first ``SHORT_FAULTS`` of
them): the lobby, the first deals, and a seat gone past the window handed to a bot."""
SHORT_GAMES = {("belka", 4): 40, ("belot", 3): 60, ("belot", 2): 100}
"""Seeds of short games, by table (the cheaper tables more): the first ``BLOCK`` of each
in the default suite, the rest with the ``slow`` tests."""
BLOCK = 10


def _short_blocks() -> list[object]:
    """Each table's seeds in blocks of ``BLOCK``; every block past the first is marked
    ``slow``: the same check on more seeds (the default suite keeps one block a table)."""
    return [
        pytest.param(g, p, first, marks=[pytest.mark.slow] if first else [])
        for (g, p), n in SHORT_GAMES.items()
        for first in range(0, n, BLOCK)
    ]


@pytest.mark.parametrize(("game", "players", "first"), _short_blocks())
def test_short_games_hold_every_invariant(game: str, players: int, first: int) -> None:
    """A few hundred seeds of short games (``simulate(stop=...)``): every fault drawn
    from the seed, the world stopped ``SHORT_STOP`` seconds in, and the game checked as
    it stands then.  The default suite runs the first ten seeds of each table."""
    failed = []
    for seed in range(first, first + BLOCK):
        found = violations(simulate(seed, game, players, stop=SHORT_STOP))
        if found:
            replay = replay_command(seed, game, players, stop=SHORT_STOP)
            failed.append(f"seed {seed}: {'; '.join(found)}\n  replay: {replay}")
    assert not failed, "\n".join(failed)


SEED_49 = parse(
    "reset 2-0@55.971; cut 1->*@97.76+123.124; cut 1<->*@212.875+75.401;"
    " cut 2->*@262.875+25; kill 2@279.297+8.788; slow 0.01/2"
)
"""Belot-3 seed 49's faults (drawn for its whole game): seat 1's sending cut past the
window, so a bot takes it (its key, secrets and play drawn from the seed too) and hands
it back by 340 s, seat 1 cut off again and seat 2 killed on the way."""


def test_a_seed_replays_byte_for_byte() -> None:
    # Each run between the two of the other leaves nothing behind.  The seat change
    # stopped at 340 s, once it is handed back (the rest of the game is a third of a
    # whole one's CPU); and a short game stopped at 60 s.  A whole game's replay, to its
    # end and the results' exchange, is the seams' test of its certificates
    # (``test_a_run_s_certificates_follow_from_its_seed``).
    def runs() -> tuple[Outcome, Outcome]:
        return simulate(49, "belot", 3, SEED_49, stop=340.0), simulate(8, "belka", 4, stop=60.0)

    first, again = runs(), runs()
    changed, short = first
    assert changed.answers["yes"] and changed.answers["back yes"]
    for copy in changed.copies:
        assert [(c.seat, c.back) for c in verify_bytes(copy.transcript).changes] == [
            (1, False),
            (1, True),
        ]
    assert short.ended_at == 60.0 and violations(short) == []
    # seat 3 lost its power and was not back by the end: its copy is what it will read
    assert {e.what for e in short.exits} == {"killed", "stopped with the short run"}
    assert len(short.copies) == 4
    for one, other in zip(first, again, strict=True):
        assert_same_run(one, other)


@pytest.mark.parametrize(("game", "players", "seed"), SHORT)
def test_the_short_run_holds_every_invariant(game: str, players: int, seed: int) -> None:
    outcome = simulate(seed, game, players, twice=False)
    assert violations(outcome) == []
    assert outcome.copies, "every seat kept its game"


def test_remembered_crypto_answers_as_the_real_one() -> None:
    """The simulator's seam: signature checks and point products remembered for a run
    give what the real calls give, a bad signature included, and only inside the block."""
    signer = Identity.from_seed(bytes(32), "A")
    good = signer.sign(b"data")
    bad = bytes([good[0] ^ 1]) + good[1:]
    point = SECP256K1.hash_to_group(b"sim test", b"card")
    scalar = (7).to_bytes(32, "big")
    known: edkeys.Known = {}
    products: dict[tuple[bytes, bytes], bytes] = {}
    real = SECP256K1.mult(scalar, point)
    with edkeys.remembering(known), SECP256K1.remembering(products):
        for _ in range(2):
            assert edkeys.verify(signer.public_key, good, b"data")
            assert not edkeys.verify(signer.public_key, bad, b"data")
            assert SECP256K1.mult(scalar, point) == real
    assert len(known) == 2 and products == {(scalar, point): real}
    assert edkeys._known is None and SECP256K1._products is None


def test_the_simulator_s_clock_and_io_run_as_trio_s_own() -> None:
    """``sim_clock`` and ``quiet_io`` only spare work: tasks sleeping, timing out and waking
    each other see the same times, in the same order, as under ``MockClock`` and epoll."""

    async def main(seen: list[tuple[str, float]]) -> None:
        woken = trio.Event()

        async def sleeper(name: str, delays: list[float]) -> None:
            for delay in delays:
                await trio.sleep(delay)
                seen.append((name, trio.current_time()))
            woken.set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(sleeper, "a", [0.5, 1.25, 0.0, 3.0])
            nursery.start_soon(sleeper, "b", [2.0, 0.001])
            with trio.move_on_after(1.0):
                await woken.wait()
            seen.append(("timed out", trio.current_time()))
            await woken.wait()
            seen.append(("woken", trio.current_time()))

    def run(clock: trio.abc.Clock) -> list[tuple[str, float]]:
        seen: list[tuple[str, float]] = []
        with deterministic(5):
            trio.run(main, seen, clock=clock)
        return seen

    expected = run(trio.testing.MockClock(autojump_threshold=0))
    with quiet_io():
        assert run(sim_clock()) == expected
    assert expected[:2] == [("a", 0.5), ("timed out", 1.0)]


def test_remembered_envelopes_open_as_the_real_ones() -> None:
    """The envelope seam: an envelope opened once for the block is given again for the same
    bytes, equal to what opening them gives; one that fails fails every time, and is never
    kept."""
    signer = Signer.from_seed(bytes(32))
    good = seal_envelope(signer, bytes(16), 0, 1, bytes(32), SitMsg(bytes(32))).raw
    bad = good[:-1] + bytes([good[-1] ^ 1])
    opened: envelope.Opened = {}
    with envelope.remembering(opened):
        first, again = open_envelope(good), open_envelope(bytes(good))
        for _ in range(2):
            with pytest.raises(ProtocolError):
                open_envelope(bad)
    assert first is again and first == open_envelope(good)
    assert list(opened) == [good] and envelope._opened.get() is None


def test_a_seat_killed_holding_its_signature_resumes_agreed() -> None:
    """The first pile-up's case (``faults.pile_up``): seat 1 cut off past the window, seat
    2 signs the continuation that gives its seat to a bot, its signature held (its
    sending cut) and lost with a kill; resumed, it holds that agreement again
    (``idle -> agreed``), sends it again, and the seat change is sealed.  (Stopped at
    260 s: seat 1 is back and has its seat again by 240 s, every transition of the whole
    game taken.)"""
    schedule = parse("cut 1<->*@100+100; cut 2->*@150+25; kill 2@166+10")
    outcome = simulate(2, "belka", 4, schedule, stop=260.0)
    assert violations(outcome) == []
    assert outcome.counts["transition idle -> agreed"] == 1


def test_a_seat_killed_after_its_signature_sealed_the_change_follows_it() -> None:
    """Found by hand (issue 36, fault 4, through the real program): seat 3 agrees to
    seat a bot for seat 2, the proposer seals with that agreement, and seat 3's
    program is killed before the continuation reaches it.  Resumed three seconds
    later, it holds its agreement again (``idle -> agreed``) and sends it again; the
    proposer, past its offer, answered nothing, so seat 3 stayed on the old segment and
    the others stopped the game naming it once the window ran out.  A seat in the
    continuation answers such an agreement with its ``table``: seat 3 follows it and
    the game finishes.  (The checks alone would not see it: seat 2's cable out counts
    as every seat's absence.)"""
    schedule = parse("cut 2<->*@100+300; kill 3@165.2645+3")
    outcome = simulate(2, "belka", 4, schedule)
    assert violations(outcome) == []
    assert outcome.counts["transition idle -> agreed"] == 1
    last = {e.seat: e for e in outcome.exits if e.seat < 4}  # each seat's last program
    for seat, ended in last.items():
        assert ended.result is not None and ended.result.finished, (seat, ended.error)
        assert not ended.result.aborted, seat


def test_a_schedule_prints_as_it_parses() -> None:
    schedule = Schedule(
        (Cut(0, 1, 1.5, 70.0), Cut(2, 3, 4.0, math.inf, one_way=True), Reset(1, 2, 9.0)),
        slow=0.01,
    )
    schedule = Schedule(
        (*schedule.faults, Kill(3, 12.25, 5.0), Kill(1, 20.0, math.inf, twice=True)), schedule.slow
    )
    assert parse(str(schedule)) == schedule


def test_a_one_way_cut_holds_one_direction_only() -> None:
    schedule = Schedule((Cut(0, 1, 0.0, 10.0, one_way=True),))
    assert schedule.held_until("10.0.0.1", "10.0.0.2", 5.0) == 10.0
    assert schedule.held_until("10.0.0.2", "10.0.0.1", 5.0) == 5.0


def test_bytes_cross_a_cut_once_it_heals_in_order() -> None:
    async def main() -> None:
        net = SimNetwork(Schedule((Cut(0, 1, 1.0, 30.0),)), random.Random(0))
        listeners, port = net.listen("10.0.0.2", 0)
        mine = await net.connect("10.0.0.1", "10.0.0.2", port)
        theirs = await listeners[0].accept()
        await trio.sleep_until(2.0)
        await mine.send_all(b"one ")
        await mine.send_all(b"two")
        got = b""
        while len(got) < 7:
            got += await theirs.receive_some()
        assert got == b"one two"
        assert trio.current_time() >= 31.0

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def test_an_alarm_wakes_its_task_at_its_time_at_a_ring_or_a_cancel() -> None:
    """The simulated stream's wait (``network.Alarm``): asleep until the earliest time it
    was set to (the mock clock jumps there, as to a cancel scope's deadline), or until it
    is rung; cancelled from outside as any wait is, and then it never fires."""

    async def main() -> None:
        woke: list[tuple[str, float]] = []

        alarms: dict[str, Alarm] = {}

        async def sleeper(name: str, at: float) -> None:
            alarms[name] = alarm = Alarm()  # the task that waits
            alarm.set(at)
            with trio.move_on_after(50.0):
                await alarm.wait()
                woke.append((name, trio.current_time()))

        async with trio.open_nursery() as nursery:
            for name, at in (("late", 30.0), ("earlier", 40.0), ("rung", 20.0), ("never", 60.0)):
                nursery.start_soon(sleeper, name, at)
            await trio.sleep(1.0)
            alarms["earlier"].set(10.0)
            alarms["earlier"].set(15.0)  # later than it is set to: no change
            await trio.sleep(4.0)
            alarms["rung"].ring()
        assert woke == [("rung", 5.0), ("earlier", 10.0), ("late", 30.0)]
        assert trio.current_time() == 50.0  # "never" was cancelled at 50 s, and did not fire

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def test_a_channel_hands_a_simulated_stream_its_frames_at_once() -> None:
    """``SecureChannel.send_now`` writes to a simulated stream as to a socket with room in
    its buffer (``SimStream.write_nowait``): the frame is on its way in the caller's task,
    and a reset stream closes the channel with the reason."""

    async def main() -> None:
        net = SimNetwork(Schedule(()), random.Random(0))
        listeners, port = net.listen("10.0.0.2", 0)
        mine = await net.connect("10.0.0.1", "10.0.0.2", port)
        theirs = await listeners[0].accept()
        assert isinstance(mine, SimStream)
        assert mine.write_nowait(b"one ") == 4
        assert await theirs.receive_some() == b"one "
        mine.reset()
        with pytest.raises(OSError):
            mine.write_nowait(b"two")

    trio.run(main, clock=trio.testing.MockClock(autojump_threshold=0))


def test_a_power_cut_keeps_what_was_synced_and_may_tear_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "transcript.p2pb"
    path.write_bytes(b"synced ")
    seen: set[bytes] = set()
    for n in range(20):
        disk = SimDisk(random.Random(n), Counter())
        with open(path, "r+b") as f:
            f.seek(0)
            f.write(b"synced ")
            f.truncate()
            disk.datasync(f.fileno())
            f.write(b"and not")
        disk.power_cut(tmp_path)
        seen.add(path.read_bytes())
    assert b"synced " in seen and len(seen) > 2  # whole, or torn anywhere in the rest
    assert all(data.startswith(b"synced ") and b"synced and not".startswith(data) for data in seen)


def test_shrinking_keeps_only_the_faults_that_fail() -> None:
    faults = tuple(Reset(0, 1, float(t)) for t in range(8))
    culprit = faults[5]
    small = shrink(Schedule(faults, slow=0.01), lambda s: culprit in s.faults)
    assert small == Schedule((culprit,))


def test_a_game_resumed_twice_at_once_signs_once() -> None:
    """Found by the simulator (Belot-3 seed 7): a LAN game resumed twice at once ran
    twice, signed two envelopes for one place and left an INVALID copy.  The game's
    folder is locked now: the second program is refused (``StoreBusy``, exit 3).  (Stopped
    at 300 s: the resumed seat has signed for a minute and a half by then.)"""
    outcome = simulate(7, "belot", 3, parse("kill 0@168.724+43.22x2"), stop=300.0)
    assert violations(outcome) == []
    refused = [e for e in outcome.exits if isinstance(e.error, StoreBusy)]
    assert [e.seat for e in refused] == [0], [e.what for e in outcome.exits]


def test_a_split_two_seat_game_ends_one_way() -> None:
    """Found by the simulator (also Belot-2 seeds 14, 26, 32, 35): a two-seat game cut
    one way for good finished twice, each seat alone seating a bot for the other.  No
    seat changes hands at a table of two now: both wait as if cut off, and stop
    unfinished (exit 5), naming nobody, with the same game."""
    outcome = simulate(9, "belot", 2, parse("cut 1->0@144.961+inf"))
    assert violations(outcome) == []
    seats = [e for e in outcome.exits if e.seat < WATCHER]
    assert [e.result is not None and e.result.cut_off for e in seats] == [True, True]


def test_a_two_seat_game_whose_link_comes_back_within_the_bound_plays_on() -> None:
    """Cut one way past the reconnect window but within the cut-off bound: neither side
    seats a bot or names the other, and the game is finished once, the same on both."""
    outcome = simulate(9, "belot", 2, parse("cut 1->0@144.961+200"))
    assert violations(outcome) == []
    seats = [e for e in outcome.exits if e.seat < WATCHER]
    assert [e.result is not None and e.result.finished for e in seats] == [True, True]
    assert not outcome.answers["yes"]


def test_a_replaced_seat_cut_from_one_seat_for_good_still_ends() -> None:
    """Found by the simulator (also Belot-3 seed 35, Belka seed 109): a player watching
    its seat played by a bot, cut from the bot's peer for good, waited for ever.  It
    asks a seat that says it is done for the end of the game (and would stop, cut off,
    past the bound if none could tell it)."""
    schedule = parse("cut 1<->*@187.037+115.984; cut 0<->1@260.213+inf")
    outcome = simulate(18, "belot", 3, schedule, limit=1800.0)
    assert violations(outcome) == []
    (returned,) = [e for e in outcome.exits if e.seat == 1]
    # it learns the end from a seat still there to say it, or stops, cut off, at the bound
    assert returned.result is not None
    assert returned.result.finished or returned.result.cut_off, returned.what


@pytest.mark.parametrize(
    ("seed", "faults"),
    [
        (2005, "kill 0@273.208+120; power 1@382.41+2.906x2; slow 0.01/2"),
        (2017, "power 1@134.275+120; power 0@236.855+1.405; slow 0.001/2"),
    ],
)
def test_a_seat_resumed_after_its_seat_changed_hands_still_ends(seed: int, faults: str) -> None:
    """Found by a long run (Belot-3): a seat killed or powered off past the window, its
    seat given to a bot, resumed while another seat crashed too, waited for ever (and
    with it, in seed 2005, a watcher).  Its wait is bounded now, and it learns the end
    from a seat that says it is done."""
    assert violations(simulate(seed, "belot", 3, parse(faults))) == []


def test_a_watcher_of_a_host_cut_one_way_for_good_ends() -> None:
    """Found by a long run (Belot-3 seed 5003): the host's sending cut for good, one
    way; a watcher's feed went silent and it waited for ever.  The host's ``alive``
    stops coming, and the watcher takes the silence for a host gone away."""
    schedule = "reset 2-0@152.445; cut 0->*@288.816+inf; cut 1<->2@338.384+3.126; slow 0.001/2"
    assert violations(simulate(5003, "belot", 3, parse(schedule))) == []


def test_a_watcher_admitted_before_the_host_s_cable_went_ends() -> None:
    """Found by a long run (Belot-2 seed 22151): the host's sending cut for good four
    seconds in, before any ``alive`` reached its watcher, which then waited on the
    connection for ever.  The host sends one ``alive`` right after ``watching``."""
    schedule = (
        "cut 0->*@4.335+inf; reset 0-1@34.447; power 1@41.273+4.053; reset 1-0@81.643;"
        " cut 1<->0@273.253+8.682; slow 0.001/2"
    )
    assert violations(simulate(22151, "belot", 2, parse(schedule))) == []


def test_two_seats_killed_one_after_the_other_name_nobody() -> None:
    """Found by a long run (Belka-4 seed 20076): seat 2 killed past the window, and seat
    3 half a minute later.  Seats 0 and 1 offered a bot for seat 2 that seat 3 could not
    sign, stopped the game naming seat 2 and left; seats 2 and 3, back, reached only
    each other, and named seat 0 ("silent for 91 s"), which had only stopped.  A peer
    reaching at most half the table waits now as one cut off (no seat can change hands,
    and the other half may wait as it does): here all four meet again and finish."""
    schedule = "kill 2@405.609+120; kill 3@436.556+120"
    outcome = simulate(20076, "belka", 4, parse(schedule))
    assert violations(outcome) == []
    assert [e.what for e in outcome.exits if not e.killed] == ["finished"] * 4
    assert not outcome.answers["yes"], "no bot was offered: no seat could change hands"


def test_two_seats_killed_past_the_cut_off_bound_stop_every_seat_naming_nobody() -> None:
    """The same two kills, past the cut-off bound: seats 0 and 1 stop, unsigned, naming
    nobody; seats 2 and 3, back, reach only each other and stop so too (the first to
    stop says ``done``: that is no end of the game for the other, which stops alike)."""
    schedule = "kill 2@405.609+400; kill 3@436.556+400"
    outcome = simulate(20076, "belka", 4, parse(schedule))
    assert violations(outcome) == []
    stopped = [e.result for e in outcome.exits if not e.killed]
    assert len(stopped) == 4
    assert all(r is not None and r.cut_off and r.split and not r.finished for r in stopped)


def test_a_proposer_back_from_a_cut_never_signs_past_its_offer_s_cut() -> None:
    """Found by a long run (Belot-3 seed 300171): seat 2 cut off past the window, seat
    0 offered a bot and held its table at the cut; seat 1 signed, then its sending was
    cut and it was killed, so seat 0 reached nobody.  When the links came back, seat 0
    asked whether its own seat had changed hands, heard it had not, and let its table
    go on: it played a card in the old segment, then sealed its offer cutting its chain
    one envelope short, and its copy was INVALID.  The question's hold and the seat
    change's are separate now: the answer lets go of its own only.  (Stopped at 300 s:
    the seat is handed back by then, every transition of the whole game taken.)"""
    schedule = "cut 2<->*@143.267+86.3; cut 1->*@193.267+25; kill 1@210.609+22.092"
    outcome = simulate(300171, "belot", 3, parse(schedule), stop=300.0)
    assert violations(outcome) == []
    assert outcome.answers["yes"], "seat 2 went to a bot: the offer was sealed"


def test_a_bot_lost_with_its_peer_s_restart_hands_the_seat_back() -> None:
    """Found by a long run (Belot-3 seed 300837): seat 1 cut off past the window went to
    a bot run by seat 0; seat 1 came back and asked for its seat, and seat 0 was killed
    while asking its player.  Resumed, seat 0 ran no bot (a bot's key and secrets are
    not kept), so it ignored every ``seat_reclaim``: the game waited on the lost bot,
    and seats 0 and 2 then seated a second bot in the first one's place, while seat 1's
    player was back asking (three changes for one absence).  The peer that ran the bot
    now hands the seat back from where its table waits for it (the deal voided).
    (Stopped at 360 s: seat 1 killed and back, every transition of the whole game taken.)"""
    schedule = "cut 1<->*@19.296+97.814; kill 0@123.115+13.761; kill 1@272.217+19.146"
    outcome = simulate(300837, "belot", 3, parse(schedule), stop=360.0)
    assert violations(outcome) == []
    copy = next(c.transcript for c in outcome.copies if c.seat == 2)
    changes = verify_bytes(copy).changes
    assert [(c.seat, c.back) for c in changes] == [(1, False), (1, True)]


@pytest.mark.parametrize(
    ("faults", "seat", "times"),
    [
        ("kill 1@40+90", 1, 1),
        ("kill 1@40+30; cut 1<->*@75+40", 1, 1),  # two short faults, one long absence
        ("kill 1@40+30", 1, 0),
        # Belot-3 seed 300100: seat 2 killed twice, seat 1's cable out between the two
        ("kill 2@109.187+120; cut 1<->*@237.511+90.279; kill 2@338.611+120", 2, 2),
        ("kill 2@109.187+120; cut 1<->*@237.511+90.279; kill 2@338.611+120", 1, 1),
        # Belot-3 seed 300097: seat 2 killed; back, cut from seat 1 for good (the game
        # relayed through seat 0), then from seat 0 too for a while
        ("kill 2@164.731+120; cut 1<->2@194.355+inf; cut 2<->0@339.546+84.679", 2, 3),
    ],
)
def test_a_seat_may_change_hands_once_for_each_fault_of_its_own(
    faults: str, seat: int, times: int
) -> None:
    """Found by a long run: the check of "a seat changes hands once per cut" merged a
    seat's two kills past the window (another seat's cable pulled out between them), or
    a kill and a later cut of the seat's last link, into one absence, and called the
    second change and return that each brings one too many."""
    assert times_gone(parse(faults), seat) == times


def test_a_host_powered_off_before_its_first_record_leaves_no_invalid_game() -> None:
    """Found by a long run (Belot-2 seed 400321): the host's power went 6 ms into the
    game, before its first record reached the disk; its transcript held the magic
    alone, which ``verify`` calls INVALID, and its resume stopped at once ("nothing to
    resume").  The magic goes to the disk with the first record now, and the resumed
    host begins its transcript again from the table description in its journal."""
    outcome = simulate(400321, "belot", 2, parse("power 0@0.006+120"))
    assert violations(outcome) == []
    (host,) = [c for c in outcome.copies if c.seat == 0]
    assert host.transcript, "the resumed host saved the game again"
    assert not any(isinstance(e.error, OrderError) for e in outcome.exits)


def test_two_seats_back_from_a_power_cut_and_a_kill_name_nobody() -> None:
    """Found by a long run (Belot-2 seed 401294): seat 1's power went for 120 s, and
    seat 0 was killed a moment before it came back.  Seat 0, resumed, reached nobody
    (seat 1 was still off), but its mesh counted no failed link (none had come up in
    its own run), so it did not take itself for cut off: at the window it gave seat 1
    up and, held, stopped unsigned; seat 1, back two seconds later, was handed the
    rest, waited for the seat that had left and named it "silent for 61 s".  A resumed
    seat of two that reaches nobody waits now as one cut off: both play on and finish."""
    outcome = simulate(401294, "belot", 2, parse("power 1@341.745+120; kill 0@398.348+0.19"))
    assert violations(outcome) == []
    assert [e.what for e in outcome.exits if not e.killed] == ["finished"] * 2


def test_the_script_prints_a_failing_seed_s_replay(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The failure report, on a run the checks are told to fail (every finding so far is
    fixed, so no seed is known to fail for real).  The run stops at 240 s, the seat
    killed at 169 s resumed twice at 212 s: its counts are the report's."""

    def made_up(outcome: Outcome) -> list[str]:
        return ["a made-up violation"] if outcome.counts["killed"] else []

    monkeypatch.setattr("p2pbelka.sim.main.violations", made_up)
    argv = ["--seed", "7", "--game", "belot", "--players", "3", "--no-shrink"]
    assert main([*argv, "--stop", "240", "--faults", "kill 0@168.724+43.22x2"]) == 1
    out = capsys.readouterr().out
    assert "seed 7: " in out and "a made-up violation" in out
    assert "replay:   scripts/simulate --seed 7 --game belot --players 3 --stop 240" in out
    assert "kill 0 and resume" not in out and "kill and resume" in out  # the report's counts


def test_a_watcher_of_a_host_cut_off_for_good_ends() -> None:
    """Found by the simulator: a watcher whose host was cut off for good never ended (its
    feed's connection hung, no byte and no reset, as a pulled cable leaves TCP).  The host
    now sends ``alive`` every few seconds; a watcher that hears nothing takes it as away."""
    outcome = simulate(409, "belot", 3, parse("cut 0<->*@60.464+inf"), limit=1200.0)
    assert violations(outcome) == []


def test_a_host_cut_off_and_replaced_then_declined_its_seat_back_ends_well(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Belka seed 203 with the host cut off from everyone for 126 s: its seat goes to a
    bot, it comes back, a person declines to hand the seat back; two watchers.  Two
    findings of the simulator on one run (a whole game: the watchers' copies are read
    at its end):

    The watchers' copies were INVALID when the host was cut off and its seat went to a
    bot: the feed held the host's last envelope (46 in its chain), then the continuation
    that cut the chain at 45.  Taking its seat back, the host sets that envelope aside,
    and tells its watchers to (``rewind``).

    After the host came back and a hand-back was declined, the bot playing its seat went
    silent, and the game stopped DISPUTED ("silent for 61 s while shuffle was due").  The
    bot is now woken to play on.  (Its watchers stay to the end, as every watcher did
    when it was found: the copies are theirs.)"""
    monkeypatch.setattr(world, "WATCHERS_LEAVE", 0.0)
    outcome = simulate(203, "belka", 4, parse("cut 0<->*@146.817+125.95"))
    found = violations(outcome)
    assert outcome.declined_back, "a person declined to hand the seat back"
    assert {c.seat for c in outcome.copies} >= {WATCHER, WATCHER + 1}
    assert [v for v in found if v.startswith(("seat 10's", "seat 11's"))] == []
    assert [v for v in found if "hand-back was declined" in v] == []


def test_watchers_come_and_go_and_every_seat_shows_who_watches_last() -> None:
    """Belot-2 seed 5: both watchers leave on the way and come back (a run's watchers
    come and go, ``world.WATCHERS_LEAVE``), so the host's line naming who watches (SPEC
    7.5) changes six times; seat 1, killed and resumed meanwhile, ends showing the last
    one said before the game was over (the checks' ``_watchers``)."""
    outcome = simulate(5, "belot", 2)
    assert violations(outcome) == []
    assert outcome.counts["watcher left"] == outcome.counts["watcher back"] == 2
    said = [text for _at, text in outcome.watchers_said]
    assert len(set(said)) >= 4
    assert outcome.watchers_lines[1] == "/watching Watcher 1, Watcher 2" == said[-2]


def test_a_seat_resumed_after_it_heard_who_watches_shows_it_again() -> None:
    """Belot-3 seed 4, found by the watchers' check: seat 1 heard that two watch, was
    killed at 327 s and resumed at 373 s; the host's standing line came again as the link
    opened, a replay of a line its saved log held, dropped, and a screen takes no
    watchers from the log: seat 1 showed nobody watching to the end.  The log's last
    such line, sent again, is shown now (``Chat._standing_again``)."""
    outcome = simulate(4, "belot", 3)
    assert violations(outcome) == []
    assert outcome.watchers_lines[1] == "/watching Watcher 1, Watcher 2"


def test_a_host_back_from_a_power_cut_takes_its_watchers_again() -> None:
    """Belka-4 seed 201677 of the long run, shrunk: the host's machine lost its power at
    354 s.  The lobby it had written into its game's meta was never synced: half the
    time the power cut took it back, and the resumed host took no watchers again, while
    its seats showed the two that had watched, to the end (the watchers' check).  The
    lobby is on the disk once written now; the host reopens it, its watchers come back
    and the seats are told."""
    outcome = simulate(201677, "belka", 4, parse("power 0@354.447+7.07"))
    assert outcome.counts["power cut took game.json back"] == 1
    assert violations(outcome) == []
    assert outcome.watchers_lines[1] == "/watching Watcher 2, Watcher 1"


def test_a_bot_s_seat_is_not_waited_for_as_its_player_thinking() -> None:
    """Belka-4 seed 201964 of the long run, shrunk: the host cut off past the window (a
    bot run by seat 1 takes its seat), back and watching; seat 1 declines to hand it back
    and is killed for two minutes, the bot with it.  The host's link was up, so every
    seat took the bot's silence for a person thinking and waited to the decide limit;
    seat 1, resumed, put the hand-back and then a bot for the bot to its person past the
    window, and its no stopped the game, a hand-back declined and no seat gone since.  A
    seat a bot holds is not a person thinking on its player's link: the others give up
    on it at the window, as on a bot gone with its peer (SPEC 9.4)."""
    schedule = parse("cut 0<->*@63.574+84.567; kill 1@159.048+120")
    outcome = simulate(201964, "belka", 4, schedule, twice=False)
    assert violations(outcome) == []
    ended = [e.ended for e in outcome.exits if e.seat in (2, 3) and e.ended is not None]
    assert ended and max(ended) < 159.048 + 120  # before seat 1 was back


KNOWN: dict[str, Callable[[str, int], bool]] = {}
"""The findings expected failures above keep while they are not fixed, by the words of
their violations: the long run tolerates these and fails on anything else."""


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), [("belka", 4), ("belot", 2), ("belot", 3)])
def test_a_long_run_finds_nothing_new(game: str, players: int) -> None:
    new = {}
    for seed in range(40):
        found = violations(simulate(seed, game, players, twice=False))
        unknown = [v for v in found if not any(k(v, players) for k in KNOWN.values())]
        if unknown:
            new[seed] = unknown
    assert new == {}


def test_a_seat_is_named_only_for_its_own_absence_or_a_cut_from_its_namer() -> None:
    """Seat 2's cable out past the window keeps seat 2 away, not seat 3: a short kill of
    seat 3 does not excuse naming it (the schedule of issue 36's fault 4), but seat 2
    itself, cut off from everyone, may name it."""
    schedule = parse("cut 2<->*@100+300; kill 3@165.2645+3")
    assert not gone_from(schedule, 3, 1)
    assert gone_from(schedule, 3, 2)
    assert gone_from(schedule, 2, 1)
    assert gone_from(parse("kill 3@10+80"), 3, 0)
    assert gone_from(parse("cut 3<->0@10+80"), 3, 0)
    assert gone_from(parse("cut 3<->0@10+80"), 3, 1)  # a link of its own, whoever names it
    assert not gone_from(parse("cut 2<->0@10+80"), 3, 1)


@pytest.mark.xfail(
    strict=True,
    reason="open (issue 36): a hand-back declined for a seat whose bot was lost with its "
    "peer's restart leaves the seat to nobody, and the game ends naming it",
)
@pytest.mark.parametrize(
    ("seed", "schedule"),
    [
        (700075, "power 0@220.418+120; power 1@323.466+0.264"),
        (302658, "cut 0<->*@99.198+124.51; power 1@195.648+4.986"),
    ],
)
def test_a_hand_back_declined_for_a_lost_bot_s_seat_leaves_the_game_going(
    seed: int, schedule: str
) -> None:
    """Found by long runs with the sharper naming check (Belot-3, shrunk): seat 0 away
    past the window, its seat went to a bot run by seat 1; seat 1's own power cut lost
    that bot (its key lives only in memory) and its player put the fresh bot off; seat 0
    came back and asked for its seat, and a person declined.  The bot the no would keep
    is gone, so nothing plays seat 0, and the game stops DISPUTED (seed 700075: "seat 0
    ... went silent for 77 s while bid was due").  Kept strict: once the game goes on,
    this test says so."""
    outcome = simulate(seed, "belot", 3, parse(schedule))
    assert violations(outcome) == []


@pytest.mark.xfail(
    strict=True,
    reason="open (issue 36): a seat silent while its one-way cut had healed is named",
)
def test_a_seat_back_from_a_one_way_cut_is_not_named_for_the_silence_after() -> None:
    """Belot-3 seed 302560, shrunk, found by the sharper naming check: seat 0 cut off
    for 81 s, seat 2's sending cut for 25 s within it, seat 0 then powered off; seat 1
    names seat 2 "went silent for 150 s ... while play was due" although seat 2's own
    faults were 25 s of a one-way cut.  Not yet read: a program bug, or a silence the
    check should lay on seat 0's absence."""
    schedule = "cut 0<->*@17.662+81.465; cut 2->*@67.662+25; power 0@189.274+58.215; slow 0.01/2"
    outcome = simulate(302560, "belot", 3, parse(schedule))
    assert violations(outcome) == []


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="open (issue 36): a resumed seat waits forever")
@pytest.mark.parametrize(
    ("seed", "game", "players", "schedule"),
    [
        (
            302390,
            "belot",
            3,
            "cut 0<->2@110.337+inf; cut 0<->*@177.904+110.848; cut 2<->1@292.805+inf; "
            "kill 1@296.729+120",
        ),
        (
            203206,
            "belka",
            4,
            "cut 1<->*@59.444+135.1; cut 2<->*@190.24+inf; cut 3<->*@209.271+inf; "
            "kill 0@371.3+2.754",
        ),
    ],
)
def test_a_seat_resumed_beside_seats_cut_for_good_ends(
    seed: int, game: str, players: int, schedule: str
) -> None:
    """Long runs, shrunk: Belot-3 seed 302390 (seat 2 cut from both others for good, seat
    0 cut off for 111 s, seat 1 killed for 120 s and resumed at 416.7 s) and Belka-4 seed
    203206 (seats 2 and 3 cut off for good, seat 0 killed for 3 s): the resumed seat's
    program had not ended 7,200 s later.  It reaches one peer only, and once that peer's
    program has ended it dials it ("nothing listens") with no bound.  Under ``slow``:
    each run waits out the simulator's whole bound (about 4 CPU-s)."""
    outcome = simulate(seed, game, players, parse(schedule))
    assert violations(outcome) == []
