"""The page a screen shows instead of itself when the terminal is too small for it:
the game's own words and what to do, in the player's language (prompt_toolkit's
bare "Window too small..." says neither)."""

from __future__ import annotations

from prompt_toolkit.application import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import ConditionalContainer, FormattedTextControl, HSplit, Window
from prompt_toolkit.layout.containers import AnyContainer

from p2pbelka.ui.words.i18n import _

MIN_COLUMNS, MIN_ROWS = 80, 24


def is_too_small() -> bool:
    size = get_app().output.get_size()
    return size.columns < MIN_COLUMNS or size.rows < MIN_ROWS


def too_small_lines() -> StyleAndTextTuples:
    size = get_app().output.get_size()
    return [
        (
            "",
            _("The terminal is {c}×{r}: too small.").format(c=size.columns, r=size.rows)
            + "\n"
            + _("p2pbelka needs at least {w}×{h}.").format(w=MIN_COLUMNS, h=MIN_ROWS)
            + "\n"
            + _("Make the window larger, or press q to quit."),
        )
    ]


def guarded(screen: AnyContainer) -> AnyContainer:
    """``screen`` while the terminal holds it, else the page saying it is too small."""
    small = Condition(is_too_small)
    page = Window(FormattedTextControl(too_small_lines), style="class:small", wrap_lines=True)
    return HSplit([ConditionalContainer(page, small), ConditionalContainer(screen, ~small)])
