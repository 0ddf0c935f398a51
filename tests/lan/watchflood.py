"""A watcher that floods, for the watch tests: the real handshake and ``watch``, then,
once let in, garbage and a chat flood on the lobby connection, and again on a new
connection each time the host cuts it off (``--rounds`` times).

``python -m tests.lan.watchflood HOST:PORT [--rounds N]`` prints ``watching`` when
let in, ``cut off: REASON`` each time the host closes on it, and one JSON line of
counts at the end.
"""

from __future__ import annotations

import argparse
import json
import os

import trio

from p2pbelka.net.connection import dial, parse_host_port
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.protocol.chat import seal_chat


async def flood_once(host: str, port: int, me: Identity, counts: dict[str, int]) -> None:
    channel = await dial(host, port, me, context=lb.LOBBY_CONTEXT)
    async with channel:
        try:
            await channel.receive()  # the lobby
            await channel.send(lb.encode_control(lb.Watch(me.name, 0)))
            async for payload in channel:
                if lb.is_envelope(payload):
                    counts["records"] += 1
                elif payload and lb.decode_control(payload) == lb.Watching("off"):
                    print("watching", flush=True)
                    break
            n = 0
            while True:  # until the host cuts us off
                n += 1
                await channel.send(os.urandom(40) if n % 2 else _line(me, n))
                counts["sent"] += 1
                await trio.sleep(0)
        except (NetError, lb.LobbyError) as exc:
            print(f"cut off: {exc}", flush=True)
            counts["cut_off"] += 1


def _line(me: Identity, n: int) -> bytes:
    return seal_chat(me, bytes(16), n, "look at me").raw


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("target")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    where = parse_host_port(args.target)
    assert where is not None
    me = Identity.generate("Flood")
    counts = {"records": 0, "sent": 0, "cut_off": 0}
    for _ in range(args.rounds):
        try:
            await flood_once(where[0], where[1], me, counts)
        except NetError as exc:
            print(f"cut off: {exc}", flush=True)
            counts["cut_off"] += 1
        await trio.sleep(0.2)
    print(json.dumps(counts), flush=True)


if __name__ == "__main__":
    trio.run(main)
