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
from p2pbelka.ui.i18n import _


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help=_("the game record (JSON), or - for standard input"))


def run(args: argparse.Namespace) -> int:
    import json

    from p2pbelka.net.oserrors import explain
    from p2pbelka.rules.common.errors import RuleViolation
    from p2pbelka.rules.common.recordio import RecordError

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as exc:
        print(f"referee: {explain(exc, args.file)}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start]
        print(
            f"referee: {args.file} is not a game record: byte {byte:#04x} at offset"
            f" {exc.start} is not UTF-8 text (a record is JSON; `p2pbelka verify` reads"
            " saved transcripts)",
            file=sys.stderr,
        )
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(
            f"referee: {args.file} is not JSON: line {exc.lineno} column {exc.colno}: {exc.msg}",
            file=sys.stderr,
        )
        return 2
    records = _records_module(data)
    try:
        record = records.parse_record(data)
    except RecordError as exc:
        print(f"referee: malformed record: {exc}", file=sys.stderr)
        return 2
    try:
        game = records.replay_record(record)
    except RuleViolation as exc:
        print(f"referee: illegal action: {exc.message}", file=sys.stderr)
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
