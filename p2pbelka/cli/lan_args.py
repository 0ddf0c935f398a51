"""What ``host``, ``join`` and ``resume`` share: network options, the seat's player,
the lobby lines and the end-of-game report."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import resource
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from p2pbelka.cli import game_args
from p2pbelka.ui.words.i18n import LANGUAGES, _
from p2pbelka.ui.words.setuperrors import error_words

if TYPE_CHECKING:
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.lan import GameResult, NetOptions
    from p2pbelka.peer.text import TextFrontEnd

Player = tuple["Identity", "str | None", "TextFrontEnd"]


def add_player_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bot",
        nargs="?",
        const="",
        default=None,
        metavar="LEVEL",
        help=_("a bot plays this seat (heuristic if available, else random; or name a level)"),
    )
    parser.add_argument(
        "--think",
        type=int,
        default=None,
        metavar="N",
        help=_("a strong bot thinks N times as long (1-8): slower, stronger"),
    )
    parser.add_argument(
        "--text",
        action="store_true",
        help=_("plain text, a line per event (the default when not at a terminal, or for a bot)"),
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help=_("text for scripts: one JSON object a line, the raw figures (docs/text-mode.md)"),
    )
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=_("screen language"))
    game_args.add_coach_option(parser)
    parser.add_argument(
        "--player", metavar="NAME", help=_("your name at the table (remembered for next time)")
    )
    parser.add_argument("--quiet", action="store_true", help=_("print only the lobby and the end"))
    parser.add_argument("-v", "--verbose", action="store_true", help=_("log the network too"))
    parser.add_argument(
        "--stats", action="store_true", help=_("print one JSON line of figures at the end")
    )


def add_dial_arguments(parser: argparse.ArgumentParser, table_help: str) -> None:
    """How ``join`` and ``watch`` reach a table (``table_help`` says how): by its name in the
    beacons, or at an address."""
    parser.add_argument(
        "--connect", metavar="HOST:PORT", help=_("the host's lobby, where multicast does not reach")
    )
    parser.add_argument(
        "--key",
        metavar="FINGERPRINT",
        help=_(
            "with --connect: the host's key fingerprint (as its screen shows it); refuse others"
        ),
    )
    parser.add_argument("--table", help=table_help)
    parser.add_argument(
        "--invite",
        metavar="CODE",
        help=_("the invite code the host gave you (spaces, dashes and case do not matter)"),
    )
    parser.add_argument(
        "--connect-wait",
        type=float,
        default=60.0,
        metavar="S",
        help=_(
            "try the host's lobby for S seconds while it does not answer, then give up"
            " (exit status 3; default 60)"
        ),
    )
    parser.add_argument("--wait", type=float, default=3.0, help=_("listen for tables this long"))


DialTarget = tuple[str, int, "bytes | None"]


def dial_options(
    args: argparse.Namespace, command: str
) -> tuple[DialTarget | None, str | None] | None:
    """``--connect`` as a dial target and ``--key`` as a pin (each None if not given);
    None, after saying which is malformed, if one is."""
    from p2pbelka.net.connection import parse_host_port
    from p2pbelka.net.identity import normal_pin
    from p2pbelka.peer.lan.addresses import scoped_here

    parsed = parse_host_port(args.connect) if args.connect else None
    if args.connect and parsed is None:
        print(
            f"p2pbelka {command}: " + _("--connect expects HOST:PORT or [IPV6]:PORT"),
            file=sys.stderr,
        )
        return None
    pin = normal_pin(args.key) if args.key else None
    if args.key and pin is None:
        print(
            f"p2pbelka {command}: "
            + _("--key expects the 16-digit fingerprint (or the 64-digit key)"),
            file=sys.stderr,
        )
        return None
    # a link-local address read off the host's screen names the host's interface
    connect = (scoped_here(parsed[0]), parsed[1], None) if parsed is not None else None
    return connect, pin


def port_number(text: str) -> int:
    """A TCP or UDP port as typed: 0-65535 (0: any free one); a usage error otherwise,
    never a number the operating system would quietly wrap around."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a port number").format(text=text)
        ) from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            _("{port} is not a port: ports go from 0 to 65535").format(port=port)
        )
    return port


