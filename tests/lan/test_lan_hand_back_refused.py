"""A seat asked back that not every seat agrees to hand back: real peers over loopback.

Four peers play; one is killed, a bot takes its seat, and its player resumes and
asks the seat back at every deal.  Nurlan never answers the first question (it
times out as no; it is put once the bot stopped, and lasts longer than the
reconnect window: every table waits for the paused bot past it) and says no to
every later one, while the others say yes (Bolat signs, so he goes on only on
Nurlan's no); or the host, whose program runs the bot, says no every time.  The
bot plays on, nobody is asked to seat a bot for the bot, the question left
unanswered is taken off the refuser's screen, the returning player is told the
seat stays with the bot, and the game finishes: the three seated transcripts are
the same bytes and ``verify`` says OK.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.seatchange.drivers import OfferClosed, OfferWithdrawn, SeatKept, SeatOffer
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.verify import verify_bytes
from tests.lan.test_lan_seat_bot import LOST, NAMES, _SlowBot, lose_and_come_back

REFUSERS = {"a remaining seat": (3, True), "the bot's peer": (0, False)}
"""Nurlan, silent at the first question about handing the seat back and no after;
or the host (whose program runs the bot), no every time.  (The bot plays on while
its peer's player thinks: a silent host would see the game end first.)"""
OFFER_TIMEOUT = 8.0
"""Longer than the reconnect window (5 s): the pause outlasts it."""


class Refuser:
    """A bot at the table that answers a question about a seat as Nurlan does."""

    transcript = None

    def __init__(self, seed: int, silent_first: bool) -> None:
        self.inner = _SlowBot(make_bot("random", seed))
        self.events = self.inner.events
        self.asked_back = 0
        self.silent_first = silent_first

    async def run(self, driver: PeerDriver) -> None:
        return None

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, SeatOffer):
            self.events.append(event)
            if not event.back:
                event.decision.answer(True)  # a bot for the lost seat: yes
                return
            self.asked_back += 1
            if self.asked_back > 1 or not self.silent_first:
                event.decision.answer(False)
            return
        await self.inner.on_event(driver, event)


@pytest.mark.parametrize("who", sorted(REFUSERS))
async def test_a_hand_back_refused_leaves_the_bot_playing_to_the_end(
    tmp_path: Path, who: str
) -> None:
    ids = [Identity.generate(name) for name in NAMES]
    fronts: list[BotFrontEnd | Refuser] = [_SlowBot(make_bot("random", 40 + n)) for n in range(4)]
    seat, silent_first = REFUSERS[who]
    refuser = Refuser(40 + seat, silent_first)
    fronts[seat] = refuser
    results = await lose_and_come_back(tmp_path, ids, fronts, OFFER_TIMEOUT, within=300)
    seated = (0, 1, 3)
    assert all(results[n].finished and not results[n].aborted for n in seated), {
        n: (r.finished, r.aborted) for n, r in results.items()
    }
    seat = results[LOST].seat
    for n in seated:
        changes = [e for e in fronts[n].events if isinstance(e, SeatChanged)]
        assert [(c.seat, c.back) for c in changes] == [(seat, False)], (n, changes)
        assert not [e for e in fronts[n].events if isinstance(e, OfferClosed)], n
        bots_for_the_bot = [
            e
            for e in fronts[n].events
            if isinstance(e, SeatOffer) and not e.back and e.seat == seat
        ]
        assert len(bots_for_the_bot) <= 1, (n, bots_for_the_bot)  # the one for the player
    assert refuser.asked_back >= 2, "the player was not asked back again after a no"
    withdrawn = [e for e in refuser.events if isinstance(e, OfferWithdrawn)]
    if silent_first:  # the first question, unanswered, left the screen
        assert withdrawn and withdrawn[0].offer.back
    kept = [e for e in fronts[LOST].events if isinstance(e, SeatKept)]
    assert kept and all(k.seat == seat for k in kept)
    files = {results[n].store.transcript_path.read_bytes() for n in seated}
    assert len(files) == 1, "the seated transcripts differ"
    report = verify_bytes(files.pop())
    assert report.ok and not report.disputed, report.verdict
    (line,) = report.change_lines
    assert f"seat {seat} (" in line and "replaced by Bot for" in line
