"""The host's side of the lobby: one task per joiner's channel (run by the lobby
listener), each asking the host about its joiner, seating it in the plan and
following its seat changes and readiness until every seat is taken and ready.
A channel whose first word is ``watch`` is a watcher's: asked about the same way,
then handed to the host's ``Feed`` (``watchers.py``), before or during the game."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable

import trio

from p2pbelka.ladder.share import is_wrapped
from p2pbelka.net.connection import SecureChannel
from p2pbelka.net.errors import NetError
from p2pbelka.net.guesses import Guesser, InviteGuard
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.lan.events import (
    Approve,
    HostControl,
    InviteChanged,
    JoinersAsking,
    JoinRequest,
    LobbyEvent,
    OnLobby,
    SeatsChanged,
    TableRules,
    WrongCodeTried,
)
from p2pbelka.peer.lan.watchers import Feed
from p2pbelka.peer.lobbyshare import LobbyShares

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 10.0
"""Seconds a joiner has to say hello, and to read the start once the game began."""

MAX_ASKING = 8
"""Joiners waiting for the host's decision at once; more are told to try later."""

MAX_EARLY = 16
"""Messages kept from a joiner while the host decides on it (it has no cause to send
any; they are taken afterwards, in order).  Past these the channel is not read until
the host decides, and a joiner that leaves meanwhile is seen to leave only then."""


