"""``p2pbelka referee FILE``: check a game record (Belka or Belot) with the rules engine.

The record's ``game`` field picks the game (any the registry knows: each reads its own
records).

Prints the game as the rules score it (JSON).  Exit status: 0 when every
action is legal, 1 at the first illegal action (the message names the deal,
trick, seat, card and rule), 2 when the file is not a well-formed record (the
message gives the JSON path).
"""

from __future__ import annotations

import argparse
import sys

from p2pbelka.rules.spec import RecordFormat
from p2pbelka.ui.words.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help=_("the game record (JSON), or - for standard input"))
    from p2pbelka.ui.words.i18n import LANGUAGES

    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help=_("en, ru or kk (default: locale)")
    )


def run(args: argparse.Namespace) -> int:
    import json

    from p2pbelka.rules.common.errors import RuleViolation
    from p2pbelka.rules.common.recordio import RecordError
    from p2pbelka.ui.words.oserrors import os_error_words

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        print(f"referee: {os_error_words(exc, args.file)}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start]
        print(
            "referee: "
            + _(
                "{file} is not a game record: byte {byte:#04x} at offset {offset} is not"
                " UTF-8 text (a record is JSON; `p2pbelka verify` reads saved transcripts)"
            ).format(file=args.file, byte=byte, offset=exc.start),
            file=sys.stderr,
        )
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(
            "referee: "
            + _("{file} is not JSON: line {line} column {column}: {why}").format(
                file=args.file, line=exc.lineno, column=exc.colno, why=exc.msg
            ),
            file=sys.stderr,
        )
        return 2
    records = _records_module(data)
    try:
        record = records.parse_record(data)
    except RecordError as exc:
        print("referee: " + _("malformed record: {why}").format(why=exc), file=sys.stderr)
        return 2
    try:
        game = records.replay_record(record)
    except RuleViolation as exc:
        from p2pbelka.ui.words.moverefusals import violation_words

        what = violation_words(exc.message)
        print("referee: " + _("illegal action: {what}").format(what=what), file=sys.stderr)
        return 1
    print(json.dumps(records.report(game), indent=2, ensure_ascii=False))
    return 0


def _records_module(data: object) -> RecordFormat:
    """The record reader of the game the record names, else the default game's (which
    names what is wrong: not an object, or a game it does not know)."""
    from p2pbelka.rules import registry

    named = data.get("game") if isinstance(data, dict) else None
    game = named if isinstance(named, str) and named in registry.names() else registry.DEFAULT
    return registry.spec(game).records
