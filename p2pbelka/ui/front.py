"""The screen as a peer's front end: events in from the driver, moves out to it."""

from __future__ import annotations

import functools
import math

import trio

from p2pbelka.peer.chat import Chat, ChatDropped, ChatLine
from p2pbelka.peer.driver import PeerDriver, TranscriptSink
from p2pbelka.peer.seatchange.drivers import SeatOffer
from p2pbelka.table import events as ev
from p2pbelka.table.moves import Move
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.coachpage import deal_coaching
from p2pbelka.ui.hostloop import Bridge


class ScreenFrontEnd:
    """A :class:`~p2pbelka.peer.driver.FrontEnd` that shows the game on a TableScreen.

    Moves come from prompt_toolkit callbacks; they cross into trio through the
    bridge and reach the driver from :meth:`run`, which the driver runs beside
    itself.

    ``pace``: seconds another player's card waits before it is shown (twice that
    for the lead of a new trick, so the trick just taken stays in view).  Bots
    answer at once; this is what lets a person follow them.  The driver waits
    meanwhile, which only delays this seat's view of the game.

    ``auto_approve``: say yes at once when asked to seat a bot for a lost seat (or to
    hand a seat back), as ``--auto-approve`` does in text.

    ``transcript``: the driver appends every envelope the table accepts to it,
    whatever transport brought it.

    Chat (a LAN game, ``play`` over loopback): ``play_seat`` calls ``join_chat``;
    the screen's chat box then sends through :meth:`post_chat`, and every line of
    the table comes back through ``on_chat``.
    """

    def __init__(
        self,
        screen: TableScreen,
        bridge: Bridge,
        *,
        pace: float = 0.0,
        transcript: TranscriptSink | None = None,
        auto_approve: bool = False,
    ) -> None:
        self.bridge = bridge
        self.auto_approve = auto_approve
        self.pace = pace
        self.transcript: TranscriptSink | None = transcript
        self._moves_in, self._moves = trio.open_memory_channel[Move](math.inf)
        self.chat: Chat | None = None
        self.screen = screen
        screen.post_move = self.post
        screen.post_call = lambda fn: self.bridge.call_soon(fn)

    def post(self, move: Move) -> None:
        """Queue a move; safe to call from a prompt_toolkit callback."""
        self.bridge.call_soon(self._moves_in.send_nowait, move)

    def join_chat(self, chat: Chat) -> None:
        self.chat = chat
        self.screen.send_chat = self.post_chat

    def post_chat(self, text: str) -> None:
        """Send a chat line; safe to call from a prompt_toolkit callback."""
        self.bridge.call_soon(self._say, text)

    def _say(self, text: str) -> None:
        assert self.chat is not None
        try:
            self.chat.say(text)
        except ChatDropped as refused:
            self.screen.chat_refused(refused, text)

    async def on_chat(self, line: ChatLine) -> None:
        self.screen.show_chat(line)

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        view = self.screen.view
        # A resumed table replays the game so far while it is held: shown at once,
        # and the reports of deals already played are not opened again.
        replaying = driver.table.state.held
        # another player's card, and the game's calls or declarations, wait their turn
        game = self.screen.game
        paced: tuple[type[ev.Event], ...] = (ev.CardPlayed, *(game.paced if game else ()))
        seat = getattr(event, "seat", view.me)
        if isinstance(event, paced) and seat != view.me and self.pace > 0:
            if not replaying:
                after_a_trick = view.trick is not None and view.trick.winner is not None
                await trio.sleep(self.pace * (2 if after_a_trick else 1))
        view.observe(driver.table.state.game)
        view.apply(event)
        if isinstance(event, SeatOffer) and self.auto_approve:
            event.decision.answer(True)  # --auto-approve: yes, without asking
            view.offer = None
        if replaying:
            self.screen.deal_ends_seen = len(view.deal_ends)
        self.screen.refresh()
        if isinstance(event, ev.DealAudited) and self.screen.coaching.on and not replaying:
            await self._coach(driver, event.summary.number)

    async def _coach(self, driver: PeerDriver, deal: int) -> None:
        """Grade this seat's decisions in the deal just audited, for its page.  In a
        worker thread, awaited here: like the pace, this delays only this seat's view
        of the game (the next deal's events wait), while the page is up to read."""
        screen = self.screen
        if screen.game is None:
            return
        coaching = screen.coaching
        coaching.lines[deal] = None
        grade = functools.partial(
            deal_coaching,
            screen.game.name,
            driver.table.state.game,
            screen.view.me,
            deal,
            coaching.worlds,
        )
        coaching.lines[deal] = await trio.to_thread.run_sync(grade, abandon_on_cancel=True)
        screen.refresh()

    async def run(self, driver: PeerDriver) -> None:
        async for move in self._moves:
            await driver.submit(move)
