"""A grid of styled cells to draw on, turned into prompt_toolkit fragments.

Every character the screens draw (box lines, suit symbols, Latin and Cyrillic
letters) is one cell wide, so placing text at a column is plain indexing.
"""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent

Handler = Callable[[MouseEvent], object]


class Canvas:
    """``faults`` lists what was drawn wrong: text that did not fit (cut at an edge) and
    text drawn over other text (a frame or a word already there); the screens' layout
    test renders every state and asks that none be found."""

    watch: list[Canvas] | None = None
    """When a list, every canvas made is added to it (the layout test reads them)."""

    def __init__(self, width: int, height: int) -> None:
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells: list[list[tuple[str, str, Handler | None]]] = [
            [("", " ", None)] * self.width for _ in range(self.height)
        ]
        self.faults: list[str] = []
        if Canvas.watch is not None:
            Canvas.watch.append(self)

    def put(
        self, y: int, x: int, text: str, style: str = "", handler: Handler | None = None
    ) -> None:
        if not 0 <= y < self.height:
            if text.strip():
                self.faults.append(f"row {y} outside the {self.height} rows: {text!r}")
            return
        row = self.cells[y]
        over, cut = "", False
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                if ch != " " and row[x + i][1] not in (" ", ch):
                    over += row[x + i][1]
                row[x + i] = (style, ch, handler)
            elif ch != " ":
                cut = True
        if over:
            self.faults.append(f"{text!r} at ({y}, {x}) over {over!r}")
        if cut:
            self.faults.append(f"{text!r} at ({y}, {x}) cut at {self.width} columns")

    def center(self, y: int, text: str, style: str = "", handler: Handler | None = None) -> None:
        self.put(y, max(0, (self.width - len(text)) // 2), text, style, handler)

    def blit(self, y: int, x: int, lines: list[StyleAndTextTuples]) -> None:
        """Draw fragment lines (from :func:`box`, say) with their top left at (y, x)."""
        for dy, line in enumerate(lines):
            col = x
            for fragment in line:
                handler = fragment[2] if len(fragment) > 2 else None
                self.put(y + dy, col, fragment[1], fragment[0], handler)
                col += len(fragment[1])

    def fragments(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for y, row in enumerate(self.cells):
            run_style, run_handler, run = "", None, ""
            for style, ch, handler in row:
                if (style, handler) != (run_style, run_handler) and run:
                    out.append(_fragment(run_style, run, run_handler))
                    run = ""
                run_style, run_handler = style, handler
                run += ch
            if run:
                out.append(_fragment(run_style, run, run_handler))
            if y < self.height - 1:
                out.append(("", "\n"))
        return out


def _fragment(
    style: str, text: str, handler: Handler | None
) -> tuple[str, str] | tuple[str, str, Handler]:
    return (style, text) if handler is None else (style, text, handler)


def plain_text(fragments: StyleAndTextTuples) -> str:
    return "".join(fragment[1] for fragment in fragments)
