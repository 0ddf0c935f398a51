"""A terminal that is not UTF-8 (``LC_ALL=C``, an old console): what is written to it
in plain characters a player can still tell apart.

Python (and prompt_toolkit, which encodes with ``errors="replace"``) would write every
suit and every line of a box as ``?``, so ♥ and ♠ look alike, or stop at the first
Cyrillic letter with ``UnicodeEncodeError``.  Here each symbol we draw has a plain
character of its own, one for one so a screen's columns stay where they were: the suits
are the letters of the usual notation (``c d h s``: ``10h``, ``Jc``), a box is drawn
with ``- | +``, Russian and Kazakh letters in an ASCII terminal are written as Latin
ones (so a queen, Д, and a king, К, stay apart), and anything else the terminal cannot
show becomes ``?`` instead of a crash.  ``plain_stdio`` turns this on for
the program's printed lines (and says so once), ``screen_output`` for a full screen.
"""

from __future__ import annotations

import codecs
import os
import sys
from typing import TYPE_CHECKING, TextIO

from p2pbelka.ui.words.i18n import N_, _

if TYPE_CHECKING:  # prompt_toolkit only for a screen: `--help` starts without it
    from prompt_toolkit.output import Output

ERRORS = "p2pbelka-plain"
"""The codec error handler that writes a character the encoding lacks plainly."""

# one character for one: a screen's layout counts columns
_PLAIN = {
    "♣": "c",
    "♦": "d",
    "♥": "h",
    "♠": "s",
    "…": ".",
    "·": ".",
    "→": ">",
    "←": "<",
    "↑": "^",
    "↓": "v",
    "▶": ">",
    "✔": "+",
    "✘": "x",
    "×": "x",
    "—": "-",
    "–": "-",
    "“": '"',
    "”": '"',
    "«": '"',
    "»": '"',
    "■": "#",
    "□": "o",
    "○": "o",
    "●": "*",
    "⚠": "!",
    "§": "S",
    "\u00a0": " ",
}

# Russian and Kazakh letters as Latin ones, one for one (a column stays a column): rough
# to read, but a queen (Д: D) and a king (К: K) stay apart, which ? would not keep
_CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяәғқңөұүһі",
        "abvgdeezzijklmnoprstufhccss'y'euaagqnouuhi",
        strict=True,
    )
)

_HORIZONTAL = set("─━═╌╍┄┅┈┉")
_VERTICAL = set("│┃║╎╏┆┇┊┋")
SAMPLE = "♣♦♥♠─│┌…"
"""What the screens and the text lines draw beyond ASCII: a terminal that shows all of
it needs no plain characters."""


NOT_UTF8 = N_(
    "note: this terminal is not UTF-8 ({encoding}): suits are shown as letters"
    " (c d h s: 10h is the ten of hearts), boxes with - | +, Russian and Kazakh"
    " letters as Latin ones, anything else it cannot show as ?; a UTF-8 locale"
    " (LANG=en_US.UTF-8) shows them all"
)


def plain_char(ch: str) -> str:
    """The plain character for ``ch`` (``?`` for one with none)."""
    if ch in _PLAIN:
        return _PLAIN[ch]
    latin = _CYRILLIC.get(ch.lower())
    if latin is not None:
        return latin.upper() if ch.isupper() else latin
    if ch in _HORIZONTAL:
        return "-"
    if ch in _VERTICAL:
        return "|"
    if "\u2500" <= ch <= "\u257f":  # the corners and joins of a box
        return "+"
    if "\u2580" <= ch <= "\u259f":  # blocks and shades (the invite code drawn large)
        return "#"
    return "?"


def _handler(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(plain_char(ch) for ch in text), error.end


codecs.register_error(ERRORS, _handler)


def encodes(text: str, encoding: str | None) -> bool:
    """Whether a stream in ``encoding`` writes ``text`` as it is."""
    try:
        text.encode(encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def plain(text: str, encoding: str | None) -> str:
    """``text`` with what ``encoding`` cannot write in plain characters."""
    if encodes(text, encoding):
        return text
    return "".join(ch if encodes(ch, encoding) else plain_char(ch) for ch in text)


def needs_plain(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (stdout) is a terminal, file or pipe that cannot write our
    symbols (the suits, a box's lines)."""
    stream = sys.stdout if stream is None else stream
    return not encodes(SAMPLE, getattr(stream, "encoding", None))


def plain_stdio() -> bool:
    """Print plainly where stdout or stderr cannot write our symbols, and say so once
    (on stderr); True if it did."""
    changed = False
    for stream in (sys.stdout, sys.stderr):
        if needs_plain(stream) and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=ERRORS)
            changed = True
    if changed:
        english = NOT_UTF8
        said = _(english)
        encoding = getattr(sys.stderr, "encoding", None)
        # the note in the player's language if the terminal can show it, else in English
        line = said if encodes(said, encoding) else english
        print(line.format(encoding=getattr(sys.stdout, "encoding", "?")), file=sys.stderr)
    return changed


def screen_output(output: Output | None) -> Output | None:
    """The output a full screen should use: ``output`` if one was given (tests), else
    prompt_toolkit's own (None) on a terminal that shows our symbols, else one that
    writes what the terminal's encoding lacks in plain characters."""
    if output is not None or not needs_plain() or not sys.stdout.isatty():
        return output
    from prompt_toolkit.output.vt100 import Vt100_Output

    class PlainOutput(Vt100_Output):
        def write(self, data: str) -> None:
            super().write(plain(data, self.encoding()))

        def write_raw(self, data: str) -> None:
            super().write_raw(plain(data, self.encoding()))

    return PlainOutput.from_pty(sys.stdout, term=os.environ.get("TERM"))
