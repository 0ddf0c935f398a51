"""Operating-system errors in the player's language, the errno's name beside them.

``net/oserrors.py`` words them in English (for logs, and for layers that know no
language); the player reads this: the same sentence from the catalogue, and the
errno's name (``[EADDRINUSE]``), which stays the same in every language and is
what to search for.  An errno that module does not word gets a sentence of ours
with the system's own text beside its name.
"""

from __future__ import annotations

import errno
import re

from p2pbelka.ui.words.i18n import _, language


def error_name(exc: OSError) -> str:
    """``EADDRINUSE``: the errno's symbol (the exception's class name if it has none)."""
    return errno.errorcode.get(exc.errno or -1, type(exc).__name__)


def os_error_words(exc: OSError, where: str | None = None) -> str:
    """One line: what went wrong with ``where`` (a file or HOST:PORT as the player
    typed it), what to do, and the errno's name."""
    from p2pbelka.net.oserrors import words_for  # the network stack: only when needed

    if where:
        place = where
    elif exc.filename is not None:
        place = str(exc.filename)
    else:
        place = _("the address")
    name = error_name(exc)
    words = words_for(exc.errno)
    if words is None:
        system = exc.strerror or str(exc)
        said = _("the operating system refused")
        if where or exc.filename is not None:
            said = _("{where}: the operating system refused").format(where=place)
        return f"{said} [{name}: {system}]" if system else f"{said} [{name}]"
    what, todo = words
    return f"{_(what).format(where=place)}: {_(todo)} [{name}]"


def trying_why(why: str, error: OSError | None, where: str) -> str:
    """Why the host's lobby does not answer (``StillTrying``), in the player's words."""
    if why == "the host waits a moment after a wrong code":
        return _("the host waits a moment after a wrong code")
    return os_error_words(error, where) if error is not None else why


def unreachable_words(exc: BaseException) -> str:
    """A joiner's ``HostUnreachable`` in the player's words: the last OSError (if one)
    and how long nothing answered; its English message otherwise."""
    error = getattr(exc, "error", None)
    if not isinstance(error, OSError):
        return str(exc)
    given_up = _("no answer for {s:.0f} s: given up").format(s=getattr(exc, "patience", 0))
    return f"{os_error_words(error, getattr(exc, 'where', ''))} ({given_up})"


def listen_words(exc: OSError) -> str:
    """Why the tables on the LAN cannot be heard, and the ways on: where no route leads
    to the beacons' group (the peer layer's ``NoMulticastRoute``, with this machine's
    addresses), --interface or --connect; else the error and --connect."""
    addresses = getattr(exc, "addresses", None)
    if addresses is None:
        return _("cannot listen for tables ({why}); use --connect").format(why=os_error_words(exc))
    if not addresses:
        return _(
            "cannot listen for tables: this machine has no network address but loopback"
            " [{name}]; connect it to the network, or join with --connect HOST:PORT"
            " (the host's screen shows it)"
        ).format(name=error_name(exc))
    return _(
        "cannot listen for tables: no route on this machine leads to the tables' multicast"
        " group [{name}]; listen on one of its addresses with --interface ADDRESS ({addresses}),"
        " or join with --connect HOST:PORT (the host's screen shows it)"
    ).format(name=error_name(exc), addresses=", ".join(addresses))


def explained_words(text: str) -> str:
    """A lower layer's English line about an OS error (``net.oserrors.explain``: "nothing
    listens at HOST:PORT: check ...") in the player's language; as written if it is
    not one (another version's, or no OS error at all)."""
    from p2pbelka.net.oserrors import all_words

    if language() == "en":
        return text
    for what, todo in all_words():
        head, _brace, tail = what.partition("{where}")
        where = "(.*)" if _brace else "()"
        pattern = re.escape(head) + where + re.escape(tail) + ": " + re.escape(todo)
        found = re.fullmatch(pattern, text)
        if found is not None:
            return f"{_(what).format(where=found[1])}: {_(todo)}"
    return text