def watcher_count(text: str) -> int:
    """``host --watchers N``: 0 up to what a host takes (``watchers.MAX_WATCHERS``, where
    the players' pace holds); a usage error otherwise."""
    from p2pbelka.peer.lan.watchers import MAX_WATCHERS

    try:
        count = int(text)
    except ValueError:
        count = -1
    if not 0 <= count <= MAX_WATCHERS:
        raise argparse.ArgumentTypeError(
            _("{text!r}: a host takes 0 to {most} watchers").format(text=text, most=MAX_WATCHERS)
        )
    return count


def add_network_arguments(parser: argparse.ArgumentParser, *, lobby: bool = False) -> None:
    net = parser.add_argument_group(_("network"))
    net.add_argument("--listen", default="0.0.0.0", metavar="ADDR", help=_("address to listen on"))
    net.add_argument(
        "--port", type=port_number, default=0, help=_("the game (mesh) port; 0 = any free")
    )
    if lobby:
        net.add_argument(
            "--lobby-port", type=port_number, default=0, help=_("the lobby port; 0 = any")
        )
    net.add_argument(
        "--advertise-port",
        type=port_number,
        default=None,
        help=_("tell the others to reach us here"),
    )
    net.add_argument("--interface", default=None, metavar="ADDR", help=_("multicast interface"))
    net.add_argument("--group", default=None, help=_("multicast group of the beacons"))
    net.add_argument(
        "--ipv6",
        action="store_true",
        help=_("a LAN without IPv4: listen on IPv6 and use the IPv6 beacon group"),
    )
    net.add_argument(
        "--beacon-port", type=port_number, default=None, help=_("UDP port of the beacons")
    )
    net.add_argument("--pause-after", type=float, default=10.0, help=_("say who is silent after S"))
    net.add_argument(
        "--reconnect-window",
        "--give-up-after",
        dest="give_up_after",
        type=float,
        default=120.0,
        metavar="S",
        help=_(
            "a seat silent this long is gone: the others are offered a bot for it (default"
            " 120; --give-up-after is the old name)"
        ),
    )
    net.add_argument(
        "--offer-timeout",
        type=float,
        default=60.0,
        metavar="S",
        help=_(
            "a question about a seat (a bot for a lost one, a seat handed back) waits S for"
            " the players' answers; no answer in time counts as no (default 60)"
        ),
    )
    net.add_argument(
        "--link-silence",
        type=float,
        default=10.0,
        metavar="S",
        help=_(
            "a connection silent S while it is asked for something is taken for dead (a"
            " cable out) and dialled again (default 10)"
        ),
    )
    net.add_argument(
        "--no-seat-bot",
        action="store_true",
        help=_("end the game when a seat is gone, instead of offering to seat a bot"),
    )
    net.add_argument(
        "--linger", type=float, default=5.0, help=_("stay S for late peers at the end")
    )
    net.add_argument(
        "--no-share",
        action="store_true",
        help=_(
            "do not share ladder results with the other players, in the lobby or at the"
            " game's end (by default each side fetches the results it lacks, each checked)"
        ),
    )
    net.add_argument(
        "--decide-limit",
        type=float,
        default=900.0,
        metavar="S",
        help=_("end the game when a connected player has not moved for S"),
    )
    net.add_argument(
        "--no-sync",
        action="store_true",
        help=_(
            "send without waiting for the disk (after a power cut this seat may have to"
            " rely on the others for what it signed)"
        ),
    )


def add_watcher_arguments(parser: argparse.ArgumentParser) -> None:
    """The host's choices about watchers (protocol/SPEC.md section 7.5)."""
    from p2pbelka.protocol.lobby import CHAT_MODES

    watch = parser.add_argument_group(_("watchers"))
    watch.add_argument(
        "--watchers",
        type=watcher_count,
        default=8,
        metavar="N",
        help=_(
            "let at most N people watch the game, before or during play, each asked about"
            " like a joiner (--auto-approve lets them in); 0 = nobody watches (default 8)"
        ),
    )
    watch.add_argument(
        "--watcher-chat",
        choices=CHAT_MODES,
        default="off",
        help=_(
            "who a watcher's chat lines reach: nobody (off, the default) or the other"
            " watchers; never the seats, whose chat every watcher sees"
        ),
    )


