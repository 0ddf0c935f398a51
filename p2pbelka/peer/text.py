"""A plain-text front end: one line per event, choices by a bot or typed on stdin.

This is what ``p2pbelka host`` and ``join`` print without a screen.  It says nothing of
its own: every line comes from the :class:`Words` it is given (the screens' layer words
them, in English as in any other language), so this layer only hands on the events.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Protocol, TextIO

import trio

from p2pbelka.bots.common.seat import Bot
from p2pbelka.peer.chat import Chat, ChatDropped, ChatLine
from p2pbelka.peer.driver import CutOff, PeerDriver, TranscriptSink, Waiting
from p2pbelka.peer.seatchange.drivers import OfferClosed, OfferWithdrawn, SeatKept, SeatOffer
from p2pbelka.peer.sync import answer
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.session import Table


class Words(Protocol):
    """What the text front end says: each event's line and its prompts.  The screens'
    layer gives one in the player's language (``ui/words/seatlog.py``)."""

    def describe(self, event: ev.Event, table: Table) -> str: ...

    def chat_line(self, line: ChatLine) -> str: ...

    def offer_choices(self, back: bool, later: bool = False) -> str:
        """The answers to a seat's offer (``back``: a seat's player has come back;
        ``later``: a no only puts a fresh bot off, ``SeatOffer.later``)."""
        ...

    def arrange(self, moves: Sequence[mv.Move]) -> list[mv.Move]:
        """The moves offered in the order they are shown and numbered (a hand's order)."""
        ...

    def choices(self, moves: Sequence[mv.Move]) -> str:
        """The moves offered, numbered from 1, on one line."""
        ...

    def move_label(self, move: mv.Move) -> str:
        """A move as the log shows it (typed back as it is shown, or as its record)."""
        ...

    def no_input(self) -> str: ...

    def type_choice(self, options: int) -> str: ...

    def no_chat(self) -> str: ...

    def chat_not_sent(self, why: str) -> str: ...


