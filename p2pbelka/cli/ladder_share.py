"""``p2pbelka ladder --share HOST:PORT --with KEY`` and ``--serve PORT --with KEY...``:
two players share their results (docs/playing.md, "The ladder")."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

import trio

from p2pbelka.ui.words.i18n import _

NOTES = 5
"""Why results were not counted, said one a line for the first few."""

if TYPE_CHECKING:
    from p2pbelka.ladder.ledger import Ledger
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.share import Shared


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from p2pbelka.cli.lan_args import port_number

    way = parser.add_mutually_exclusive_group()
    way.add_argument(
        "--share",
        metavar="HOST:PORT",
        help=_("share results with the player serving there (--with names their key)"),
    )
    way.add_argument(
        "--serve",
        type=port_number,
        metavar="PORT",
        help=_("wait on PORT for players to share results with (--with names each key)"),
    )
    parser.add_argument(
        "--with",
        dest="peers",
        action="append",
        default=[],
        metavar="KEY",
        help=_("a player's key (the 16-digit fingerprint, or the 64-digit key)"),
    )


def wanted(args: argparse.Namespace) -> bool:
    return args.share is not None or args.serve is not None


def run(args: argparse.Namespace, identity: Identity) -> int:
    from p2pbelka.cli.errors import EXIT_USAGE
    from p2pbelka.net.connection import parse_host_port
    from p2pbelka.net.identity import normal_pin

    pins = [normal_pin(p) for p in args.peers]
    if not pins or None in pins:
        print("p2pbelka ladder: " + _("--with expects a player's key"), file=sys.stderr)
        return EXIT_USAGE
    keys = [p for p in pins if p is not None]
    if args.serve is not None:
        return trio.run(_serve, identity, keys, args.serve)
    target = parse_host_port(args.share)
    if target is None:
        print("p2pbelka ladder: " + _("--share expects HOST:PORT"), file=sys.stderr)
        return EXIT_USAGE
    return trio.run(_share, identity, keys[0], target[0], target[1])


def _ledger_of(identity: Identity) -> Ledger:
    from p2pbelka.ladder.ledger import Ledger, ledger_path
    from p2pbelka.peer.store import games_root

    return Ledger(ledger_path(games_root()), identity.public_key)


async def _share(identity: Identity, pin: str, host: str, port: int) -> int:
    from p2pbelka.net.errors import NetError
    from p2pbelka.peer.share import share

    with _ledger_of(identity) as ledger:
        try:
            shared = await share(host, port, pin, identity, ledger)
        except NetError as exc:
            print(f"p2pbelka ladder: {exc}", file=sys.stderr)
            return 1
    _say(shared)
    return 1 if shared.error else 0


async def _serve(identity: Identity, pins: list[str], port: int) -> int:
    from p2pbelka.net.identity import fingerprint
    from p2pbelka.peer.share import serve

    def opened() -> Ledger:
        return _ledger_of(identity)

    async def said(shared: Shared) -> None:
        _say(shared)

    async with trio.open_nursery() as nursery:
        bound = await nursery.start(
            lambda task_status: serve(
                identity, pins, opened, said, port=port, task_status=task_status
            )
        )
        print(
            _("sharing results on port {port} as key {key}; Ctrl-C stops").format(
                port=bound, key=fingerprint(identity.public_key)
            ),
            flush=True,
        )
    return 0


def _say(shared: Shared) -> None:
    from p2pbelka.net.identity import fingerprint
    from p2pbelka.ui.words.certificates import note_words, share_error_words

    print(
        _("shared with {key}: {came} results came, {counted} counted").format(
            key=fingerprint(shared.peer), came=shared.came, counted=shared.counted
        ),
        flush=True,
    )
    for note in shared.notes[:NOTES]:
        print(_("ladder: {note}").format(note=note_words(note)), file=sys.stderr)
    if len(shared.notes) > NOTES:
        more = len(shared.notes) - NOTES
        print(_("ladder: {n} more not counted, kept aside").format(n=more), file=sys.stderr)
    if shared.error:
        print(_("ladder: {note}").format(note=share_error_words(shared.error)), file=sys.stderr)
