"""Exit statuses, and any error a command lets through as one line in a player's words.

trio reports failures inside exception groups; the error that matters (an
OSError with its errno, a refused lobby, a malformed file) is dug out and
worded, so no traceback ever reaches a user.  ``P2PBELKA_DEBUG=1`` shows the
traceback of an unexpected error, for a bug report.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import traceback
from collections.abc import Iterator, Mapping
from pathlib import Path

from p2pbelka.ui.words.i18n import N_

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_SETUP = 3
EXIT_BUG = 4
EXIT_CUT_OFF = 5
EXIT_INTERRUPTED = 130

EXIT_STATUSES: Mapping[int, str] = {
    EXIT_OK: N_("success: the game ended, the file verified"),
    EXIT_FAILED: N_("the game was stopped or a check failed (an illegal move, a bad transcript)"),
    EXIT_USAGE: N_("usage or bad input: a wrong option, a missing or malformed file"),
    EXIT_SETUP: N_(
        "set-up: a port taken, an address not on this machine, no permission,\n"
        "      no network, an unreadable config or home directory, no table reached,\n"
        "      the game open in another p2pbelka"
    ),
    EXIT_BUG: N_("an unexpected error in p2pbelka (please report it; P2PBELKA_DEBUG=1 shows more)"),
    EXIT_CUT_OFF: N_(
        "cut off: no other seat could be reached for the whole wait; the game went on\n"
        "      without you and is saved unfinished (p2pbelka resume tries again)"
    ),
    EXIT_INTERRUPTED: N_("interrupted (Ctrl-C)"),
}


def left_status(status: int, interrupted: bool) -> int:
    """The exit status of a screen the player left: ``status``, or 130 after Ctrl-C
    (where the player is asked first, the answer was yes)."""
    return EXIT_INTERRUPTED if interrupted else status


# errors the operating system gives when listening, not when reading a named file
_LISTEN_ERRNOS = (errno.EADDRINUSE, errno.EADDRNOTAVAIL)


def leaves(exc: BaseException) -> Iterator[BaseException]:
    """The exceptions inside ``exc``'s groups, depth first, in order."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from leaves(inner)
    else:
        yield exc


def listen_address(args: argparse.Namespace, code: int) -> str | None:
    """The port (address in use) or address (not on this machine) asked for, as typed."""
    flags = ("--port", "--lobby-port") if code == errno.EADDRINUSE else ("--listen",)
    parts = [
        f"{flag} {value}"
        for flag in flags
        if (value := getattr(args, flag.lstrip("-").replace("-", "_"), None))
        not in (None, 0, "0.0.0.0", "")
    ]
    from p2pbelka.ui.words.i18n import _

    if not parts:
        return None
    if code == errno.EADDRINUSE:
        return _("the port asked for ({flags})").format(flags=", ".join(parts))
    return _("the address asked for ({flags})").format(flags=", ".join(parts))


def _project_error(exc: BaseException) -> tuple[int, str] | None:
    """A status and a line for the project's own error roots; None for others."""
    from p2pbelka.fairdeal.errors import FairDealError
    from p2pbelka.net.errors import NetError
    from p2pbelka.net.identity import IdentityError
    from p2pbelka.peer.storelock import StoreBusy
    from p2pbelka.rules.common.errors import RuleViolation
    from p2pbelka.table.errors import TableError

    if isinstance(exc, NetError | IdentityError):
        return EXIT_SETUP, str(exc)
    if isinstance(exc, StoreBusy):  # a game open in another p2pbelka: it goes on there
        from p2pbelka.ui.words.setuperrors import busy_words

        return EXIT_SETUP, busy_words(exc)
    if isinstance(exc, RuleViolation):
        from p2pbelka.ui.words.moverefusals import violation_words

        return EXIT_FAILED, violation_words(exc.message)
    if isinstance(exc, TableError | FairDealError):
        return EXIT_FAILED, str(exc)
    if isinstance(exc, ValueError | LookupError):
        from p2pbelka.ui.words.setuperrors import error_words

        return EXIT_USAGE, error_words(exc)
    if type(exc).__name__ == "HostUnreachable":  # peer.lan's, without importing the peer layer
        from p2pbelka.ui.words.oserrors import unreachable_words

        return EXIT_SETUP, unreachable_words(exc)
    if type(exc).__name__ == "LobbyRefused":  # peer.lan's, without importing the peer layer
        from p2pbelka.ui.words.admission import lobby_reason

        return EXIT_SETUP, lobby_reason(str(exc))
    return None


def classify(exc: BaseException, args: argparse.Namespace) -> tuple[int, str]:
    """The exit status and one line for an error a command let through."""
    from p2pbelka.net.oserrors import first_os_error
    from p2pbelka.ui.words.oserrors import os_error_words

    found = list(leaves(exc))
    from p2pbelka.ui.words.i18n import _

    if found and all(isinstance(e, KeyboardInterrupt) for e in found):
        return EXIT_INTERRUPTED, _("interrupted")
    os_error = first_os_error(exc)
    if os_error is not None:
        where = listen_address(args, os_error.errno) if os_error.errno in _LISTEN_ERRNOS else None
        return EXIT_SETUP, os_error_words(os_error, where)
    for leaf in found:
        known = _project_error(leaf)
        if known is not None:
            return known
    if found and isinstance(found[0], UnicodeDecodeError):
        bad = found[0]
        return EXIT_USAGE, _("byte {byte:#04x} at offset {offset} is not text").format(
            byte=bad.object[bad.start], offset=bad.start
        )
    first = found[0] if found else exc
    return EXIT_BUG, _(
        "unexpected error ({error}); this is a bug in p2pbelka, "
        "please report it (P2PBELKA_DEBUG=1 shows the details)"
    ).format(error=f"{type(first).__name__}: {first}")


def report_error(prefix: str, exc: BaseException, args: argparse.Namespace) -> int:
    """Print ``exc`` as one line on standard error; return the exit status."""
    status, line = classify(exc, args)
    if os.environ.get("P2PBELKA_DEBUG"):
        traceback.print_exception(exc, file=sys.stderr)
    print(f"{prefix}: {line}", file=sys.stderr)
    return status


def read_input(path: Path, command: str) -> bytes | None:
    """The bytes of a file the player named; None (and one line why) if it cannot be read."""
    from p2pbelka.ui.words.oserrors import os_error_words

    try:
        return path.read_bytes()
    except OSError as exc:
        print(f"p2pbelka {command}: {os_error_words(exc, str(path))}", file=sys.stderr)
        return None
