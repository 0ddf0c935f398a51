"""A table screen drawn as text at any terminal size, without a terminal: what a player
would see, row by row, and what did not fit.  The layout test reads it."""

from __future__ import annotations

import io

from prompt_toolkit.application.current import set_app
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text.utils import fragment_list_width
from prompt_toolkit.layout import Window
from prompt_toolkit.layout.controls import DummyControl
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output.vt100 import Vt100_Output

from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.canvas import Canvas


class Terminal:
    """The size a screen is drawn at (its output asks this object)."""

    def __init__(self) -> None:
        self.size = Size(rows=24, columns=80)
        self.output = Vt100_Output(io.StringIO(), lambda: self.size, term="xterm")


def render(screen: TableScreen, terminal: Terminal, columns: int, rows: int) -> Drawn:
    """``screen`` drawn at ``columns``×``rows``: its text and what was cut."""
    terminal.size = Size(rows=rows, columns=columns)
    app = screen.app
    canvases: list[Canvas] = []
    Canvas.watch = canvases
    try:
        # the screen's own app is the current one while its containers are asked for
        # their children (else each filter asking for the app makes a dummy one anew)
        with set_app(app):
            for window in _windows(app.layout.container):
                window.render_info = None  # only what this drawing draws is read below
            drawn = Screen()
            app.layout.container.write_to_screen(
                drawn,
                MouseHandlers(),
                WritePosition(0, 0, columns, rows),
                parent_style="",
                erase_bg=False,
                z_index=None,
            )
            drawn.draw_all_floats()
            cut = [*_cut_lines(app.layout.container)]
    finally:
        Canvas.watch = None
    lines = [
        "".join(drawn.data_buffer[y][x].char for x in range(columns)).rstrip() for y in range(rows)
    ]
    for canvas in canvases:
        cut += canvas.faults
    return Drawn(lines, list(dict.fromkeys(cut)))  # a render draws some panels twice


class Drawn:
    def __init__(self, lines: list[str], faults: list[str]) -> None:
        self.lines, self.faults = lines, faults

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _cut_lines(container: object) -> list[str]:
    """Lines of the windows drawn that are wider than their window."""
    out: list[str] = []
    for window in _windows(container):
        info = window.render_info
        if info is None or isinstance(window.content, DummyControl):
            continue  # (an empty window's content claims 100**100 lines)
        # a line wider than its window is cut, or wrapped by the window in mid-word
        content, width = info.ui_content, info.window_width
        for n in range(content.line_count):
            line = content.get_line(n)
            text = "".join(f[1] for f in line).rstrip()
            if fragment_list_width(line) > width and len(text) > width:
                out.append(f"cut at {width} columns: {text!r}")
    return out


def _windows(container: object) -> list[Window]:
    found: list[Window] = []

    def visit(c: object) -> None:
        if isinstance(c, Window):
            found.append(c)
        for child in c.get_children():  # type: ignore[attr-defined]
            visit(child)

    visit(container)
    return found
