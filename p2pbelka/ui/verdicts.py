"""A verification's verdict in the player's language: the table words it with the
catalogue it is given and each fault as ``ui/faults.py`` does; why a file is no
transcript (``INVALID: byte 0: …``) is worded here by its form, as the transcript
reader writes it (a form this version does not know is shown as written)."""

from __future__ import annotations

import re

from p2pbelka.table.report import VerifyReport
from p2pbelka.ui import i18n
from p2pbelka.ui.faults import Forms, fault_line, matched_words
from p2pbelka.ui.i18n import _, translations

_REASONS: Forms = [
    (
        re.compile(r"not a p2pbelka transcript \(bad magic\)"),
        lambda: _("not a p2pbelka transcript (it does not begin as one)"),
    ),
    (
        re.compile(
            r"a transcript of protocol version (\d+), from an earlier p2pbelka: this version"
            r" reads version (\d+) only"
        ),
        lambda old, now: _(
            "a transcript of protocol version {old}, from an earlier p2pbelka: this version"
            " reads version {now} only"
        ).format(old=old, now=now),
    ),
    (
        re.compile(r"truncated record length"),
        lambda: _("the file ends inside a record's length: it was cut short"),
    ),
    (
        re.compile(r"record length (\d+) out of range"),
        lambda n: _("a record's length {n} is out of range").format(n=n),
    ),
    (
        re.compile(r"truncated record \((\d+) bytes announced\)"),
        lambda n: _("the file ends inside a record of {n} bytes: it was cut short").format(n=n),
    ),
]

_WHERE = re.compile(r"byte (\d+)(?: \(record (\d+)\))?: (.*)", re.S)


def invalid_words(error: str) -> str:
    """Why a file does not read as a transcript, in the player's language."""
    found = _WHERE.fullmatch(error)
    if found is None or i18n.language() == "en":
        return error
    offset, index, reason = found.groups()
    reason = matched_words(_REASONS, reason)
    if index is None:
        return _("byte {offset}: {why}").format(offset=offset, why=reason)
    return _("byte {offset} (record {index}): {why}").format(offset=offset, index=index, why=reason)


def verdict_words(report: VerifyReport) -> str:
    """The verdict of ``report`` in the player's language; its first word (OK,
    INVALID…) stays as it is, for scripts that read it."""
    if report.error is not None:
        return f"INVALID: {invalid_words(report.error)}"
    return report.verdict_in(translations(), fault_line)
