"""A flooder for the flood tests: idle and slowloris connections from one address.

``python -m tests.lan.flood HOST:PORT [--idle N] [--slowloris N] [--pace S] [--seconds S]``
keeps N idle TCP connections open to the target (each refilled when the target
closes it: at once, or after S seconds with ``--pace``) and N slowloris
connections (one byte every 2 s), and prints
one JSON line of counts every second, so a test reads the figures even after it
kills the flooder.
"""

from __future__ import annotations

import argparse
import collections
import json

import trio

from p2pbelka.net.connection import parse_host_port

Counts = collections.Counter[str]


async def idle(host: str, port: int, counts: Counts, pace: float) -> None:
    while True:
        try:
            stream = await trio.open_tcp_stream(host, port)
        except OSError:
            counts["connect_failed"] += 1
            await trio.sleep(0.05)
            continue
        counts["connected"] += 1
        try:
            while await stream.receive_some(4096):
                pass
        except (trio.BrokenResourceError, OSError):
            pass
        counts["closed_by_target"] += 1
        await stream.aclose()
        await trio.sleep(pace)


async def slowloris(host: str, port: int, counts: Counts) -> None:
    while True:
        try:
            stream = await trio.open_tcp_stream(host, port)
        except OSError:
            counts["connect_failed"] += 1
            await trio.sleep(0.05)
            continue
        counts["slow_connected"] += 1
        try:
            while True:
                await stream.send_all(b"\x00")
                counts["slow_bytes"] += 1
                await trio.sleep(2.0)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            counts["slow_closed_by_target"] += 1
        await stream.aclose()


async def report(counts: Counts) -> None:
    while True:
        print(json.dumps(dict(counts)), flush=True)
        await trio.sleep(1.0)


async def main(args: argparse.Namespace) -> None:
    counts: Counts = collections.Counter()
    targets = [parse_host_port(t) for t in args.target]
    with trio.move_on_after(args.seconds):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(report, counts)
            for target in targets:
                assert target is not None
                for _ in range(args.idle):
                    nursery.start_soon(idle, *target, counts, args.pace)
                for _ in range(args.slowloris):
                    nursery.start_soon(slowloris, *target, counts)
    print(json.dumps(dict(counts)), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("target", nargs="+", help="HOST:PORT")
    parser.add_argument("--idle", type=int, default=500)
    parser.add_argument("--slowloris", type=int, default=200)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds before a refill")
    parser.add_argument("--seconds", type=float, default=600)
    trio.run(main, parser.parse_args())
