"""A table's names tell its seats apart: the host's lobby gives a newcomer whose name a
seat already has a number after it (three ``join --bot`` of one level, two players who
kept the default name)."""

from __future__ import annotations

from p2pbelka.peer.lobby import distinct_name
from p2pbelka.protocol import messages as m


def test_a_name_taken_gets_the_next_number() -> None:
    taken = ["Hostess"]
    for expected in ("Heuristic bot", "Heuristic bot 2", "Heuristic bot 3"):
        name = distinct_name("Heuristic bot", taken)
        assert name == expected
        taken.append(name)


def test_names_that_differ_only_in_case_are_told_apart_and_stay_in_bounds() -> None:
    assert distinct_name("ann", ["Ann"]) == "ann 2"
    long = "x" * m.MAX_NAME
    second = distinct_name(long, [long])
    assert second.endswith(" 2") and len(second) == m.MAX_NAME
