"""``p2pbelka join``: find a table on the LAN (or dial one), take a seat, play."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from p2pbelka.cli.lan_args import add_dial_arguments, add_network_arguments, add_player_arguments
from p2pbelka.ui.words.i18n import _

if TYPE_CHECKING:
    from p2pbelka.net.directory import TableInfo
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.lan import NetOptions


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_dial_arguments(parser, _("join the table with this name (or key fingerprint)"))
    parser.add_argument("--list", action="store_true", help=_("only list the tables heard"))
    parser.add_argument(
        "--auto-approve",
        action="store_true",
        help=_("if a seat is lost, agree to seat a bot in its place without asking"),
    )
    add_player_arguments(parser)
    add_network_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import trio

    from p2pbelka.cli import lan_args
    from p2pbelka.net.errors import NetError
    from p2pbelka.peer.lan import HostUnreachable, LobbyRefused, join_game
    from p2pbelka.ui.words.admission import lobby_reason
    from p2pbelka.ui.words.lobbylog import LobbyPrinter

    player = lan_args.prepare(args, "join")
    if player is None:
        return 2
    identity, level, fe = player
    net = lan_args.net_options(args)
    net.reach_for = args.connect_wait
    dialled = lan_args.dial_options(args, "join")
    if dialled is None:
        return 2
    connect, pin = dialled
    if lan_args.wants_screen(args) and not args.list:
        return _join_on_screen(args, identity, net, connect, pin)

    printer = LobbyPrinter(net.home)

    async def main() -> int:
        if connect is not None:
            target: tuple[str, int, bytes | None] = connect
        else:
            found = await _pick_table(args, net)
            if isinstance(found, int):
                return found
            target = found
        try:
            result = await join_game(
                identity,
                target[0],
                target[1],
                fe,
                host_key=target[2],
                host_pin=pin,
                invite=args.invite,
                net=net,
                on_lobby=printer,
                bot=level,
            )
        except HostUnreachable as exc:
            print("p2pbelka join: " + _no_table(exc), file=sys.stderr)
            return 3
        except (LobbyRefused, NetError) as exc:
            print(f"p2pbelka join: {lobby_reason(str(exc))}", file=sys.stderr)
            return 3
        return lan_args.report(result, fe, args)

    with lan_args.resume_told(lambda: printer.game_id):
        return trio.run(main)


def _join_on_screen(
    args: argparse.Namespace,
    identity: Identity,
    net: NetOptions,
    connect: tuple[str, int, bytes | None] | None,
    pin: str | None,
) -> int:
    """The lobby and table screens: the tables heard, a seat, ready, and the game."""
    from p2pbelka.cli import lan_args
    from p2pbelka.net.directory import matching_tables
    from p2pbelka.ui.lan import join_on_screen
    from p2pbelka.ui.words.i18n import default_language

    def wanted(table: TableInfo) -> bool:
        return args.table is not None and bool(matching_tables([table], args.table))

    from p2pbelka.peer.lan import HostUnreachable

    try:
        screen, result = join_on_screen(
            identity,
            connect=connect,
            host_pin=pin,
            invite=args.invite,
            wanted=wanted if args.table else None,
            net=net,
            lang=args.lang or default_language(),
            auto_approve=args.auto_approve,
            coach=args.coach,
            coach_worlds=args.coach_worlds,
        )
    except HostUnreachable as exc:
        print("p2pbelka join: " + _no_table(exc), file=sys.stderr)
        return 3
    closed = screen.lobby.view.closed if screen.lobby is not None else None
    if result is None and screen.view.game_id is None and closed and not screen.interrupted:
        # refused, or the lobby closed under us: the screen said why, and so does the
        # terminal once it is gone, with the status the text mode gives
        print(f"p2pbelka join: {closed}", file=sys.stderr)  # in the player's language
        return 3
    return lan_args.screen_result(
        result,
        screen.view.game_id,
        interrupted=screen.interrupted,
        ending=screen.view.ending_line(),
    )


LOOK_ALIKE_WINDOW = 2.0
"""Seconds to keep listening after the wanted table is heard (beacons come every 0.3 s)."""


async def _pick_table(
    args: argparse.Namespace, net: NetOptions
) -> tuple[str, int, bytes | None] | int:
    """The table to join, from those heard and listed (``--table``, or the one with a
    free seat, or the player's pick); else the exit status: 0 after ``--list``, 3 when
    there is none (or nothing could be heard)."""
    tables = await _hear_tables(args, net)
    if tables is None:
        return 3
    _list_tables(tables, args.wait)
    if args.list:
        return 0
    choice = _choose_table(tables, args.table)
    if choice is None:
        return 3
    print(
        _("joining {name} at {host}:{port} [{key}]").format(
            name=choice.name, host=choice.host, port=choice.port, key=choice.fingerprint
        ),
        flush=True,
    )
    return choice.host, choice.port, choice.host_key


async def _hear_tables(args: argparse.Namespace, net: NetOptions) -> list[TableInfo] | None:
    """The tables heard in ``--wait`` seconds (less once ``--table`` was heard and no
    look-alike came in the window after it); None if we cannot listen (said why)."""
    import trio

    from p2pbelka.net.directory import matching_tables
    from p2pbelka.peer.lan import discover_tables
    from p2pbelka.ui.words.oserrors import listen_words

    first_match: list[float] = []

    def enough(tables: list[TableInfo]) -> bool:
        # Not at the first match: a look-alike beaconing a moment later must be seen too.
        if args.table is None or not matching_tables(tables, args.table):
            return False
        first_match[:1] = first_match[:1] or [trio.current_time()]
        return trio.current_time() - first_match[0] >= LOOK_ALIKE_WINDOW

    try:
        return await discover_tables(args.wait, net=net, until=enough, dnssd=True)
    except OSError as exc:
        print("p2pbelka join: " + listen_words(exc), file=sys.stderr)
        return None


def _list_tables(tables: list[TableInfo], wait: float) -> None:
    """One numbered line a table, look-alikes and unsigned hints marked."""
    from p2pbelka.net.directory import look_alikes

    doubtful = look_alikes(tables)
    for n, t in enumerate(tables, 1):
        warn = ""
        if (t.table_id, t.host_key) in doubtful:
            warn += "  " + _("<- another host uses a name like this: compare the key")
        if t.via == "dns-sd":
            warn += "  " + _("(heard by DNS-SD only: unsigned, compare the key when you connect)")
        print("  " + _table_line(n, t) + warn, flush=True)
    if doubtful:
        print(
            _(
                "warning: tables with look-alike names but different host keys are listed;"
                " ask the host which key its screen shows"
            ),
            flush=True,
        )
    if not tables:
        print(
            _(
                "no tables heard on this network in {s:g} s; if the host's screen shows"
                " its address, join with: p2pbelka join --connect HOST:PORT"
            ).format(s=wait),
            flush=True,
        )


def _table_line(n: int, t: TableInfo) -> str:
    from p2pbelka.ui.words.i18n import ngettext
    from p2pbelka.ui.words.rulenames import game_word

    free = ngettext("{n} free seat", "{n} free seats", t.free_seats).format(n=t.free_seats)
    line = _("{n}) {name}: host {host}:{port}, {game} for {seats}, {free}, host key {key}")
    return line.format(
        n=n,
        name=t.name,
        host=t.host,
        port=t.port,
        game=game_word(t.variant),
        seats=t.seats,
        free=free,
        key=t.fingerprint,
    )


def _choose_table(tables: list[TableInfo], wanted: str | None) -> TableInfo | None:
    """The table named ``wanted`` (or the only one) with a free seat, else the player's
    pick at the terminal; None, said why, when there is no one table to choose."""
    from p2pbelka.net.directory import matching_tables

    candidates = [t for t in (matching_tables(tables, wanted) if wanted else tables)]
    candidates = [t for t in candidates if t.free_seats > 0]
    if not candidates:
        print("p2pbelka join: " + _("no table with a free seat heard"), file=sys.stderr)
        return None
    if wanted and len({t.host_key for t in candidates}) > 1:
        print(
            "p2pbelka join: "
            + _(
                "{table!r} names tables of {n} different hosts; choose by key: --table FINGERPRINT"
            ).format(table=wanted, n=len(candidates)),
            file=sys.stderr,
        )
        return None
    if len(candidates) == 1:
        return candidates[0]
    if not sys.stdin.isatty():
        print("p2pbelka join: " + _("several tables; choose one with --table"), file=sys.stderr)
        return None
    line = input(_("which table (1..{n})? ").format(n=len(tables))).strip()
    if not line.isdigit() or not 1 <= int(line) <= len(tables):
        return None
    return tables[int(line) - 1]


def _no_table(exc: BaseException) -> str:
    from p2pbelka.ui.words.oserrors import unreachable_words

    return _("no table reached: {why}").format(why=unreachable_words(exc))
