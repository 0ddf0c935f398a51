"""The coach's advice in the player's words: one line a flagged decision.

The bots' coach (:mod:`p2pbelka.bots.common.coach`) says what it found in numbers
and a reason's kind; this module words it, whichever game it came from.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pbelka.bots.common.coach import Advice, Coach, Reason
from p2pbelka.cards import CARDS
from p2pbelka.ui.words.cardnames import card_label
from p2pbelka.ui.words.i18n import N_, _
from p2pbelka.ui.words.seatnames import who

UNITS = {"game points": N_("game points"), "points": N_("points")}
"""The coaches' units (:attr:`~p2pbelka.bots.common.coach.Coach.unit`) for the catalogue."""


def unit_words(unit: str) -> str:
    """A coach's unit in the player's language."""
    return _(UNITS[unit]) if unit in UNITS else unit


def move_label(coach: Coach, kind: str, move: int) -> str:
    """A graded move as the screen writes it: a card, or the coach's words for a choice
    (each game's screen words put those in the catalogue), its parts with their cards
    ("declaring terz 7♣ 8♣ 9♣ and belle K♥ Q♥")."""
    words = coach.move_words(kind, move)
    if words is None:
        return card_label(CARDS[move])
    parts = coach.move_parts(kind, move)
    if not parts:
        return _(words)
    shown = [f"{_(name)} {' '.join(card_label(CARDS[c]) for c in cards)}" for name, cards in parts]
    what = (
        shown[0]
        if len(shown) == 1
        else _("{some} and {last}").format(some=", ".join(shown[:-1]), last=shown[-1])
    )
    return _(words).format(what=what)


def reason_words(reason: Reason, better: str, played: str) -> str:
    """Why ``better`` beats ``played``, in one clause."""
    if reason.kind == "game":
        return _(
            "after {better} the side wins the game {a}% of the time, after {played} {b}%"
        ).format(better=better, played=played, a=_percent(reason.better), b=_percent(reason.played))
    if reason.kind == "deal":
        return _(
            "{better} wins the deal in {a}% of the deals the seat could face, {played} in {b}%"
        ).format(better=better, played=played, a=_percent(reason.better), b=_percent(reason.played))
    if reason.kind == "scored":
        return _(
            "{better} scores {a} points of combinations on average in the deals the seat"
            " could face, {played} {b}"
        ).format(better=better, played=played, a=f"{reason.better:.0f}", b=f"{reason.played:.0f}")
    if reason.kind == "points":
        return _("{better} brings the side {a} card points on average, {played} {b}").format(
            better=better, played=played, a=f"{reason.better:.0f}", b=f"{reason.played:.0f}"
        )
    return _(
        "{better} does better in {a}% of the deals the seat could face and worse in {b}%"
    ).format(better=better, a=_percent(reason.better), b=_percent(reason.played))


def advice_line(advice: Advice, coach: Coach) -> str:
    """One flagged decision: where, the move made, the better one, the cost and why."""
    played = move_label(coach, advice.kind, advice.played)
    better = move_label(coach, advice.kind, advice.better)
    figures = {
        "deal": advice.deal + 1,
        "trick": advice.trick + 1,
        "played": played,
        "better": better,
        "cost": f"{advice.cost:.2f}",
        "unit": unit_words(coach.unit),
        "error": f"{advice.error:.2f}",
    }
    if coach.move_parts(advice.kind, advice.played) is not None:
        head = _(
            "deal {deal}, lead of trick {trick}: {played} chosen, {better} was better by"
            " {cost} {unit} (±{error})"
        ).format(**figures)
    elif coach.move_words(advice.kind, advice.played) is None:
        head = _(
            "deal {deal}, trick {trick}: {played} played, {better} was better by {cost} {unit}"
            " (±{error})"
        ).format(**figures)
    else:
        head = _(
            "deal {deal}: {played} chosen, {better} was better by {cost} {unit} (±{error})"
        ).format(**figures)
    return head + "; " + reason_words(advice.reason, better, played)


def coach_heading(seat: int, names: Sequence[str], threshold: float, unit: str, worlds: int) -> str:
    """What the lines below are: whose plays, the threshold, how they were judged."""
    return _(
        "Coach for {name}: decisions that cost more than {threshold} {unit}, judged from"
        " what the seat knew then ({worlds} deals of the hidden cards a decision)"
    ).format(
        name=who(seat, names), threshold=f"{threshold:g}", unit=unit_words(unit), worlds=worlds
    )


def coach_summary(flagged: int, graded: int) -> str:
    """How many of the seat's decisions were flagged."""
    return _("{flagged} of {graded} decisions flagged").format(flagged=flagged, graded=graded)


def _percent(share: float) -> str:
    return f"{100 * share:.0f}"