def net_options(args: argparse.Namespace) -> NetOptions:
    from p2pbelka.peer.lan import NetOptions
    from p2pbelka.ui.words.i18n import language

    net = NetOptions(
        listen_host=args.listen,
        listen_port=args.port,
        lobby_port=getattr(args, "lobby_port", 0),
        advertise_port=args.advertise_port,
        interface=args.interface,
        pause_after=args.pause_after,
        give_up_after=args.give_up_after,
        link_silence=args.link_silence,
        linger=args.linger,
        share_results=not args.no_share,
        seat_bots=not args.no_seat_bot,
        offer_timeout=args.offer_timeout,
        decide_limit=args.decide_limit,
        sync=not args.no_sync,
        lang=language(),  # kept with the game: resume speaks it unless --lang says otherwise
    )
    if hasattr(args, "watchers"):
        net.watchers = max(0, args.watchers)
        net.watcher_chat = args.watcher_chat
    if args.ipv6:
        from p2pbelka.net.discovery import DEFAULT_GROUP6

        net.group = DEFAULT_GROUP6
        if args.listen == "0.0.0.0":
            net.listen_host = "::"
    if args.group:
        net.group = args.group
    if args.beacon_port:
        net.beacon_port = args.beacon_port
    return net


def setup_logging(args: argparse.Namespace) -> None:
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        stream=sys.stderr,
        format="p2pbelka: %(message)s",
    )


def bot_level(requested: str | None) -> str | None:
    """None: a person plays (typed moves); "" asks for the default bot."""
    from p2pbelka.bots import default_level  # (not the loopback table's: a LAN seat runs none)

    if requested is None:
        return None
    return requested or default_level()


def front_end(
    level: str | None, quiet: bool, game: str | None = None, json_lines: bool = False
) -> TextFrontEnd:
    """The text front end; with ``level``, its bot (of ``game``'s levels when known);
    ``json_lines``: its log for scripts (``--json``)."""
    from p2pbelka.bots import make_bot
    from p2pbelka.peer.text import TextFrontEnd, Words
    from p2pbelka.ui.words.seatlog import seat_words

    # the host's game is known: said now if its bots lack the level, and no other game's
    # bots are loaded
    bot = make_bot(level, game=game) if level else None
    if json_lines:
        from p2pbelka.ui.words.jsonlog import JsonWords

        words: Words = JsonWords()
    else:
        words = seat_words()
    return TextFrontEnd(bot, quiet=quiet, words=words)


def prepare(
    args: argparse.Namespace,
    command: str,
    saved_bot: str | None = None,
    game: str | None = None,
) -> Player | None:
    """Logging, the user's identity and who plays the seat; None (after saying why)
    if one of them cannot be had.  ``game``: the table's game, when known already."""
    from p2pbelka.net.identity import Identity, IdentityError
    from p2pbelka.ui.words.seatlog import SeatWords

    setup_logging(args)
    if getattr(args, "json", False):
        from p2pbelka.ui.words.jsonlog import JsonLines  # (the scripts' log alone)

        if not isinstance(sys.stdout, JsonLines):
            sys.stdout = JsonLines(sys.stdout)  # every line a JSON object, the lobby's too
    try:
        if getattr(args, "player", None):
            Identity.load_or_create()  # the key first, so a rename never comes without one
            Identity.rename(args.player)
        identity = Identity.load_or_create()
        level = bot_level(args.bot if args.bot is not None else saved_bot)
        if level and getattr(args, "think", None) is not None:
            from p2pbelka.bots import with_think

            level = with_think(level, args.think, game)
        if level and args.bot is not None and not getattr(args, "player", None):
            # a bot seat says what it is, not its owner's login (or "Player")
            from p2pbelka.bots import bot_name

            identity = dataclasses.replace(identity, name=bot_name(level))
        fe = front_end(level, args.quiet, game, getattr(args, "json", False))
        fe.auto_approve = bool(getattr(args, "auto_approve", False))
        if getattr(args, "coach", False) and isinstance(fe.words, SeatWords):
            fe.words.coach = True  # the coach's lines after each verified deal
            fe.words.coach_worlds = getattr(args, "coach_worlds", None)
    except (ValueError, IdentityError) as exc:
        print(f"p2pbelka {command}: {error_words(exc)}", file=sys.stderr)
        return None
    say(_("you are {name} [{key}]").format(name=identity.name, key=identity.fingerprint))
    return identity, level, fe


def wants_screen(args: argparse.Namespace) -> bool:
    """The full-screen table, for a person at a terminal; text for bots, pipes and --text."""
    if args.bot is not None or args.text or getattr(args, "json", False):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


