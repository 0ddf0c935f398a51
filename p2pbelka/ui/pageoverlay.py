"""A page over the table (the end of a deal, the score sheet, the end of the game), any
game's: its lines wrapped at the screen's width, scrolled with ↑/↓ when longer than
the screen."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.application import get_app
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.layout import FormattedTextControl, HSplit, Window
from prompt_toolkit.layout.containers import AnyContainer

from p2pbelka.ui.words.cardnames import red_suits

FRAME_ROWS = 4  # the title, the status line, the chat box and the hints


class Pages:
    """The page shown and how far it is scrolled.  ``which`` says which page is up (a
    new one starts at its top); ``footer`` draws the line under it."""

    def __init__(self, which: Callable[[], object]) -> None:
        self._which = which
        self._page: object = None
        self.scroll = 0
        self.overflows = False

    def by(self, rows: int) -> None:
        self.scroll = max(0, self.scroll + rows)

    def container(
        self,
        lines: Callable[[], StyleAndTextTuples],
        footer: Callable[[], StyleAndTextTuples] | None,
        width: Callable[[], int] | None = None,
    ) -> AnyContainer:
        """The page of ``lines`` (and ``footer`` under it), wrapped at ``width`` (the
        screen's, unless given: a page beside the seats is narrower)."""

        def painted() -> StyleAndTextTuples:
            page = self._which()
            if page != self._page:
                self._page, self.scroll = page, 0
            size = get_app().output.get_size()
            columns = width() if width is not None else size.columns
            rows = wrapped_rows(red_suits(lines()), max(1, columns))
            while rows and not "".join(f[1] for f in rows[-1]).strip():
                rows.pop()
            height = max(1, size.rows - FRAME_ROWS - (1 if footer else 0))
            self.overflows = len(rows) > height
            self.scroll = max(0, min(self.scroll, len(rows) - height))
            out: StyleAndTextTuples = []
            for i, row in enumerate(rows[self.scroll : self.scroll + height]):
                if i:
                    out.append(("", "\n"))
                out += row
            return out

        parts: list[AnyContainer] = [Window(FormattedTextControl(painted))]
        if footer is not None:
            parts.append(Window(FormattedTextControl(footer), height=1))
        return HSplit(parts, style="class:report")


INDENT = 2  # a row continued on the next starts this far in


def wrapped_rows(fragments: StyleAndTextTuples, width: int) -> list[StyleAndTextTuples]:
    """The fragments as screen rows: split at each newline, a row longer than ``width``
    continued on the next, indented: broken at a space, else after a ``/`` (a path),
    and only a word longer than the row in mid-word."""
    out: list[StyleAndTextTuples] = []
    for line in split_lines(fragments):
        cells: list[Cell] = [(f[0], ch, tuple(f[2:])) for f in line for ch in f[1]]
        while len(cells) > width:
            cut = _break_at("".join(c[1] for c in cells[: width + 1]), width)
            out.append(_row(cells[:cut]))
            rest = cells[cut:]
            while rest and rest[0][1] == " ":
                rest = rest[1:]  # the space broken at
            if not rest:
                cells = []
                break
            cells = [("", " ", ())] * min(INDENT, max(0, width - 1)) + rest
        out.append(_row(cells))
    return out


Cell = tuple[str, str, tuple[object, ...]]


def _break_at(text: str, width: int) -> int:
    """Where a row of ``text`` (``width`` characters and the one after) is broken."""
    space = text.rfind(" ", 1, width + 1)
    if space > width // 3:
        return space
    slash = text.rfind("/", 1, width)
    if slash > width // 3:
        return slash + 1
    return width


def _row(cells: list[Cell]) -> StyleAndTextTuples:
    row: StyleAndTextTuples = []
    for style, ch, rest in cells:
        if row and row[-1][0] == style and tuple(row[-1][2:]) == rest:
            last = row[-1]
            row[-1] = (last[0], last[1] + ch, *last[2:])
        else:
            row.append((style, ch, *rest))  # type: ignore[arg-type]
    return row
