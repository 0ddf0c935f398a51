"""``p2pbelka host``: open a table on the LAN (Belka for four, or Belot for two or
three), seat the players, play seat 0."""

from __future__ import annotations

import argparse
import sys

from p2pbelka.cli import game_args
from p2pbelka.cli.lan_args import (
    add_network_arguments,
    add_player_arguments,
    add_watcher_arguments,
)
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.setuperrors import error_words


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
            " ten wrong codes a fresh one is made and shown"
        ),
    )
    add_player_arguments(parser)
    add_network_arguments(parser, lobby=True)
    add_watcher_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import trio

    from p2pbelka.cli import lan_args
    from p2pbelka.cli.selfplay_cmd import parse_options, seat_count
    from p2pbelka.cli.terminal_door import TerminalDoor, help_line
    from p2pbelka.peer import lobby
    from p2pbelka.peer.lan import GameResult, host_game
    from p2pbelka.ui.words.i18n import _
    from p2pbelka.ui.words.lobbylog import LobbyPrinter

    try:
        options = parse_options(args.option)
        players = seat_count(args)
        lobby.check_table(args.game, players, args.preset, options)
    except ValueError as exc:
        print(f"p2pbelka host: {error_words(exc)}", file=sys.stderr)
        return 2
    if args.table is None and args.table_old is not None:
        print(
            "p2pbelka host: " + _("--name is the old spelling of --table (--player is your name)"),
            file=sys.stderr,
        )
        args.table = args.table_old
    if args.table is None:
        args.table = game_args.table_name(args.game)
    player = lan_args.prepare(args, "host", game=args.game)
    if player is None:
        return 2
    identity, level, fe = player
    if not args.auto_approve and not sys.stdin.isatty():
        print(
            "p2pbelka host: " + _("no terminal to ask who may sit down; say --auto-approve"),
            file=sys.stderr,
        )
        return 2
    net = lan_args.net_options(args)
    net.announce = not args.no_announce
    invite = lan_args.invite_code(args.invite)
    if invite is None:
        return 2
    if lan_args.wants_screen(args):
        from p2pbelka.ui.lan import host_on_screen
        from p2pbelka.ui.words.i18n import default_language

        screen, on_screen = host_on_screen(
            identity,
            args.table,
            game=args.game,
            players=players,
            preset=args.preset,
            options=options,
            net=net,
            lang=args.lang or default_language(),
            invite=invite,
            auto_approve=args.auto_approve,
        )
        return lan_args.screen_result(
            on_screen, screen.view.game_id, interrupted=screen.interrupted
        )

    async def main() -> GameResult:
        if args.auto_approve:
            return await host_game(
                identity,
                args.table,
                fe,
                preset=args.preset,
                options=options,
                net=net,
                on_lobby=LobbyPrinter(),
                bot=level,
                invite=invite,
                game=args.game,
                players=players,
            )
        door = TerminalDoor(LobbyPrinter())
        lan_args.say(help_line())
        async with trio.open_nursery() as nursery:
            nursery.start_soon(door.serve)
            result = await host_game(
                identity,
                args.table,
                fe,
                preset=args.preset,
                options=options,
                net=net,
                on_lobby=door.on_lobby,
                bot=level,
                approve=door.approve,
                invite=invite,
                game=args.game,
                players=players,
            )
            nursery.cancel_scope.cancel()
        return result

    try:
        result = trio.run(main)
    except (ValueError, OSError) as exc:
        print(f"p2pbelka host: {error_words(exc)}", file=sys.stderr)
        return 2
    return lan_args.report(result, fe, args)
