"""``p2pbelka watch --text``: a watched game as a log in words, a line per event.

For a screen by the wall, or a script: the table before the start, every card
as it is played, each trick, each deal's audit ("deal 3 verified: ..."), the
seats' chat, what happens to the feed, and the game's verdict at the end, in
the language of ``--lang``.  A watcher holds no hand: no line ever shows a card
before its holder plays it (the deal's audit, after its end, opens them all).
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO

import trio

from p2pbelka.peer import lobby as lb
from p2pbelka.peer.chat import ChatDropped
from p2pbelka.peer.text import read_line
from p2pbelka.peer.watch import WatchNote
from p2pbelka.table import events as ev
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.session import Table
from p2pbelka.ui.words.cardnames import card_label
from p2pbelka.ui.words.faults import fault_line
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.loglines import (
    game_event_line,
    game_over_line,
    seat_change_line,
    seats_list,
    summary_line,
)
from p2pbelka.ui.words.rulenames import game_word
from p2pbelka.ui.words.seatlog import seat_words
from p2pbelka.ui.words.verdicts import verdict_words
from p2pbelka.ui.words.watchnotes import note_words


async def text_mode(follow: Callable[[WatchText], Awaitable[int]]) -> int:
    """Run ``follow`` (the watcher's program) with the text front end, reading the
    watcher's ``say TEXT`` lines from stdin beside it; its exit status."""
    front = WatchText()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(front.read_chat)
        status = await follow(front)
        nursery.cancel_scope.cancel()
    return status


class WatchText:
    """The ``WatchFront`` of text mode: prints, flushing each line (a pipe reads it live)."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.deals: dict[int, int] = {}  # deal id -> its number, counted from 1
        self.report: VerifyReport | None = None
        self.path: Path | None = None
        self._seen_lobby: tuple[object, ...] | None = None
        self._say: Callable[[str], None] | None = None

    def say(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    async def lobby(self, state: lb.LobbyState) -> None:
        names = [s.name if s is not None else _("(free)") for s in state.seats]
        shown = (state.name, state.variant, tuple(names))
        if shown == self._seen_lobby:
            return  # a ready changed: nothing a watcher needs a line for
        self._seen_lobby = shown
        line = _("table {name}: {game} for {n}; seats: {seats}").format(
            name=state.name,
            game=game_word(state.variant),
            n=len(state.seats),
            seats=", ".join(f"{i}={n}" for i, n in enumerate(names)),
        )
        self.say(line)

    async def read_chat(self) -> None:
        """Read ``say TEXT`` lines from stdin until it ends (run beside the watch)."""
        while line := await read_line():
            if not line.strip().lower().startswith("say "):
                continue
            if self._say is None:
                self.say(_("chat not sent: watchers do not write at this table"))
                continue
            try:
                self._say(line.strip()[4:])
            except ChatDropped as exc:
                self.say(_("chat not sent: {why}").format(why=exc))

    async def admitted(self, chat: str, send: Callable[[str], None] | None = None) -> None:
        self._say = send  # where the host lets watchers write: ``say TEXT`` on stdin
        if chat == "off":
            self.say(_("watching: the feed follows (watchers do not write at this table)"))
        else:
            self.say(_("watching: the feed follows (watchers may write: say TEXT)"))

    async def fed(self, table: Table, events: list[ev.Event]) -> None:
        for event in events:
            line = self.describe(event, table)
            if line:
                self.say(line)

    def describe(self, event: ev.Event, table: Table) -> str:
        """One line for ``event`` as a watcher sees it ("" for none)."""
        names = [s.name for s in table.state.setup.seats] if table.state.setup is not None else []

        def who(seat: int) -> str:
            name = names[seat] if 0 <= seat < len(names) else "?"
            return _("seat {seat} ({name})").format(seat=seat, name=name)

        if isinstance(event, ev.GameStarted):
            seats = seats_list(event.names)
            if event.continued:
                return _("the game goes on: {seats}").format(seats=seats)
            return _("game started: {seats}; first dealer by lot: {dealer}").format(
                seats=seats, dealer=who(event.first_dealer)
            )
        if isinstance(event, ev.DealStarted):
            self.deals[event.deal_id] = event.number + 1
            return _("deal {n}: {dealer} deals").format(
                n=event.number + 1, dealer=who(event.dealer)
            )
        if isinstance(event, ev.CardPlayed):
            return _("{seat} plays {card}").format(
                seat=who(event.seat), card=card_label(event.card)
            )
        if isinstance(event, ev.TrickTaken):
            return _("{seat} takes the trick").format(seat=who(event.winner))
        if isinstance(event, ev.DealAudited):
            n = self.deals.get(event.deal_id, event.deal_id)
            head = _("deal {n} verified: the shuffle was fair and every card checked").format(n=n)
            return f"{head} ({summary_line(event.summary, table)})"
        if isinstance(event, ev.FaultFound):
            return _("fault: {what}").format(what=fault_line(event.fault))
        if isinstance(event, ev.GameOver):
            return game_over_line(event, table)
        if isinstance(event, ev.GameAborted):
            faults = "; ".join(fault_line(f) for f in event.faults)
            return _("the game was stopped: {faults}").format(faults=faults)
        if isinstance(event, SeatChanged):
            return _("a seat changed hands: {change}").format(change=seat_change_line(event))
        if isinstance(event, ev.GameEvent):
            return game_event_line(event, table)
        if isinstance(event, ev.TurnToPlay | ev.Rejected):
            return ""
        return seat_words().describe(event, table)  # as a seat's log says it

    async def chat(self, sender_name: str, text: str, watcher: bool) -> None:
        if watcher:
            self.say(_("chat: {name} (watching): {text}").format(name=sender_name, text=text))
        else:
            self.say(_("chat: {name}: {text}").format(name=sender_name, text=text))

    async def note(self, note: WatchNote) -> None:
        self.say(_("watch: {text}").format(text=note_words(note)))

    async def ended(self, report: VerifyReport, path: Path | None) -> None:
        self.report, self.path = report, path
        self.say(_("the game's verdict: {verdict}").format(verdict=verdict_words(report)))
        if path is not None:
            self.say(_("transcript saved to {path}").format(path=path))
