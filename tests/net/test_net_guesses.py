"""The invite code against a stranger with a laptop, over real loopback sockets: guesses
in parallel are counted when tested, a flood from sixteen addresses keeps no honest
joiner out, and a connection that sends no HELLO costs the host no SPAKE2."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.net.channel import read_frame
from p2pbelka.net.connection import SecureChannel, open_secure_channel, serve_secure
from p2pbelka.net.door import Door
from p2pbelka.net.errors import GuessRefused, HandshakeAborted, HandshakeError, WrongInviteCode
from p2pbelka.net.frames import FrameDecoder, encode_frame
from p2pbelka.net.guesses import GuessPolicy, InviteGuard, Refusal
from p2pbelka.net.handshake import HANDSHAKE_MAX_MESSAGE, Handshake, Role
from p2pbelka.net.identity import Identity
from p2pbelka.net.pake import InvitePake, normal_code

HOST = Identity.generate("host")
GUEST = Identity.generate("guest")
CTX = b"lobby"
RIGHT = "482 913"
LOCAL = "127.0.0.1"


@asynccontextmanager
async def hosting(guard: InviteGuard, door: Door | None = None) -> AsyncIterator[int]:
    """A host under ``guard`` on loopback; its port.  Each channel is held until closed."""

    async def handler(channel: SecureChannel) -> None:
        async for _ in channel:
            pass

    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            partial(serve_secure, handler, HOST, host=LOCAL, context=CTX, invite=guard, door=door)
        )
        yield port
        nursery.cancel_scope.cancel()


class Guess:
    """One joiner's handshake by hand, so many can stand at HELLO at once."""

    def __init__(self, stream: trio.SocketStream, code: str) -> None:
        self.stream = stream
        self.hs = Handshake(GUEST, Role.INITIATOR, context=CTX, code=normal_code(code))
        self.decoder = FrameDecoder(HANDSHAKE_MAX_MESSAGE)

    @classmethod
    async def open(cls, port: int, code: str) -> Guess:
        guess = cls(await trio.open_tcp_stream(LOCAL, port), code)
        await guess.stream.send_all(encode_frame(guess.hs.start()))
        return guess

    async def answer(self) -> str:
        """What the host answered to HELLO: "tested" (a REPLY), or why not."""
        msg = await read_frame(self.stream, self.decoder)
        assert msg is not None
        try:
            self.auth = self.hs.receive(msg)
        except GuessRefused as exc:
            return exc.reason
        except WrongInviteCode:
            return "tested"
        return "tested"

    async def finish(self) -> bool:
        """Send AUTH; True if the host confirmed (the lobby opened to us)."""
        assert self.auth is not None
        await self.stream.send_all(encode_frame(self.auth))
        msg = await read_frame(self.stream, self.decoder)
        if msg is None:
            return False
        self.hs.receive(msg)
        return self.hs.done


async def test_sixty_guesses_at_once_are_ten_tested_and_the_right_one_only_within_them() -> None:
    InvitePake.starts.clear()
    guard = InviteGuard(RIGHT)
    async with hosting(guard) as port:
        right = await Guess.open(port, RIGHT)
        assert await right.answer() == "tested"  # first in: within the ten
        wrong = [await Guess.open(port, f"{100000 + n}") for n in range(59)]
        answers = [await g.answer() for g in wrong]
        assert answers.count("tested") == 9 and answers.count("spent") == 50
        assert guard.tested == 10 and guard.spent
        assert InvitePake.starts["responder"] == 10  # none computed for the fifty
        late = await Guess.open(port, RIGHT)
        assert await late.answer() == "spent"  # the right code too, once ten are out
        assert await right.finish()  # its confirmation checks: its guess comes back
        for g in [*wrong, late]:
            await g.stream.aclose()
        with trio.fail_after(30):  # a hang guard only
            while guard.reserved:
                await trio.sleep(0.01)
        assert guard.failures == 9 and not guard.spent and guard.code == RIGHT
        await right.stream.aclose()


