"""``p2pbelka referee FILE``: check a game record (Belka or Belot) with the rules engine.

The record's ``game`` field picks the game: ``"belka"`` or ``"belot"``.

Prints the game as the rules score it (JSON).  Exit status: 0 when every
action is legal, 1 at the first illegal action (the message names the deal,
trick, seat, card and rule), 2 when the file is not a well-formed record (the
message gives the JSON path).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the game record (JSON), or - for standard input")


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


def _records_module(data: object) -> Any:
    """Belot's record reader for ``"game": "belot"``, else Belka's (which names a bad game)."""
    if isinstance(data, dict) and data.get("game") == "belot":
        from p2pbelka.rules.belot import records as belot_records

        return belot_records
    from p2pbelka.rules.belka import records

    return records
