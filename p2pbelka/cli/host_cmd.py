"""``p2pbelka host``: open a table on the LAN (Belka for four, or Belot for two or
three), seat the players, play seat 0."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2pbelka.cli import game_args
from p2pbelka.cli.lan_args import (
    add_network_arguments,
    add_player_arguments,
    add_watcher_arguments,
)
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.setuperrors import error_words

if TYPE_CHECKING:
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.driver import FrontEnd
    from p2pbelka.peer.lan import Approve, GameResult, NetOptions, OnLobby
    from p2pbelka.peer.text import TextFrontEnd
    from p2pbelka.ui.words.lobbylog import LobbyPrinter


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--table",
        default=None,
        metavar="NAME",
        help=_("the table's name on the LAN (default: {names})").format(
            names=game_args.table_help()
        ),
    )
    # the old spelling of --table: kept so scripts go on working (--player names you)
    parser.add_argument("--name", dest="table_old", default=None, help=argparse.SUPPRESS)
    game_args.add_game_argument(parser)
    game_args.add_players_argument(parser)
    parser.add_argument("--preset", default="classic", help=game_args.presets_help())
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=_("a house rule")
    )
    parser.add_argument(
        "--no-announce", action="store_true", help=_("no beacons: joiners use --connect")
    )
    parser.add_argument(
        "--auto-approve",
        action="store_true",
        help=_(
            "let every joiner sit without asking (scripts, bots, tests), and agree to seat a"
            " bot for a lost seat; otherwise you are asked about each one at the terminal"
        ),
    )
    parser.add_argument(
        "--invite",
        nargs="?",
        const="",
        metavar="CODE",
        help=_(
            "only joiners who give this code may sit (no CODE: six random digits); after"
            " ten wrong codes none is tried until you draw a new one (c on the screen, code"
            " at the terminal)"
        ),
    )
    add_player_arguments(parser)
    add_network_arguments(parser, lobby=True)
    add_watcher_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from p2pbelka.cli import lan_args

    checked = _checked_table(args)
    if checked is None:
        return 2
    options, players = checked
    _name_the_table(args)
    player = lan_args.prepare(args, "host", game=args.game)
    if player is None:
        return 2
    identity, level, fe = player
    if not args.auto_approve and not sys.stdin.isatty():
        _complain(_("no terminal to ask who may sit down; say --auto-approve"))
        return 2
    net = lan_args.net_options(args)
    net.announce = not args.no_announce
    invite = lan_args.invite_code(args.invite)
    if invite is None:
        return 2
    table = _Table(identity, args.table, args.game, players, args.preset, options, net, invite)
    if lan_args.wants_screen(args):
        return _host_on_screen(table, args)
    return _host_in_terminal(table, level, fe, args)


@dataclass(frozen=True)
class _Table:
    """The table this host opens, as the command line gave it (checked)."""

    identity: Identity
    name: str
    game: str
    players: int
    preset: str
    options: dict[str, str]
    net: NetOptions
    invite: str

    async def host(
        self,
        front_end: FrontEnd,
        bot: str | None,
        on_lobby: OnLobby,
        approve: Approve | None = None,
        lets_all_in: bool | None = None,
    ) -> GameResult:
        from p2pbelka.peer.lan import host_game

        return await host_game(
            self.identity,
            self.name,
            front_end,
            preset=self.preset,
            options=self.options,
            net=self.net,
            on_lobby=on_lobby,
            bot=bot,
            approve=approve,
            lets_all_in=lets_all_in,
            invite=self.invite,
            game=self.game,
            players=self.players,
        )


def _complain(words: str) -> None:
    print("p2pbelka host: " + words, file=sys.stderr)


def _checked_table(args: argparse.Namespace) -> tuple[dict[str, str], int] | None:
    """The house rules and the seat count, if the game takes them (else None, said why)."""
    from p2pbelka.cli.selfplay_cmd import parse_options, seat_count
    from p2pbelka.peer import lobby

    try:
        options = parse_options(args.option)
        players = seat_count(args)
        lobby.check_table(args.game, players, args.preset, options)
    except ValueError as exc:
        _complain(error_words(exc))
        return None
    return options, players


def _name_the_table(args: argparse.Namespace) -> None:
    """``args.table``: as given (or by its old spelling, ``--name``), else the game's."""
    if args.table is None and args.table_old is not None:
        _complain(_("--name is the old spelling of --table (--player is your name)"))
        args.table = args.table_old
    if args.table is None:
        args.table = game_args.table_name(args.game)


def _host_on_screen(table: _Table, args: argparse.Namespace) -> int:
    from p2pbelka.cli import lan_args
    from p2pbelka.ui.lan import host_on_screen
    from p2pbelka.ui.words.i18n import default_language

    screen, on_screen = host_on_screen(
        table.identity,
        table.name,
        game=table.game,
        players=table.players,
        preset=table.preset,
        options=table.options,
        net=table.net,
        lang=args.lang or default_language(),
        invite=table.invite,
        auto_approve=args.auto_approve,
        coach=args.coach,
        coach_worlds=args.coach_worlds,
    )
    return lan_args.screen_result(
        on_screen,
        screen.view.game_id,
        interrupted=screen.interrupted,
        ending=screen.view.ending_line(),
    )


def _host_in_terminal(
    table: _Table, level: str | None, fe: TextFrontEnd, args: argparse.Namespace
) -> int:
    import trio

    from p2pbelka.cli import lan_args
    from p2pbelka.ui.words.lobbylog import LobbyPrinter

    printer = LobbyPrinter(table.net.home)
    try:
        with lan_args.resume_told(lambda: printer.game_id):
            result = trio.run(_host_with_lines, table, level, fe, args.auto_approve, printer)
    except (ValueError, OSError) as exc:
        _complain(error_words(exc))
        return 2
    return lan_args.report(result, fe, args)


async def _host_with_lines(
    table: _Table, level: str | None, fe: TextFrontEnd, auto_approve: bool, printer: LobbyPrinter
) -> GameResult:
    """The game, its lobby told in lines; each joiner asked about at the terminal unless
    ``auto_approve``; the host's keys (``b`` for bots, ``help``) read either way."""
    import tempfile
    from pathlib import Path

    import trio

    from p2pbelka.bots import default_level
    from p2pbelka.cli import lan_args
    from p2pbelka.cli.terminal_door import TerminalDoor, help_line
    from p2pbelka.cli.text_bots import BOTS_GRACE, TextBots

    with tempfile.TemporaryDirectory(prefix="p2pbelka-bots-") as home:
        async with trio.open_nursery() as nursery:
            bots = TextBots(
                table.identity,
                table.net,
                level or default_level(),
                table.invite,
                Path(home),
                nursery,
            )
            door = TerminalDoor(printer, bots, auto_approve)
            if not auto_approve:
                lan_args.say(help_line())
            nursery.start_soon(door.serve)
            # the door asks even with --auto-approve (its b key), so the game is told
            # that everyone gets in: a resumed host lets new watchers in then too
            result = await table.host(fe, level, door.on_lobby, door.approve, auto_approve)
            door.close()
            with trio.move_on_after(BOTS_GRACE):
                await bots.finished()  # our bots end their games as the host's did
            nursery.cancel_scope.cancel()
    return result