async def test_a_proven_code_the_host_redrew_meanwhile_opens_nothing() -> None:
    guard = InviteGuard(RIGHT, new_code=lambda: "777 777")
    async with hosting(guard) as port:
        right = await Guess.open(port, RIGHT)
        assert await right.answer() == "tested"
        guard.redraw(trio.current_time())
        assert not await right.finish()
        assert guard.failures == 0  # a guess at the old code is not held against the new


async def test_a_connection_that_sends_no_hello_costs_no_spake2() -> None:
    InvitePake.starts.clear()
    guard = InviteGuard(RIGHT)
    door = Door()
    async with hosting(guard, door) as port:
        bare = [await trio.open_tcp_stream(LOCAL, port) for _ in range(20)]
        junk = await trio.open_tcp_stream(LOCAL, port)
        await junk.send_all(encode_frame(b"\x01\x02" + bytes(40)))  # a HELLO of wrong size
        with trio.fail_after(30):  # a hang guard only
            while door.stats["admitted"] < 21:
                await trio.sleep(0.01)
        assert InvitePake.starts["responder"] == 0 and guard.tested == 0
        for stream in [*bare, junk]:
            await stream.aclose()
        ok = await Guess.open(port, RIGHT)
        assert await ok.answer() == "tested" and await ok.finish()
        assert InvitePake.starts["responder"] == 1
        await ok.stream.aclose()


async def attempt(port: int, code: str, source: str) -> str:
    """One joiner's try from ``source``: "in", "wrong", or why the host tested nothing."""
    stream = await trio.open_tcp_stream(LOCAL, port, local_address=source)
    try:
        channel = await open_secure_channel(
            stream, GUEST, Role.INITIATOR, context=CTX, code=normal_code(code), timeout=20
        )
    except GuessRefused as exc:
        if exc.reason == "wait" and source == LOCAL and exc.seconds <= 1:
            raise  # the friend waits that out (below)
        return exc.reason
    except WrongInviteCode:
        return "wrong"
    except HandshakeAborted:
        return "closed"  # shut out, or a code redrawn under a proven one
    await channel.aclose()
    return "in"


async def friend(port: int, code: str) -> str:
    """A friend's try, as ``p2pbelka join`` makes it: it waits out a short wait the
    host asks for (a wrong code from its address a moment ago)."""
    for _ in range(10):
        try:
            return await attempt(port, code, LOCAL)
        except GuessRefused as exc:
            await trio.sleep(exc.seconds)
    return "waited"


async def test_an_honest_joiner_gets_in_under_a_flood_from_sixteen_addresses(
    autojump_clock: MockClock,
) -> None:
    """Sixteen loopback addresses guess as fast as the host answers; the host draws a
    new code whenever the old is used up; an honest joiner reads it and types it a
    moment later, ten times.  The policy is the real one scaled down: a long wait of
    60 s (15 min) outlasts the test, the grace after a new code is 5 s (30 s) against a
    typing delay of 0.3 s (3 s), with room for a busy machine's slow handshakes.  An
    address told to wait knocks again twice a second all the same: the host refuses
    those HELLOs on the address alone (no SPAKE2), so knocking faster would only spend
    the attackers' own SPAKE2 starts (some 450 a run as it is, against about 30
    guesses tested; five knocks a second cost 2,500 and half the test's CPU).

    Under trio's mock clock: the sockets and handshakes are real, the 13 s of the
    friend's reading and typing pass at once, and a handshake takes no time: a busy
    machine slows neither the flood nor the friend."""
    policy = GuessPolicy(first_wait=0.3, long_wait=60.0, grace=5.0, exempt_loopback=False)
    guard = InviteGuard(RIGHT, policy)
    results: list[str] = []
    tried: list[str] = []
    async with hosting(guard, Door()) as port:
        done = trio.Event()

        async def attacker(n: int) -> None:
            source = f"127.0.0.{n + 2}"
            for guess in range(200):  # bounded: every attack ends by itself
                if done.is_set():
                    return
                try:
                    why = await attempt(port, f"{(n * 1000 + guess) % 10**6:06d}", source)
                except (OSError, HandshakeError):
                    why = "closed"
                tried.append(why)
                if why == "wait":  # told to wait (60 s once it guessed): it knocks on
                    await trio.sleep(0.5)
                elif why in ("spent", "closed"):
                    await trio.sleep(0.05)

        async def host_person() -> None:
            while not done.is_set():  # redraws when the code is used up, as a person would
                if guard.spent:
                    guard.redraw(trio.current_time())
                await trio.sleep(0.05)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(host_person)
            for n in range(16):
                nursery.start_soon(attacker, n)
            for _ in range(10):
                code = guard.code  # read off the host's screen
                await trio.sleep(0.3)  # and typed
                results.append(await friend(port, code))
                await trio.sleep(1.0)
            done.set()
    assert results.count("in") >= 9, results
    assert "wrong" in tried  # the flood did test codes
    assert guard.changes <= 4  # each address spent a guess or two, then waited
    assert all(g.failures <= 2 for g in guard.guessers())


