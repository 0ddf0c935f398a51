"""The lobby fitted to the screen: its lines wrapped between words at the screen's width,
and, when they are more rows than the screen has, the parts that can say less said
shorter (the rules in one line, the invite code small, the addresses left to the big
screen), least needed first, so that what a person decides on (who sits, who asks to)
stays on screen at 80×24.  No game and no words of its own: ``ui/lobbyview.py`` gives
the parts."""

from __future__ import annotations

from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

Line = StyleAndTextTuples  # one line of the lobby, before wrapping (no newline in it)


@dataclass
class Part:
    """Lines of the lobby that go together, and shorter ways to say them: ``shorter``
    holds (rank, lines), tried in rank order over all the parts (the lowest first), each
    part's steps in the order given (their ranks must grow)."""

    lines: list[Line]
    shorter: list[tuple[int, list[Line]]] = field(default_factory=list)


def line(style: str, text: str) -> Line:
    return [(style, text)]


def fit(parts: list[Part], width: int | None, rows: int | None) -> StyleAndTextTuples:
    """``parts`` as the screen draws them: each line wrapped at ``width`` (continued rows
    indented), parts said shorter until they fit in ``rows``; what is still too much is
    left off at the bottom (the parts come most needed first).  None: no limit."""
    chosen = [part.lines for part in parts]
    steps = sorted(
        (rank, n, k) for n, part in enumerate(parts) for k, (rank, _l) in enumerate(part.shorter)
    )

    def count() -> int:
        return sum(len(wrap(one, width)) for lines in chosen for one in lines)

    for _rank, n, k in steps:
        if rows is None or count() <= rows:
            break
        chosen[n] = parts[n].shorter[k][1]
    out: list[Line] = [row for lines in chosen for one in lines for row in wrap(one, width)]
    if rows is not None:
        out = out[:rows]
    drawn: StyleAndTextTuples = []
    for n, row in enumerate(out):
        drawn += row
        if n < len(out) - 1:
            drawn.append(("", "\n"))
    return drawn


def wrap(one: Line, width: int | None, indent: int = 3) -> list[Line]:
    """One line as rows no wider than ``width``, broken at spaces where it can be (in a
    word only when a word is wider than a row); rows after the first indented."""
    if width is None or sum(get_cwidth(text) for _s, text, *_r in one) <= width:
        return [one]
    cells = [(style, ch) for style, text, *_rest in one for ch in text]
    rows: list[Line] = []
    first = True
    while cells:
        room = width if first else max(1, width - indent)
        used, end, space = 0, 0, -1
        while end < len(cells) and used + get_cwidth(cells[end][1]) <= room:
            if cells[end][1] == " ":
                space = end
            used += get_cwidth(cells[end][1])
            end += 1
        if end < len(cells) and space > 0:
            end = space
        end = max(end, 1)  # a character wider than the row still moves on
        taken, cells = cells[:end], cells[end:]
        while cells and cells[0][1] == " ":
            cells = cells[1:]
        rows.append(_joined(taken, "" if first else " " * indent))
        first = False
    return rows


def _joined(cells: list[tuple[str, str]], prefix: str) -> Line:
    out: Line = [("", prefix)] if prefix else []
    for style, ch in cells:
        if out and out[-1][0] == style:
            out[-1] = (style, out[-1][1] + ch)
        else:
            out.append((style, ch))
    return out
