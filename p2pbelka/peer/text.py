"""A plain-text front end: one line per event, choices by a bot or typed on stdin.

This is what ``p2pbelka host`` and ``join`` print until the screens exist; the
lines are stable enough for tests to read.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from typing import Protocol, TextIO

import trio

from p2pbelka.bots.common.seat import Bot
from p2pbelka.peer.chat import Chat, ChatDropped, ChatLine
from p2pbelka.peer.driver import CutOff, PeerDriver, Resumed, TranscriptSink, Waiting
from p2pbelka.peer.seatchange.drivers import OfferClosed, OfferWithdrawn, SeatKept, SeatOffer
from p2pbelka.peer.sync import answer
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.segments import SeatChanged, describe_change
from p2pbelka.table.session import Table

MISMATCH = "told different peers different things"


def describe(event: ev.Event, table: Table) -> str:
    """One line for the log of a game, from the local seat's point of view."""
    if isinstance(event, ev.GameStarted) and event.continued:
        seats = ", ".join(f"{i}={n}" for i, n in enumerate(event.names))
        return f"the game goes on: {seats}; seat {event.first_dealer} deals next"
    if isinstance(event, ev.GameStarted):
        seats = ", ".join(f"{i}={n}" for i, n in enumerate(event.names))
        return f"game started: {seats}; first dealer by lot: seat {event.first_dealer}"
    if isinstance(event, ev.DealStarted):
        # counted from 1, as the screen and the transcript's deal ids count
        return f"deal {event.number + 1} (id {event.deal_id}): dealer seat {event.dealer}"
    if isinstance(event, ev.HandDealt):
        return f"your hand: {' '.join(str(c) for c in event.cards)}"
    if isinstance(event, ev.GameEvent):
        return event.log_line()  # a game's own event says itself
    if isinstance(event, ev.ChoiceNeeded):
        return f"your move ({event.kind}): {' '.join(str(o) for o in event.moves)}"
    if isinstance(event, ev.TurnToPlay):
        return f"seat {event.seat} leads"
    if isinstance(event, ev.CardPlayed):
        return f"seat {event.seat} plays {event.card}"
    if isinstance(event, ev.TrickTaken):
        return f"seat {event.winner} takes the trick"
    if isinstance(event, ev.DealAudited):
        head = table.transcript[-1].digest.hex()[:16] if table.transcript else "-"
        return (
            f"deal id {event.deal_id} verified: {event.summary.log_line()}; transcript head {head}"
        )
    if isinstance(event, ev.CardInTwoHands):
        who = f"seat {event.seat} showed" if event.seat >= 0 else "the open card is"
        return (
            f"DECK TAMPERED WITH: {who} {event.card}, which is in your hand too;"
            " your next card shows your copy to all, and the audit names who did it"
        )
    if isinstance(event, ev.FaultFound):
        return f"FAULT: {event.fault}"
    if isinstance(event, ev.GameOver):
        score = ":".join(str(p) for p in event.score)
        if table.setup is not None and not spec(table.setup.game).partnership:
            return f"game over: seat {event.winner} wins, score {score}"  # each for oneself
        return f"game over: team {event.winner} wins {score}"
    if isinstance(event, ev.GameAborted):
        faults = "; ".join(str(f) for f in event.faults)
        if not any(f.fatal for f in event.faults):  # blaming nobody (``Table.abandon``)
            return f"game stopped, unfinished: {faults}"
        if any(MISMATCH in f.what for f in event.faults):
            return f"GAME ABORTED: TRANSCRIPT MISMATCH at the end of a deal: {faults}"
        return f"GAME ABORTED: {faults}"
    if isinstance(event, ev.MoveRejected):
        return f"move refused: {event.reason}"
    if isinstance(event, ev.Rejected):
        who = f" from seat {event.seat}" if event.seat is not None else ""
        return f"rejected{who}: {event.reason}"
    if isinstance(event, Waiting) and event.alone:
        return (
            f"none of the other seats can be reached (silent for {event.seconds:.0f} s):"
            " this machine's network may be down; waiting for it to come back, until"
            f" {event.limit:.0f} s of silence at most (then this peer stops and saves"
            " the game unfinished)"
        )
    if isinstance(event, CutOff) and event.split:
        return (
            f"half the table or more could not be reached for {event.seconds:.0f} s:"
            " this peer stops waiting, naming nobody"
        )
    if isinstance(event, CutOff):
        return f"no other seat could be reached for {event.seconds:.0f} s: this peer stops waiting"
    if isinstance(event, Waiting) and not event.seats:
        return (
            f"waiting for the others to send back what this seat signed before it stopped"
            f" (silent for {event.seconds:.0f} s)"
        )
    if isinstance(event, Waiting):
        seats = ", ".join(str(s) for s in event.seats)
        return f"waiting for seat {seats} (silent for {event.seconds:.0f} s)"
    if isinstance(event, Resumed):
        return "the game goes on"
    if isinstance(event, SeatOffer) and event.back:
        return (
            f"{event.bot}, who played seat {event.seat}, is back: hand the seat back from"
            " the next deal? (the bot finishes the deal in progress)"
        )
    if isinstance(event, SeatOffer):
        return (
            f"seat {event.seat} ({event.name}) has been gone for {event.seconds:.0f} s:"
            f" seat {event.bot} in their place from the next deal? (the deal in progress"
            " is voided; the score carries on)"
        )
    if isinstance(event, OfferClosed):
        return f"no bot for seat {event.seat}: {event.why}"
    if isinstance(event, OfferWithdrawn):
        return f"the question about seat {event.offer.seat} no longer applies"
    if isinstance(event, SeatKept):
        return (
            f"seat {event.seat} stays with the bot for this deal: {event.why}; it is asked"
            " back again from the next deal"
        )
    if isinstance(event, SeatChanged):
        return describe_change(event)
    return repr(event)


