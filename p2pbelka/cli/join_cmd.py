"""``p2pbelka join``: find a table on the LAN (or dial one), take a seat, play."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from p2pbelka.cli.lan_args import add_network_arguments, add_player_arguments

if TYPE_CHECKING:
    from p2pbelka.net.discovery import TableInfo
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.lan import NetOptions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--connect", metavar="HOST:PORT", help="the host's lobby, where multicast does not reach"
    )
    parser.add_argument("--table", help="join the table with this name (or key fingerprint)")
    parser.add_argument("--wait", type=float, default=3.0, help="listen for tables this long")
    parser.add_argument("--list", action="store_true", help="only list the tables heard")
    add_player_arguments(parser)
    add_network_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import trio

    from p2pbelka.cli import lan_args
    from p2pbelka.net.errors import NetError
    from p2pbelka.peer.lan import LobbyRefused, join_game

    player = lan_args.prepare(args, "join")
    if player is None:
        return 2
    identity, level, fe = player
    net = lan_args.net_options(args)
    connect = _parse_connect(args.connect) if args.connect else None
    if args.connect and connect is None:
        print("p2pbelka join: --connect expects HOST:PORT", file=sys.stderr)
        return 2
    if lan_args.wants_screen(args) and not args.list:
        return _join_on_screen(args, identity, net, connect)

    async def main() -> int:
        if connect is not None:
            target: tuple[str, int, bytes | None] = connect
        else:
            found = await _pick_table(args, net)
            if found is None:
                return 0 if args.list else 3
            target = found
        try:
            result = await join_game(
                identity,
                target[0],
                target[1],
                fe,
                host_key=target[2],
                net=net,
                on_lobby=lan_args.print_lobby,
                bot=level,
            )
        except (LobbyRefused, NetError) as exc:
            print(f"p2pbelka join: {exc}", file=sys.stderr)
            return 3
        return lan_args.report(result, fe, args)

    return trio.run(main)


def _parse_connect(text: str) -> tuple[str, int, bytes | None] | None:
    """``HOST:PORT`` (``[v6]:PORT`` too) as a dial target with no pinned key; None if not."""
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        return None
    return host.strip("[]"), int(port), None


def _join_on_screen(
    args: argparse.Namespace,
    identity: Identity,
    net: NetOptions,
    connect: tuple[str, int, bytes | None] | None,
) -> int:
    """The lobby and table screens: the tables heard, a seat, ready, and the game."""
    from p2pbelka.cli import lan_args
    from p2pbelka.net.identity import fingerprint
    from p2pbelka.ui.i18n import default_language
    from p2pbelka.ui.lan import join_on_screen

    def wanted(table: TableInfo) -> bool:
        return args.table is not None and args.table in (table.name, fingerprint(table.host_key))

    _screen, result = join_on_screen(
        identity,
        connect=connect,
        wanted=wanted if args.table else None,
        net=net,
        lang=args.lang or default_language(),
    )
    return lan_args.screen_result(result)


async def _pick_table(args: argparse.Namespace, net: NetOptions) -> tuple[str, int, bytes] | None:
    from p2pbelka.net.identity import fingerprint
    from p2pbelka.peer.lan import discover_tables

    def wanted(table: TableInfo) -> bool:
        return args.table is None or args.table in (table.name, fingerprint(table.host_key))

    def enough(tables: list[TableInfo]) -> bool:
        return args.table is not None and any(wanted(t) for t in tables)

    try:
        tables = await discover_tables(args.wait, net=net, until=enough)
    except OSError as exc:
        print(f"p2pbelka join: cannot listen for tables ({exc}); use --connect", file=sys.stderr)
        return None
    for n, t in enumerate(tables, 1):
        print(
            f"  {n}) {t.name}: host {t.host}:{t.port}, {t.variant}, {t.free_seats} free seat(s),"
            f" host key {fingerprint(t.host_key)}",
            flush=True,
        )
    if args.list:
        return None
    candidates = [t for t in tables if wanted(t) and t.free_seats > 0]
    if not candidates:
        print("p2pbelka join: no table with a free seat heard", file=sys.stderr)
        return None
    choice = candidates[0]
    if len(candidates) > 1:
        if not sys.stdin.isatty():
            print("p2pbelka join: several tables; choose one with --table", file=sys.stderr)
            return None
        line = input(f"which table (1..{len(tables)})? ").strip()
        if not line.isdigit() or not 1 <= int(line) <= len(tables):
            return None
        choice = tables[int(line) - 1]
    print(f"joining {choice.name} at {choice.host}:{choice.port}", flush=True)
    return choice.host, choice.port, choice.host_key
