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

from p2pbelka.ui.linewrap import wrap_fragments

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
    """One line as rows no wider than ``width``, by the screens' one rule
    (``ui/linewrap.py``: between words, a key's groups and a bracket kept with their
    words; in a word only when it is wider than a row); rows after the first indented,
    and a line's own leading spaces kept on its first row."""
    if width is None or sum(get_cwidth(text) for _s, text, *_r in one) <= width:
        return [one]
    text = "".join(text for _s, text, *_r in one)
    lead = len(text) - len(text.lstrip(" "))
    rows = wrap_fragments(one, max(1, width - indent), first=max(1, width - lead))
    out: list[Line] = [[("", " " * lead), *rows[0]] if lead else rows[0]]
    out += [[("", " " * indent), *row] for row in rows[1:]]
    return out