def chat_line(line: ChatLine) -> str:
    """A chat line as the text front end prints it."""
    earlier = " (earlier)" if line.earlier else ""
    return f"chat{earlier}: {line.name} (seat {line.seat}): {line.text}"


class Words(Protocol):
    """What the text front end says: each event's line and its prompts.  The screens'
    layer gives one in the player's language; :class:`EnglishWords` is the default."""

    def describe(self, event: ev.Event, table: Table) -> str: ...

    def chat_line(self, line: ChatLine) -> str: ...

    def offer_choices(self, back: bool) -> str:
        """The answers to a seat's offer (``back``: a seat's player has come back)."""
        ...

    def no_input(self) -> str: ...

    def type_choice(self, options: int) -> str: ...

    def no_chat(self) -> str: ...

    def chat_not_sent(self, why: str) -> str: ...


class EnglishWords:
    """The lines as scripts and tests read them: stable, in English."""

    def describe(self, event: ev.Event, table: Table) -> str:
        return describe(event, table)

    def chat_line(self, line: ChatLine) -> str:
        return chat_line(line)

    def offer_choices(self, back: bool) -> str:
        return "y) yes   n) no, the bot plays on" if back else "y) yes   n) no, end the game"

    def no_input(self) -> str:
        return "(no input: the seat stays silent)"

    def type_choice(self, options: int) -> str:
        return f"type 1..{options} or the card"

    def no_chat(self) -> str:
        return "(no chat at this table)"

    def chat_not_sent(self, why: str) -> str:
        return f"chat not sent: {why}"


ENGLISH = EnglishWords()


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
        quiet: bool = False,
        clock: Callable[[], float] = time.monotonic,
        auto_approve: bool = False,
        words: Words = ENGLISH,
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
        print("  " + self.words.offer_choices(offer.back), file=self.out, flush=True)

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
        options = list(event.moves)
        print(
            "  " + "  ".join(f"{i + 1}) {o}" for i, o in enumerate(options)),
            file=self.out,
            flush=True,
        )
        while True:
            raw = await read_line()
            if not raw:
                print("  " + self.words.no_input(), file=self.out, flush=True)
                return
            if raw.strip().lower().startswith("say "):
                self._say(raw.strip()[4:])
                continue
            choice = _match(raw.strip(), options)
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


def _match(line: str, options: list[mv.Move]) -> mv.Move | None:
    if line.isdigit() and 1 <= int(line) <= len(options):
        return options[int(line) - 1]
    for option in options:
        if str(option).lower() == line.lower():
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
