"""``p2pbelka verify FILE``: check a saved transcript from the first byte to the last."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a transcript saved by a peer")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--record",
        type=Path,
        metavar="OUT",
        help="also write the verified deals as a JSON game record (for `p2pbelka referee`)",
    )


def run(args: argparse.Namespace) -> int:
    from p2pbelka.cli.errors import EXIT_USAGE, read_input
    from p2pbelka.table.verify import verify_bytes

    data = read_input(args.file, "verify")
    if data is None:
        return EXIT_USAGE
    report = verify_bytes(data)
    if args.record is not None and report.game is not None and report.game.history:
        from p2pbelka.rules.records import dump_record

        args.record.write_text(dump_record(report.game) + "\n", encoding="utf-8")
    if args.json:
        print(
            json.dumps(
                {
                    "verdict": report.verdict,
                    "ok": report.ok,
                    "records": report.records,
                    "players": list(report.names),
                    "deals": report.deals,
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
            print("players: " + ", ".join(f"{i}={n}" for i, n in enumerate(report.names)))
        for deal in report.deals:
            kind = "re-deal" if deal["redeal_claim"] is not None else f"trump {deal['trump']}"
            print(
                f"deal {deal['deal_id']}: dealer {deal['dealer']}, {kind}, shuffle and 32 cards"
                f" verified, card points {deal['card_points']}, awarded {deal['awarded']},"
                f" score {deal['score']}"
            )
        for fault in report.faults:
            print(f"fault: {fault}")
        print(f"{report.records} envelopes checked")
        print(report.verdict)
    return 0 if report.ok else 1
