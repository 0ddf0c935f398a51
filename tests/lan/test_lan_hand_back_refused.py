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
import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.identity import Identity
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.peer.lan import (
    GameResult,
    LobbyEvent,
    TableOpen,
    host_game,
    join_game,
    resume_game,
)
from p2pbelka.peer.seatchange.drivers import OfferClosed, OfferWithdrawn, SeatKept, SeatOffer
from p2pbelka.peer.store import GameStore
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.verify import verify_bytes
from tests.lan.test_lan_seat_bot import LOST, NAMES, _net, _over, _plays_in_deal, _SlowBot

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
    results: dict[int, GameResult] = {}
    opened = trio.Event()
    lobby: list[int] = []

    async def on_lobby(event: LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            lobby.append(event.lobby_port)
            opened.set()

    async def peer(n: int) -> None:
        net = _net(tmp_path, n)
        net.offer_timeout = OFFER_TIMEOUT
        if n == 0:
            options = {"goli": "off"}
            results[0] = await host_game(
                ids[0], "t", fronts[0], options=options, net=net, on_lobby=on_lobby
            )
            return
        await opened.wait()
        results[n] = await join_game(ids[n], "127.0.0.1", lobby[0], fronts[n], net=net)

    async def victim_and_return() -> None:
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as inner:
                inner.start_soon(peer, LOST)
                lost = fronts[LOST]
                assert isinstance(lost, BotFrontEnd)
                while _plays_in_deal(lost.events) < 3 and not _over(lost):
                    await trio.sleep(0.01)
                scope.cancel()
        while not any(isinstance(e, SeatChanged) for e in fronts[0].events):
            await trio.sleep(0.05)
        back = _SlowBot(make_bot("random", 99))
        fronts[LOST] = back
        net = _net(tmp_path, LOST)
        net.offer_timeout = OFFER_TIMEOUT
        store = GameStore.find(home=net.home)
        results[LOST] = await resume_game(ids[LOST], store, back, net=net)

    with trio.fail_after(300):
        async with trio.open_nursery() as nursery:
            for n in (0, 1, 3):
                nursery.start_soon(peer, n)
            nursery.start_soon(victim_and_return)
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
