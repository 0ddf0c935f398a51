"""The text-mode host's ``b``: a bot of this program's own in every free seat, each a
peer that sits down through the lobby like any joiner (as the host's screen does), let
in without asking and playing to the game's end beside the host's seat."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import trio

from p2pbelka.bots import make_bot
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan.events import InviteChanged, TableOpen
from p2pbelka.ui.words.i18n import _

BOTS_GRACE = 30.0
"""Seconds the host's program waits, after its own game ended, for its bots to end
theirs (they close the game as every seat does) before it stops them."""


class TextBots:
    """The host's own bots: ``fill`` seats one in each free seat of the lobby."""

    def __init__(
        self,
        identity: Identity,
        net: lan.NetOptions,
        level: str,
        invite: str,
        home: Path,
        nursery: trio.Nursery,
    ) -> None:
        self.identity, self.net, self.level, self.invite = identity, net, level, invite
        self.home, self.nursery = home, nursery
        self.own: set[bytes] = set()
        """The keys of the bots sent in: the door lets them in without asking."""
        self.lobby_port: int | None = None
        self.asked = False
        self.running = 0
        self._all_done = trio.Event()

    def on_lobby(self, event: lan.LobbyEvent) -> None:
        if isinstance(event, TableOpen):
            self.lobby_port = event.lobby_port
        elif isinstance(event, InviteChanged):
            self.invite = event.code

    def fill(self, free: list[int]) -> str:
        """A bot for each free seat; what the host is told."""
        if self.lobby_port is None:
            return _("the lobby is not open yet")
        if self.asked or not free:
            return _("no free seat for a bot")
        self.asked = True
        for n, _seat in enumerate(free, 1):
            self.running += 1
            self.nursery.start_soon(self._join, n)
        return _("{n} bots sit down ({level})").format(n=len(free), level=self.level)

    async def finished(self) -> None:
        """Until every bot sent in has ended its game (at once if none was)."""
        if self.running:
            await self._all_done.wait()

    async def _join(self, n: int) -> None:
        assert self.lobby_port is not None
        identity = Identity.generate(f"Bot {n}")  # as the screen host names its own
        self.own.add(identity.public_key)
        net = replace(
            self.net,
            announce=False,
            listen_port=0,
            lobby_port=0,
            advertise_port=None,
            home=self.home / f"bot{n}",
        )
        address = lan.lan_addresses(self.net.listen_host, self.net.group, self.net.beacon_port)[0]
        try:
            await lan.join_game(
                identity,
                address,
                self.lobby_port,
                BotFrontEnd(make_bot(self.level)),
                host_key=self.identity.public_key,
                net=net,
                bot=self.level,
                invite=self.invite or None,
            )
        except (lan.LobbyRefused, NetError, OSError) as exc:
            print(_("A bot could not sit down: {why}").format(why=exc), flush=True)
        finally:
            self.running -= 1
            if not self.running:
                self._all_done.set()
