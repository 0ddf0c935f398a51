"""An invite code drawn large, so a room can read it off the host's screen."""

from __future__ import annotations

from collections.abc import Mapping

from p2pbelka.ui.words.i18n import pgettext

# Three columns by five rows a digit, in full blocks: legible from across a table in
# any terminal font (box-drawing glyphs vary, blocks do not).
_FONT: Mapping[str, tuple[str, ...]] = {
    "0": ("███", "█ █", "█ █", "█ █", "███"),
    "1": (" █ ", "██ ", " █ ", " █ ", "███"),
    "2": ("███", "  █", "███", "█  ", "███"),
    "3": ("███", "  █", " ██", "  █", "███"),
    "4": ("█ █", "█ █", "███", "  █", "  █"),
    "5": ("███", "█  ", "███", "  █", "███"),
    "6": ("███", "█  ", "███", "█ █", "███"),
    "7": ("███", "  █", " █ ", " █ ", " █ "),
    "8": ("███", "█ █", "███", "█ █", "███"),
    "9": ("███", "█ █", "███", "  █", "███"),
    " ": ("  ", "  ", "  ", "  ", "  "),
}
ROWS = 5


def big_code(code: str) -> list[str]:
    """The rows of ``code`` drawn large, or [] if it has characters the font lacks
    (a code a person chose with letters is shown as it is)."""
    if not code or any(ch not in _FONT for ch in code):
        return []
    return [" ".join(_FONT[ch][row] for ch in code) for row in range(ROWS)]


def digit_words() -> tuple[str, ...]:
    """The words for 0 to 9 in the screen's language, to say a code aloud."""
    return (
        pgettext("digit", "zero"),
        pgettext("digit", "one"),
        pgettext("digit", "two"),
        pgettext("digit", "three"),
        pgettext("digit", "four"),
        pgettext("digit", "five"),
        pgettext("digit", "six"),
        pgettext("digit", "seven"),
        pgettext("digit", "eight"),
        pgettext("digit", "nine"),
    )
