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
from p2pbelka.peer.chat import Chat, ChatLine, watchers_named
from p2pbelka.peer.driver import PeerDriver, TranscriptSink
from p2pbelka.peer.seatchange.drivers import SeatOffer
from p2pbelka.peer.sync import answer
from p2pbelka.peer.watch import Say, WatchNote
from p2pbelka.protocol.chat import ChatMsg
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
        self.chat: Chat | None = None
        """The chat of this seat's latest program (a screen's: ``join_chat``)."""
        self.watchers_line: str | None = None
        """The last line naming who watches (the host's ``/watching``, SPEC 7.5) this
        seat's latest program showed, as a screen shows it beside the seats."""
        self.said_watchers: list[tuple[float, str]] = []
        """The host's: every line naming who watches its programs said, and when."""
        self.over_at: float | None = None
        """When this seat's game was over (its latest program's table told it)."""

    def opened(self, chat: Chat) -> None:
        """A program of this seat opened its game's chat (``peer.chat.opened``): what its
        screen shows starts afresh (a resumed program shows no watchers line read back
        from its log).  Not a front end in the chat: a task of its own would change how
        trio orders every run's tasks, and so every seed's game."""
        self.chat, self.watchers_line = chat, None
        chat.shown.append(self._shown)
        if self.seat == 0:
            chat.taps.append(self._said)

    def _said(self, msg: ChatMsg) -> None:
        """A line the host's chat signed or took: kept if it is its own naming who
        watches (told as it is said: a screen's copy may come after the program ends)."""
        chat = self.chat
        if chat is not None and chat.gate.me == 0 and watchers_named(0, msg.text) is not None:
            if msg.sender == chat.gate.keys[0]:
                self.said_watchers.append((trio.current_time(), msg.text))

    def _shown(self, line: ChatLine) -> None:
        if not line.earlier and watchers_named(line.seat, line.text) is not None:
            self.watchers_line = line.text

    async def run(self, driver: PeerDriver) -> None:
        return None

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        self.events.append(event)
        if isinstance(event, ev.GameOver | ev.GameAborted):
            self.over_at = trio.current_time()
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
