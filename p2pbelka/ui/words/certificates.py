"""Why a result certificate was refused, what the ledger set aside, and why an exchange
of results stopped, in the player's language (``verify X.cert``, ``ladder`` and its
sharing).

The certificate reader (``ladder/certificate.py``) names where the fault is (``byte 666,
table``, ``ends[1], seat 1 (Asel)``, ``sig``) and why, in English; the ledger
(``ladder/ledger.py``) writes each note as ``refused: …; kept as PATH``.  Each form is
matched here and worded anew; field names stay as the format names them (docs quote
them), and a form this version does not know is shown as written.
"""

from __future__ import annotations

import re

from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.continuation import continuation_words
from p2pbelka.ui.words.forms import Forms, matched_words
from p2pbelka.ui.words.i18n import N_, _
from p2pbelka.ui.words.verdicts import reason_words

_SAME: frozenset[str] = frozenset(
    {
        N_("expected a time in seconds, before the year 10000"),
        N_("its maker's signature does not check out"),
        N_("expected bytes"),
        N_("expected a map"),
        N_("a certificate version this program does not read"),
        N_("expected an envelope's bytes"),
        N_("a continuation segment is not certified"),
        N_("not signed by that seat's key in this game"),
        N_("no seat's close: the game is not shown finished"),
        N_("its view does not list every seat"),
        N_("its close does not follow the head the closes name"),
        N_("not the envelope at the head the closes name"),
        N_("expected seats in ascending order"),
        N_("a proof's outcome names the seats proven"),
        N_("not the transcript of the game this table opens"),
        N_("refused: made by a key that sat at no seat of the game"),
        N_("refused: a peer sent a game that was not asked for"),
        N_("not counted: a stranger's result between keys never at a table with you"),
        N_("refused: it names another outcome than your own"),
        N_("set aside: two certificates of one game name different outcomes"),
        N_("refused: its game's certificates disagree"),
        N_("the peer sent certificates that are not a list of byte strings"),
        N_("the peer sent a certificate that was not asked for, or junk"),
        N_("the exchange stopped: too slow"),
        N_("the peer sent a second want"),
        N_("expected one envelope for each continuation"),
        N_("not signed by that seat's key in the segment before"),
        N_("not the envelope at the head the continuation names"),
        N_("refused: dated more than 10 minutes before your own certificate"),
        N_("refused: dated more than 10 minutes after this machine's clock"),
    }
)
"""The reader's reasons and the ledger's notes that carry no value: the catalogue has
each as written."""


_REASONS: Forms = [
    (
        re.compile(r"not a p2pbelka result certificate \(bad magic\)"),
        lambda: _("not a p2pbelka result certificate (it does not begin as one)"),
    ),
    (
        re.compile(r"(\d+) bytes of trailing data"),
        lambda n: _("{n} bytes follow the end of the data").format(n=n),
    ),
    (
        re.compile(r"(\d+) bytes is over the limit of (\d+)"),
        lambda n, most: _("{n} bytes is over the limit of {most}").format(n=n, most=most),
    ),
    (re.compile(r"not valid msgpack \((.*)\)", re.S), lambda why: _("not valid msgpack")),
    (
        re.compile(r"not in canonical msgpack encoding"),
        lambda: _("not in the one encoding the format allows"),
    ),
    (
        re.compile(r"not a usable Ed25519 (?:public )?key(?: \(small order or non-canonical\))?"),
        lambda: _("not a usable Ed25519 key"),
    ),
    (
        re.compile(r"unknown message type (.*)", re.S),
        lambda kind: _("unknown message type {kind}").format(kind=kind),
    ),
    (
        re.compile(r"unsupported protocol version (\d+)"),
        lambda v: _("a protocol version this program does not read ({v})").format(v=v),
    ),
    (
        re.compile(r"unknown field\(s\) (\S+)(?:; missing field\(s\) (\S+))?"),
        lambda unknown, missing: (
            _("unknown fields {names}").format(names=unknown)
            if missing is None
            else _("unknown fields {names}; missing fields {missing}").format(
                names=unknown, missing=missing
            )
        ),
    ),
    (
        re.compile(r"expected 'closed', 'proven' or 'chained', got (.*)", re.S),
        lambda got: _("expected 'closed', 'proven' or 'chained', got {got}").format(got=got),
    ),
    (
        re.compile(r"expected 1 to (\d+) continuations' tables"),
        lambda most: _("expected 1 to {most} continuations' tables").format(most=most),
    ),
    (
        re.compile(r"not a valid continuation: (.*)", re.S),
        lambda why: _("not a valid continuation: {why}").format(why=continuation_words(why)),
    ),
    (
        re.compile(r"expected exactly the keys (.*)"),
        lambda keys: _("expected exactly the keys {keys}").format(keys=keys),
    ),
    (
        re.compile(r"expected a map with exactly the keys (.*)", re.S),
        lambda keys: _("expected a map with exactly the keys {keys}").format(keys=keys),
    ),
    (
        re.compile(r"expected one envelope for each of the (\d+) seats"),
        lambda n: _("expected one envelope for each of the {n} seats").format(n=n),
    ),
    (
        re.compile(r"its close names other chain heads than seat (\d+)'s"),
        lambda seat: _("its close names other chain heads than seat {seat}'s").format(seat=seat),
    ),
    (
        re.compile(r"expected \{score, winner\} or \{proven\}"),
        lambda: _("expected {{score, winner}} or {{proven}}").format(),
    ),
    (
        re.compile(r"expected (\d+) whole numbers, one a side"),
        lambda n: _("expected {n} whole numbers, one a side").format(n=n),
    ),
    (
        re.compile(r"expected a side, 0 to (\d+)"),
        lambda most: _("expected a side, 0 to {most}").format(most=most),
    ),
    (
        re.compile(r"proves no seat at fault \((.*)\)", re.S),
        lambda verdict: _("proves no seat at fault ({verdict})").format(verdict=verdict),
    ),
    (
        re.compile(r"the transcript proves seats (\[.*\]), not (\[.*\])"),
        lambda proven, named: _("the transcript proves seats {proven}, not {named}").format(
            proven=proven, named=named
        ),
    ),
]

