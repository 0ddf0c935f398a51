"""``p2pbelka selfplay``: whole games between bot peers in one process, saved (Belka by
default; ``--game belot`` with 2 or 3 seats)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.setuperrors import error_words

if TYPE_CHECKING:
    from p2pbelka.rules.common.summary import DealSummary

from p2pbelka.cli import game_args


def add_arguments(parser: argparse.ArgumentParser) -> None:
    game_args.add_game_argument(parser)
    game_args.add_players_argument(parser)
    parser.add_argument("--games", type=int, default=1, help=_("how many games (default 1)"))
    parser.add_argument(
        "--seed", type=int, default=None, help=_("reproducible keys, deals and bots")
    )
    parser.add_argument("--transcript", type=Path, default=None, help=_("save the transcript here"))
    parser.add_argument("--preset", default="classic", help=game_args.presets_help())
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=_("a house rule")
    )
    parser.add_argument(
        "--bot",
        default="random",
        help=_("bot level for every seat (random, heuristic, strong, strong:N; default random)"),
    )
    parser.add_argument("--quiet", action="store_true", help=_("print only the summary"))


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name or not value:
            raise ValueError(f"--option expects NAME=VALUE, got {pair!r}")
        options[name] = value
    return options


def transcript_path(base: Path, game: int, games: int) -> Path:
    return base if games == 1 else base.with_name(f"{base.stem}-{game + 1}{base.suffix}")


def describe_deal(deal_id: int, summary: DealSummary) -> str:
    return f"deal {deal_id}: {summary.line()}"


def seat_count(args: argparse.Namespace) -> int:
    """The seats of the chosen game (``ValueError`` for a count it is not played by)."""
    return game_args.seats_of(args.game, args.players)


def run(args: argparse.Namespace) -> int:
    from p2pbelka.bots import parse_level
    from p2pbelka.rules import registry

    try:
        options = parse_options(args.option)
        args.players = seat_count(args)
        registry.spec(args.game).check_rules(args.preset, options)
        parse_level(args.bot, args.game)
    except ValueError as exc:
        print(f"p2pbelka selfplay: {error_words(exc)}", file=sys.stderr)
        return 2
    status = 0
    for k in range(args.games):
        status = max(status, play_one(args, k, options))
    return status


def play_one(args: argparse.Namespace, k: int, options: dict[str, str]) -> int:
    """Play game ``k``; seat 0's transcript is written record by record as the game goes."""
    from functools import partial

    import trio

    from p2pbelka.bots import make_bot
    from p2pbelka.peer.local import LocalGame, play_local_game
    from p2pbelka.protocol.transcript import TranscriptWriter
    from p2pbelka.rules import registry
    from p2pbelka.table import events as ev

    seed = None if args.seed is None else args.seed * 1000 + k
    game = LocalGame.seeded(seed, args.preset, options, game=args.game, players=args.players)
    bots = [
        make_bot(args.bot, None if seed is None else seed * 10 + s) for s in range(args.players)
    ]
    path = None if args.transcript is None else transcript_path(args.transcript, k, args.games)
    if path is not None:
        path.unlink(missing_ok=True)
    writer = TranscriptWriter(path) if path is not None else None

    try:
        results = trio.run(partial(play_local_game, game, bots, transcript=writer))
    finally:
        if writer is not None:
            writer.close()
    status = 0
    if not args.quiet:
        for event in results[0].events:
            if isinstance(event, ev.DealAudited):
                print(f"game {k + 1} " + describe_deal(event.deal_id, event.summary))
    final = [e for e in results[0].events if isinstance(e, ev.GameOver | ev.GameAborted)]
    outcome = final[0] if final else None
    if isinstance(outcome, ev.GameOver) and not registry.spec(args.game).partnership:
        score = ":".join(str(points) for points in outcome.score)
        print(f"game {k + 1}: seat {outcome.winner} wins {score}")
    elif isinstance(outcome, ev.GameOver):
        print(f"game {k + 1}: team {outcome.winner} wins {outcome.score[0]}:{outcome.score[1]}")
    else:
        status = 1
        print(f"game {k + 1}: did not finish: {outcome}")
    if not all(r.transcript == results[0].transcript for r in results):
        status = 1
        print(f"game {k + 1}: the peers' transcripts differ", file=sys.stderr)
    if path is not None:
        print(f"game {k + 1}: transcript saved to {path} ({len(results[0].transcript)} envelopes)")
    return status
