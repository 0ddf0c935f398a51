"""Table names as a person reads them: one key for names that look the same.

A stranger who names his table "Kitchen tabIe" (a capital I), "Kitchen tab1e" or
"Кitchen table" (a Cyrillic К) beside the real "Kitchen table" hopes the joiner
will not see the difference; ``name_key`` gives all of them one key, so the
table list warns and ``--table`` matches both (and then asks for the key).  The
folding is deliberately coarse: a false warning costs a look at a fingerprint, a
missed one a seat at the wrong table.  Sans-IO, pure functions.
"""

from __future__ import annotations

import unicodedata

__all__ = ["name_key"]

# Applied after NFKC and casefold, so each capital is folded by its small letter
# (Cyrillic "В" -> "в" -> "b").  Each letter maps to the Latin letter it is drawn
# like in common fonts; "i", "l", "1", "|" and their look-alikes all become "l"
# (a capital I is a small l in many fonts), "0" becomes "o".
_LOOKS_LIKE = {
    # Cyrillic
    "а": "a",
    "в": "b",
    "е": "e",
    "ё": "e",
    "һ": "h",
    "н": "h",
    "і": "l",
    "ї": "l",
    "ӏ": "l",
    "ј": "j",
    "к": "k",
    "м": "m",
    "о": "o",
    "р": "p",
    "ԛ": "q",
    "ѕ": "s",
    "т": "t",
    "с": "c",
    "у": "y",
    "ү": "y",
    "х": "x",
    "ԝ": "w",
    "ԁ": "d",
    "ь": "b",
    "з": "3",
    # Greek
    "α": "a",
    "β": "b",
    "ε": "e",
    "η": "h",
    "ι": "l",
    "κ": "k",
    "μ": "m",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "τ": "t",
    "υ": "u",
    "χ": "x",
    "ζ": "z",
    # Latin and digits drawn alike
    "i": "l",
    "ı": "l",
    "1": "l",
    "|": "l",
    "ǀ": "l",
    "0": "o",
}
_FOLD = str.maketrans(_LOOKS_LIKE)

# Marks drawn over or under a letter without changing its look much (a combining
# dot, an invisible joiner): dropped, as a reader does not see them.
_INVISIBLE = {"Mn", "Me", "Cf"}


def name_key(name: str) -> str:
    """What a person reads in a table's name: case, spacing, invisible marks and the
    usual look-alike letters (I/l/1, O/0, Latin/Cyrillic/Greek) folded into one key."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    seen = "".join(c for c in decomposed if unicodedata.category(c) not in _INVISIBLE)
    folded = unicodedata.normalize("NFKC", seen).casefold().translate(_FOLD)
    return " ".join(folded.split())
