"""The simulated people: a front end that plays cards the way a bot would, after a
think of a few seconds, and answers every seat-change question yes, no, late or
never, as the seed draws.

It speaks to the peer through the same ``FrontEnd`` interface the screens use
(``on_event`` hears the table's questions and the ``SeatOffer``s, ``driver.submit``
answers a question, ``offer.decision`` answers an offer), and it is not a
``BotFrontEnd``: the seat change asks it, as it asks a person, instead of saying yes
for it.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import trio

from p2pbelka.bots import Bot
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import PeerDriver, TranscriptSink
from p2pbelka.peer.seatchange.drivers import SeatOffer
from p2pbelka.peer.sync import answer
from p2pbelka.peer.watch import Say, WatchNote
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.session import Table

MOODS = (0.95, 0.95, 0.7, 0.3)
"""How likely a run's people are to say yes (the rest split between no, late and never):
a table that mostly agrees reaches the later stages of a seat change."""


class Person:
    """One seat's player (for the program that started in that seat, across its
    resumes).  ``nursery`` is the program's: a think or an answer dies with it."""

    transcript: TranscriptSink | None = None

    def __init__(
        self, seat: int, bot: Bot, rng: random.Random, offer_timeout: float, yes: float
    ) -> None:
        self.seat = seat
        self.yes = yes
        self.bot = bot
        self.rng = rng
        self.offer_timeout = offer_timeout
        self.nursery: trio.Nursery | None = None
        self.asked: dict[int, ev.ChoiceNeeded] = {}
        self.answers: Counter[str] = Counter()
        """Offers answered, by how: "yes", "no", "late", "never" (and "back ..." for a
        hand-back)."""
        self.declined_back: list[float] = []
        """When this person declined a hand-back (no, late or never)."""
        self.events: list[ev.Event] = []
        self.sent: list[Envelope] = []

    async def run(self, driver: PeerDriver) -> None:
        return None

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        self.events.append(event)
        assert self.nursery is not None
        if isinstance(event, ev.ChoiceNeeded):
            self.asked[id(driver)] = event
            self.nursery.start_soon(self._play, driver, event)
        elif isinstance(event, SeatOffer):
            self.nursery.start_soon(self._answer, event)

    async def _play(self, driver: PeerDriver, question: ev.ChoiceNeeded) -> None:
        await trio.sleep(self.rng.choice((0.3, 1.0, 2.0, 4.0)))
        if self.asked.get(id(driver)) is question and not driver.table.state.over:
            await driver.submit(answer(self.bot, driver.table, question))

    async def _answer(self, offer: SeatOffer) -> None:
        how = "yes" if self.rng.random() < self.yes else self.rng.choice(("no", "late", "never"))
        self.answers[f"back {how}" if offer.back else how] += 1
        if offer.back and how != "yes":
            self.declined_back.append(trio.current_time())
        if how == "never":
            return
        if how == "late":
            await trio.sleep(self.offer_timeout + self.rng.uniform(0.1, 10.0))
        else:
            await trio.sleep(self.rng.uniform(0.5, 5.0))
        offer.decision.answer(how != "no")


class Watcher:
    """A watcher's front end (``peer.watch.WatchFront``): it only listens."""

    def __init__(self) -> None:
        self.notes: list[WatchNote] = []
        self.report: VerifyReport | None = None
        self.path: Path | None = None

    async def lobby(self, state: lb.LobbyState) -> None:
        return None

    async def admitted(self, chat: str, send: Say | None = None) -> None:
        return None

    async def fed(self, table: Table, events: list[ev.Event]) -> None:
        return None

    async def chat(self, sender_name: str, text: str, watcher: bool) -> None:
        return None

    async def note(self, note: WatchNote) -> None:
        self.notes.append(note)

    async def ended(self, report: VerifyReport, path: Path | None) -> None:
        self.report, self.path = report, path
