"""The seat change's proposing side: the proposer's offer (asked, built, sent again,
sealed, or failed) and the bot's peer handing a seat back (asked, the bot's deal
drained, then offered).  A side of ``machine.SeatChange``, on ``core.MachineCore``.
"""

from __future__ import annotations

from dataclasses import replace

from p2pbelka.peer.seatchange import effects
from p2pbelka.peer.seatchange.core import (
    DRAIN_EVERY,
    NO_AGAIN,
    MachineCore,
    bot_name,
    log,
    proposer_of,
)
from p2pbelka.peer.seatchange.effects import (
    BotGoesOn,
    Broadcast,
    Closed,
    Freeze,
    Kept,
    SendTo,
    cut_of,
)
from p2pbelka.peer.seatchange.offer import OpenOffer, build_offer, one_only, seal
from p2pbelka.peer.seatchange.stages import Draining, Handing, Offering, Question
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Signer
from p2pbelka.protocol.seatchange import (
    MAX_WHY,
    ClosedOffer,
    Decline,
    closed_statement,
    encode_seat_change,
)


class Proposing(MachineCore):
    """The proposer's side, and the hand-back."""

    # -- the proposer -------------------------------------------------------------------

    def _asked_to_propose(self, question: Question, yes: bool, now: float) -> None:
        table, seat = self.table, question.seat
        assert table is not None and table.state.setup is not None
        if not yes and question.later:
            # A fresh bot for one lost with our restart, asked before the seat was gone
            # a window (SPEC 9.5): the others agreed to a bot there, and only our
            # program lost it.  A no, or none, puts it off: the seat waits as any silent
            # seat does, and our player is asked again a minute after the question was
            # put (at once if it went unanswered), in time for the others' own
            # question at their window.  Asked once the seat is gone a window, a no
            # ends the game as for any seat.  No offer was made: none at this cut.
            self._put_off[seat] = question.until
            self.outcomes["fresh bot put off"] += 1
            log.info("a fresh bot for seat %d put off by our player", seat)
            self._idle()
        elif not yes:
            self._close(seat, "this seat's player did not want a bot")
        elif seat not in table.view.missing():
            self._idle()  # the seat came back meanwhile
        else:
            bot = self.ids.new_bot()
            self._offer_change(
                seat, bot.public_key, bot_name(table.state.setup.seats[seat].name), now, bot
            )

    def _offer_change(
        self,
        seat: int,
        key: bytes,
        name: str,
        now: float,
        bot: Signer | None,
        nonce: bytes | None = None,
    ) -> None:
        """Cut our table and offer ``key`` (``name``) for ``seat`` to every other remaining
        seat; ``bot``: a bot this peer runs (None: a player takes its seat back with
        the ``nonce`` of its ``Reclaim``)."""
        table = self.table
        assert table is not None
        self._out.append(Freeze())
        until = now + self.config.offer_timeout
        fresh = nonce or self.ids.new_nonce()  # a bot's is drawn here
        offer = build_offer(
            table, seat, key, name, fresh, self.ids.signer, self.bots, bot=bot, now=now, until=until
        )
        self._go(Offering(offer))
        cut = (offer.previous.segment, cut_of(offer.previous.view))
        other = self._cuts.get(cut, offer.segment)
        if offer.segment in offer.previous.used or self.ids.known(offer.segment):
            used = f"the continuation's id {offer.segment.hex()[:16]} was used before"
            self._offer_failed(offer, used, now)
            return
        if other != offer.segment:  # offered before a crash: never a second of this cut
            self._offer_failed(offer, one_only(offer.previous.segment, other), now)
            return
        # our signature rides in the offer: journaled before it leaves, like any other
        assert offer.proposal.after is not None and table.state.me is not None
        own = dict(offer.proposal.after.agreed)[table.state.me]
        self._cuts[cut] = offer.segment
        self._out.append(effects.Agreed(cut[0], cut[1], offer.segment, seat, own, proposed=True))
        if not offer.missing():
            self._seal(offer, now)
        else:
            self._tick_offer(offer, now)

    def _tick_offer(self, offer: OpenOffer, now: float) -> None:
        if now >= offer.until:
            self._offer_failed(offer, f"seats {offer.missing()} did not answer in time", now)
        elif now >= offer.resend:
            offer.resend = now + self.config.resend_every
            self._out.append(Broadcast(encode_seat_change(offer.offer)))

    def _seal(self, offer: OpenOffer, now: float) -> None:
        if self.ids.known(offer.segment):
            used = f"the continuation's id {offer.segment.hex()[:16]} was used before"
            self._offer_failed(offer, used, now)
            return
        self._remember(offer.segment)  # before the table envelope is signed in it
        bots = {s: b for s, b in self.bots.items() if s != offer.seat}
        if offer.bot is not None:
            bots[offer.seat] = offer.bot
        sealed = seal(offer, self.ids, bots)
        if isinstance(sealed, str):
            self._offer_failed(offer, sealed, now)
            return
        self.bots = bots
        self.outcomes["sealed"] += 1
        self._switch(*sealed)

    def _offer_failed(self, offer: OpenOffer, why: str, now: float) -> None:
        self._tell_closed(offer, why)
        if not offer.back:
            self._close(offer.seat, why)
            return
        seat = offer.seat
        self.outcomes["not handed back"] += 1
        bot_table = self._bot_tables.get(seat)
        if bot_table is not None:
            bot_table.stop_at_deal(None)  # the bot plays on, from the deal it stopped at
            self._out.append(BotGoesOn(seat))
        # its seat's silence so far was our pause: our driver gives the bot a window
        self._paused[seat] = now + self.config.give_up_after
        self._thaw()
        self._out.append(Closed(seat, why, back=True))
        self._keep(seat, why)
        self._idle()

    def _tell_closed(self, offer: OpenOffer, why: str) -> None:
        """Our offer will never be sealed: every seat that signed it, frozen on it, is
        told so in our signed word (SPEC 9.4), which it may get from us or through
        another seat; said again to a seat whose agreement comes after (``_closed_again``).
        Its no may never reach a seat that signed: there may be no link between them."""
        me = self.table.state.me if self.table is not None else None
        why = why[:MAX_WHY]
        sig = self.ids.signer.sign(closed_statement(offer.segment, why))
        closed = ClosedOffer(offer.segment, why, sig)
        self._keep_close(closed)
        for seat in sorted(offer.signed):
            if seat != me and seat != offer.seat and seat not in self.bots:
                self._out.append(SendTo(seat, encode_seat_change(closed)))

    def _closed_again(self, sender: int, segment: bytes) -> None:
        """A seat's agreement to an offer closed: it still waits on it, and the
        proposer's word may have been lost on its way, or never reached it (no link to
        the proposer).  Whoever holds that word passes it on: one answer an agreement,
        as small as it."""
        closed = self.closes.get(segment)
        if closed is not None:
            self._out.append(SendTo(sender, encode_seat_change(closed)))

    def _sealed_again(self, sender: int, segment: bytes) -> None:
        """A seat's agreement to the continuation in play here: it signed, and waits on
        it still, so the continuation's ``table`` never reached it (its program stopped
        just after its agreement left, the proposer sealed with it, and it resumed
        frozen on the cut).  Whoever holds that ``table`` sends it, and the seat follows
        the continuation it signed (``seen``).  One answer an agreement, as with
        ``_closed_again``: an agreement is sent again only while its seat waits."""
        table = self.table
        if table is None or table.game_id != segment or not table.view.transcript:
            return
        first = table.view.transcript[0]
        if isinstance(first.msg, m.TableMsg) and first.msg.after is not None:
            self._out.append(SendTo(sender, first.raw))

    def _no_again(self, segment: bytes, now: float) -> None:
        """A seat's agreement to a hand-back we said no to: sent again, it still waits,
        and our no (what lets it go on, ``_released_by``) may have been lost on its
        way.  Said again at most once a resend interval (the first agreement heard
        after our no only starts that clock: the no had just left)."""
        if segment not in self._declined or segment not in self._back_offers:
            return
        said = self._said_again.get(segment)
        if said is None or now - said >= self.config.resend_every:
            if said is not None:
                self._out.append(Broadcast(encode_seat_change(Decline(segment, NO_AGAIN, False))))
            self._said_again[segment] = now

    def _keep(self, seat: int, why: str) -> None:
        """The seat stays with our bot in this deal: its player may ask again from the
        next one, and is told so (a ``seat_decline`` naming the segment in play, the
        one its ``seat_reclaim`` named)."""
        table = self.table
        assert table is not None
        self._back_from[seat] = table.state.deal_id + 1
        decline = Decline(table.game_id, why[:200], True)
        self._out.append(SendTo(seat, encode_seat_change(decline)))

    def _kept_for_now(self, sender: int, msg: Decline) -> bool:
        """Watching, a ``seat_decline`` from the bot's peer naming the segment we watch
        answers our ``seat_reclaim``: not in this deal (True: taken)."""
        table = self.table
        if not self.watching or table is None or msg.segment != table.game_id:
            return False
        if sender != proposer_of(table, self.ids.home_seat):
            return False
        self.outcomes["kept for now"] += 1
        self._out.append(Kept(msg.why))
        return True

    # -- handing a seat back ----------------------------------------------------------------

    def _asked_to_hand_back(self, at: Handing, yes: bool, now: float) -> None:
        seat = at.question.seat
        table, bot_table = self.table, self._bot_tables.get(seat)
        assert table is not None
        if not yes:
            self._keep(seat, "the player running the bot did not want to hand it back")
            self._idle()
            return
        if bot_table is not None:
            stop = bot_table.state.deal_id + 1
            bot_table.stop_at_deal(stop)  # the bot finishes this deal and deals nothing more
        else:  # our bot was lost with our restart: its deal is voided, as a gone seat's
            stop = table.state.deal_id
        drain = Draining(seat, stop, at.nonce, now)
        self._go(drain)
        self._tick_drain(drain, now)

    def _tick_drain(self, drain: Draining, now: float) -> None:
        table = self.table
        assert table is not None
        if table.finished:
            self._idle()
        elif table.state.deal_id >= drain.stop and table.view.missing() == [drain.seat]:
            seat = drain.seat
            self._offer_change(seat, self.ids.keys[seat], self._name(seat), now, None, drain.nonce)
        else:
            self._update(replace(drain, at=now + DRAIN_EVERY))
