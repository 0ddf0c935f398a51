"""Attacks on the split wait (``Mesh.split``): a peer reaching at most half a table of
four waits as one cut off and stops naming nobody.  A cheater must not buy with it
what it could not buy before: a seat whose signed lie reached us is named whatever
the split, and a single seat cannot make an honest seat believe half the table gone.
Nor with ``done``, an unsigned word on a link: one seat saying it falsely turns no
peer cut off (or split) into one that names the seat it waits for (a peer cut off
at a table of three: ``test_cut_off.py``, ``belot-3-one-done``).

Seat 2's real table of a real four-seat game, a deal under way, waits on the others
in its peer's ``SeatChangeRunner`` (``tests/peer/test_cut_off.py``'s set-up).
Virtual seconds.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import trio
from trio.testing import MockClock

from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import CUT_OFF_GRACE, BotFrontEnd, CutOff
from p2pbelka.peer.mesh import FLAPS, Mesh
from p2pbelka.peer.sync import resign
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table import events as ev
from p2pbelka.table.verify import verify_bytes
from tests.peer.seatrunners import unlinked_runner
from tests.peer.test_cut_off import VICTIM, _cut_game

PLAYERS = {0, 1, 2, 3}


async def test_a_signed_lie_names_its_seat_though_half_the_table_is_out_of_reach(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """A cheating pair that cut its links to us after one of them signed two different
    envelopes for one place is named, with the proof, not waited for as a split: the
    proof needs no link to its author (a relay brings it, or it came before the cut)."""
    game = _cut_game()
    table = game.tables[VICTIM]
    assert table.state.setup is not None
    path = tmp_path / "transcript.p2pb"
    with TranscriptWriter(path) as writer:
        for envelope in game.files[VICTIM]:
            writer.append(envelope)
        runner, mesh = unlinked_runner(table, VICTIM, "Victim", writer, bot_seed=3)
        waited = [s for s in table.view.missing() if s != VICTIM]
        (reached,) = [s for s in range(4) if s not in (VICTIM, *waited)][:1]
        cheater = next(s for s in range(4) if s not in (VICTIM, reached))
        mesh.connected = lambda: {reached}  # type: ignore[method-assign]
        mesh.cut_off = lambda: False  # type: ignore[method-assign]
        for seat, failed in mesh._failed.items():
            if seat != reached:
                failed.append(0.0)
        assert mesh.split(PLAYERS)
        # the cheater's last envelope in our file, and another it signed for that place
        key = table.state.setup.seats[cheater].key
        signed = [e for e in game.files[VICTIM] if e.sender == key]
        last = open_envelope(signed[-1].raw)
        signer = game.tables[cheater]._signer
        assert signer is not None
        lie = resign(signer, last, prev=secrets.token_bytes(32))  # another for its place
        runner.start(table)
        front = runner.front_end
        assert isinstance(front, BotFrontEnd)
        async with trio.open_nursery() as nursery:
            done = trio.Event()

            async def play() -> None:
                await runner.play()
                done.set()

            nursery.start_soon(play)
            await trio.sleep(CUT_OFF_GRACE / 2)  # waiting as split by now
            assert not table.finished
            mesh._put(lie)  # relayed by the seat we reach
            with trio.fail_after(10 * CUT_OFF_GRACE):
                await done.wait()
    assert not [e for e in front.events if isinstance(e, CutOff)], "named, not waited out"
    assert not runner.stopped_split
    (aborted,) = [e for e in front.events if isinstance(e, ev.GameAborted)]
    named = [f for f in aborted.faults if f.fatal and f.seat == cheater]
    assert named and named[0].evidence, aborted.faults
    report = verify_bytes(path.read_bytes())
    assert not report.verdict.startswith("INCOMPLETE"), report.verdict


def _mesh(me: int, n: int = 4, hold: float | None = None) -> Mesh:
    keys = [Identity.generate(f"s{s}").public_key for s in range(n)]
    return Mesh(
        Identity.generate("me"),
        b"g" * 32,
        me,
        keys,
        [],
        source=lambda *a, **k: [],
        wants=list,
        hold=hold,
    )


async def test_one_seat_alone_cannot_make_an_honest_seat_see_a_split(
    autojump_clock: MockClock,
) -> None:
    """One cheater can cut only its own links, and make its own links flap: an honest
    seat that still reaches the two others reaches three of four, never half, and goes
    on naming the cheater (``SeatChange.lost``) as before."""
    mesh = _mesh(1)
    up = {2, 3}
    mesh.connected = lambda: set(up)  # type: ignore[method-assign]
    mesh._failed[0].append(trio.current_time())
    assert not mesh.split(PLAYERS)
    # a link that keeps failing counts as down: still only one seat out of reach
    for _ in range(FLAPS):
        mesh._failed[0].append(trio.current_time())
    assert not mesh.split(PLAYERS)
    # two seats out of reach (a pair, or a real cut) is a split, whichever they are
    up.discard(3)
    assert mesh.split(PLAYERS)


async def test_a_seat_that_said_done_falsely_leaves_the_split_wait_as_it_was(
    autojump_clock: MockClock,
) -> None:
    """``done`` is an unsigned word on a link: a cheater that says it, then cuts its link
    with its partner's, must not turn our wait into naming the seat we wait for."""
    mesh = _mesh(1)
    mesh.connected = lambda: {3}  # type: ignore[method-assign]
    mesh._failed[0].append(0.0)
    mesh._failed[2].append(0.0)
    mesh._done.add(0)
    assert mesh.split(PLAYERS)
    assert not mesh.unreached()  # (seat 3 is reached: not "cut off from everyone")


async def test_every_seat_that_went_having_said_done_is_no_cut_off(
    autojump_clock: MockClock,
) -> None:
    """The others finished and left, each saying ``done`` first: not a peer cut off (it
    would wait for nobody).  A seat that never had a link (a bot's) is not waited for."""
    mesh = _mesh(1, n=3)
    mesh._failed[0].append(0.0)
    mesh._failed[2].append(0.0)
    mesh._done.add(0)
    assert mesh.cut_off() and mesh.unreached()
    mesh._done.add(2)
    assert not mesh.cut_off() and not mesh.unreached()
    mesh4 = _mesh(1)
    mesh4._failed[0].append(0.0)
    mesh4._done.add(0)
    assert not mesh4.cut_off()  # seats 2 and 3 never had a link: nothing to wait for


async def test_a_resumed_seat_of_two_that_reaches_nobody_is_unreached(
    autojump_clock: MockClock,
) -> None:
    """A seat back from a crash whose links have not come up in its own run (the other
    seat may be down as it was, back from a power cut) counts as cut off like one
    whose link failed (Belot-2 seed 401294): it waits, never names the other seat."""
    assert not _mesh(0, n=2).unreached()  # a fresh game: no link was ever up
    resumed = _mesh(0, n=2, hold=30.0)
    assert resumed.unreached()
    resumed.connected = lambda: {1}  # type: ignore[method-assign]
    assert not resumed.unreached()


async def test_split_waits_only_at_a_table_of_four_players(autojump_clock: MockClock) -> None:
    """At a table of three no half exists that a pair could cut away: one seat out of
    reach is one seat gone, named as before."""
    mesh = _mesh(0, n=3)
    mesh.connected = lambda: {1}  # type: ignore[method-assign]
    mesh._failed[2].append(0.0)
    assert not mesh.split({0, 1, 2})
