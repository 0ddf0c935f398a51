"""``p2pbelka resume``: continue a game after this peer was stopped or crashed.

The game is a LAN seat (its store in the games directory) or a local table
(``p2pbelka play``: you and bot peers on this machine, every seat saved).  At a
terminal both reopen the table screen; a LAN seat also goes on in text (``--text``,
``--bot``, or output that is not a terminal), as the text peer it was.  A game open
in another p2pbelka is refused before anything of it is read (``peer/storelock.py``):
one line naming that program, exit status 3.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from p2pbelka.cli.lan_args import add_network_arguments, add_player_arguments
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.setuperrors import error_words

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from p2pbelka.peer.local_save import LocalSave
    from p2pbelka.peer.store import GameStore


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game", nargs="?", default="", help=_("game id (a prefix will do); default: the latest")
    )
    parser.add_argument(
        "--auto-approve",
        action="store_true",
        help=_(
            "if a seat is lost, agree to seat a bot in its place without asking; a host"
            " also lets new watchers in (those it let in before come back anyway)"
        ),
    )
    add_player_arguments(parser)
    add_network_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from p2pbelka.peer.local_save import LocalSave, find_resumable

    try:
        found = find_resumable(args.game)
    except (LookupError, ValueError, OSError) as exc:
        print(f"p2pbelka resume: {error_words(exc)}", file=sys.stderr)
        return 2
    if isinstance(found, LocalSave):
        return resume_local(found, args, "resume")
    return resume_lan(found, args)


def resume_local(save: LocalSave, args: argparse.Namespace, command: str) -> int:
    """A local table goes on at the terminal; what to print is as for ``play``."""
    from p2pbelka.cli.errors import left_status
    from p2pbelka.table.session import OrderError
    from p2pbelka.ui.resume import Overrides, left_game
    from p2pbelka.ui.words.i18n import _, default_language, set_language

    save.hold()  # open in another p2pbelka: StoreBusy, exit 3, first of all
    if getattr(args, "bot", None) is not None or getattr(args, "text", False):
        print(
            f"p2pbelka {command}: game {save.game_id[:12]} is a local table (you and bots on"
            " this machine): it goes on at the screen, without --bot or --text",
            file=sys.stderr,
        )
        return 2
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        print(f"p2pbelka {command}: " + _("needs a terminal to reopen the table"), file=sys.stderr)
        return 2
    from p2pbelka.ui.resume import resume_local as on_screen

    plan = save.load_plan()
    set_language(args.lang or plan.lang or default_language())
    overrides = Overrides(
        lang=args.lang,
        pace=getattr(args, "pace", None),
        coach=getattr(args, "coach", False),
        coach_worlds=getattr(args, "coach_worlds", None),
    )
    try:
        screen = on_screen(save, overrides)
    except OrderError as exc:
        print(
            f"p2pbelka {command}: " + _("the saved game does not replay: {why}").format(why=exc),
            file=sys.stderr,
        )
        return 2
    except LookupError as exc:
        print(f"p2pbelka {command}: {error_words(exc)}", file=sys.stderr)
        return 2
    ending = screen.view.ending_line()
    if ending is not None:  # the screen said who won; the terminal keeps it too
        print(ending)
    print(_("Transcript saved to {path}").format(path=screen.view.transcript_path))
    note = left_game(Path(plan.transcript))
    if note:
        print(note)
    return left_status(0 if not screen.view.aborted else 1, screen.interrupted)


def resume_lan(store: GameStore, args: argparse.Namespace) -> int:
    import trio

    from p2pbelka.cli import lan_args
    from p2pbelka.cli.errors import left_status
    from p2pbelka.peer.lan import GameResult, resume_game
    from p2pbelka.table.session import OrderError
    from p2pbelka.ui.words.i18n import _

    # Before anything is read: a game another p2pbelka plays is refused here (StoreBusy,
    # exit 3, the line naming that program), never played by two.
    store.hold()
    try:
        meta = store.load_meta()
    except (ValueError, OSError, TypeError, KeyError) as exc:
        print(
            "p2pbelka resume: "
            + _("cannot read {path}: {why}").format(path=store.meta_path, why=exc),
            file=sys.stderr,
        )
        return 2
    from p2pbelka.ui.words.i18n import LANGUAGES, default_language, set_language

    # the language the seat was played in (kept with the game), unless --lang says; one
    # this version does not speak (another version's file) leaves the locale's
    kept = meta.lang if meta.lang in LANGUAGES else ""
    lang = args.lang or kept or default_language()
    set_language(lang)
    player = lan_args.prepare(args, "resume", meta.bot)
    if player is None:
        return 2
    identity, _level, fe = player
    net = lan_args.net_options(args)
    if args.listen == "0.0.0.0" and args.port == 0:
        net.listen_host, net.listen_port = meta.listen_host, meta.listen_port
    lan_args.say(_("resuming game {id} in seat {seat}").format(id=meta.game_id, seat=meta.seat))
    try:
        if meta.bot is None and lan_args.wants_screen(args):
            from p2pbelka.ui.resume import resume_on_screen

            screen, on_screen = resume_on_screen(
                identity,
                store,
                net=net,
                lang=lang,
                auto_approve=args.auto_approve,
                coach=args.coach,
                coach_worlds=args.coach_worlds,
            )
            if on_screen is None:
                lan_args.say(lan_args.left_line(meta.game_id))
                return left_status(0, screen.interrupted)
            return lan_args.screen_result(
                on_screen, interrupted=screen.interrupted, ending=screen.view.ending_line()
            )
        from p2pbelka.ui.words.lobbylog import LobbyPrinter

        def resumed() -> Awaitable[GameResult]:
            # a host's lobby reopens to its watchers: who watches, in lines
            return resume_game(
                identity,
                store,
                fe,
                net=net,
                on_lobby=LobbyPrinter(net.home),
                auto_approve=args.auto_approve,
            )

        with lan_args.resume_told(lambda: meta.game_id):
            result = trio.run(resumed)
    except OrderError as exc:
        print(
            "p2pbelka resume: " + _("the saved game does not replay: {why}").format(why=exc),
            file=sys.stderr,
        )
        return 2
    return lan_args.report(result, fe, args)
