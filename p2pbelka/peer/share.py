"""Sharing results with one peer over an authenticated channel (``ladder share``): the
exchange of ``ladder/share.py`` run on a ``SecureChannel``, bounded in time as in
count and bytes, and what came counted by the ledger, each certificate checked first.

Whom to share with is the player's choice: ``serve`` answers only the keys it is
given, ``share`` dials one key it was given (both pinned by the handshake).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import trio

from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.share import ShareError, Sharing
from p2pbelka.net.channel import SecureChannel
from p2pbelka.net.connection import dial, serve_secure
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity, matches_pin

log = logging.getLogger(__name__)

CONTEXT = b"p2pbelka/ladder-share/v1"
"""What the handshake binds: a channel opened for sharing is for nothing else."""
TIME_LIMIT = 60.0
"""Seconds one exchange may take at most (1,000 certificates take a second or two)."""
STALL = 5.0
"""Seconds an exchange at a table's end or in a lobby waits for the other side's next
message, and for one of its own to leave, before it stops (results.md 6.1, 6.2): a
peer that stalls holds nobody's exit, nor a lobby, longer than this."""


@dataclass
class Shared:
    """What one exchange did: the peer, how many certificates came, were counted, and
    why it stopped early (empty if it did not)."""

    peer: bytes
    came: int = 0
    counted: int = 0
    sent: int = 0
    """Bytes of messages this side sent (before the channel's framing and encryption)."""
    error: str = ""
    notes: list[str] = field(default_factory=list)


async def exchange(channel: SecureChannel, ledger: Ledger) -> Shared:
    """One exchange on ``channel``; what came is counted in ``ledger``."""
    done = Shared(channel.peer_key)
    sharing = Sharing(dict(ledger.certificates()))
    try:
        with trio.fail_after(TIME_LIMIT):
            await _send(channel, sharing.start(), done)
            while not sharing.done:
                await _send(channel, sharing.receive(await channel.receive()), done)
    except ShareError as exc:
        done.error = f"the peer {exc}"
    except (NetError, trio.TooSlowError) as exc:
        done.error = f"the exchange stopped: {exc or 'too slow'}"
    count_received(ledger, sharing, done)
    return done


def count_received(ledger: Ledger, sharing: Sharing, done: Shared) -> None:
    """Count in ``ledger`` what came in ``sharing`` from ``done.peer``, each certificate
    checked first (results.md sections 3 and 4), in one commit; ``done`` says how many
    came and were counted, and why the others were not."""
    done.came += len(sharing.received)
    before = len(ledger.notes)
    with ledger.batch():
        for raw in sharing.received:
            done.counted += ledger.add_shared(raw, done.peer, sharing.wanted) is not None
    done.notes += ledger.notes[before:]


async def _send(channel: SecureChannel, messages: list[bytes], done: Shared) -> None:
    done.sent += sum(len(m) for m in messages)
    await channel.send_many(messages)


async def share(host: str, port: int, pin: str, identity: Identity, ledger: Ledger) -> Shared:
    """Dial the peer whose key ``pin`` names (``identity.normal_pin``) and share results
    with it."""
    channel = await dial(
        host, port, identity, authorize=lambda key: matches_pin(key, pin), context=CONTEXT
    )
    async with channel:
        return await exchange(channel, ledger)


async def serve(
    identity: Identity,
    pins: list[str],
    open_ledger: Callable[[], Ledger],
    said: Callable[[Shared], Awaitable[None]],
    *,
    host: str = "0.0.0.0",
    port: int = 0,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Share results with each peer whose key one of ``pins`` names that dials, one
    exchange at a time (each with the ledger ``open_ledger`` opens); ``said`` is told
    what each did."""
    lock = trio.Lock()

    async def handler(channel: SecureChannel) -> None:
        async with lock:
            with open_ledger() as ledger:
                await said(await exchange(channel, ledger))

    await serve_secure(
        handler,
        identity,
        host=host,
        port=port,
        context=CONTEXT,
        authorize=lambda key: any(matches_pin(key, pin) for pin in pins),
        task_status=task_status,
    )
