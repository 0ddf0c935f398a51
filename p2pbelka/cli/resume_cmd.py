"""``p2pbelka resume``: continue a game after this peer was stopped or crashed."""

from __future__ import annotations

import argparse
import sys

from p2pbelka.cli.lan_args import add_network_arguments, add_player_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", nargs="?", default="", help="game id (a prefix will do); default: the latest"
    )
    parser.add_argument(
        "--auto-approve",
        action="store_true",
        help="if a seat is lost, agree to seat a bot in its place without asking",
    )
    add_player_arguments(parser)
    add_network_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import trio

    from p2pbelka.cli import lan_args
    from p2pbelka.peer.lan import resume_game
    from p2pbelka.peer.store import GameStore
    from p2pbelka.table.session import OrderError

    try:
        store = GameStore.find(args.game)
        meta = store.load_meta()
    except (LookupError, ValueError, OSError) as exc:
        print(f"p2pbelka resume: {exc}", file=sys.stderr)
        return 2
    player = lan_args.prepare(args, "resume", meta.bot)
    if player is None:
        return 2
    identity, _level, fe = player
    net = lan_args.net_options(args)
    if args.listen == "0.0.0.0" and args.port == 0:
        net.listen_host, net.listen_port = meta.listen_host, meta.listen_port
    lan_args.say(f"resuming game {meta.game_id} in seat {meta.seat}")
    try:
        result = trio.run(lambda: resume_game(identity, store, fe, net=net))
    except OrderError as exc:
        print(f"p2pbelka resume: the saved game does not replay: {exc}", file=sys.stderr)
        return 2
    return lan_args.report(result, fe, args)
