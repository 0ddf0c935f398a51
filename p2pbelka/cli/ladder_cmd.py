"""``p2pbelka ladder``: the club's ladder from this machine's ledger (docs/playing.md).

Every game that ended on this machine (played or watched) is counted when it ends;
``--add`` counts certificates others gave (each checked first).  The ledger is
``ladder.sqlite`` beside the games directory.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from p2pbelka.ui.words.i18n import LANGUAGES, _, ngettext

if TYPE_CHECKING:
    from p2pbelka.ladder.ledger import Ledger
    from p2pbelka.ladder.results import Result
    from p2pbelka.protocol.envelope import Signer

LINES = 22
"""What a ladder takes of a 24-line terminal (the command line and the prompt after)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from p2pbelka.rules import registry

    parser.add_argument(
        "--game", choices=registry.names(), default=None, help=_("one game (default: every one)")
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument(
        "--pairs", action="store_true", help=_("partnerships (two players of one side) as one")
    )
    shown.add_argument(
        "--me",
        action="store_true",
        help=_("your own games against each opponent and bot level"),
    )
    parser.add_argument("--json", action="store_true", help=_("print one JSON object"))
    parser.add_argument("--all", action="store_true", help=_("every row, however many"))
    parser.add_argument(
        "--add",
        type=Path,
        nargs="+",
        metavar="CERT",
        default=[],
        help=_("count result certificates others gave you (each is checked first)"),
    )
    from p2pbelka.cli import ladder_share

    ladder_share.add_arguments(parser)
    parser.add_argument(
        "--saved",
        action="store_true",
        help=_(
            "certify and count the games saved here that have no certificate yet"
            " (each is verified first: about a second a game)"
        ),
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help=_("en, ru or kk (default: locale)")
    )


def run(args: argparse.Namespace) -> int:
    import sqlite3

    from p2pbelka.cli.errors import EXIT_SETUP

    try:
        return _run(args)
    except sqlite3.OperationalError as exc:  # busy past the wait, a full disk: no damage
        print(
            "p2pbelka ladder: " + _("the ledger cannot be used now: {why}").format(why=exc),
            file=sys.stderr,
        )
        return EXIT_SETUP


def _run(args: argparse.Namespace) -> int:
    from p2pbelka.cli import ladder_share
    from p2pbelka.ladder.ledger import Ledger, ledger_path
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.store import games_root
    from p2pbelka.protocol.envelope import Signer
    from p2pbelka.ui.words.certificates import note_words

    me = Identity.load_or_create()
    if ladder_share.wanted(args):
        return ladder_share.run(args, me)
    with Ledger(ledger_path(games_root()), me.public_key) as ledger:
        failed = _add(ledger, args.add)
        if args.saved:
            _certify_saved(ledger, Signer(me.private_key))
        for note in ledger.notes:
            print(_("ladder: {note}").format(note=note_words(note)), file=sys.stderr)
        results = ledger.results(args.game)
    by_game: dict[str, list[Result]] = {}
    for result in results:
        by_game.setdefault(result.game, []).append(result)
    bots = _own_bots(me.private_key.private_bytes_raw()) if args.me else {}
    if args.json:
        print(json.dumps(_json(by_game, args, me.public_key, bots), indent=1, ensure_ascii=False))
    else:
        for line in _lines(by_game, args, me.public_key, bots):
            print(line)
    return 1 if failed else 0


def _own_bots(seed: bytes) -> dict[bytes, str]:
    """The keys of the player's own bots (``play``'s), each to its level."""
    from p2pbelka.bots.registry import levels, thinking
    from p2pbelka.peer.local_save import own_bots

    named = list(levels())
    named += [f"{level}:{n}" for level, most in thinking().items() for n in range(1, most + 1)]
    return own_bots(seed, named)


def _add(ledger: Ledger, paths: list[Path]) -> bool:
    """Count each certificate file; True if any could not be read or was not counted."""
    from p2pbelka.cli.errors import read_input

    failed = False
    for path in paths:
        raw = read_input(path, "ladder")
        if raw is None:
            failed = True
            continue
        before = len(ledger.notes)
        if ledger.add(raw, "given") is not None:
            print(_("{path}: counted").format(path=path))
        elif len(ledger.notes) == before:
            print(_("{path}: held already").format(path=path))
        else:
            failed = True
    return failed


def _certify_saved(ledger: Ledger, signer: Signer) -> None:
    """Certify every saved game that has no certificate yet (signed by the player's
    key) and count it; say how many."""
    from p2pbelka.ladder.files import uncertified, write_beside
    from p2pbelka.peer.store import games_root

    counted = 0
    for transcript in uncertified(games_root()):
        made = write_beside(transcript, signer)
        source = "watched" if transcript.parent.name.startswith("watch-") else "played"
        if not isinstance(made, str) and ledger.add_read(made, source) is not None:
            counted += 1
    print(ngettext("{n} saved game counted", "{n} saved games counted", counted).format(n=counted))


def _json(
    by_game: dict[str, list[Result]], args: argparse.Namespace, me: bytes, bots: dict[bytes, str]
) -> object:
    from p2pbelka.ladder.ratings import history, ladder

    out: dict[str, object] = {}
    for game, results in sorted(by_game.items()):
        if args.me:
            rows: list[object] = [
                {**r.to_json(), "bot": bots.get(r.key)} for r in history(results, me)
            ]
            out[game] = {"results": len(results), "me": me.hex(), "opponents": rows}
        else:
            rows = [r.to_json() for r in ladder(results, args.pairs)]
            out[game] = {"results": len(results), "pairs" if args.pairs else "players": rows}
    return {"games": out}


def _lines(
    by_game: dict[str, list[Result]], args: argparse.Namespace, me: bytes, bots: dict[bytes, str]
) -> list[str]:
    from p2pbelka.ladder.ratings import history, ladder
    from p2pbelka.ui.ladder import history_lines, ladder_lines

    if not by_game:
        return [_("no result in the ledger yet: games are counted when they end")]
    count = len(by_game)
    limit = 10**9 if args.all else max(3, (LINES + 1 - 4 * count) // count)
    lines: list[str] = []
    for game, results in sorted(by_game.items()):
        if lines:
            lines.append("")
        if args.me:
            lines += history_lines(game, history(results, me), bots, limit)
        else:
            rows = ladder(results, args.pairs)
            lines += ladder_lines(game, rows, len(results), args.pairs, limit)
    return lines
