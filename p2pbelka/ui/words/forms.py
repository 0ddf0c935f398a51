"""The forms a lower layer writes a text in, English only (a table's fault, a verdict's
reason, a host's refusal, a wrong set-up), each matched whole and worded anew in the
player's language; a text this version does not know (another version's) is shown as
written, never lost, and English shows the layers' own words unchanged (scripts and the
docs quote them).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from p2pbelka.ui.words import i18n

Forms = list[tuple[re.Pattern[str], Callable[..., str]]]
"""Each form a lower layer writes a text in: its pattern, and its words from the groups."""


def matched_words(table: Forms, text: str) -> str:
    """``text`` worded by the first form of ``table`` it matches whole; as is if none
    (and in English, whose words the lower layers wrote already)."""
    if i18n.language() == "en":
        return text
    for pattern, words in table:
        found = pattern.fullmatch(text)
        if found is not None:
            return str(words(*found.groups()))
    return text
