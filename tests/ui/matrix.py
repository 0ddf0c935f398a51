"""Games × languages for the screens' and the text mode's tests: every case is kept, and
the default suite runs a covering diagonal of them (each game once, each language once).

The cases run alike but for their words (one drawing code, one catalogue lookup per
line): the diagonal checks every game's screens and every language's words, and
``-m slow`` runs the whole matrix (a language's longer words on another game's screen).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from _pytest.mark import ParameterSet

LANGS = ("ru", "kk", "en")
"""In the order the diagonal gives them to the games: the longest words to the first."""


def diagonal(
    games: Sequence[tuple[object, ...]], langs: Sequence[str] = LANGS
) -> list[ParameterSet]:
    """``(*game, lang)`` for every game and language (the ids two stacked parametrizes
    gave, game first): game ``i`` runs by default in ``langs[i % len(langs)]``, in the
    other languages under ``-m slow``."""
    return [
        pytest.param(
            *game,
            lang,
            marks=() if langs.index(lang) == row % len(langs) else (pytest.mark.slow,),
        )
        for row, game in enumerate(games)
        for lang in langs
    ]
