"""A seat's text log in plain English with seats by number and cards by their record:
the line of an event the player's words (``ui/words/seatlog.py``, English included)
do not word, and the prompts as the table's records write them.

The peer layer's text front end prints what it is given (``peer.text.Words``) and
says nothing of its own.  A game's own events are worded by the game's screen
(``GameUI.event_line``); a fault and a seat changing hands as ``ui/words/faults.py``
and ``ui/words/loglines.py`` word them (in English, exactly as the table records them).
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pbelka.peer.chat import ChatLine
from p2pbelka.peer.driver import CutOff, Resumed, Waiting
from p2pbelka.peer.seatchange.drivers import OfferClosed, OfferWithdrawn, SeatKept, SeatOffer
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table.moves import Move
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.session import Table
from p2pbelka.ui.words.faults import fault_line
from p2pbelka.ui.words.loglines import game_event_line, seat_change_line

MISMATCH = "told different peers different things"
"""What a fault says of a seat that signed two different messages for one place."""


def english_line(event: ev.Event, table: Table) -> str:
    """One line for the log of a game, from the local seat's point of view."""
    said = _table_line(event, table)
    if said is None:
        said = _peer_line(event)
    return said if said is not None else repr(event)


def _seats(names: tuple[str, ...]) -> str:
    return ", ".join(f"{i}={n}" for i, n in enumerate(names))


def _table_line(event: ev.Event, table: Table) -> str | None:
    if isinstance(event, ev.GameStarted) and event.continued:
        return f"the game goes on: {_seats(event.names)}; seat {event.first_dealer} deals next"
    if isinstance(event, ev.GameStarted):
        seats = _seats(event.names)
        return f"game started: {seats}; first dealer by lot: seat {event.first_dealer}"
    if isinstance(event, ev.DealStarted):
        # counted from 1, as the screen and the transcript's deal ids count
        return f"deal {event.number + 1} (id {event.deal_id}): dealer seat {event.dealer}"
    if isinstance(event, ev.HandDealt):
        return f"your hand: {' '.join(str(c) for c in event.cards)}"
    if isinstance(event, ev.GameEvent):
        return game_event_line(event, table)  # worded by the game's screen
    if isinstance(event, ev.ChoiceNeeded):
        return f"your move ({event.kind}): {' '.join(str(o) for o in event.moves)}"
    if isinstance(event, ev.TurnToPlay):
        return f"seat {event.seat} leads"
    if isinstance(event, ev.CardPlayed):
        return f"seat {event.seat} plays {event.card}"
    if isinstance(event, ev.TrickTaken):
        return f"seat {event.winner} takes the trick"
    if isinstance(event, ev.DealAudited):
        head = table.view.transcript[-1].digest.hex()[:16] if table.view.transcript else "-"
        return (
            f"deal id {event.deal_id} verified: {event.summary.log_line()}; transcript head {head}"
        )
    if isinstance(event, ev.CardInTwoHands):
        who = f"seat {event.seat} showed" if event.seat >= 0 else "the open card is"
        return (
            f"DECK TAMPERED WITH: {who} {event.card}, which is in your hand too;"
            " your next card shows your copy to all, and the audit names who did it"
        )
    if isinstance(event, ev.FaultFound):
        return f"FAULT: {fault_line(event.fault)}"
    if isinstance(event, ev.GameOver):
        score = ":".join(str(p) for p in event.score)
        if table.state.setup is not None and not spec(table.state.setup.game).partnership:
            return f"game over: seat {event.winner} wins, score {score}"  # each for oneself
        return f"game over: team {event.winner} wins {score}"
    if isinstance(event, ev.GameAborted):
        return _aborted(event)
    if isinstance(event, ev.MoveRejected):
        return f"move refused: {event.reason}"
    if isinstance(event, ev.Rejected):
        who = f" from seat {event.seat}" if event.seat is not None else ""
        return f"rejected{who}: {event.reason}"
    return None