def screen_result(
    result: GameResult | None,
    game_id: bytes | None = None,
    *,
    interrupted: bool = False,
    ending: str | None = None,
) -> int:
    """Exit status after a game played on screen (which showed the result itself);
    ``game_id``: the game the player left in the middle, if it had begun;
    ``interrupted``: the player left with Ctrl-C; ``ending``: who won, said again on
    the terminal the closed screen gives back."""
    from p2pbelka.cli.errors import left_status

    if ending is not None:
        say(ending)

    if result is None and game_id is not None:
        say(left_line(game_id.hex()))
        return left_status(0, interrupted)
    if result is None:
        say(_("left before the game started"))
        return left_status(0, interrupted)
    if result.cut_off:
        return left_status(cut_off(result), interrupted)
    say(_("transcript saved to {path}").format(path=result.store.transcript_path))
    return left_status(0 if result.finished else 1, interrupted)


def cut_off(result: GameResult) -> int:
    """The one line of a peer that reached no other seat and stopped; its exit status."""
    from p2pbelka.cli.errors import EXIT_CUT_OFF
    from p2pbelka.ui.words.faults import cut_off_line

    path = result.store.transcript_path
    say(cut_off_line(result.game_id, path, result.players == 2, result.split))
    return EXIT_CUT_OFF


def say(line: str) -> None:
    print(line, flush=True)


def invite_code(given: str | None) -> str | None:
    """``host --invite``'s code (a fresh one when none was given, "" for none), said in
    words; None (and why) if it is too short."""
    from p2pbelka.net.pake import new_invite_code, normal_code, shown_code
    from p2pbelka.ui.words.lobbylog import invite_lines

    if given is None:
        return ""
    code = given or new_invite_code()
    try:
        normal_code(code)
    except ValueError as exc:
        print(f"p2pbelka host: {error_words(exc)}", file=sys.stderr)
        return None
    say(invite_lines(shown_code(code)))
    return code


@contextmanager
def resume_told(game_id: Callable[[], bytes | str | None]) -> Iterator[None]:
    """Ctrl-C in text mode (the KeyboardInterrupt goes on to ``main``, which ends with
    130): first the line the screen prints, how to go on with the game, if it began."""
    try:
        yield
    except BaseException as exc:
        from p2pbelka.cli.errors import leaves

        found, begun = list(leaves(exc)), game_id()
        if begun and found and all(isinstance(e, KeyboardInterrupt) for e in found):
            say(left_line(begun if isinstance(begun, str) else begun.hex()))
        raise


def left_line(game_id: str) -> str:
    """What to type to go on with a game left in the middle."""
    return _("left the game: p2pbelka resume {id} goes on with it").format(id=game_id[:12])


def report(result: GameResult, fe: TextFrontEnd, args: argparse.Namespace) -> int:
    if not result.cut_off:  # (else its one line says where, at the end)
        say(_("transcript saved to {path}").format(path=result.store.transcript_path))
    shared = result.shared
    if shared is not None and shared.peers:
        line = _("ladder: {came} results came from the table, {counted} counted")
        say(line.format(came=shared.came, counted=shared.counted))
    if args.stats:
        game_s = (fe.finished or 0.0) - (fe.started or 0.0) if fe.started else 0.0
        figures = {
            "seat": result.seat,
            "finished": result.finished,
            "aborted": result.aborted,
            "cut_off": result.cut_off,
            "deals": fe.deals,
            "deal_ms": fe.deal_ms,
            "deal_cpu_ms": fe.deal_cpu_ms,
            "deal_played": fe.deal_played,
            "game_cpu_ms": round(1000 * fe.cpu_s, 1),
            "game_ms": round(1000 * game_s, 1),
            # Before the game: the program's start (interpreter, imports, arguments,
            # identity), then the lobby (discovery, handshakes, seats, the lot).
            "startup_cpu_ms": round(1000 * fe.ready_cpu_s, 1),
            "lobby_cpu_ms": round(1000 * (fe.started_cpu_s - fe.ready_cpu_s), 1),
            "ready_at": fe.ready_at,
            "started_at": fe.started,
            "bytes_sent": result.bytes_sent,
            "frames_sent": result.frames_sent,
            # waiting for the disk before sending (critical path), and syncing ahead (not)
            "sync_ms": round(1000 * result.store.sync_seconds, 1),
            "syncs": result.store.syncs_done,
            "file_syncs": result.store.file_syncs,
            "sync_ahead_ms": round(1000 * result.store.ahead_seconds, 1),
            "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            "transcript": str(result.store.transcript_path),
            "shared_came": shared.came if shared else None,
            "shared_counted": shared.counted if shared else None,
        }
        say(json.dumps(figures))
    if result.cut_off:
        return cut_off(result)
    return 0 if result.finished else 1
