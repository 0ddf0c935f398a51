"""argparse's own lines (``usage:``, ``error:``, "the following arguments are
required", its help headers) in the player's language.

argparse words them with the module-level ``argparse._`` and ``argparse.ngettext``
(gettext's, on the ``messages`` domain nobody ships); :func:`speak_argparse` points
them at the catalogue of :mod:`p2pbelka.ui.words.i18n`, so the same msgids are found in
ours.  The msgids below are argparse's exactly (``tests/ui/test_cli_languages.py``
checks each against the installed argparse): one that a Python version words
otherwise is simply not found and stays English.  The language has to be chosen
before the parser is built, as the headers are worded when it is:
:func:`language_in_argv` reads ``--lang`` first.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.i18n import N_

ARGPARSE_MSGIDS = (
    N_("usage: "),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("show this help message and exit"),
    N_("positional arguments"),
    N_("options"),
)
"""What a player can meet of argparse's words (its errors about its own set-up,
which only a programmer sees, are left out)."""


def _gettext(message: str | None) -> str | None:
    # argparse asks for _(None) where a group has no description
    return None if message is None else i18n._(message)


def speak_argparse() -> None:
    """From now on argparse words its lines in the language :mod:`i18n` speaks."""
    argparse._ = _gettext  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]


def language_in_argv(argv: Sequence[str]) -> str | None:
    """The language ``--lang X`` or ``--lang=X`` names in ``argv``, if a known one."""
    words = list(argv)
    for i, word in enumerate(words):
        if word == "--":
            break
        value = None
        if word == "--lang" and i + 1 < len(words):
            value = words[i + 1]
        elif word.startswith("--lang="):
            value = word.partition("=")[2]
        if value in i18n.LANGUAGES:
            return value
    return None
