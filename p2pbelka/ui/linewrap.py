"""The one rule every screen wraps its words by: between words, by the columns a
character takes on the terminal (♠ and Cyrillic letters included), never inside a
word or a key's fingerprint (``d7c3 708b …`` moves whole), and a question's keys
(``[y] yes  [n] no``) together on its last row.

:func:`wrap` wraps plain text into rows; :func:`wrap_fragments` wraps styled
fragments (a status line, a title), whose buttons are kept whole.  A word wider than
the whole row is the one thing cut, as it must be, at the row's width.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import OneStyleAndTextTuple, StyleAndTextTuples
from prompt_toolkit.utils import get_cwidth

from p2pbelka.ui.words.cardnames import red_suits

KEY = re.compile(r"(?<![0-9a-f])[0-9a-f]{4}(?: [0-9a-f]{4})+(?![0-9a-f])")
"""A fingerprint (or its start) as the screens show it: groups of four hex digits."""
GLUE = "\x00"  # stands for a space inside a key while it is wrapped as one word
OPENING = "([«\"'“„"
CLOSING = ")]»\"'”.,:;!?…"


def cells(text: str) -> int:
    """The columns ``text`` takes on a terminal."""
    return sum(get_cwidth(ch) for ch in text)


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` in rows of at most ``width`` columns, broken between words only; rows
    after a paragraph's first start with ``indent``; a newline in ``text`` starts a row."""
    width = max(1, width)
    rows: list[str] = []
    for paragraph in text.split("\n"):
        rows += _paragraph(paragraph, width, indent)
    return rows


def _paragraph(text: str, width: int, indent: str) -> list[str]:
    rows: list[str] = []
    row = ""
    for word in words(text):
        joined = f"{row} {word}" if row else word
        if cells(joined.replace(GLUE, " ")) <= width:
            row = joined
            continue
        if row:
            rows.append(row)
        row = "" if cells(indent) >= width else indent
        for piece in _pieces(word, width - cells(row)):
            if cells((row + piece).replace(GLUE, " ")) > width:
                rows.append(row)
                row = ""
            row += piece
    rows.append(row)
    return [r.replace(GLUE, " ").rstrip() for r in rows]


def words(text: str) -> list[str]:
    """The units a row is broken between: words, with a key's groups glued into one
    and a lone bracket or mark (``(``, ``—``'s neighbours aside) kept with its word."""
    text = KEY.sub(lambda m: m.group().replace(" ", GLUE), text)
    out: list[str] = []
    pending = ""
    for word in text.split():
        if all(ch in OPENING for ch in word):
            pending += word + GLUE  # the space kept, the bracket moved with its word
            continue
        word = pending + word
        pending = ""
        if out and all(ch in CLOSING for ch in word):
            out[-1] += GLUE + word
        else:
            out.append(word)
    if pending:
        pending = pending.removesuffix(GLUE)
        if out:
            out[-1] += GLUE + pending
        else:
            out.append(pending)
    return out


def _pieces(word: str, room: int) -> list[str]:
    """A word as it may be laid: whole if it fits a row, a key broken between its groups,
    any other word cut at the row's width (nothing else can be done)."""
    if cells(word.replace(GLUE, " ")) <= room:
        return [word]
    if GLUE in word:
        groups = word.split(GLUE)
        return [g + (GLUE if i < len(groups) - 1 else "") for i, g in enumerate(groups)]
    out, piece = [], ""
    for ch in word:
        if piece and cells(piece + ch) > max(1, room):
            out.append(piece)
            piece = ""
        piece += ch
    return [*out, piece]


# -- styled fragments -----------------------------------------------------------------


@dataclass
class _Atom:
    """What moves to the next row as one: a word (maybe in several styles, as a red
    suit in a card) or a button, and the space before it (dropped at a row's start)."""

    gap: list[OneStyleAndTextTuple] = field(default_factory=list)
    parts: list[OneStyleAndTextTuple] = field(default_factory=list)
    key: bool = False  # a button: one of a question's keys

    def width(self, with_gap: bool) -> int:
        parts = [*self.gap, *self.parts] if with_gap else self.parts
        return sum(cells(p[1]) for p in parts)


def is_button(fragment: OneStyleAndTextTuple) -> bool:
    return len(fragment) > 2 or "button" in fragment[0]


