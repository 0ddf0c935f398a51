"""A minimal watcher for ``bench net --watchers``: it asks a host to watch, takes the
feed (protocol/SPEC.md section 7.5) and counts it, checking nothing but the
format.  ``python -m p2pbelka.bench.netwatch HOST:PORT [--from N] [--count N]``
prints ``watching`` once let in (all ``--count`` of them: so many watchers in
one process, so that the machine the bench runs on pays one interpreter for
them, not one each, as it would not on a LAN), and one JSON line each at the
end: records, chat lines, bytes received, the ``fed`` count.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import trio

from p2pbelka.net.connection import dial, parse_host_port
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.protocol.chat import is_chat


@dataclass
class Followed:
    """What one watcher got."""

    records: list[bytes] = field(default_factory=list)
    chat: list[bytes] = field(default_factory=list)
    lobbies: int = 0
    admitted: str | None = None  # the chat mode ``watching`` named
    fed: int | None = None
    refused: str = ""
    bytes_in: int = 0
    closed: str = ""

    def figures(self) -> dict[str, object]:
        out = asdict(self)
        out["records"] = len(self.records)
        out["chat"] = len(self.chat)
        return out


async def follow(
    host: str,
    port: int,
    identity: Identity,
    *,
    start: int = 0,
    host_key: bytes | None = None,
    seen: Callable[[Followed], None] = lambda followed: None,
) -> Followed:
    """Watch the table at ``host:port`` from record ``start`` until ``fed``, a refusal
    or the end of the connection; ``seen`` is told after every payload."""
    got = Followed()
    channel = await dial(host, port, identity, expected_peer_key=host_key, context=lb.LOBBY_CONTEXT)
    async with channel:
        try:
            first = lb.decode_control(await channel.receive())
            if isinstance(first, lb.Refuse):
                got.refused = first.why
                return got
            got.lobbies += 1
            await channel.send(lb.encode_control(lb.Watch(identity.name, start)))
            async for payload in channel:
                got.bytes_in += len(payload)
                if not _take(got, payload):
                    break
                seen(got)
        except NetError as exc:
            got.closed = str(exc)
    return got


def _take(got: Followed, payload: bytes) -> bool:
    """One payload of the feed; False once it is over."""
    if lb.is_envelope(payload):
        got.records.append(payload)
        return True
    if is_chat(payload):
        got.chat.append(payload)
        return True
    msg = lb.decode_control(payload)
    if isinstance(msg, lb.LobbyState):
        got.lobbies += 1
    elif isinstance(msg, lb.Watching):
        got.admitted = msg.chat
    elif isinstance(msg, lb.Refuse):
        got.refused = msg.why
        return False
    elif isinstance(msg, lb.Fed):
        got.fed = msg.records
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m p2pbelka.bench.netwatch")
    parser.add_argument("address", metavar="HOST:PORT")
    parser.add_argument("--from", dest="start", type=int, default=0)
    parser.add_argument("--count", type=int, default=1)
    args = parser.parse_args(argv)
    target = parse_host_port(args.address)
    if target is None:
        parser.error(f"{args.address!r} is not HOST:PORT")
    host, port = target
    # These watchers stand for other machines: on the bench's own they take the CPU
    # the players leave, so that the figures are what the host pays for them.
    os.nice(19)
    admitted: set[int] = set()

    def seen(n: int, got: Followed) -> None:
        if got.admitted is not None and n not in admitted:
            admitted.add(n)
            if len(admitted) == args.count:
                print("watching", flush=True)

    async def all_of_them() -> list[Followed]:
        got: list[Followed] = [Followed()] * args.count

        async def one(n: int) -> None:
            identity = Identity.generate(f"watcher{n}")
            got[n] = await follow(host, port, identity, start=args.start, seen=lambda f: seen(n, f))

        async with trio.open_nursery() as nursery:
            for n in range(args.count):
                nursery.start_soon(one, n)
        return got

    followed = trio.run(all_of_them)
    for got in followed:
        print(json.dumps(got.figures()), flush=True)
    return 0 if all(got.fed is not None for got in followed) else 1


if __name__ == "__main__":
    sys.exit(main())
