"""``p2pbelka watch``: find a table on the LAN (or dial one), follow its game, keep it.

A watcher holds no seat and signs nothing in the game: it checks every record
as it comes (the observer ``verify`` runs), shows the game, and saves the
transcript in the games directory, where ``p2pbelka games`` lists it as
watched and ``verify`` and ``replay`` read it.  ``--text`` prints a log in
words; the screen is the default at a terminal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from p2pbelka.cli.lan_args import add_dial_arguments, port_number
from p2pbelka.ui.words.i18n import LANGUAGES, _
from p2pbelka.ui.words.setuperrors import error_words

if TYPE_CHECKING:
    from p2pbelka.net.directory import TableInfo
    from p2pbelka.peer.seat import NetOptions

NO_TABLE, REFUSED = 3, 3
CUT_SHORT = 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_dial_arguments(parser, _("watch the table with this name (or key fingerprint)"))
    parser.add_argument(
        "--text", action="store_true", help=_("a log in words, a line per event (not the screen)")
    )
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=_("screen language"))
    parser.add_argument(
        "--name", help=_("the name the host sees you by (default: your player name)")
    )
    parser.add_argument(
        "--games-dir", type=Path, default=None, help=_("save the watched game in this directory")
    )
    parser.add_argument(
        "--host-away",
        type=float,
        default=120.0,
        metavar="S",
        help=_(
            "when the feed breaks, wait S seconds for the host to come back (a host resumed"
            " after a crash), then stop with what came (exit status 1; default 120)"
        ),
    )
    parser.add_argument("-v", "--verbose", action="store_true", help=_("log the network too"))
    net = parser.add_argument_group(_("network"))
    net.add_argument("--interface", default=None, metavar="ADDR", help=_("multicast interface"))
    net.add_argument("--group", default=None, help=_("multicast group of the beacons"))
    net.add_argument("--ipv6", action="store_true", help=_("use the IPv6 beacon group"))
    net.add_argument(
        "--beacon-port", type=port_number, default=None, help=_("UDP port of the beacons")
    )


def run(args: argparse.Namespace) -> int:
    import dataclasses

    import trio

    from p2pbelka.cli.lan_args import dial_options, setup_logging
    from p2pbelka.net.errors import NetError
    from p2pbelka.net.identity import Identity, IdentityError
    from p2pbelka.peer.lan.finding import find_announced
    from p2pbelka.peer.watch import WatchFront, WatchNote, WatchRefused, watch_game
    from p2pbelka.ui.watcherlog import text_mode
    from p2pbelka.ui.words.admission import lobby_reason

    setup_logging(args)
    dialled = dial_options(args, "watch")
    if dialled is None:
        return 2
    connect, pin = dialled
    try:
        identity = Identity.load_or_create()
    except IdentityError as exc:
        print(f"p2pbelka watch: {error_words(exc)}", file=sys.stderr)
        return 2
    if args.name:
        identity = dataclasses.replace(identity, name=args.name)
    net = _net_options(args)
    said: list[str] = []  # refusals, printed once the screen (if any) is closed

    # the table is chosen before any screen opens: the list of tables is printed
    target = connect if connect is not None else trio.run(_pick_table, args, net)
    if target is None:
        return NO_TABLE

    async def main(front: WatchFront) -> int:
        assert target is not None
        try:
            result = await watch_game(
                identity,
                target[0],
                target[1],
                front,
                host_key=target[2],
                host_pin=pin,
                invite=args.invite,
                net=net,
                games=args.games_dir,
                away_for=args.host_away,
                find=find_announced(net),  # a host back on another port: its beacons
            )
        except (WatchRefused, NetError) as exc:
            said.append(f"p2pbelka watch: {lobby_reason(str(exc))}")
            if on_screen:  # said there too: the screen stays up until q
                await front.note(WatchNote("refused", {"why": str(exc)}))
            return REFUSED
        return 0 if result.fed else CUT_SHORT

    on_screen = not args.text and sys.stdin.isatty() and sys.stdout.isatty()
    if not on_screen:
        status = trio.run(text_mode, main)
    else:
        from p2pbelka.ui.watcherscreen import watch_on_screen

        # the screen stays up after the game, until q; a watcher who leaves first
        # ends the watch, with what came saved
        screen, code = watch_on_screen(main)
        status = code if code is not None else (130 if screen.interrupted else 0)
    for line in said:
        print(line, file=sys.stderr)
    return status


def _net_options(args: argparse.Namespace) -> NetOptions:
    from p2pbelka.peer.seat import NetOptions

    net = NetOptions(interface=args.interface)
    net.reach_for = args.connect_wait
    if args.ipv6:
        from p2pbelka.net.discovery import DEFAULT_GROUP6

        net.group = DEFAULT_GROUP6
    if args.group:
        net.group = args.group
    if args.beacon_port:
        net.beacon_port = args.beacon_port
    return net


def watchable(table: TableInfo) -> bool:
    """A table that takes watchers: its beacon says how many more (a host that does
    not say takes none it would tell of; it is still listed, and may refuse)."""
    places = getattr(table, "watch", None)
    return places is None or places > 0


async def _pick_table(
    args: argparse.Namespace, net: NetOptions
) -> tuple[str, int, bytes | None] | None:
    from p2pbelka.net.directory import matching_tables
    from p2pbelka.peer.lan import discover_tables
    from p2pbelka.ui.words.i18n import _
    from p2pbelka.ui.words.oserrors import listen_words
    from p2pbelka.ui.words.rulenames import game_word

    def enough(tables: list[TableInfo]) -> bool:
        return args.table is not None and bool(matching_tables(tables, args.table))

    try:
        tables = await discover_tables(args.wait, net=net, until=enough, dnssd=True)
    except OSError as exc:
        print("p2pbelka watch: " + listen_words(exc), file=sys.stderr)
        return None
    tables = [t for t in tables if watchable(t)]
    for n, t in enumerate(tables, 1):
        line = _("{n}) {name}: host {host}:{port}, {game} for {seats}, host key {key}").format(
            n=n,
            name=t.name,
            host=t.host,
            port=t.port,
            game=game_word(t.variant),
            seats=t.seats,
            key=t.fingerprint,
        )
        print("  " + line, flush=True)
    candidates = matching_tables(tables, args.table) if args.table else tables
    if not candidates:
        print("p2pbelka watch: " + _("no table to watch heard"), file=sys.stderr)
        return None
    if len({t.host_key for t in candidates}) > 1:
        print("p2pbelka watch: " + _("several tables; choose one with --table"), file=sys.stderr)
        return None
    choice = candidates[0]
    print(
        _("watching {name} at {host}:{port} [{key}]").format(
            name=choice.name, host=choice.host, port=choice.port, key=choice.fingerprint
        ),
        flush=True,
    )
    return choice.host, choice.port, choice.host_key