def _atoms(fragments: StyleAndTextTuples) -> list[_Atom]:
    atoms: list[_Atom] = []
    gap: list[OneStyleAndTextTuple] = []
    open_atom = False  # the last atom may take more text (no space since)
    for fragment in fragments:
        if is_button(fragment):
            last = atoms[-1] if atoms else None
            if last is not None and last.key and not gap and last.parts[-1][2:] == fragment[2:]:
                last.parts.append(fragment)  # one button, drawn in two styles (a red suit)
            else:
                atoms.append(_Atom(gap, [fragment], key=True))
            gap, open_atom = [], False
            continue
        style, text = fragment[0], fragment[1]
        glued = KEY.sub(lambda m: m.group().replace(" ", GLUE), text)
        for piece in re.split(r"(\s+)", glued):
            if not piece:
                continue
            if piece.isspace():
                gap.append((style, piece))
                open_atom = False
                continue
            piece = piece.replace(GLUE, " ")
            if open_atom:
                atoms[-1].parts.append((style, piece))
            else:
                atoms.append(_Atom(gap, [(style, piece)]))
                gap, open_atom = [], True
    return _keep_brackets(atoms)


def _keep_brackets(atoms: list[_Atom]) -> list[_Atom]:
    """A lone opening bracket joins the word after it; a lone closing mark, the one before."""
    out: list[_Atom] = []
    carry: _Atom | None = None
    for atom in atoms:
        text = "".join(p[1] for p in atom.parts)
        if not atom.key and text and all(ch in OPENING for ch in text):
            carry = atom if carry is None else _Atom(carry.gap, carry.parts + atom.gap + atom.parts)
            continue
        if carry is not None:
            atom = _Atom(carry.gap, carry.parts + atom.gap + atom.parts, atom.key)
            carry = None
        if out and not atom.key and text and all(ch in CLOSING for ch in text):
            out[-1].parts += atom.gap + atom.parts
            continue
        out.append(atom)
    if carry is not None:
        out.append(carry)
    return out


def wrap_fragments(
    fragments: StyleAndTextTuples, width: int, first: int | None = None
) -> list[StyleAndTextTuples]:
    """Styled ``fragments`` in rows of at most ``width`` columns (the first row ``first``,
    if given: the rows after it indented by the caller), broken between words; the keys
    (buttons) from the first on stay together on the last row when they fit a row, and
    each stays whole."""
    width = max(1, width)

    def room(rows: list[list[_Atom]]) -> int:
        return max(1, first) if first is not None and len(rows) == 1 else width

    atoms = _atoms(fragments)
    first_key = next((i for i, a in enumerate(atoms) if a.key), len(atoms))
    rows: list[list[_Atom]] = [[]]
    used = 0
    for atom in atoms[:first_key]:
        used = _lay(rows, used, atom, room)
    keys = atoms[first_key:]
    if keys:
        alone = keys[0].width(False) + sum(k.width(True) for k in keys[1:])
        if rows[-1] and used + keys[0].width(True) + alone - keys[0].width(False) > room(rows):
            if alone <= width:  # together on a row of their own, rather than split
                rows.append([])
                used = 0
        for atom in keys:
            used = _lay(rows, used, atom, room)
    return [_row_fragments(row) for row in rows]


def _lay(
    rows: list[list[_Atom]], used: int, atom: _Atom, room: Callable[[list[list[_Atom]]], int]
) -> int:
    if rows[-1] and used + atom.width(True) <= room(rows):
        rows[-1].append(atom)
        return used + atom.width(True)
    if rows[-1]:
        rows.append([])
    atom = _Atom([], atom.parts, atom.key)
    if atom.width(False) <= room(rows):
        rows[-1].append(atom)
        return atom.width(False)
    # wider than a row: cut, as nothing else can be done
    used = 0
    for style, text, *rest in atom.parts:
        for ch in text:
            if used + cells(ch) > room(rows):
                rows.append([])
                used = 0
            rows[-1].append(_Atom([], [(style, ch, *rest)]))  # type: ignore[list-item]
            used += cells(ch)
    return used


def _row_fragments(row: list[_Atom]) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    for i, atom in enumerate(row):
        if i:
            out += atom.gap
        out += atom.parts
    return out


def joined(rows: list[StyleAndTextTuples]) -> StyleAndTextTuples:
    """Rows as one fragment list, a newline between them."""
    out: StyleAndTextTuples = []
    for i, row in enumerate(rows):
        if i:
            out.append(("", "\n"))
        out += row
    return out


def rows(text: str, width: int) -> StyleAndTextTuples:
    """A line of a screen (a title, the line under the table): ``text`` after a space,
    wrapped to ``width`` columns, its red suits red."""
    lines = wrap(text, width - 1) if text else [""]
    return red_suits([("", "\n".join(" " + line for line in lines))])


def fit_rows(text: str, width: int, rows: int, indent: str = "") -> list[str]:
    """``text`` wrapped, at most ``rows`` rows: a last row that cannot take the rest
    ends with a mark (…) saying so, never mid-word."""
    lines = wrap(text, width, indent)
    if len(lines) <= rows:
        return lines
    kept = lines[: max(1, rows)]
    last = kept[-1]
    while last and cells(last + " …") > width:
        last = last.rsplit(" ", 1)[0] if " " in last.strip() else ""
    kept[-1] = (last + " …").strip() if last else "…"
    return kept
