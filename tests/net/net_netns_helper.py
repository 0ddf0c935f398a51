"""Runs one side of the cross-namespace discovery test (see test_net_netns.py).

host: serve a secure echo channel and announce it by multicast.
join: listen for the beacon, then dial the announced address with the
announced key pinned, and print what happened as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import sys

import trio

from p2pbelka.net.beacon import TableAd
from p2pbelka.net.connection import SecureChannel, dial, serve_secure
from p2pbelka.net.directory import TableDirectory, TableInfo
from p2pbelka.net.discovery import DEFAULT_GROUP, announce_table, listen_for_tables
from p2pbelka.net.identity import Identity

CONTEXT = b"netns-test"
TABLE_ID = bytes(range(16))


async def echo(channel: SecureChannel) -> None:
    async for msg in channel:
        await channel.send(b"echo:" + msg)


async def host(args: argparse.Namespace) -> None:
    ident = Identity.generate("netns host")
    with trio.move_on_after(args.seconds):
        async with trio.open_nursery() as nursery:
            tcp_port = await nursery.start(
                lambda task_status: serve_secure(
                    echo, ident, host=args.interface, context=CONTEXT, task_status=task_status
                )
            )
            ad = TableAd(TABLE_ID, "netns table", "belka", 4, 3, tcp_port)
            await nursery.start(
                lambda task_status: announce_table(
                    ident,
                    ad,
                    group=args.group,
                    port=args.port,
                    interface=args.interface,
                    interval=0.1,
                    task_status=task_status,
                )
            )
            print(json.dumps({"host_key": ident.public_key.hex()}), flush=True)


def _heard(directory: TableDirectory) -> TableInfo | None:
    return next((t for t in directory.tables(trio.current_time()) if t.table_id == TABLE_ID), None)


async def join(args: argparse.Namespace) -> None:
    directory = TableDirectory()
    result: dict[str, object] = {"heard": False}
    with trio.move_on_after(args.seconds):
        async with trio.open_nursery() as nursery:
            await nursery.start(
                lambda task_status: listen_for_tables(
                    directory,
                    group=args.group,
                    port=args.port,
                    interface=args.interface,
                    task_status=task_status,
                )
            )
            print(json.dumps({"listening": True}), flush=True)
            while (table := _heard(directory)) is None:
                await trio.sleep(0.05)
            result.update(heard=True, host=table.host, port=table.port, name=table.name)
            result["host_key"] = table.host_key.hex()
            async with await dial(
                table.host,
                table.port,
                Identity.generate("netns joiner"),
                expected_peer_key=table.host_key,
                context=CONTEXT,
            ) as ch:
                await ch.send(b"ping")
                result["reply"] = (await ch.receive()).decode()
            nursery.cancel_scope.cancel()
    print(json.dumps(result), flush=True)
    sys.exit(0 if result.get("reply") == "echo:ping" else 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["host", "join"])
    parser.add_argument("--interface", required=True)
    parser.add_argument("--group", default=DEFAULT_GROUP)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    trio.run(host if args.mode == "host" else join, args)


if __name__ == "__main__":
    main()
