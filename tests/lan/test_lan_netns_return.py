"""A cable out for longer than the reconnect window, then back: four peer processes in
four namespaces.  The others seat a bot for the player cut off; the player's program
says it reaches nobody (never blaming a seat), and when its cable is back it learns of
the signed change, says so, and takes its seat back between deals, as ``resume`` does.

One seat is a person in text mode (the test types the first choice offered), so the
game waits for it while the cable is out: a game of bots alone would be over by then.
Needs root and iproute2 (skipped with the reason otherwise).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.lan.helpers import Peer, PeerSet, Typist, namespaced_table, verify, when
from tests.netns import Lan, namespace_lan

pytestmark = pytest.mark.netns

WINDOW = "12"  # the reconnect window: past LINK_SILENCE, so the cut-off links are dead
VICTIM, PERSON = 2, 1


@pytest.fixture
def lan() -> Iterator[Lan]:
    with namespace_lan(4, "10.77.21") as built:
        yield built


def _seated(lan: Lan, peers: PeerSet) -> list[Peer]:
    timing = ["--reconnect-window", WINDOW, "--pause-after", "1", "--auto-approve"]
    rules = ["--option", "goli=off"]  # no game won at a stroke before the seat is back
    common = ["--quiet", "--stats", "--verbose", *timing]
    bot = ["--bot", "random"]

    def who(k: int) -> list[str]:
        return [*(["--text", "--player", "Person"] if k == PERSON else bot), *common]

    return namespaced_table(lan, peers, [*rules, *bot, *common], who, typed=PERSON)


def test_a_player_back_after_the_window_takes_the_seat_back(lan: Lan, tmp_path: Path) -> None:
    with PeerSet(tmp_path) as peers:
        everyone = _seated(lan, peers)
        host, victim, person = everyone[0], everyone[VICTIM], Typist(everyone[PERSON])
        person.until(when(lambda: _dealt(victim)), "a deal", 60, victim)
        # the cut comes while the victim's table waits for the person, whose link stays
        # alive: back from the cut, the victim must not wait for them as if deciding
        # (it would wait till the decide limit: the others have left that segment)
        waits = victim.text().count(f"waiting for seat {PERSON} ")
        _until(lambda: victim.text().count(f"waiting for seat {PERSON} ") > waits, victim)
        lan.link(VICTIM, up=False)
        # the cable stays out until both sides have acted on it, not for a fixed time:
        # the others seated a bot (the window passed), and the victim took its own links
        # for dead (it reaches nobody)
        person.until(when(lambda: "replaced by Bot for" in host.text()), "the bot", 60, host)
        # the person does not play on: the game waits for them while the cable is out
        victim.wait_for("none of the other seats can be reached", 60)
        lan.link(VICTIM, up=True)
        # the person plays on once the player back has asked for its seat: the bot
        # then finishes its deal, and the seat is handed back before the game can end
        host.wait_for("is back: hand the seat back", 120)
        person.until(when(lambda: victim.proc.poll() is not None), "the game's end", 240, victim)
        codes = peers.wait(everyone, 60)
        assert codes == [0, 0, 0, 0], "\n".join(p.dump() for p in everyone)
        said = victim.text()
        assert "replaced by Bot for" in said and "handed back to" in said, victim.dump()
        # the bot finished its deal: the hand-back loses no deal played
        assert "starts over, no card of it dealt yet" in said, victim.dump()
        assert "GAME ABORTED" not in said and "went silent" not in said
        data = {p.transcript().read_bytes() for p in everyone}
        assert len(data) == 1, "the four transcripts differ"
        assert verify(host.transcript()).startswith("OK")


def _until(check: object, peer: Peer) -> None:
    """Until ``check()``, nobody typing (the person's choice stays open)."""
    deadline = time.monotonic() + 180
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"no wait for seat {PERSON}:\n{peer.dump()}"
        time.sleep(0.05)


def _dealt(peer: Peer) -> bool:
    files = list(peer.home.glob("games/*/transcript.p2pb"))
    return bool(files) and files[0].stat().st_size >= 8_000
