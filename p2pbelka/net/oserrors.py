"""Operating-system errors in a player's words: what went wrong and what to do.

trio wraps failures in exception groups (a nursery's children, the addresses
tried by ``open_tcp_stream``), and the errno that says what happened sits
deep inside; :func:`first_os_error` digs it out, :func:`explain` words it.
"""

from __future__ import annotations

import errno
from collections.abc import Mapping


def N_(message: str) -> str:
    """Marks a sentence for the screens' catalogue (the screens translate it; this
    layer knows no language)."""
    return message


# errno -> (what happened, what to do); "{where}" is the file or address at fault.
_WORDS: Mapping[int, tuple[str, str]] = {
    errno.EADDRINUSE: (
        N_("{where} is already in use by another program"),
        N_("choose another port, or 0 for any free one"),
    ),
    errno.EADDRNOTAVAIL: (
        N_("{where} is not an address of this machine"),
        N_("use one of this machine's addresses (see `ip address`) or 0.0.0.0 for all"),
    ),
    errno.ECONNREFUSED: (
        N_("nothing listens at {where}"),
        N_("check the address and port the host's screen shows, and that the host is running"),
    ),
    errno.EHOSTUNREACH: (
        N_("{where} cannot be reached"),
        N_("check that both machines are on the same network"),
    ),
    errno.ENETUNREACH: (
        N_("no network reaches {where}"),
        N_("check that this machine is connected to the network"),
    ),
    errno.ENETDOWN: (N_("the network is down"), N_("connect this machine to the network")),
    errno.ETIMEDOUT: (
        N_("{where} did not answer in time"),
        N_("check the address, and that no firewall is in the way"),
    ),
    errno.EACCES: (
        N_("no permission for {where}"),
        N_("check the file's permissions, or use a port above 1023"),
    ),
    errno.EPERM: (
        N_("not permitted: {where}"),
        N_("check permissions, or run without that option"),
    ),
    errno.ENOENT: (N_("{where} does not exist"), N_("check the name and the directory")),
    errno.EISDIR: (N_("{where} is a directory, not a file"), N_("give the path of a file")),
    errno.ENOTDIR: (N_("{where}: a part of the path is not a directory"), N_("check the path")),
    errno.ENOSPC: (N_("no space left for {where}"), N_("free some disk space")),
    errno.EROFS: (N_("{where} is on a read-only file system"), N_("choose a writable place")),
    errno.EMFILE: (N_("too many open files"), N_("close some programs and try again")),
}


def words_for(code: int | None) -> tuple[str, str] | None:
    """The English (what happened, what to do) of ``code``, if this module words it."""
    return _WORDS.get(code if code is not None else -1)


def all_words() -> list[tuple[str, str]]:
    """Every (what happened, what to do) this module words, in English."""
    return list(_WORDS.values())


def first_os_error(exc: BaseException) -> OSError | None:
    """The first OSError with an errno inside ``exc``: in exception groups, in the
    cause of a wrapper (trio's "all attempts to connect ... failed"), or ``exc`` itself."""
    seen: set[int] = set()
    fallback: OSError | None = None
    todo: list[BaseException] = [exc]
    while todo:
        current = todo.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, OSError):
            if current.errno is not None:
                return current
            fallback = fallback or current
        if isinstance(current, BaseExceptionGroup):
            todo.extend(current.exceptions)
        if current.__cause__ is not None:
            todo.append(current.__cause__)
    return fallback


def where_of(exc: OSError, where: str | None = None) -> str:
    """The file or address an OSError is about, as the player typed it if known."""
    if where:
        return where
    if exc.filename is not None:
        return str(exc.filename)
    return "the address"


def explain(exc: OSError, where: str | None = None) -> str:
    """One line: what went wrong with ``where`` (a file or HOST:PORT) and what to do."""
    place = where_of(exc, where)
    words = _WORDS.get(exc.errno or -1)
    if words is None:
        reason = exc.strerror or str(exc) or type(exc).__name__
        return f"{place}: {reason}" if where or exc.filename is not None else reason
    what, todo = words
    return f"{what.format(where=place)}: {todo}"
