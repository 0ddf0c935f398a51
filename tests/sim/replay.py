"""What two runs of one seed must share: every byte each seat saved and signed, every
program's end and when, and every count of what the run reached."""

from __future__ import annotations

from p2pbelka.sim.world import Outcome


def assert_same_run(one: Outcome, other: Outcome) -> None:
    assert [c.transcript for c in one.copies] == [c.transcript for c in other.copies]
    assert [c.signed for c in one.copies] == [c.signed for c in other.copies]
    assert [(e.seat, e.what, e.ended) for e in one.exits] == [
        (e.seat, e.what, e.ended) for e in other.exits
    ]
    assert one.counts == other.counts
