"""``p2pbelka replay FILE``: verify a saved game, then show it trick by trick.

``p2pbelka replay --coach FILE [--seat N] [--threshold POINTS] [--seed N]``: verify it,
then print the seat's plays that cost more than the threshold against the best the
strong evaluation finds from what the seat knew then (:mod:`p2pbelka.cli.coach_out`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from p2pbelka.ui.words.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help=_("a saved game (see `p2pbelka games`)"))
    parser.add_argument("--deal", type=int, default=1, help=_("start at this deal (default 1)"))
    parser.add_argument(
        "--coach",
        action="store_true",
        help=_(
            "print the seat's costly decisions and the better card or call, instead of the screen"
        ),
    )
    parser.add_argument(
        "--seat", type=int, default=0, metavar="N", help=_("--coach: the seat to coach (default 0)")
    )
    parser.add_argument(
        "--threshold",
        type=float,
        default=None,
        metavar="POINTS",
        help=_("--coach: flag plays that cost more than this (default: the game's own)"),
    )
    parser.add_argument(
        "--seed", type=int, default=0, help=_("--coach: the seed of the deals drawn (default 0)")
    )
    parser.add_argument(
        "--worlds",
        type=int,
        default=None,
        metavar="N",
        help=_("--coach: deals of the hidden cards drawn a decision (default 80)"),
    )
    from p2pbelka.ui.words.i18n import LANGUAGES

    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help=_("en, ru or kk (default: locale)")
    )


def run(args: argparse.Namespace) -> int:
    from p2pbelka.cli.errors import EXIT_USAGE, left_status, read_input
    from p2pbelka.table.verify import verify_bytes
    from p2pbelka.ui.replaystart import replay_screen
    from p2pbelka.ui.words.i18n import _, default_language, set_language
    from p2pbelka.ui.words.verdicts import verdict_words

    set_language(args.lang or default_language())
    data = read_input(args.file, "replay")
    if data is None:
        return EXIT_USAGE
    report = verify_bytes(data)
    if report.malformed:  # not a transcript at all: nothing was played to show
        print(
            f"p2pbelka replay: {args.file}: {verdict_words(report)}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    print(verdict_words(report))
    if args.coach:
        from p2pbelka.cli.coach_out import print_coaching

        return print_coaching(report, args.seat, args.threshold, args.seed, args.worlds)
    if not report.deals:
        print("p2pbelka replay: " + _("no deal was finished in this game: nothing to show"))
        return 0 if report.ok else 1
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print("p2pbelka replay: " + _("needs a terminal (`p2pbelka verify FILE` prints the deals)"))
        return 2
    from p2pbelka.ui.screenlog import logs_off_terminal

    screen = replay_screen(report, args.deal)
    with logs_off_terminal():
        screen.app.run()
    return left_status(0 if report.ok else 1, screen.interrupted)