class TextFrontEnd:
    """Prints every event; a bot answers the choices, or the user types them.

    Chat from the table is printed as ``chat: NAME (seat N): TEXT`` (not when
    ``quiet``); a person sends a line by typing ``say TEXT`` when asked for a move.

    Timing marks (``started``, ``deal_times``, ``finished``) feed the benchmark.
    """

    transcript: TranscriptSink | None = None

    def __init__(
        self,
        bot: Bot | None,
        out: TextIO | None = None,
        *,
        words: Words,
        quiet: bool = False,
        clock: Callable[[], float] = time.monotonic,
        auto_approve: bool = False,
    ) -> None:
        self.bot = bot
        self.words = words
        self.auto_approve = auto_approve
        """Say yes to a bot for a lost seat without asking (a bot seat always does)."""
        self.out = out or sys.stdout
        self.quiet = quiet
        self.clock = clock
        self._questions_in, self._questions = trio.open_memory_channel[ev.ChoiceNeeded | SeatOffer](
            math.inf
        )
        self.started: float | None = None
        self.finished: float | None = None
        self.deals = 0
        self.deal_ms: list[float] = []  # wall time of each deal, lot or last deal to audit
        self.deal_cpu_ms: list[float] = []  # this process's CPU time over the same spans
        self.deal_played: list[bool] = []  # whether cards were played (not dealt again)
        self._cards_played = False
        self._mark: float | None = None
        self.cpu_s = 0.0  # this process's CPU time from the lot to the end of the game
        self._cpu_mark = self._deal_cpu_mark = 0.0
        # For benches: when the program was ready (imports, arguments and identity done:
        # the front end is made last) and what it had spent; the lobby follows.
        self.ready_at = clock()
        self.ready_cpu_s = time.process_time()
        self.started_cpu_s = 0.0  # CPU time when the game started (startup and lobby)
        self.events: list[ev.Event] = []
        self.chat: Chat | None = None
        self.chat_lines: list[ChatLine] = []

    def join_chat(self, chat: Chat) -> None:
        self.chat = chat

    async def on_chat(self, line: ChatLine) -> None:
        self.chat_lines.append(line)
        if not self.quiet:
            print(self.words.chat_line(line), file=self.out, flush=True)

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        self.events.append(event)
        if isinstance(event, ev.GameStarted):
            self.started = self._mark = self.clock()
            self.started_cpu_s = self._cpu_mark = self._deal_cpu_mark = time.process_time()
        elif isinstance(event, ev.CardPlayed):
            self._cards_played = True
        elif isinstance(event, ev.DealAudited):
            self.deals += 1
            now, cpu = self.clock(), time.process_time()
            if self._mark is not None:
                self.deal_ms.append(round(1000 * (now - self._mark), 1))
                self.deal_cpu_ms.append(round(1000 * (cpu - self._deal_cpu_mark), 1))
                self.deal_played.append(self._cards_played)
            self._mark, self._deal_cpu_mark = now, cpu
            self._cards_played = False
        elif isinstance(event, ev.GameOver | ev.GameAborted):
            self.finished = self.clock()
            self.cpu_s = time.process_time() - self._cpu_mark
        loud = (
            ev.GameOver
            | ev.GameAborted
            | Waiting
            | CutOff
            | SeatOffer
            | OfferClosed
            | OfferWithdrawn
            | SeatKept
            | SeatChanged
        )
        if not self.quiet or isinstance(event, loud):
            print(self.words.describe(event, driver.table), file=self.out, flush=True)
        if isinstance(event, SeatOffer):
            if self.bot is not None or self.auto_approve:
                event.decision.answer(True)
            else:
                self._questions_in.send_nowait(event)
        if isinstance(event, ev.ChoiceNeeded | ev.MoveRejected):
            if self.bot is not None and isinstance(event, ev.ChoiceNeeded):
                await driver.submit(answer(self.bot, driver.table, event))
            elif self.bot is None:
                again = ev.ChoiceNeeded("move", tuple(driver.table.legal_moves()))
                self._questions_in.send_nowait(
                    event if isinstance(event, ev.ChoiceNeeded) else again
                )

    async def run(self, driver: PeerDriver) -> None:
        """Ask the user each question in turn (a person at the keyboard, no bot)."""
        async for question in self._questions:
            if isinstance(question, SeatOffer):
                await self._ask_offer(question)
            elif question.moves:
                await self._ask_user(driver, question)

    async def _ask_offer(self, offer: SeatOffer) -> None:
        print("  " + self.words.offer_choices(offer.back, offer.later), file=self.out, flush=True)

        async def read_answer() -> None:
            raw = (await read_line()).strip().lower()
            offer.decision.answer(raw.startswith("y"))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(read_answer)
            # answered, or withdrawn (no answer in time, the change over): the next
            # line typed is not taken for a question that no longer applies
            await offer.decision.wait(math.inf)
            nursery.cancel_scope.cancel()

    async def _ask_user(self, driver: PeerDriver, event: ev.ChoiceNeeded) -> None:
        options = self.words.arrange(event.moves)
        print("  " + self.words.choices(options), file=self.out, flush=True)
        while True:
            raw = await read_line()
            if not raw:
                print("  " + self.words.no_input(), file=self.out, flush=True)
                return
            if raw.strip().lower().startswith("say "):
                self._say(raw.strip()[4:])
                continue
            choice = _match(raw.strip(), options, self.words.move_label)
            if choice is not None:
                break
            print("  " + self.words.type_choice(len(options)), file=self.out, flush=True)
        await driver.submit(choice)

    def _say(self, text: str) -> None:
        if self.chat is None:
            print("  " + self.words.no_chat(), file=self.out, flush=True)
            return
        try:
            self.chat.say(text)
        except ChatDropped as exc:
            print("  " + self.words.chat_not_sent(str(exc)), file=self.out, flush=True)


def _match(line: str, options: list[mv.Move], label: Callable[[mv.Move], str]) -> mv.Move | None:
    """The move typed: its number, its record (``7C``) or its label as shown (``7♣``)."""
    if line.isdigit() and 1 <= int(line) <= len(options):
        return options[int(line) - 1]
    for option in options:
        if line.lower() in (str(option).lower(), label(option).lower()):
            return option
    return None


async def read_line() -> str:
    """One line from stdin without a thread: trio reads the descriptor itself."""
    stream = trio.lowlevel.FdStream(os.dup(sys.stdin.fileno()))
    data = b""
    async with stream:
        while not data.endswith(b"\n"):
            chunk = await stream.receive_some(1)
            if not chunk:
                break
            data += chunk
    return data.decode(errors="replace")
