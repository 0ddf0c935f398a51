"""The seat change's agreeing side: a remaining seat asked at the loss, awaiting the
offer, considering it, signing it (journaled first), waiting for it sealed, and
released by another seat's no to a hand-back.  A side of ``machine.SeatChange``,
on ``core.MachineCore``.
"""

from __future__ import annotations

import math
from dataclasses import replace

from p2pbelka.peer.seatchange import effects
from p2pbelka.peer.seatchange.core import NO_AGAIN, Cut, MachineCore, log, proposer_of
from p2pbelka.peer.seatchange.effects import Broadcast, Closed, Freeze, cut_of
from p2pbelka.peer.seatchange.offer import offer_problem, one_only
from p2pbelka.peer.seatchange.stages import (
    OWN_CHANGE,
    Agreed,
    Awaiting,
    Considering,
    Idle,
    Stage,
    StageData,
)
from p2pbelka.protocol.seatchange import (
    Agree,
    ClosedOffer,
    Decline,
    Offer,
    close_holds,
    encode_seat_change,
    sign_agreement,
)
from p2pbelka.table.segments import previous_of
from p2pbelka.table.session import Table


class Agreeing(MachineCore):
    """A remaining seat's side."""

    # -- a remaining seat ---------------------------------------------------------------------

    def _on_offer(self, sender: int, offer: Offer, now: float) -> None:
        table, after, at = self.table, offer.table.after, self.at
        if table is None or after is None or table.state.setup is None:
            return
        if isinstance(at, Agreed):
            if at.segment == offer.segment:  # ours was lost
                self._out.append(Broadcast(encode_seat_change(Agree(offer.segment, at.sig))))
            elif after.segment == at.previous.segment and sender == proposer_of(table, after.seat):
                # another continuation of the segment we signed one of: never a second
                self._decline(offer, one_only(at.previous.segment, at.segment), False)
            return
        occupied = self.stage in (Stage.CONSIDERING, Stage.SWITCHED)
        if occupied or table.state.me in (None, after.seat):
            return
        if sender != proposer_of(table, after.seat):
            return
        holder = offer.table.seats[after.seat]
        back = holder.name if holder.key == self.ids.keys[after.seat] else None
        if back is not None:
            self._back_offers[offer.segment] = after.heads
        if back is not None and after.seat in table.view.missing():
            # the bot's peer stopped it for this offer: its silence is that pause, until
            # the offer is over (its timeout at most) and the bot had a window to move
            until = now + self.config.offer_timeout + self.config.give_up_after
            self._paused[after.seat] = max(self._paused.get(after.seat, -math.inf), until)
        if offer.segment in self._declined:
            # said no to once: never signed after (a resend, or one that crossed ours)
            self._decline(offer, NO_AGAIN, False)
            return
        if self.stage in OWN_CHANGE:
            self._decline(offer, f"seat {table.state.me} is busy with seat {self.busy}", True)
            return
        if after.seat == self._said_no:
            self._decline(offer, "the player does not want a bot", False)
            return
        problem = self.offer_problem(sender, offer, table)
        if problem:
            returned = after.seat not in table.view.missing()
            self._decline(
                offer, f"seat {after.seat} is back" if returned else problem, not returned
            )
            return
        waiting = at if isinstance(at, Awaiting) else None  # (else IDLE)
        early = waiting.question if waiting is not None else None
        if waiting is not None:
            waiting = replace(waiting, question=None)
        if back is None and early is not None and early.seat == after.seat:
            # our player is being asked already: that answer signs
            self._go(Considering(offer, after.seat, early, waiting=waiting))
        elif back is None and waiting is not None and waiting.said_yes:
            considering = Considering(offer, after.seat, None, waiting=waiting)
            self._go(considering)
            self._asked_to_sign(considering, True, now)
        else:
            question = self._ask_player(after.seat, self.config.give_up_after, now, back=back)
            self._go(Considering(offer, after.seat, question, back is not None, waiting))

    def _asked_early(self, waiting: Awaiting, yes: bool, now: float) -> None:
        """Our player answered before the proposer's offer came: a yes waits for it,
        a no ends the change here (and declines the offer, if it comes)."""
        table = self.table
        if yes and (table is None or waiting.seat not in table.view.missing()):
            self._update(waiting)  # the seat came back meanwhile: the offer, if one
            return  # comes, is declined
        if yes:
            self._update(replace(waiting, said_yes=True))
        else:
            self._close(waiting.seat, "this seat's player did not want a bot")
            self._said_no = waiting.seat

    def _asked_to_sign(self, at: Considering, yes: bool, now: float) -> None:
        table, offer, seat = self.table, at.offer, at.about
        assert table is not None
        back_to: StageData = at.waiting if at.waiting is not None else Idle()
        if not yes:
            if at.back:  # the bot plays on
                self._go(back_to)
                self._decline(offer, "the player does not want to hand the seat back", False)
                return
            self._decline(offer, "the player does not want a bot", False)
            self._close(seat, "this seat's player did not want a bot")
            return
        self._out.append(Freeze())
        sender = proposer_of(table, seat)
        problem = self.offer_problem(sender, offer, table)
        if problem:
            self._thaw()
            self._decline(offer, problem, True)
            self._go(back_to)
            return
        previous = previous_of(table)
        sig = sign_agreement(self.ids.signer, offer.segment, offer.table)
        self._signed_from[previous.segment] = offer.segment
        cut = cut_of(previous.view)
        self._cuts[(previous.segment, cut)] = offer.segment
        # on the disk before the agreement leaves: a crash must not let us sign another
        self._out.append(effects.Agreed(previous.segment, cut, offer.segment, seat, sig))
        until = now + self.config.offer_timeout
        self._go(Agreed(offer.segment, previous, sig, seat, until, now))
        self.outcomes["agreed"] += 1
        self._tick_agreement(now)

    def _agreement_ends(self, agreed: Agreed) -> float:
        """When an agreement never sealed is given up, a moment past the offer's time
        for every offer (the proposer's close comes first, ``_closed_by``); ``deadline``
        says so too: a deadline before it would wake the runner over and over."""
        return agreed.until + self.config.resend_every

    def _tick_agreement(self, now: float) -> None:
        agreed = self.at
        assert isinstance(agreed, Agreed)
        # (a moment past the offer's time: another seat's question, put when the offer
        # reached it, times out as a no then, and the proposer's word that its offer is
        # closed, ``_closed_by``, or a no to a hand-back, ``_released_by``, comes)
        if now >= self._agreement_ends(agreed):
            # We signed: the old segment stays cut (no thaw, SPEC 9.4: a proposer that
            # seals later cannot show our agreement beside envelopes we signed after
            # the cut).  Nothing came, so the game ends.
            self._failed.add(agreed.seat)
            self._go(Idle())
            self.outcomes["never sealed"] += 1
            self._out.append(Closed(agreed.seat, "the proposer never sealed it"))
        elif now >= agreed.resend:
            self._update(replace(agreed, resend=now + self.config.resend_every))
            self._out.append(Broadcast(encode_seat_change(Agree(agreed.segment, agreed.sig))))

    def _released_by(self, sender: int, msg: Decline) -> bool:
        """We signed an offer handing a seat back, and another seat that must sign it
        said no (True: taken).  That offer can never be sealed (a seat never signs an
        offer it declined), and the bot's peer lets the bot play on: so do we, in the
        segment in play (SPEC 9.4).  We never sign another continuation at that cut; a
        later one, at a later cut, we may."""
        agreed, table = self.at, self.table
        if not isinstance(agreed, Agreed) or table is None or msg.retry:
            return False
        heads = self._back_offers.get(agreed.segment)
        if msg.segment != agreed.segment or heads is None:
            return False
        if sender in (table.state.me, agreed.seat, proposer_of(table, agreed.seat)):
            return False  # only a seat whose signature it lacks proves it is dead
        log.info("seat %d said no to handing seat %d back: going on", sender, agreed.seat)
        self._go_on(agreed, table, heads)
        self.outcomes["released"] += 1
        return True

    def _closed_by(self, msg: ClosedOffer) -> bool:
        """The proposer's signed word that the offer we signed is over (True: taken, from
        any seat: a seat's no that never reached us, or no answer in time).  Only the
        proposer can seal it, and it signed that it will not (we keep that word, to show
        should it seal after all): so we go on in the segment in play (SPEC 9.4), as the
        proposer does, and sign no other continuation at that cut."""
        agreed, table = self.at, self.table
        if not isinstance(agreed, Agreed) or table is None or msg.segment != agreed.segment:
            return False
        proposer = proposer_of(table, agreed.seat)
        key = agreed.previous.setup.seats[proposer].key
        if not close_holds(key, msg):
            self.outcomes["bad close"] += 1
            log.warning("a close of our offer is not seat %d's signature on it", proposer)
            return True
        log.info("seat %d closed the offer we signed: %s; going on", proposer, msg.why)
        self._keep_close(msg)
        back = agreed.segment in self._back_offers
        self._go_on(agreed, table, agreed.previous.view)
        self.outcomes["closed by the proposer"] += 1
        if not back:  # as at the proposer: no bot for that seat, its give-up ends the game
            self._failed.add(agreed.seat)
            self._out.append(Closed(agreed.seat, f"seat {proposer} closed it: {msg.why}"))
        return True

    def _go_on(self, agreed: Agreed, table: Table, heads: Cut) -> None:
        """The offer we signed will never be sealed: on with the segment in play."""
        self._released.add((table.game_id, heads))
        self._signed_from.pop(table.game_id, None)
        self._thaw()
        self._idle()

    def offer_problem(self, sender: int, offer: Offer, table: Table) -> str:
        """Why this seat does not sign ``sender``'s ``offer`` on ``table`` ("" if it may)."""
        after = offer.table.after
        if after is not None and (table.game_id, after.heads) in self._released:
            return f"this seat signed a continuation at this cut of {table.game_id.hex()[:16]}"
        signed = self._signed_from.get(table.game_id)
        return offer_problem(table, sender, offer, self.ids, signed)
