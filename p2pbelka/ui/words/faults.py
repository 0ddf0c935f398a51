"""The table's faults, in the player's language, and the line of a peer cut off.

The table words a fault in English, for logs and transcripts, and knows no language.
Here, at the edge, a fault is worded by its kind: each form of ``Fault.what`` the
table of this version writes is matched and worded anew (``ui/words/forms.py``); a
renege names the rule it broke (``ui/words/moverefusals.py``).  A text
this version does not know (another version's) is shown as written, never lost.  In
English the layers' own words are shown unchanged (scripts and the docs quote them);
the msgids here are what the translators read.
"""

from __future__ import annotations

import os
import re

from p2pbelka.table.events import Fault
from p2pbelka.ui.words.forms import Forms, matched_words
from p2pbelka.ui.words.i18n import N_, _
from p2pbelka.ui.words.moverefusals import rule_words, violation_words


def _renege(card: str, n: str, rule_id: str) -> str:
    return _("renege: played {card} in trick {n} ({rule}); charged by the rules").format(
        card=card, n=n, rule=rule_words(rule_id, rule_id)
    )


# each form of Fault.what the table writes: a pattern, and its words from the groups
_FAULTS: Forms = [
    (
        re.compile(r"this machine reached no other seat for (\d+) s: it stopped waiting"),
        lambda s: _("this machine reached no other seat for {s} s: it stopped waiting").format(s=s),
    ),
    (
        re.compile(
            r"this machine could not reach the seats that play on for (\d+) s: it stopped waiting"
        ),
        lambda s: _(
            "this machine could not reach the seats that play on for {s} s: it stopped waiting"
        ).format(s=s),
    ),
    (
        re.compile(r"renege: played (\S+) in trick (\d+) \((\w+)\); charged by the rules"),
        _renege,
    ),
    (
        re.compile(r"held the J♣ and said it did not"),
        lambda: _("held the J♣ and said it did not"),
    ),
    (
        re.compile(r"the audited deal breaks the rules: (.*)"),
        lambda v: _("the audited deal breaks the rules: {what}").format(what=violation_words(v)),
    ),
    (
        re.compile(r"false claim of 1001: (.*)"),
        lambda v: _("false claim of 1001: {what}").format(what=violation_words(v)),
    ),
    (
        re.compile(r"false declaration: (.*)"),
        lambda v: _("false declaration: {what}").format(what=violation_words(v)),
    ),
    (
        re.compile(r"named by seat (\d+): (.*)"),
        lambda s, why: _("named by seat {seat}: {why}").format(seat=s, why=why),
    ),
    (
        re.compile(r"shares do not cover exactly the positions dealt to others"),
        lambda: _("its key shares do not cover exactly the cards dealt to the others"),
    ),
    (
        re.compile(r"its pass names an input deck other than the one it had"),
        lambda: _("its shuffle starts from a deck other than the one it was given"),
    ),
    (
        re.compile(
            r"its view claims (\d+) envelopes of seat (\d+), but only (\d+) come before"
            r" its own in the schedule"
        ),
        lambda n, other, have: _(
            "it claims to have seen {n} messages of seat {other}, but only {have} come"
            " before its own"
        ).format(n=n, other=other, have=have),
    ),
    (
        re.compile(r"signed two different envelopes for its sequence number (\d+)"),
        lambda n: _("signed two different messages for its place {n} in its chain").format(n=n),
    ),
    (
        re.compile(r"did not close the game \(the transcript ends without its close\)"),
        lambda: _("did not close the game (the transcript ends without its close)"),
    ),
    (
        re.compile(r"did not close the game \(named by seat (\d+): (.*)\)"),
        lambda s, why: _("did not close the game (named by seat {seat}: {why})").format(
            seat=s, why=why
        ),
    ),
    (
        re.compile(r"published a bad deck: (.*)"),
        lambda why: _("published a bad deck ({why})").format(why=why),
    ),
    (
        re.compile(r"(\w+) check failed(?: at position (\d+))?: (.*)"),
        lambda step, pos, why: (
            _("the check of the {step} failed at position {pos} ({why})").format(
                step=_step(step), pos=pos, why=_reason(why)
            )
            if pos
            else _("the check of the {step} failed ({why})").format(
                step=_step(step), why=_reason(why)
            )
        ),
    ),
    (
        re.compile(r"the deck does not decode, yet no seat is at fault"),
        lambda: _("the deck does not decode, yet no seat is at fault"),
    ),
    (
        re.compile(r"disputed deal with a sound deck"),
        lambda: _("the deal was disputed, but the deck is sound"),
    ),
    (
        re.compile(r"false dispute: (.*)"),
        lambda what: _("disputed a sound deck: {what}").format(what=_disputed(what)),
    ),
    (
        re.compile(r"sent evidence that proves nothing: (.*)"),
        lambda why: _("sent evidence that proves nothing ({why})").format(why=why),
    ),
    (
        re.compile(r"(.*) after its envelope (\w+) while (\w+) was due"),
        lambda why, digest, phase: _(
            "{why} after its message {digest}, while {phase} was due"
        ).format(why=_silent(why), digest=digest, phase=_phase(phase)),
    ),
    (
        re.compile(r"(.*) while (\w+) was due"),
        lambda why, phase: _("{why}, while {phase} was due").format(
            why=_silent(why), phase=_phase(phase)
        ),
    ),
    (re.compile(r"(went silent(?: for \d+ s)?)"), lambda why: _silent(why)),
]

_PHASES = {
    "sit": N_("taking the seats"),
    "lot_commit": N_("the lot for the first dealer"),
    "lot_reveal": N_("the lot for the first dealer"),
    "commit": N_("the shuffle"),
    "shuffle": N_("the shuffle"),
    "lock": N_("the shuffle"),
    "shares": N_("the deal"),
    "play": N_("the play"),
    "reveal": N_("the check of the deal"),
    "deal_end": N_("the end of the deal"),
    "close": N_("the end of the game"),
}


