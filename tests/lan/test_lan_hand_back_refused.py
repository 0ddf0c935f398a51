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

The player is asked back again after a no, at most once a deal: the bot's peer
hears its next ``seat_reclaim`` from the next deal on (and, handing it back, asks
the other seats once the bot played that deal out).  A fast game (a busy
machine's resume takes long) could end before any of it, so the refuser thinks
over its cards as a person may: from the seat change until the bot's peer was
asked, and in a deal after its no until that peer was asked again.  The test
waits on those questions, not on how long the game lasts, and asks for a second
question only where the game went on far enough for one.
The peers run in this process under trio's mock clock (``test_lan_seat_bot``): the
reconnect window and the unanswered question's time pass at once.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import trio
from trio.testing import MockClock

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
HOLD = 120.0
"""The longest the refuser thinks over a card while it waits for a question: only
stops a hang (the player asks every few seconds), so the assertions say what went
wrong."""


class Asked:
    """The bot's peer asked to hand the seat back: the deal of each question (its
    table's), and an event for the first two, that a refuser holds its cards on."""

    def __init__(self) -> None:
        self.deals: list[int] = []
        self.times = (trio.Event(), trio.Event())

    def note(self, driver: PeerDriver) -> None:
        self.deals.append(driver.table.state.deal_id)
        if len(self.deals) <= len(self.times):
            self.times[len(self.deals) - 1].set()


class Handing(_SlowBot):
    """The host when it says yes to handing the seat back: its questions are noted."""

    def __init__(self, seed: int, asked: Asked) -> None:
        super().__init__(make_bot("random", seed))
        self.asked = asked

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, SeatOffer) and event.back:
            self.asked.note(driver)
        await super().on_event(driver, event)


class Refuser:
    """A bot at the table that answers a question about a seat as Nurlan does, and
    holds a card (its turn: the table waits) from the seat change until the bot's
    peer was asked (``asked``; it is that peer, or another seat), and in a deal
    after its first no until that peer was asked again."""

    transcript = None

    def __init__(self, seed: int, silent_first: bool, asked: Asked, own: bool) -> None:
        self.inner = _SlowBot(make_bot("random", seed))
        self.events = self.inner.events
        self.asked_back = 0
        self.silent_first = silent_first
        self.asked = asked
        self.own = own
        """It is the bot's peer: its own questions are the ones ``asked`` notes."""
        self.no_deal: int | None = None
        """The deal its table was in at its first no."""
        self.played: set[int] = set()
        """The deals it was asked for a card in."""
        self._held_in, self._held = trio.open_memory_channel[tuple[ev.ChoiceNeeded, trio.Event]](
            math.inf
        )

    async def run(self, driver: PeerDriver) -> None:
        async for question, until in self._held:
            with trio.move_on_after(HOLD):
                await until.wait()
            await self.inner.on_event(driver, question)

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, SeatOffer):
            self.events.append(event)
            if not event.back:
                event.decision.answer(True)  # a bot for the lost seat: yes
                return
            if self.own:
                self.asked.note(driver)
            self.asked_back += 1
            if self.no_deal is None:
                self.no_deal = driver.table.state.deal_id
            if self.asked_back > 1 or not self.silent_first:
                event.decision.answer(False)
            return
        if isinstance(event, ev.ChoiceNeeded) and event.kind == "play":
            until = self._hold_until(driver.table.state.deal_id)
            if until is not None:
                self._held_in.send_nowait((event, until))
                return
        await self.inner.on_event(driver, event)

    def _hold_until(self, deal: int) -> trio.Event | None:
        self.played.add(deal)
        first, again = self.asked.times
        if not any(isinstance(e, SeatChanged) for e in self.events):
            return None
        if not first.is_set():
            return first
        if self.no_deal is not None and deal > self.no_deal and not again.is_set():
            return again
        return None

    def asked_again_by(self) -> int | None:
        """The deal by whose first card this seat was to be asked again, if the game
        went on far enough: the bot's peer is asked in the deal after the no (we
        held our card there until it was); a remaining seat, once the bot played out
        the deal its peer was asked again in."""
        deals = self.asked.deals
        if self.own:
            return None if self.no_deal is None else self.no_deal + 1
        return deals[1] + 1 if len(deals) > 1 else None


@pytest.mark.parametrize("who", sorted(REFUSERS))
async def test_a_hand_back_refused_leaves_the_bot_playing_to_the_end(
    tmp_path: Path, who: str, autojump_clock: MockClock
) -> None:
    ids = [Identity.generate(name) for name in NAMES]
    asked = Asked()
    fronts: list[BotFrontEnd | Refuser] = [_SlowBot(make_bot("random", 40 + n)) for n in range(4)]
    fronts[0] = Handing(40, asked)
    seat, silent_first = REFUSERS[who]
    refuser = Refuser(40 + seat, silent_first, asked, own=seat == 0)
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
    assert refuser.asked_back >= 1, "the player never asked for the seat back"
    # held, the refuser played on only once the bot's peer was asked again...
    story = (refuser.no_deal, sorted(refuser.played), asked.deals, refuser.asked_back)
    if refuser.no_deal is not None and max(refuser.played, default=-1) > refuser.no_deal:
        assert len(asked.deals) >= 2, ("the bot's peer was not asked again", story)
    # ...and was asked again itself, if the game went on to that deal's first card
    by = refuser.asked_again_by()
    if by is not None and max(refuser.played, default=-1) >= by:
        assert refuser.asked_back >= 2, ("the player was not asked back again after a no", story)
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
