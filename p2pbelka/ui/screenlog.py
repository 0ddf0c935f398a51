"""Nothing writes to the terminal behind a screen: while one is up, what the layers log
(and any line printed to standard error or output) goes to a log file, and a warning
is pointed at from the screen's own log in the player's language.

A line written under a full screen lands wherever the cursor was: it garbled the table,
and once covered the big invite code the host had to read out.  The layers' records
are English for developers; the screen says what they mean in its own words (a wrong
invite code, a seat lost) and this module keeps their text out of its way.  The file is
``p2pbelka.log`` in ``$P2PBELKA_HOME`` when that is set (so two homes' programs keep
apart, as their games do), else in ``$XDG_DATA_HOME/p2pbelka`` (``log_path``;
``p2pbelka --help`` names it).
Everything is put back when the screen closes.
"""

from __future__ import annotations

import io
import logging
import logging.handlers
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from p2pbelka.peer.store import data_home
from p2pbelka.ui.words.i18n import _

LOG_NAME = "p2pbelka.log"
LOG_BYTES = 1_000_000  # then one older file is kept beside it (.1)
FORMAT = "%(asctime)s %(process)d %(name)s %(levelname)s: %(message)s"

Note = Callable[[str], None]
"""Shows a line in the screen's log (called on the screen's own thread)."""


def log_path() -> Path:
    home = os.environ.get("P2PBELKA_HOME")
    return (Path(home) if home else data_home()) / LOG_NAME


class _FileHandler(logging.handlers.RotatingFileHandler):
    """The log file; a file that cannot be written loses the line, never the screen."""

    def _open(self) -> io.TextIOWrapper:
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)  # at the first line
        return super()._open()

    def handleError(self, record: logging.LogRecord) -> None:
        pass  # logging's own report would go to standard error: the screen again


class _Pointer(logging.Handler):
    """For the first warning of a screen: one line in its log saying where it went."""

    def __init__(self, note: Note, call_soon: Callable[..., object], path: Path) -> None:
        super().__init__(logging.WARNING)
        self.note, self.call_soon, self.path = note, call_soon, path
        self.told = False

    def emit(self, record: logging.LogRecord) -> None:
        if self.told:
            return
        self.told = True
        line = _("A warning for the developers went to the log file {path}.")
        try:  # a record may come from a thread (name service); the screen draws in its own
            self.call_soon(self.note, line.format(path=self.path))
        except RuntimeError:
            pass  # the screen's loop has closed

    def handleError(self, record: logging.LogRecord) -> None:
        pass


class _LinesToLog(io.TextIOBase):
    """Standard error or output while a screen is up: each line a record of ``logger``."""

    def __init__(self, logger: logging.Logger, level: int) -> None:
        self.logger, self.level = logger, level
        self._part = ""
        self._busy = threading.local()

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if getattr(self._busy, "on", False):
            return len(text)  # a handler writing here while logging: dropped, not looped
        self._busy.on = True
        try:
            *lines, self._part = (self._part + text).split("\n")
            for line in lines:
                if line.strip():
                    self.logger.log(self.level, "%s", line)
        finally:
            self._busy.on = False
        return len(text)

    def flush(self) -> None:
        if self._part:
            part, self._part = self._part, ""
            self.write(part + "\n")

    def isatty(self) -> bool:
        return False


def _on_terminal(handler: logging.Handler) -> bool:
    """A handler that writes to the terminal (basicConfig's, on standard error)."""
    if isinstance(handler, logging.FileHandler) or not isinstance(handler, logging.StreamHandler):
        return False
    stream = handler.stream
    return stream in (sys.stderr, sys.stdout, sys.__stderr__, sys.__stdout__)


@contextmanager
def logs_off_terminal(
    note: Note | None = None, call_soon: Callable[..., object] | None = None
) -> Iterator[Path]:
    """While inside: log records, standard error and standard output go to the log file
    (``note`` is told the file's place at the first warning, through ``call_soon``);
    after, everything as it was.  Yields the file's path."""
    path = log_path()
    root = logging.getLogger()
    named = root.manager.loggerDict.values()
    loggers = [root, *(lg for lg in named if isinstance(lg, logging.Logger))]
    moved = [(lg, h) for lg in loggers for h in list(lg.handlers) if _on_terminal(h)]
    for lg, h in moved:
        lg.removeHandler(h)
    added: list[logging.Handler] = []
    to_file = _FileHandler(path, maxBytes=LOG_BYTES, backupCount=1, delay=True, encoding="utf-8")
    to_file.setFormatter(logging.Formatter(FORMAT))
    added.append(to_file)
    if note is not None:
        added.append(_Pointer(note, call_soon or (lambda fn, *a: fn(*a)), path))
    for h in added:
        root.addHandler(h)
    saved: tuple[TextIO, TextIO] = (sys.stderr, sys.stdout)
    sys.stderr = _LinesToLog(logging.getLogger("p2pbelka.stderr"), logging.WARNING)
    sys.stdout = _LinesToLog(logging.getLogger("p2pbelka.stdout"), logging.WARNING)
    try:
        yield path
    finally:
        for stream in (sys.stderr, sys.stdout):
            stream.flush()
        sys.stderr, sys.stdout = saved
        for h in added:
            root.removeHandler(h)
            h.close()
        for lg, h in moved:
            lg.addHandler(h)
