"""``p2pbelka play``: a table with three bot peers on this machine, in the terminal
(Belot: ``--game belot`` with one or two)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from p2pbelka.cli import game_args
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.setuperrors import error_words


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from p2pbelka.bots import levels as bot_levels
    from p2pbelka.ui.words.i18n import LANGUAGES

    levels = ", ".join(bot_levels())
    game_args.add_game_argument(parser)
    game_args.add_players_argument(parser)
    parser.add_argument(
        "--name", "--player", dest="name", default=None, help=_("your name at the table")
    )
    parser.add_argument(
        "--bot-level",
        default=None,
        help=_(
            "level of all the bots ({levels}; Belot: random, heuristic, strong; default heuristic)"
        ).format(levels=levels),
    )
    parser.add_argument(
        "--think",
        type=int,
        default=None,
        metavar="N",
        help=_("strong bots think N times as long (1-8): slower, stronger"),
    )
    parser.add_argument(
        "--bots",
        default=None,
        metavar="L1,L2,L3",
        help=_("a level for each bot seat in play order, e.g. random,strong,heuristic"),
    )
    parser.add_argument("--preset", default="classic", help=game_args.presets_help())
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help=_("a house rule")
    )
    parser.add_argument(
        "--seed", type=int, default=None, help=_("reproducible keys, deals and bots")
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=None,
        help=_("seconds each other player's card is shown before the next (default 0.7)"),
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="GAME",
        help=_("go on with a local game you left (its id or a prefix; default: the latest)"),
    )
    game_args.add_coach_option(parser)
    parser.add_argument(
        "--transcript",
        type=Path,
        default=None,
        help=_("save the game here (default: a new file under $XDG_DATA_HOME/p2pbelka/games)"),
    )
    parser.add_argument(
        "--transport",
        choices=("loopback", "memory"),
        default="loopback",
        help=_("how the table's peers talk: TCP on this machine (default) or in-process channels"),
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help=_("en, ru or kk (default: locale)")
    )


def config_from(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """The play configuration the arguments ask for; ``ValueError`` says what is wrong."""
    from p2pbelka.bots import is_level, with_think
    from p2pbelka.bots import levels as bot_levels
    from p2pbelka.cli.selfplay_cmd import parse_options, seat_count
    from p2pbelka.net.identity import clean_name, default_name
    from p2pbelka.rules.registry import spec
    from p2pbelka.ui.play import DEFAULT_LEVEL, PlayConfig
    from p2pbelka.ui.words.i18n import _, default_language, set_language

    lang = args.lang or default_language()
    set_language(lang)
    options = parse_options(args.option)
    players = seat_count(args)
    spec(args.game).check_rules(args.preset, options)
    known = bot_levels(args.game)
    level = args.bot_level or DEFAULT_LEVEL
    bots = players - 1
    levels = args.bots.split(",") if args.bots else [level] * bots
    if len(levels) != bots:
        raise ValueError(_("--bots expects {n} levels, got {got}").format(n=bots, got=len(levels)))
    levels = [with_think(name, args.think, args.game) for name in levels]
    for name in levels:
        if not is_level(name, args.game):
            raise ValueError(
                _("unknown bot level {name!r} (expected one of {known})").format(
                    name=name, known=", ".join(known)
                )
            )
    if args.pace is not None and args.pace < 0:
        raise ValueError(_("--pace must not be negative"))
    return PlayConfig(
        # identity.DEFAULT_NAME, in the screen's language: this name never leaves the machine
        name=clean_name(args.name) if args.name else default_name(_("Player")),
        seed=args.seed,
        preset=args.preset,
        options=options,
        bot_levels=tuple(levels),
        pace=0.7 if args.pace is None else args.pace,
        transport=args.transport,
        transcript=args.transcript,
        lang=lang,
        game=args.game,
        players=players,
        coach=args.coach,
        coach_worlds=args.coach_worlds,
        owner=_own_key() if args.seed is None and args.transport == "loopback" else None,
    )


def _own_key() -> bytes:
    """The player's key seed, for seat 0 (the ladder counts the player's games by it)."""
    from p2pbelka.net.identity import Identity

    return Identity.load_or_create().private_key.private_bytes_raw()


def run(args: argparse.Namespace) -> int:
    from p2pbelka.cli.errors import left_status
    from p2pbelka.ui.play import play_local
    from p2pbelka.ui.resume import left_game
    from p2pbelka.ui.words.i18n import _

    if args.resume is not None:
        return resume(args)
    try:
        config = config_from(args)
    except ValueError as exc:
        print(f"p2pbelka play: {error_words(exc)}", file=sys.stderr)
        return 2
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print(
            "p2pbelka play: " + _("needs a terminal (try p2pbelka selfplay for bots only)"),
            file=sys.stderr,
        )
        return 2
    # the same --seed as a game left and open in another p2pbelka: StoreBusy, exit 3
    screen = play_local(config)
    ending = screen.view.ending_line()
    if ending is not None:  # the screen said who won; the terminal keeps it too
        print(ending)
    print(_("Transcript saved to {path}").format(path=screen.view.transcript_path))
    note = left_game(Path(str(screen.view.transcript_path)))
    if note:  # left before the end: say how to come back
        print(note)
    return left_status(0 if not screen.view.aborted else 1, screen.interrupted)


def resume(args: argparse.Namespace) -> int:
    """``play --resume [GAME]``: a local game only (``p2pbelka resume`` finds LAN ones too)."""
    from p2pbelka.cli.resume_cmd import resume_local
    from p2pbelka.peer.local_save import LocalSave

    try:
        save = LocalSave.find(args.resume)
    except (LookupError, OSError) as exc:
        print(f"p2pbelka play: {error_words(exc)}", file=sys.stderr)
        return 2
    return resume_local(save, args, "play")