def _aborted(event: ev.GameAborted) -> str:
    faults = "; ".join(fault_line(f) for f in event.faults)
    if not any(f.fatal for f in event.faults):  # blaming nobody (``Table.abandon``)
        return f"game stopped, unfinished: {faults}"
    if any(MISMATCH in f.what for f in event.faults):
        return f"GAME ABORTED: TRANSCRIPT MISMATCH at the end of a deal: {faults}"
    return f"GAME ABORTED: {faults}"


def _peer_line(event: ev.Event) -> str | None:
    if isinstance(event, Waiting) and event.alone:
        return (
            f"none of the other seats can be reached (silent for {event.seconds:.0f} s):"
            " this machine's network may be down; waiting for it to come back, until"
            f" {event.limit:.0f} s of silence at most (then this peer stops and saves"
            " the game unfinished)"
        )
    if isinstance(event, CutOff) and event.split:
        return (
            f"half the table or more could not be reached for {event.seconds:.0f} s:"
            " this peer stops waiting, naming nobody"
        )
    if isinstance(event, CutOff):
        return f"no other seat could be reached for {event.seconds:.0f} s: this peer stops waiting"
    if isinstance(event, Waiting) and not event.seats:
        return (
            f"waiting for the others to send back what this seat signed before it stopped"
            f" (silent for {event.seconds:.0f} s)"
        )
    if isinstance(event, Waiting):
        seats = ", ".join(str(s) for s in event.seats)
        return f"waiting for seat {seats} (silent for {event.seconds:.0f} s)"
    if isinstance(event, Resumed):
        return "the game goes on"
    if isinstance(event, SeatOffer) and event.back:
        return (
            f"{event.bot}, who played seat {event.seat}, is back: hand the seat back from"
            " the next deal? (the bot finishes the deal in progress)"
        )
    if isinstance(event, SeatOffer):
        return (
            f"seat {event.seat} ({event.name}) has been gone for {event.seconds:.0f} s:"
            f" seat {event.bot} in their place from the next deal? (the deal in progress"
            " is voided; the score carries on)"
        )
    if isinstance(event, OfferClosed):
        return f"no bot for seat {event.seat}: {event.why}"
    if isinstance(event, OfferWithdrawn):
        return f"the question about seat {event.offer.seat} no longer applies"
    if isinstance(event, SeatKept):
        return (
            f"seat {event.seat} stays with the bot for this deal: {event.why}; it is asked"
            " back again from the next deal"
        )
    if isinstance(event, SeatChanged):
        return seat_change_line(event)
    return None


class EnglishWords:
    """The lines as scripts and tests read them: stable, in English
    (a :class:`~p2pbelka.peer.text.Words`)."""

    def describe(self, event: ev.Event, table: Table) -> str:
        return english_line(event, table)

    def chat_line(self, line: ChatLine) -> str:
        earlier = " (earlier)" if line.earlier else ""
        return f"chat{earlier}: {line.name} (seat {line.seat}): {line.text}"

    def offer_choices(self, back: bool, later: bool = False) -> str:
        if back:
            return "y) yes   n) no, the bot plays on"
        if later:
            return "y) yes   n) not now: asked again in a while"
        return "y) yes   n) no, end the game"

    def arrange(self, moves: Sequence[Move]) -> list[Move]:
        return list(moves)

    def choices(self, moves: Sequence[Move]) -> str:
        return "  ".join(f"{i + 1}) {m}" for i, m in enumerate(moves))

    def move_label(self, move: Move) -> str:
        return str(move)

    def no_input(self) -> str:
        return "(no input: the seat stays silent)"

    def type_choice(self, options: int) -> str:
        return f"type 1..{options} or the card"

    def no_chat(self) -> str:
        return "(no chat at this table)"

    def chat_not_sent(self, why: str) -> str:
        return f"chat not sent: {why}"


ENGLISH = EnglishWords()
