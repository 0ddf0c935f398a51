"""The screen as a peer's front end: events in from the driver, moves out to it."""

from __future__ import annotations

import math

import trio

from p2pbelka.peer.driver import Action, PeerDriver
from p2pbelka.protocol.transcript import TranscriptWriter
from p2pbelka.table import events as ev
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.hostloop import Bridge


class ScreenFrontEnd:
    """A :class:`~p2pbelka.peer.driver.FrontEnd` that shows the game on a TableScreen.

    Moves come from prompt_toolkit callbacks; they cross into trio through the
    bridge and reach the driver from :meth:`run`, which must run in a trio task
    beside the driver.

    ``pace``: seconds another player's card waits before it is shown (twice that
    for the lead of a new trick, so the trick just taken stays in view).  Bots
    answer at once; this is what lets a person follow them.  The driver waits
    meanwhile, which only delays this seat's view of the game.

    ``transcript``: every envelope the table accepts is appended as events come
    (and by :meth:`save` at the end), whatever transport brought it.
    """

    def __init__(
        self,
        screen: TableScreen,
        bridge: Bridge,
        *,
        pace: float = 0.0,
        transcript: TranscriptWriter | None = None,
    ) -> None:
        self.screen = screen
        self.bridge = bridge
        self.pace = pace
        self.transcript = transcript
        self._saved = 0
        self.driver: PeerDriver | None = None
        self._has_driver = trio.Event()
        self._moves_in, self._moves = trio.open_memory_channel[Action](math.inf)
        screen.post_move = self.post

    def post(self, action: Action) -> None:
        """Queue a move; safe to call from a prompt_toolkit callback."""
        self.bridge.call_soon(self._moves_in.send_nowait, action)

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if self.driver is None:
            self.driver = driver
            self._has_driver.set()
        view = self.screen.view
        if isinstance(event, ev.CardPlayed) and event.seat != view.me and self.pace > 0:
            after_a_trick = view.trick is not None and view.trick.winner is not None
            await trio.sleep(self.pace * (2 if after_a_trick else 1))
        view.apply(event, driver.table)
        self.save()
        self.screen.refresh()

    def save(self) -> None:
        if self.transcript is None or self.driver is None:
            return
        fresh = self.driver.table.transcript[self._saved :]
        for envelope in fresh:
            self.transcript.append(envelope)
        self._saved += len(fresh)

    async def run(self) -> None:
        await self._has_driver.wait()
        assert self.driver is not None
        async for action in self._moves:
            await self.driver.submit(action)