_STEPS = {
    "commit": N_("commitment"),
    "reveal": N_("revealed seed"),
    "shuffle": N_("shuffle"),
    "lock": N_("lock"),
    "share": N_("key share"),
}


# why a check of the shuffle failed (fairdeal's words), and what a false dispute said
_REASONS: Forms = [
    (
        re.compile(r"(\d+) of (\d+) points differ from the replay of the revealed seed"),
        lambda k, n: _("{k} of {n} points differ from the replay of the revealed seed").format(
            k=k, n=n
        ),
    ),
    (
        re.compile(r"share differs from the revealed seed's"),
        lambda: _("the key share differs from the one the revealed seed gives"),
    ),
    (
        re.compile(r"seed does not match the commitment"),
        lambda: _("the revealed seed does not match the commitment"),
    ),
    (re.compile(r"no 32-byte seed revealed"), lambda: _("no 32-byte seed revealed")),
    (re.compile(r"not a valid group element"), lambda: _("not a valid point of the group")),
    (
        re.compile(r"same point as position (\d+) \(a duplicated card\)"),
        lambda n: _("the same point as position {n} (a card twice)").format(n=n),
    ),
    (
        re.compile(r"pass missing or not a list of points"),
        lambda: _("the pass is missing or is not a list of points"),
    ),
    (
        re.compile(r"expected (\d+) points, got (\d+)"),
        lambda n, got: _("{n} points expected, {got} given").format(n=n, got=got),
    ),
]

_DISPUTES = {
    "says its hand did not open to eight cards": N_("says its hand did not open to eight cards"),
    "says its first six cards did not open": N_("says its first six cards did not open"),
    "says its three more cards did not open": N_("says its three more cards did not open"),
}


def _reason(why: str) -> str:
    return matched_words(_REASONS, why)


def _disputed(what: str) -> str:
    found = _DISPUTES.get(what)
    return _(found) if found else what


def _step(step: str) -> str:
    found = _STEPS.get(step)
    return _(found) if found else step


def _phase(phase: str) -> str:
    found = _PHASES.get(phase)
    return _(found) if found else phase


def _silent(why: str) -> str:
    found = re.fullmatch(r"went silent(?: for (\d+) s)?", why)
    if found is None:
        return why
    if found[1] is None:
        return _("went silent")
    return _("went silent for {s} s").format(s=found[1])


def cut_off_line(
    game_id: bytes | str | None,
    path: str | os.PathLike[str] | None,
    two_seats: bool = False,
    split: bool = False,
) -> str:
    """The one line a peer that reached no other seat says when it stops: the game
    went on without it, what it kept, and what ``resume`` and ``verify`` do with it.
    ``two_seats``: a table of two, where no bot is seated and the other seat stopped
    the same way; ``split``: half the table or more out of reach, where no seat can
    change hands and the game did not go on either."""
    hex_id = game_id.hex() if isinstance(game_id, bytes) else game_id or ""
    if split:
        line = _(
            "Half the table or more could not be reached, and could not reach you: no"
            " seat can change hands then (a change needs every other seat's signature),"
            " so the game stops here, naming nobody.  Saved unfinished (verify:"
            " INCOMPLETE) in {path}; p2pbelka resume {id} plays on once the seats can"
            " reach each other again, p2pbelka verify {path} checks what was saved."
        )
        return line.format(path=path or "-", id=hex_id[:12])
    line = (
        _(
            "The other seat could not be reached, and could not reach you: both stop"
            " here, naming nobody (no bot is seated at a table of two).  Saved unfinished"
            " (verify: INCOMPLETE) in {path}; p2pbelka resume {id} plays on once you can"
            " reach each other again, p2pbelka verify {path} checks what was saved."
        )
        if two_seats
        else _(
            "The game went on without you: no other seat could be reached, and how it"
            " ended could not be learned.  Saved unfinished (verify: INCOMPLETE) in {path};"
            " p2pbelka resume {id} reaches for the others again (while they play, you watch"
            " and take your seat back), p2pbelka verify {path} checks what was saved."
        )
    )
    return line.format(path=path or "-", id=hex_id[:12])


def fault_words(what: str) -> str:
    """``Fault.what`` in the player's language (as written if this version does not
    know its form)."""
    return matched_words(_FAULTS, what)


_FAULT_TEXT = re.compile(r"(?:deal (\d+): )?seat (\d+): (.*)")


def ended_words(why: str) -> str:
    """Why a saved game stopped, as its seat or watch kept it (English: the table's fatal
    faults joined by ``; ``, or what a watch met), in the player's language; a text
    this version does not know is shown as written."""
    from p2pbelka.ui.words.oserrors import explained_words
    from p2pbelka.ui.words.watchnotes import watch_end_words

    out = []
    for part in why.split("; "):
        found = _FAULT_TEXT.fullmatch(part)
        if found is None:
            said = explained_words(part)
            out.append(watch_end_words(part) if said == part else said)
            continue
        deal, seat, what = found.groups()
        said = _("seat {seat}: {what}").format(seat=seat, what=fault_words(what))
        out.append(_("deal {n}: {fault}").format(n=deal, fault=said) if deal else said)
    return "; ".join(out)


def fault_line(fault: Fault) -> str:
    """``deal 2: seat 1: …`` (as ``str(fault)``), in the player's language."""
    said = _("seat {seat}: {what}").format(seat=fault.seat, what=fault_words(fault.what))
    if fault.deal is None:
        return said
    return _("deal {n}: {fault}").format(n=fault.deal, fault=said)
