"""Why a table does not continue the segment before it, in the player's language: the
table's own reasons (``table/carry.py``), which ``verify`` prints after ``not a valid
continuation:`` for a transcript (``verdicts.py``) and for a result certificate's chain
(``certificates.py``).  Ids, counts and scores stay as written; a reason this version
does not know is shown as written.
"""

from __future__ import annotations

import re

from p2pbelka.ui.words.forms import Forms, matched_words
from p2pbelka.ui.words.i18n import _

_ID = r"([0-9a-f]+)"
"""A segment id or a chain's head, as the table writes it (its first 16 hex digits)."""
_SCORE = r"(\[[-\d, ]*\])"

_REASONS: Forms = [
    (
        re.compile(r"a continuation of segment " + _ID + r", but no segment comes before it here"),
        lambda id: _("a continuation of segment {id}, but no segment comes before it here").format(
            id=id
        ),
    ),
    (
        re.compile(r"expected a continuation of segment " + _ID + r", got the table of a new game"),
        lambda id: _("expected a continuation of segment {id}, got the table of a new game").format(
            id=id
        ),
    ),
    (
        re.compile(r"it continues segment " + _ID + r", not " + _ID + r", the one before it"),
        lambda other, before: _(
            "it continues segment {other}, not {before}, the one before it"
        ).format(other=other, before=before),
    ),
    (
        re.compile(r"a continuation must have a segment id of its own: " + _ID + r" .*", re.S),
        lambda id: _(
            "a continuation must have a segment id of its own: {id} is an earlier segment's"
            " of this game"
        ).format(id=id),
    ),
    (
        re.compile(
            r"the segment id " + _ID + r" is not the one its table derives \(" + _ID + r"\).*",
            re.S,
        ),
        lambda id, derived: _(
            "the segment id {id} is not the one its table derives ({derived})"
        ).format(id=id, derived=derived),
    ),
    (
        re.compile(r"segment " + _ID + r" had ended: a finished game is not continued"),
        lambda id: _("segment {id} had ended: a finished game is not continued").format(id=id),
    ),
    (
        re.compile(
            r"the game had not started in segment " + _ID + r": there is nothing to continue"
        ),
        lambda id: _(
            "the game had not started in segment {id}: there is nothing to continue"
        ).format(id=id),
    ),
    (
        re.compile(r"the game was won in segment " + _ID + r": there is nothing to continue"),
        lambda id: _("the game was won in segment {id}: there is nothing to continue").format(
            id=id
        ),
    ),
    (
        re.compile(
            r"it cuts seat (\d+)'s chain at (\d+) envelopes \(head "
            + _ID
            + r"\), but segment "
            + _ID
            + r" holds (\d+) \(head "
            + _ID
            + r"\)"
        ),
        lambda seat, count, head, id, held, ours: _(
            "it cuts seat {seat}'s chain at {count} envelopes (head {head}), but segment {id}"
            " holds {held} (head {ours})"
        ).format(seat=seat, count=count, head=head, id=id, held=held, ours=ours),
    ),
    (
        re.compile(
            r"seat (\d+)'s continuation carries score " + _SCORE + r", dealer (\d+), next deal"
            r" (\d+), but segment "
            + _ID
            + r"'s audited deals give score "
            + _SCORE
            + r", dealer (\d+), next deal (\d+)"
        ),
        lambda host, score, dealer, deal, id, due, due_dealer, due_deal: _(
            "seat {host}'s continuation carries score {score}, dealer {dealer}, next deal"
            " {deal}, but segment {id}'s audited deals give score {due}, dealer"
            " {due_dealer}, next deal {due_deal}"
        ).format(
            host=host,
            score=score,
            dealer=dealer,
            deal=deal,
            id=id,
            due=due,
            due_dealer=due_dealer,
            due_deal=due_deal,
        ),
    ),
    (
        re.compile(
            r"a continuation must keep the game, preset, options, fair-deal version and flow"
        ),
        lambda: _("a continuation must keep the game, preset, options, fair-deal version and flow"),
    ),
    (
        re.compile(r"(\d+) seats, but segment " + _ID + r" had (\d+)"),
        lambda n, id, had: _("{n} seats, but segment {id} had {had}").format(n=n, id=id, had=had),
    ),
    (
        re.compile(r"signed by seat (\d+), the seat that changes hands"),
        lambda seat: _("signed by seat {seat}, the seat that changes hands").format(seat=seat),
    ),
    (
        re.compile(r"seat (\d+) changes too \(only seat (\d+) may change hands\)"),
        lambda other, seat: _(
            "seat {other} changes too (only seat {seat} may change hands)"
        ).format(other=other, seat=seat),
    ),
    (
        re.compile(r"seat (\d+) keeps its key: nothing changes hands"),
        lambda seat: _("seat {seat} keeps its key: nothing changes hands").format(seat=seat),
    ),
    (
        re.compile(r"(\d+) nonces for (\d+) seats"),
        lambda n, seats: _("{n} nonces for {seats} seats").format(n=n, seats=seats),
    ),
    (
        re.compile(r"seat (\d+)'s nonce changes too \(only seat (\d+)'s new holder brings one\)"),
        lambda other, seat: _(
            "seat {other}'s nonce changes too (only seat {seat}'s new holder brings one)"
        ).format(other=other, seat=seat),
    ),
    (
        re.compile(r"seat (\d+)'s new holder brings no nonce of its own \(it keeps the old one\)"),
        lambda seat: _(
            "seat {seat}'s new holder brings no nonce of its own (it keeps the old one)"
        ).format(seat=seat),
    ),
    (
        re.compile(r"seat (\d+), the seat that changes hands, cannot agree to it"),
        lambda seat: _("seat {seat}, the seat that changes hands, cannot agree to it").format(
            seat=seat
        ),
    ),
    (
        re.compile(r"seat (\d+) did not sign the change \(signed by (.*)\)", re.S),
        lambda seat, by: (
            _("seat {seat} did not sign the change (no seat signed it)").format(seat=seat)
            if by == "nobody"
            else _("seat {seat} did not sign the change (signed by {by})").format(seat=seat, by=by)
        ),
    ),
    (
        re.compile(r"seat (\d+)'s agreement is not its signature on this change .*", re.S),
        lambda seat: _(
            "seat {seat}'s agreement is not its signature on this change (forged, or made"
            " for another one)"
        ).format(seat=seat),
    ),
]


def continuation_words(why: str) -> str:
    """Why a table is not a valid continuation (the table's reason, without the words
    ``not a valid continuation:`` before it), in the player's language."""
    return matched_words(_REASONS, why)
