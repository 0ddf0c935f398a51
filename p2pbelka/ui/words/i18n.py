"""Languages of the screens: gettext catalogs shipped with the package.

Catalogs live in ``locale/<lang>/LC_MESSAGES/p2pbelka.po`` with their
compiled ``.mo`` beside them.  If a ``.mo`` is missing (a source tree where
somebody edited a ``.po`` and has no ``msgfmt``), the ``.po`` is read
directly, so a translation never silently falls back to English.
"""

from __future__ import annotations

import ast
import gettext
import os
import re
from pathlib import Path

DOMAIN = "p2pbelka"
LOCALE_DIR = Path(__file__).parent.parent / "locale"
LANGUAGES = ("en", "ru", "kk")

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


def default_language(environ: dict[str, str] | None = None) -> str:
    """The first supported language named by the usual locale variables, else English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        for part in value.split(":"):
            code = part.split("_")[0].split(".")[0].lower()
            if code in LANGUAGES:
                return code
        if value and value not in ("C", "POSIX"):
            break
    return "en"


def set_language(lang: str) -> None:
    global _current, _language
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (expected one of {', '.join(LANGUAGES)})")
    _language = lang
    _current = load_catalog(lang)


def language() -> str:
    return _language


def translations() -> gettext.NullTranslations:
    """The catalog of the language in use, for code below the screens that words a
    text itself (a verdict) and takes the translator it is given."""
    return _current


def load_catalog(lang: str) -> gettext.NullTranslations:
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if mo.exists():
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    po = mo.with_suffix(".po")
    if po.exists():
        text = po.read_text("utf-8")
        return _PoTranslations(parse_po(text), plural_rule(text))
    return gettext.NullTranslations()


def _(message: str) -> str:
    return _current.gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for the template where it is not translated yet (a table
    built at import, translated where it is shown)."""
    return message


def pgettext(context: str, message: str) -> str:
    return _current.pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


class _PoTranslations(gettext.NullTranslations):
    def __init__(self, catalog: dict[str, str], plural: str | None = None) -> None:
        super().__init__()
        self._catalog = catalog
        self._rule = gettext.c2py(plural) if plural else None

    def gettext(self, message: str) -> str:
        return self._catalog.get(message) or message

    def pgettext(self, context: str, message: str) -> str:
        return self._catalog.get(f"{context}\x04{message}") or message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        # the language's own rule, from the Plural-Forms of the header (English's if none)
        index = self._plural(n)
        chosen = self._catalog.get(f"{msgid1}\x00{index}")
        return chosen or (msgid1 if n == 1 else msgid2)

    def _plural(self, n: int) -> int:
        return int(self._rule(n)) if self._rule is not None else int(n != 1)


def plural_rule(text: str) -> str | None:
    """The ``plural=`` expression of a ``.po`` file's Plural-Forms header, if it has one."""
    found = re.search(r"Plural-Forms:[^\n\"]*plural=([^;\\\"]+)", text)
    return found.group(1).strip() if found else None


def parse_po(text: str) -> dict[str, str]:
    """The translations of a ``.po`` file: msgid (with ``context\\x04`` and plural
    ``\\x00index`` keys as gettext stores them) to msgstr; fuzzy and empty ones left out."""
    catalog: dict[str, str] = {}
    entry: dict[str, str] = {}
    key = ""
    fuzzy = False

    def flush() -> None:
        nonlocal entry, fuzzy
        msgid = entry.get("msgid")
        if msgid and not fuzzy:
            prefix = f"{entry['msgctxt']}\x04" if "msgctxt" in entry else ""
            for name, value in entry.items():
                if value and name == "msgstr":
                    catalog[prefix + msgid] = value
                elif value and name.startswith("msgstr["):
                    catalog[f"{prefix}{msgid}\x00{name[7:-1]}"] = value
        entry, fuzzy = {}, False

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            if "msgid" in entry:
                flush()
            fuzzy = True
        elif not line or line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[key] += ast.literal_eval(line)
        else:
            key, _sep, rest = line.partition(" ")
            done = any(name.startswith("msgstr") for name in entry)  # msgstr or msgstr[N]
            if (key in ("msgctxt", "msgid") and done) or key == "msgctxt":
                if "msgid" in entry:
                    flush()
            entry[key] = ast.literal_eval(rest)
    flush()
    return catalog
