"""A cable out for longer than the rest of the game: four peer processes (bots) in four
namespaces.  The other three seat a bot for the player cut off, finish the game and
exit; the cut-off player's program says how long it will wait, and once its cable is
back and nobody answers, it stops within that bound: one line saying the game went on
without it, where it saved the game (unfinished: ``verify`` says INCOMPLETE) and what
``resume`` and ``verify`` do, and exit status 5 (``p2pbelka --help``).

Needs root and iproute2 (skipped with the reason otherwise).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pbelka.cli.errors import EXIT_CUT_OFF
from tests.lan.helpers import PeerSet, namespaced_table, transcript_of, verify, wait_for_bytes
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns

SILENCE = "4"  # a link silent this long while asked is dead (--link-silence)
WINDOW = "7"  # the reconnect window: past SILENCE, so the cut-off links are dead
DECIDE = "25"
"""The victim's bound, min(decide limit, window + CUT_OFF_GRACE): the test waits it out
in real seconds, so it is only as long as the others need, with room for a loaded
machine, to seat a bot and finish: the window, then a bot's few deals (11 to 13 s from
the cut in three runs with a 12 s window, the last at a load average of 11 on two
cores: the window, then about a second of play, which the bound leaves 18 s for)."""
VICTIM = 2


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(4, "10.77.23") as built:
        yield built


def test_a_player_cut_off_past_the_game_s_end_stops_within_the_stated_bound(
    lan: Lan, tmp_path: Path
) -> None:
    timing = ["--reconnect-window", WINDOW, "--link-silence", SILENCE, "--pause-after", "1",
              "--decide-limit", DECIDE]  # fmt: skip
    common = ["--bot", "random", "--quiet", "--stats", "--verbose", "--auto-approve", *timing]
    with PeerSet(tmp_path) as peers:
        everyone = namespaced_table(lan, peers, common, lambda _k: common)
        victim = everyone[VICTIM]
        others = [p for k, p in enumerate(everyone) if k != VICTIM]
        wait_for_bytes(victim, 8_000, 60)  # a deal under way
        lan.link(VICTIM, up=False)
        said = victim.wait_for(r"waiting for it to come back, until (\d+) s of silence", 60)
        bound = float(said.group(1))
        assert bound == float(DECIDE), victim.dump()
        # the others seat a bot, finish the game and leave; the victim is still waiting
        codes = peers.wait(others, 240)
        assert codes == [0, 0, 0], "\n".join(p.dump() for p in everyone)
        assert all("replaced by Bot for" in p.text() for p in others)
        # the victim must still be waiting when its cable comes back, or this tests a
        # peer that gave up while cut off instead (the bound above would be too short)
        assert victim.proc.poll() is None, victim.dump()
        lan.link(VICTIM, up=True)  # nobody is left to answer it
        (code,) = peers.wait([victim], 240)
        out = victim.text()
        assert code == EXIT_CUT_OFF, victim.dump()
        stopped = re.search(r"no other seat could be reached for (\d+) s", out)
        assert stopped is not None and float(stopped.group(1)) >= bound, victim.dump()
        ending = [line for line in out.splitlines() if "The game went on without you" in line]
        assert len(ending) == 1, victim.dump()
        path = transcript_of(victim)
        assert str(path) in ending[0] and "p2pbelka resume" in ending[0], ending
        assert "GAME ABORTED" not in out and "went silent" not in out, victim.dump()
        stats = victim.stats()
        assert stats["cut_off"] and not stats["finished"] and not stats["aborted"]
        assert verify(path).startswith("INCOMPLETE"), verify(path)
        meta = json.loads((path.parent / "game.json").read_text())
        assert not meta["finished"]  # ``resume`` still offers it
