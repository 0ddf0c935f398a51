"""``p2pbelka verify FILE``: check a saved transcript from the first byte to the last."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from p2pbelka.ui.words.i18n import _

if TYPE_CHECKING:
    from p2pbelka.table.verify import VerifiedDeal


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help=_("a transcript saved by a peer"))
    parser.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    parser.add_argument(
        "--record",
        type=Path,
        metavar="OUT",
        help=_("also write the verified deals as a JSON game record (for `p2pbelka referee`)"),
    )
    parser.add_argument(
        "--every-pass",
        action="store_true",
        help=_(
            "replay every seat's shuffle and lock passes even where the deck came out"
            " as the seeds say (also names cheats that cancelled out and changed no card)"
        ),
    )
    from p2pbelka.ui.words.i18n import LANGUAGES

    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help=_("en, ru or kk (default: locale)")
    )


def run(args: argparse.Namespace) -> int:
    from p2pbelka.cli.errors import EXIT_USAGE, read_input
    from p2pbelka.table.verify import verify_bytes
    from p2pbelka.ui.words.faults import fault_line
    from p2pbelka.ui.words.i18n import _, ngettext
    from p2pbelka.ui.words.verdicts import verdict_words

    data = read_input(args.file, "verify")
    if data is None:
        return EXIT_USAGE
    report = verify_bytes(data, every_pass=args.every_pass)
    if report.malformed:  # not a transcript at all: bad input, not a failed check
        print(
            f"p2pbelka verify: {args.file}: {verdict_words(report)}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.record is not None and report.game_name is not None and report.game is not None:
        if report.game.history:
            text = record_text(report.game_name, report.game)
            args.record.write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(
            json.dumps(
                {
                    "verdict": report.verdict,
                    "ok": report.ok,
                    "records": report.records,
                    "damaged_at": report.cut_at,
                    "players": list(report.names),
                    "changes": report.change_lines,
                    "deals": [deal.to_json() for deal in report.deals],
                    "faults": [
                        {
                            "seat": f.seat,
                            "deal": f.deal,
                            "what": f.what,
                            "fatal": f.fatal,
                            "proven": f.proven,
                            "evidence": list(f.evidence),
                        }
                        for f in report.faults
                    ],
                    "score": report.score,
                    "winner": report.winner,
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        if report.names:
            names = ", ".join(f"{i}={n}" for i, n in enumerate(report.names))
            print(_("players: {names}").format(names=names))
        # Each change of hands just before the first deal it applies to.
        changes = list(zip(report.changes, report.change_lines, strict=True))
        for deal in report.deals:
            while changes and changes[0][0].from_deal <= deal.deal_id:
                print(changes.pop(0)[1])
            print(describe_verified_deal(deal))
        for _change, line in changes:
            print(line)
        for fault in report.faults:
            print(_("fault: {fault}").format(fault=fault_line(fault)))
        n = report.records
        print(ngettext("{n} envelope checked", "{n} envelopes checked", n).format(n=n))
        print(verdict_words(report))
    return 0 if report.ok else 1


def describe_verified_deal(deal: VerifiedDeal) -> str:
    from p2pbelka.ui.words.i18n import _

    return _("deal {n}: {summary}").format(n=deal.deal_id, summary=deal.summary.line(verified=True))


def record_text(game_name: str, game: Any) -> str:
    """The game record of the audited deals, in the format of the game ``game_name``."""
    from p2pbelka.rules import registry

    # Only audited deals: a deal cut short by a fault holds unknown hands.
    record = registry.spec(game_name).records.finished_to_record(game)
    return json.dumps(record, indent=1, ensure_ascii=False)