class HostLobby:
    """The seating ``plan`` as the joiners' channels change it; ``seated`` is set once
    every seat is taken and ready (the game has begun: latecomers are refused)."""

    def __init__(
        self,
        plan: lb.SeatingPlan,
        on_lobby: OnLobby,
        approve: Approve | None,
        feed: Feed | None = None,
        invite: InviteGuard | None = None,
        shares: LobbyShares | None = None,
    ) -> None:
        self.plan = plan
        self.shares = shares
        """Results shared with each seated joiner that asks (None: sharing is off)."""
        self.invite = invite
        self.feed = feed if feed is not None else Feed(0)
        self.on_lobby = on_lobby
        self.approve = approve
        self.seated = trio.Event()
        self.channels: dict[bytes, SecureChannel] = {}
        self.asking: dict[bytes, JoinRequest] = {}
        self.removed: set[bytes] = set()
        if shares is not None:
            shares.seated = self._seated

    @property
    def begun(self) -> bool:
        return self.seated.is_set()

    async def serve(self, channel: SecureChannel) -> None:
        """One joiner's channel, from its hello to its seat's end in the lobby (or a
        watcher's, from its ``watch`` to the end of its feed)."""
        key = channel.peer_key
        if self.begun and not self.feed.taking:
            await self._refuse(channel, "the game has started")
            return
        if key in self.removed:
            await self._refuse(channel, "the host removed you from this table")
            return
        await channel.send(lb.encode_control(self.plan.state()))
        try:
            with trio.fail_after(HELLO_TIMEOUT):
                hello = lb.decode_control(await channel.receive())
        except (trio.TooSlowError, lb.LobbyError, NetError) as exc:
            log.info("lobby: no valid hello from %s: %s", channel.peer_fingerprint, exc)
            return
        address = channel.peer_address.rsplit(":", 1)[0].strip("[]")
        if isinstance(hello, lb.Watch):
            await self._watch(channel, JoinRequest(key, hello.name, address, True), hello.start)
            return
        if not isinstance(hello, lb.Hello):
            log.info("lobby: expected hello from %s", channel.peer_fingerprint)
            return
        if self.begun:
            await self._refuse(channel, "the game has started")
            return
        early: list[bytes] = []  # what the joiner sent while the host decided
        why = await self._admit(channel, JoinRequest(key, hello.name, address), early)
        if not why:
            try:
                self.plan.sit(key, hello, address)
            except ValueError as exc:
                why = str(exc)
        if why:
            await self._refuse(channel, why)
            return
        self.channels[key] = channel
        try:
            await self._follow(key, channel, early)
        except NetError as exc:
            log.warning("lobby: %s left: %s", channel.peer_fingerprint, exc)
        finally:
            if self.channels.get(key) is channel:
                del self.channels[key]
            if not self.begun:
                self.plan.leave(key)
                await self._changed()

    async def _follow(self, key: bytes, channel: SecureChannel, early: list[bytes]) -> None:
        for payload in early:
            self._take(channel, payload)
        await self._changed()
        async for payload in channel:
            if self.begun:
                break
            if self._take(channel, payload):
                await self._changed()
        # Stay open after the start until the joiner closes: it reads ``start`` first.
        if self.begun:
            with trio.move_on_after(HELLO_TIMEOUT):
                async for _ in channel:
                    pass

    async def _watch(self, channel: SecureChannel, request: JoinRequest, start: int) -> None:
        """A watcher: the feed's limits, the host's word (as for a joiner), the feed."""
        why = self.feed.refusal(request.key, start)
        early: list[bytes] = []
        if not why and self.approve is not None:
            why = await self._ask(channel, request, early)
            why = why or self.feed.refusal(request.key, start)  # it may be full by now
        if why:
            await self._refuse(channel, why)
            return
        await self.feed.serve(channel, request, start, early)

    async def _admit(self, channel: SecureChannel, request: JoinRequest, early: list[bytes]) -> str:
        """Ask the host about a joiner; "" lets it sit, else the reason it may not."""
        if self.approve is None:
            return ""
        if request.key in self.asking or self.plan.seat_of(request.key) is not None:
            return "this key is already at the table"
        if self.plan.free == 0:
            return "the table is full"
        why = await self._ask(channel, request, early)
        if why:
            return why
        if self.begun:
            return "the game has started"
        if request.key in self.removed:
            return "the host removed you from this table"
        return ""

    async def _ask(self, channel: SecureChannel, request: JoinRequest, early: list[bytes]) -> str:
        """The host's person decides (``wait`` meanwhile); "" if it lets them in.  A
        joiner that leaves meanwhile is asked about no longer: its request goes from
        the host's screen at once.  What it sent meanwhile is kept in ``early``."""
        assert self.approve is not None
        approve = self.approve
        if request.key in self.asking:
            return "this key is already asking"
        if len(self.asking) >= MAX_ASKING:
            return "the host has too many joiners to decide on; try again later"
        self.asking[request.key] = request
        admitted: list[bool] = []
        left = ""
        try:
            await channel.send(lb.encode_control(lb.Wait()))
            await self._asking_changed()
            async with trio.open_nursery() as nursery:

                async def decide() -> None:
                    admitted.append(await approve(request))
                    nursery.cancel_scope.cancel()  # the joiner's channel is read no more

                nursery.start_soon(decide)
                left = await _until_gone(channel, early)
                nursery.cancel_scope.cancel()
        except NetError:
            return "the connection failed while the host decided"
        finally:
            del self.asking[request.key]
            await self._asking_changed()
        if left:
            log.info("lobby: %s left while the host decided: %s", request.name, left)
            return "the connection failed while the host decided"
        return "" if admitted == [True] else "the host did not let you in"

    async def _asking_changed(self) -> None:
        await self.on_lobby(JoinersAsking(tuple(self.asking.values())))

    async def remove(self, seat: int) -> bool:
        key = self.plan.key_at(seat)
        if self.begun or seat == 0 or key is None:
            return False
        self.removed.add(key)
        self.plan.leave(key)
        channel = self.channels.pop(key, None)
        if channel is not None:
            await self._refuse(channel, "the host removed you from this table")
            await channel.aclose()
        await self._changed()
        return True

    def new_code(self) -> str | None:
        return self.invite.redraw(trio.current_time()) if self.invite is not None else None

    def shut_out(self, address: str) -> tuple[Guesser, ...]:
        if self.invite is None:
            return ()
        shut = any(g.shut for g in self.invite.guessers() if g.address == address)
        self.invite.shut(address, trio.current_time(), not shut)
        return guessers_seen(self.invite)

    async def set_rules(self, preset: str, options: dict[str, str]) -> bool:
        if self.begun or not self.plan.set_rules(preset, options):
            return False
        await self.on_lobby(TableRules(self.plan.state(), changed=True))
        await self._changed()
        return True

    def _seated(self, channel: SecureChannel) -> bool:
        """``channel`` is the one a joiner holds its seat with now, before the start (the
        host relays results only to those, results.md 6.2)."""
        key = channel.peer_key
        return (
            not self.begun
            and self.channels.get(key) is channel
            and self.plan.seat_of(key) is not None
        )

    def _take(self, channel: SecureChannel, payload: bytes) -> bool:
        """A seated joiner's message: True if it was one of the lobby's; a message of
        the results' exchange goes to ``shares`` (results.md 6.2), beside the lobby."""
        if is_wrapped(payload):
            if self.shares is not None:
                self.shares.heard(channel, payload)
            else:
                log.info("lobby: ignored a results message: sharing is off")
            return False
        why = self.plan.take(channel.peer_key, payload)
        if why:
            log.warning("lobby: ignored a message: %s", why)
        return True

    async def _refuse(self, channel: SecureChannel, why: str) -> None:
        log.info("lobby: refused %s: %s", channel.peer_fingerprint, why)
        try:
            await channel.send(lb.encode_control(lb.Refuse(why[: lb.MAX_WHY])))
        except NetError:
            pass

    async def _changed(self) -> None:
        state = self.plan.state()
        payload = lb.encode_control(state)
        if not self.begun:
            self.feed.lobby(payload)
        for channel in list(self.channels.values()):
            try:
                await channel.send(payload)
            except NetError:
                pass
        await self.on_lobby(SeatsChanged(state, 0, host_control=HostControl(self)))
        if self.plan.complete and not self.begun:
            self.seated.set()
            if self.shares is not None:
                self.shares.stop()  # the game starts: it shares at its end

    async def start(self, table_raw: bytes) -> None:
        """Hand every joiner the signed table description and every seat's address."""
        payload = lb.encode_control(lb.Start(table_raw, self.plan.peers()))
        for channel in list(self.channels.values()):
            try:
                await channel.send(payload)
            except NetError as exc:
                log.warning("lobby: could not send the start to a joiner: %s", exc)


async def _until_gone(channel: SecureChannel, early: list[bytes]) -> str:
    """Read ``channel`` until it closes (then why), keeping what came in ``early``; once
    ``MAX_EARLY`` came, wait unread until the caller cancels.  Cancelled between two
    reads, nothing read is lost."""
    try:
        while len(early) < MAX_EARLY:
            early.append(await channel.receive())
    except NetError as exc:
        return str(exc) or type(exc).__name__
    await trio.sleep_forever()


def guessers_seen(invite: InviteGuard) -> tuple[Guesser, ...]:
    """Who tried wrong codes, as copies a screen may keep (the guard goes on changing)."""
    return tuple(dataclasses.replace(g) for g in invite.guessers())


def invite_guard(invite: str | None, tell: Callable[[LobbyEvent], None]) -> InviteGuard | None:
    """The guard of a lobby's invite code (None: no code), telling the host's screen
    each new code and each wrong guess, with who guessed."""
    if not invite:
        return None
    guard: InviteGuard | None = None

    def wrong(failures: int, limit: int) -> None:
        assert guard is not None
        tell(WrongCodeTried(failures, limit, guessers_seen(guard)))

    guard = InviteGuard(
        invite, on_change=lambda code, n: tell(InviteChanged(code, n)), on_failure=wrong
    )
    return guard
