"""The seats' text mode (``host``, ``join``, ``--text`` or stdout no terminal) in the
player's language: the :class:`~p2pbelka.peer.text.Words` the text front end prints.

For a person, English included: seats by name (their number in brackets where two
share a name), a hand sorted as the screen sorts it, cards as the screen writes them
(``7♣``, typed back as ``7C``, the card's label or its number), a deal's result in
words.  Scripts read ``--json`` (``ui/words/jsonlog.py``).  A line these words lack
falls back to ``ui/words/englishlog.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2pbelka.cards import Card, Suit
from p2pbelka.peer.chat import ChatLine, watchers_named
from p2pbelka.peer.driver import CutOff, Resumed, Waiting
from p2pbelka.peer.seatchange.drivers import OfferClosed, OfferWithdrawn, SeatKept, SeatOffer
from p2pbelka.peer.text import Words
from p2pbelka.table import events as ev
from p2pbelka.table.moves import Move, PlayCard
from p2pbelka.table.segments import SeatChanged
from p2pbelka.table.session import Table
from p2pbelka.ui.words.cardnames import card_label
from p2pbelka.ui.words.englishlog import MISMATCH, english_line
from p2pbelka.ui.words.faults import fault_line
from p2pbelka.ui.words.i18n import _, ngettext
from p2pbelka.ui.words.loglines import (
    game_event_line,
    game_over_line,
    hand_line,
    hand_order,
    move_label,
    seat_change_line,
    summary_line,
    table_names,
)
from p2pbelka.ui.words.moverefusals import violation_words
from p2pbelka.ui.words.seatnames import seats_line, who


class SeatWords:
    """The seat's log and prompts in the language set by ``--lang`` or the locale."""

    def __init__(self) -> None:
        # what orders a hand as the screen does: the game's order and the deal's trump
        self._sort: Callable[[list[Card], Suit | None], list[Card]] | None = None
        self._trump: Suit | None = None
        self.coach = False
        """``--coach``: each verified deal's line is followed by the coach's lines on this
        seat's decisions in it (graded there and then: a second or two)."""
        self.coach_worlds: int | None = None
        """``--coach-worlds``: the deals drawn to grade each decision (None: the coach's
        own number)."""

    def describe(self, event: ev.Event, table: Table) -> str:
        self._follow(event, table)
        said = self._table_line(event, table)
        if said is None:
            said = self._peer_line(event)
        said = said if said is not None else english_line(event, table)
        if self.coach and isinstance(event, ev.DealAudited):
            said = "\n".join([said, *("  " + line for line in self._coached(event, table))])
        return said

    def _coached(self, event: ev.DealAudited, table: Table) -> list[str]:
        from p2pbelka.ui.coachpage import deal_coaching

        state = table.state
        if state.setup is None or state.me is None or state.game is None:
            return []
        number = event.summary.number
        return deal_coaching(state.setup.game, state.game, state.me, number, self.coach_worlds)

    def _follow(self, event: ev.Event, table: Table) -> None:
        """The trump of the deal in play, as the game's events tell it: any game's event
        that names one (Belka's J♣, Belot's call) by its letter."""
        if isinstance(event, ev.DealStarted | ev.HandDealt | ev.ChoiceNeeded):
            self._sort = hand_order(table)
        if isinstance(event, ev.DealStarted):
            self._trump = None
        trump = getattr(event, "trump", None) if isinstance(event, ev.GameEvent) else None
        if isinstance(trump, str) and trump:
            self._trump = Suit.parse(trump)

    def _table_line(self, event: ev.Event, table: Table) -> str | None:
        seated = ev.DealStarted | ev.TurnToPlay | ev.CardPlayed | ev.TrickTaken
        names = table_names(table) if isinstance(event, seated) else ()
        if isinstance(event, ev.GameStarted) and event.continued:
            return _("the game goes on: {seats}; {dealer} deals next").format(
                seats=seats_line(event.names), dealer=who(event.first_dealer, event.names)
            )
        if isinstance(event, ev.GameStarted):
            return _("game started: {seats}; first dealer by lot: {dealer}").format(
                seats=seats_line(event.names), dealer=who(event.first_dealer, event.names)
            )
        if isinstance(event, ev.DealStarted):
            return _("deal {n}: {dealer} deals").format(
                n=event.number + 1, dealer=who(event.dealer, names)
            )
        if isinstance(event, ev.HandDealt):
            cards = hand_line(event.cards, table, self._trump)
            return _("your hand: {cards}").format(cards=cards)
        if isinstance(event, ev.GameEvent):
            return game_event_line(event, table)
        if isinstance(event, ev.ChoiceNeeded):
            return _("your move ({kind}): {moves}").format(
                kind=event.kind, moves=" ".join(move_label(m) for m in self.arrange(event.moves))
            )
        if isinstance(event, ev.TurnToPlay):
            return _("{seat} leads").format(seat=who(event.seat, names))
        if isinstance(event, ev.CardPlayed):
            return _("{seat} plays {card}").format(
                seat=who(event.seat, names), card=card_label(event.card)
            )
        if isinstance(event, ev.TrickTaken):
            return _("{seat} takes the trick").format(seat=who(event.winner, names))
        if isinstance(event, ev.DealAudited):
            return _("deal {n} verified: {summary}").format(
                n=event.summary.number + 1, summary=summary_line(event.summary, table)
            )
        if isinstance(event, ev.CardInTwoHands):
            return self._card_in_two_hands(event)
        if isinstance(event, ev.FaultFound):
            return _("FAULT: {fault}").format(fault=fault_line(event.fault))
        if isinstance(event, ev.GameOver):
            return game_over_line(event, table)
        if isinstance(event, ev.GameAborted):
            return self._aborted(event)
        if isinstance(event, ev.MoveRejected):
            return _("move refused: {why}").format(why=violation_words(event.reason))
        if isinstance(event, ev.Rejected) and event.seat is not None:
            return _("rejected from seat {seat}: {why}").format(seat=event.seat, why=event.reason)
        if isinstance(event, ev.Rejected):
            return _("rejected: {why}").format(why=event.reason)
        return None

    def _card_in_two_hands(self, event: ev.CardInTwoHands) -> str:
        if event.seat >= 0:
            said = _("DECK TAMPERED WITH: seat {seat} showed {card}, which is in your hand too")
        else:
            said = _("DECK TAMPERED WITH: the open card is {card}, which is in your hand too")
        more = _("your next card shows your copy to all, and the audit names who did it")
        return said.format(seat=event.seat, card=event.card) + "; " + more

    def _aborted(self, event: ev.GameAborted) -> str:
        faults = "; ".join(fault_line(f) for f in event.faults)
        if not any(f.fatal for f in event.faults):  # blaming nobody (``Table.abandon``)
            return _("game stopped, unfinished: {faults}").format(faults=faults)
        if any(MISMATCH in f.what for f in event.faults):
            return _("GAME ABORTED: TRANSCRIPT MISMATCH at the end of a deal: {faults}").format(
                faults=faults
            )
        return _("GAME ABORTED: {faults}").format(faults=faults)

    def _peer_line(self, event: ev.Event) -> str | None:
        if isinstance(event, Waiting) and event.alone:
            return _(
                "none of the other seats can be reached (silent for {s:.0f} s):"
                " this machine's network may be down; waiting for it to come back, until"
                " {limit:.0f} s of silence at most (then this peer stops and saves the"
                " game unfinished)"
            ).format(s=event.seconds, limit=event.limit)
        if isinstance(event, CutOff) and event.split:
            return _(
                "half the table or more could not be reached for {s:.0f} s: this peer"
                " stops waiting, naming nobody"
            ).format(s=event.seconds)
        if isinstance(event, CutOff):
            return _(
                "no other seat could be reached for {s:.0f} s: this peer stops waiting"
            ).format(s=event.seconds)
        if isinstance(event, Waiting) and not event.seats:
            return _(
                "waiting for the others to send back what this seat signed before it"
                " stopped (silent for {s:.0f} s)"
            ).format(s=event.seconds)
        if isinstance(event, Waiting):
            seats = ", ".join(str(s) for s in event.seats)
            return _("waiting for seat {seats} (silent for {s:.0f} s)").format(
                seats=seats, s=event.seconds
            )
        if isinstance(event, Resumed):
            return _("the game goes on")
        if isinstance(event, SeatOffer):
            return self._offer(event)
        if isinstance(event, OfferClosed):
            return _("no bot for seat {seat}: {why}").format(seat=event.seat, why=event.why)
        if isinstance(event, OfferWithdrawn):
            line = _("the question about seat {seat} no longer applies")
            return line.format(seat=event.offer.seat)
        if isinstance(event, SeatKept):
            return _(
                "seat {seat} stays with the bot for this deal: {why}; it is asked back"
                " again from the next deal"
            ).format(seat=event.seat, why=event.why)
        if isinstance(event, SeatChanged):
            return seat_change_line(event)
        return None

    def _offer(self, offer: SeatOffer) -> str:
        if offer.back:
            return _(
                "{bot}, who played seat {seat}, is back: hand the seat back from the next"
                " deal? (the bot finishes the deal in progress)"
            ).format(bot=offer.bot, seat=offer.seat)
        return _(
            "seat {seat} ({name}) has been gone for {s:.0f} s: seat {bot} in their place"
            " from the next deal? (the deal in progress is voided; the score carries on)"
        ).format(seat=offer.seat, name=offer.name, s=offer.seconds, bot=offer.bot)

    def chat_line(self, line: ChatLine) -> str:
        named = watchers_named(line.seat, line.text)
        if named is not None and not line.earlier:  # the host's word on who watches (SPEC 7.5)
            if not named:  # the last one left: said in words, not as the bare "/watching"
                return _("nobody watches now")
            said = ngettext("{n} watching: {names}", "{n} watching: {names}", len(named))
            return said.format(n=len(named), names=", ".join(named))
        if line.earlier:
            said = _("chat (earlier): {name} (seat {seat}): {text}")
        else:
            said = _("chat: {name} (seat {seat}): {text}")
        return said.format(name=line.name, seat=line.seat, text=line.text)

    def offer_choices(self, back: bool, later: bool = False) -> str:
        if back:
            return _("y) yes   n) no, the bot plays on")
        if later:
            return _("y) yes   n) not now: asked again in a while")
        return _("y) yes   n) no, end the game")

    def no_input(self) -> str:
        return _("(no input: the seat stays silent)")

    def arrange(self, moves: Sequence[Move]) -> list[Move]:
        """A game's own moves first, as offered, then the cards in the hand's order."""
        cards = {m.card: m for m in moves if isinstance(m, PlayCard)}
        others = [m for m in moves if not isinstance(m, PlayCard)]
        order = self._sort or (lambda cs, _trump: sorted(cs, key=lambda c: c.index))
        return others + [cards[c] for c in order(list(cards), self._trump)]

    def choices(self, moves: Sequence[Move]) -> str:
        return "  ".join(f"{i + 1}) {move_label(m)}" for i, m in enumerate(moves))

    def move_label(self, move: Move) -> str:
        return move_label(move)

    def type_choice(self, options: int) -> str:
        return _("type 1..{n} or the card").format(n=options)

    def no_chat(self) -> str:
        return _("(no chat at this table)")

    def chat_not_sent(self, why: str) -> str:
        return _("chat not sent: {why}").format(why=why)


def seat_words() -> Words:
    """The words for the language in use, English included (scripts read ``--json``)."""
    return SeatWords()