_FIELD = r"[a-z]+(?:\[\d+\])?(?:\.[a-z]+)*"
_WHERE = re.compile(
    r"(?:byte (\d+)(?:, |$))?(" + _FIELD + r")?(?:, seat (\d+) \((.*?)\))?(?=: |$)", re.S
)
"""Where the reader says the fault is: a byte offset, a field, a seat."""


def where_words(where: str) -> str:
    """Where a certificate is at fault, its words for a byte and a seat translated."""
    found = _WHERE.fullmatch(where)
    if i18n.language() == "en" or found is None:
        return where
    offset, field, seat, name = found.groups()
    parts = [_("byte {n}").format(n=offset)] if offset is not None else []
    parts += [field] if field else []
    if seat is not None:
        parts.append(_("seat {seat} ({name})").format(seat=seat, name=name))
    return ", ".join(parts)


_INNER = re.compile(r"((?:body of )?[\w.\[\]]+): (.*)", re.S)
"""A reason of the envelope reader's: the field of the envelope, then why."""


def _worded(reason: str) -> str:
    return _(reason) if reason in _SAME else matched_words(_REASONS, reason)


def _reason(reason: str) -> str:
    why = _worded(reason)
    if why != reason:
        return why
    inner = _INNER.fullmatch(reason)
    if inner is not None:
        field, what = inner.groups()
        worded = _worded(what)
        if worded != what:
            return f"{field}: {worded}"
    return reason_words(reason)  # a bad signature, as a transcript's


def refusal_words(where: str, reason: str) -> str:
    """A ``CertificateError``'s ``where: reason`` in the player's language."""
    return f"{where_words(where)}: {_reason(reason)}"


def error_words(text: str) -> str:
    """A ``CertificateError`` written as ``str`` (inside a ledger's note)."""
    if i18n.language() == "en":
        return text
    found = _WHERE.match(text)
    if found is None or not found.group(0) or not text[found.end() :].startswith(": "):
        return text
    return refusal_words(found.group(0), text[found.end() + 2 :])


_NOTES: Forms = [
    (
        re.compile(r"the certificate of game (\w+) was damaged"),
        lambda game: _("the certificate of game {game} was damaged").format(game=game),
    ),
    (
        re.compile(r"a damaged record of game (\w+) was moved aside"),
        lambda game: _("a damaged record of game {game} was moved aside").format(game=game),
    ),
    (
        re.compile(r"refused from a peer: (.*)", re.S),
        lambda why: _("refused from a peer: {why}").format(why=error_words(why)),
    ),
    (
        re.compile(r"refused: (.*)", re.S),
        lambda why: _("refused: {why}").format(why=error_words(why)),
    ),
]

_KEPT = re.compile(r"(.*); kept as (.*)", re.S)


def note_words(note: str) -> str:
    """A ledger's note (what it refused or set aside, and where it kept it)."""
    if i18n.language() == "en":
        return note
    kept = _KEPT.fullmatch(note)
    if kept is None:
        return _note(note)
    why, path = kept.groups()
    return _("{why}; kept as {path}").format(why=_note(why), path=path)


def _note(note: str) -> str:
    return _(note) if note in _SAME else matched_words(_NOTES, note)


_SHARING: Forms = [
    (
        re.compile(r"the peer sent a message that does not decode \((.*)\)", re.S),
        lambda why: _("the peer sent a message that does not decode"),
    ),
    (
        re.compile(r"the peer sent a message this exchange does not know \((.*)\)", re.S),
        lambda kind: _("the peer sent a message this exchange does not know ({kind})").format(
            kind=kind
        ),
    ),
    (
        re.compile(r"the peer sent a message out of turn \((.*)\)", re.S),
        lambda kind: _("the peer sent a message out of turn ({kind})").format(kind=kind),
    ),
    (
        re.compile(r"the peer sent a message after its done \((.*)\)", re.S),
        lambda kind: _("the peer sent a message after its last one ({kind})").format(kind=kind),
    ),
    (
        re.compile(r"the peer (\w+): expected at most (\d+) game ids of (\d+) bytes"),
        lambda where, most, size: _(
            "the peer's {where} names more than {most} games, or ids not of {size} bytes"
        ).format(where=where, most=most, size=size),
    ),
    (
        re.compile(r"the peer (\w+): the game ids are not in ascending order, each once"),
        lambda where: _("the peer's {where} names its games out of order, or one twice").format(
            where=where
        ),
    ),
    (
        re.compile(r"the peer sent more than (\d+) bytes of certificates"),
        lambda most: _("the peer sent more than {most} bytes of certificates").format(most=most),
    ),
    (
        re.compile(r"the exchange stopped: (.+)", re.S),
        lambda why: _("the exchange stopped: {why}").format(why=why),
    ),
]


def share_error_words(error: str) -> str:
    """Why an exchange of results stopped (``peer/share.py``'s ``Shared.error``)."""
    return _(error) if error in _SAME else matched_words(_SHARING, error)
