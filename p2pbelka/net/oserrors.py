"""Operating-system errors in a player's words: what went wrong and what to do.

trio wraps failures in exception groups (a nursery's children, the addresses
tried by ``open_tcp_stream``), and the errno that says what happened sits
deep inside; :func:`first_os_error` digs it out, :func:`explain` words it.
"""

from __future__ import annotations

import errno

# errno -> (what happened, what to do); "{where}" is the file or address at fault.
_WORDS: dict[int, tuple[str, str]] = {
    errno.EADDRINUSE: (
        "{where} is already in use by another program",
        "choose another port, or 0 for any free one",
    ),
    errno.EADDRNOTAVAIL: (
        "{where} is not an address of this machine",
        "use one of this machine's addresses (see `ip address`) or 0.0.0.0 for all",
    ),
    errno.ECONNREFUSED: (
        "nothing listens at {where}",
        "check the address and port the host's screen shows, and that the host is running",
    ),
    errno.EHOSTUNREACH: (
        "{where} cannot be reached",
        "check that both machines are on the same network",
    ),
    errno.ENETUNREACH: (
        "no network reaches {where}",
        "check that this machine is connected to the network",
    ),
    errno.ENETDOWN: ("the network is down", "connect this machine to the network"),
    errno.ETIMEDOUT: (
        "{where} did not answer in time",
        "check the address, and that no firewall is in the way",
    ),
    errno.EACCES: (
        "no permission for {where}",
        "check the file's permissions, or use a port above 1023",
    ),
    errno.EPERM: ("not permitted: {where}", "check permissions, or run without that option"),
    errno.ENOENT: ("{where} does not exist", "check the name and the directory"),
    errno.EISDIR: ("{where} is a directory, not a file", "give the path of a file"),
    errno.ENOTDIR: ("{where}: a part of the path is not a directory", "check the path"),
    errno.ENOSPC: ("no space left for {where}", "free some disk space"),
    errno.EROFS: ("{where} is on a read-only file system", "choose a writable place"),
    errno.EMFILE: ("too many open files", "close some programs and try again"),
}


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
