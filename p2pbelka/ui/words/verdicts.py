"""A verification's verdict in the player's language: the table words it with the
catalogue it is given and each fault as ``ui/words/faults.py`` does; why a file is no
transcript (``INVALID: byte 0: …``) is worded here by its form, as the transcript
reader writes it (a form this version does not know is shown as written)."""

from __future__ import annotations

import re

from p2pbelka.table.report import VerifyReport
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.continuation import continuation_words
from p2pbelka.ui.words.faults import fault_line
from p2pbelka.ui.words.forms import Forms, matched_words
from p2pbelka.ui.words.i18n import _, translations

_SENDER = r"(?:seat (\d+)|an unknown sender)"
"""Who a record names as its sender, as the transcript readers write it."""

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
    (
        re.compile(r"(\S+): bad signature(?: \[claims to be " + _SENDER + r", seq (\d+)\])?"),
        lambda field, seat, seq: (
            _("{field}: the signature does not verify").format(field=field)
            if seq is None
            else _(
                "{field}: the signature does not verify (it claims to be {who}, seq {seq})"
            ).format(field=field, who=_sender(seat), seq=seq)
        ),
    ),
]

_WHERE = re.compile(r"byte (\d+)(?: \(record (\d+)\))?: (.*)", re.S)

_RECORD = re.compile(r"record (\d+) \(byte (\d+), " + _SENDER + r", seq (\d+)\): (.*)", re.S)
"""A record that decodes but does not belong where it stands (``table/observer.py``)."""


def _sender(seat: str | None) -> str:
    return _("seat {n}").format(n=seat) if seat is not None else _("an unknown sender")


_MISPLACED: Forms = [
    (
        re.compile(r"not a valid continuation: (.*)", re.S),
        lambda why: _("not a valid continuation: {why}").format(why=continuation_words(why)),
    ),
    (
        re.compile(
            r"out of order: expected seat (\d+)'s next message, got seat (\d+) \(seq (\d+)\)"
        ),
        lambda due, seat, seq: _(
            "out of order: seat {due}'s next message was due, seat {seat}'s came (seq {seq})"
        ).format(due=due, seat=seat, seq=seq),
    ),
    (
        re.compile(r"out of order: expected seat (\d+)'s next message, got an unseated key"),
        lambda due: _(
            "out of order: seat {due}'s next message was due, a key of no seat came"
        ).format(due=due),
    ),
    (
        re.compile(
            r"not accepted: its view names (\w+) as seat (\d+)'s envelope (\d+), the file's is"
            r" (\w+) \(its recorder would have waited for the envelope it names, not accepted"
            r" this one\)"
        ),
        lambda named, seat, seq, held: _(
            "not accepted: its view names {named} as seat {seat}'s envelope {seq}, the"
            " file holds {held} (its recorder would have waited for the envelope it names)"
        ).format(named=named, seat=seat, seq=seq, held=held),
    ),
    (
        re.compile(
            r"the game id (\w+) is not the one the seats' nonces give \((\w+)\): no seat"
            r" chooses the id of a game"
        ),
        lambda got, due: _(
            "the game id {got} is not the one the seats' nonces give ({due}): no seat"
            " chooses the id of a game"
        ).format(got=got, due=due),
    ),
]


def reason_words(reason: str) -> str:
    """One reason the envelope or transcript reader gives (``envelope.sig: bad
    signature``) in the player's language; as written if this version does not know it."""
    return matched_words(_REASONS, reason)


def invalid_words(error: str) -> str:
    """Why a file does not read as a transcript, in the player's language."""
    if i18n.language() == "en":
        return error
    placed = _RECORD.fullmatch(error)
    if placed is not None:
        index, offset, seat, seq, why = placed.groups()
        return _("record {index} (byte {offset}, {who}, seq {seq}): {why}").format(
            index=index,
            offset=offset,
            who=_sender(seat),
            seq=seq,
            why=matched_words(_MISPLACED, why),
        )
    found = _WHERE.fullmatch(error)
    if found is None:
        return error
    offset, index, reason = found.groups()
    reason = reason_words(reason)
    if index is None:
        return _("byte {offset}: {why}").format(offset=offset, why=reason)
    return _("byte {offset} (record {index}): {why}").format(offset=offset, index=index, why=reason)


def verdict_words(report: VerifyReport) -> str:
    """The verdict of ``report`` in the player's language; its first word (OK,
    INVALID…) stays as it is, for scripts that read it."""
    if report.error is not None:
        return f"INVALID: {invalid_words(report.error)}"
    return report.verdict_in(translations(), fault_line)
