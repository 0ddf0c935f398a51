"""Keys by their place on the keyboard: what the same physical key types on the
Russian and Kazakh layouts (ЙЦУКЕН), so that every binding works whichever layout
the player's terminal is on.  A player with ``--lang ru`` most often types with the
Russian layout on: ``т`` is the key of ``n``.

Only the keys a binding may name are here: the letters, the brackets the replay
steps by, and the Kazakh layout's top row, which puts letters (and ``"`` ``,`` ``.``)
where the digits are.  ``.`` is the Kazakh 7 rather than the Russian ``/``: a card
chosen by its number matters more than a second key for the chat (``c``/``с``
opens it on every layout).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from p2pbelka.ui.words.i18n import _

_RUSSIAN: Final[Mapping[str, str]] = dict(
    zip(
        "qwertyuiop[]asdfghjkl;'zxcvbnm`",
        "йцукенгшщзхъфывапролджэячсмитьё",
        strict=True,
    )
)
_KAZAKH_DIGITS: Final[Mapping[str, str]] = dict(zip("1234567890", '"әіңғ,.үұқ', strict=True))

LATIN: Final[Mapping[str, str]] = {
    **{cyrillic: latin for latin, cyrillic in _RUSSIAN.items()},
    **{typed: digit for digit, typed in _KAZAKH_DIGITS.items()},
}
"""What a key types on a Cyrillic layout -> what it types on the Latin one."""

_BY_LATIN: Final[dict[str, tuple[str, ...]]] = {}
for _typed, _latin in LATIN.items():
    _BY_LATIN[_latin] = (*_BY_LATIN.get(_latin, ()), _typed)


def same_place(key: str) -> tuple[str, ...]:
    """The characters the key that types ``key`` (one Latin character) types on the
    Cyrillic layouts; () for any other key name (``enter``, ``c-c``, ``left``)."""
    return _BY_LATIN.get(key, ())


def latin(data: str) -> str:
    """``data`` as the Latin layout types the same key (a digit for ``ә``, ``n`` for
    ``т``); anything else as it is."""
    return LATIN.get(data, data)


def layout_note() -> str:
    """The help's line that says so."""
    return _(
        "Every key works by its place on the keyboard: on the Russian or Kazakh\n"
        "layout press the same keys (н for y, т for n, с for c, д for l)."
    )