def test_each_address_waits_after_wrong_codes_and_the_host_can_shut_it_out() -> None:
    guard = InviteGuard(RIGHT, GuessPolicy(exempt_loopback=False))
    first = guard.reserve("10.0.0.5", 0.0)
    assert not isinstance(first, Refusal)
    guard.settle(first, False, 0.0)
    assert guard.reserve("10.0.0.5", 1.0) == Refusal("wait", 9.0)  # a mistake: a short wait
    second = guard.reserve("10.0.0.5", 10.0)
    assert not isinstance(second, Refusal)
    guard.settle(second, False, 10.0)
    assert guard.reserve("10.0.0.5", 11.0) == Refusal("wait", 899.0)  # then a long one
    # Another address failing: the table is not quiet, a first mistake waits long too,
    # unless made just after the host drew a new code (a friend typing the old one) by
    # an address never turned away (a flood keeps knocking).
    r = guard.reserve("10.0.0.6", 20.0)
    assert not isinstance(r, Refusal)
    guard.settle(r, False, 20.0)
    guard.redraw(100.0)
    assert guard.reserve("10.0.0.5", 101.0) == Refusal("wait", 809.0)  # knocked
    for address in ("10.0.0.7", "10.0.0.5"):
        r = guard.reserve(address, 110.0)
        if address == "10.0.0.7":
            assert not isinstance(r, Refusal)
            guard.settle(r, False, 110.0)
    waits = {g.address: g.wait(111.0) for g in guard.guessers()}
    assert waits["10.0.0.6"] > 800 and waits["10.0.0.7"] < 10
    guard.shut("10.0.0.8", 30.0)
    assert guard.reserve("10.0.0.8", 30.0) == Refusal("shut")
    assert [g.address for g in guard.guessers()][-1] == "10.0.0.8"
    guard.shut("10.0.0.5", 31.0, shut=False)  # let back in with a clean record
    assert not isinstance(guard.reserve("10.0.0.5", 31.0), Refusal)
    assert math.isinf(next(g for g in guard.guessers() if g.shut).wait(0.0))


@pytest.mark.parametrize("reason", ["spent", "wait"])
def test_a_guess_not_tested_says_why_in_its_last_word(reason: str) -> None:
    host = Handshake(HOST, Role.RESPONDER, context=CTX, code=lambda: _refuse(reason))
    guest = Handshake(GUEST, Role.INITIATOR, context=CTX, code=normal_code(RIGHT))
    with pytest.raises(GuessRefused):
        host.receive(guest.start())
    assert host.refusal is not None
    with pytest.raises(GuessRefused) as heard:
        guest.receive(host.refusal)
    assert heard.value.reason == reason
    assert heard.value.seconds == (12 if reason == "wait" else 0)


def _refuse(reason: str) -> bytes:
    raise GuessRefused("not tested", reason, 11.5 if reason == "wait" else 0.0)
