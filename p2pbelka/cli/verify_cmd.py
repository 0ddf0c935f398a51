"""``p2pbelka verify FILE``: check a saved transcript from the first byte to the last, or
a result certificate (protocol/results.md); ``--certificate OUT`` writes the one a
transcript gives."""

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
    parser.add_argument(
        "file", type=Path, help=_("a transcript saved by a peer, or a result certificate")
    )
    parser.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    parser.add_argument(
        "--record",
        type=Path,
        metavar="OUT",
        help=_("also write the verified deals as a JSON game record (for `p2pbelka referee`)"),
    )
    parser.add_argument(
        "--certificate",
        type=Path,
        metavar="OUT",
        help=_("also write the game's result certificate, signed by your key (for the ladder)"),
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
    if is_certificate(data):
        return verify_certificate(args.file, data)
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
    if args.certificate is not None and not write_certificate(args.certificate, args.file, data):
        return EXIT_USAGE
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


def is_certificate(data: bytes) -> bool:
    from p2pbelka.ladder.certificate import MAGIC

    return data.startswith(MAGIC)


def verify_certificate(path: Path, data: bytes) -> int:
    """Check a result certificate: every signature in it, its closes against each other,
    a proof replayed; 0 if it checks out, 1 (naming the field and seat at fault) if not."""
    from p2pbelka.ladder.certificate import CertificateError, read
    from p2pbelka.ui.words.certificates import refusal_words
    from p2pbelka.ui.words.results import certificate_lines

    try:
        certificate = read(data)
    except CertificateError as exc:
        print("INVALID: " + refusal_words(exc.where, exc.reason))  # the verdict's word stays
        return 1
    for line in certificate_lines(certificate):
        print(line)
    print("OK: " + _("every signature in the certificate checks out"))
    return 0


def write_certificate(out: Path, path: Path, data: bytes) -> bool:
    """Write the certificate of transcript ``data`` (read from ``path``, whose last write
    dates it) to ``out``, signed by the player's key; say why there is none (a disputed
    or unfinished game) and go on."""
    from p2pbelka.ladder.files import certificate_of
    from p2pbelka.ui.words.oserrors import os_error_words

    made = certificate_of(data, at=int(path.stat().st_mtime))
    if isinstance(made, str):
        print(_("no result certificate: {why}").format(why=made), file=sys.stderr)
        return True
    try:
        out.write_bytes(made.raw)
    except OSError as exc:
        print(f"p2pbelka verify: {os_error_words(exc, str(out))}", file=sys.stderr)
        return False
    print(_("result certificate written to {path}").format(path=out))
    return True
