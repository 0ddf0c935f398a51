"""The seat change as a machine of its own: every decision, no task, no clock read.

Inputs: a seat given up on (``lost``), the other seats' control messages
(``heard``: offers, agreements, declines, closes), a continuation ``table`` envelope
(``seen``), a player asking its seat back (``hand_back``), our player's answer
(``answered``) and the time (``tick``; every input takes ``now``).  Outputs: the
effects of ``effects.py`` (send, ask the player, switch to a segment, closed and
why), taken with ``take``.  Nothing here raises on another peer's input: what it
cannot act on is counted (``refused``, ``outcomes``) and logged.

One change at a time, in one stage of ``stages.py`` (``at``: the stage with its
data; ``stage``: its name).  Every stage change goes through ``_go``, which
refuses one ``SUCCESSORS`` does not declare (``MachineError``: a bug here, never a
peer's fault) and tells ``on_transition``.  Strict (tests, the simulator), the
error is raised; in the field the input that hit it gives the change up as a
failed one (``_gave_up``: the seat's give-up then ends the game, as before there
were seat changes; the segment goes on unless we signed a continuation of it),
and it is logged and counted (``outcomes["machine error"]``), so no peer stops on
what another sent.

The machine is in four modules: its state, its one transition and the steps every
side takes are ``core.py``'s; the proposer's side and the hand-back ``proposing.py``;
a remaining seat's side ``agreeing.py``; this module, its inputs.

What a continuation is and how it is checked is ``table/carry.py``; the machine
only decides when to build, sign and follow one.  A seat signs at most one
continuation of a segment (a second offer from the same cut, or another cut of
it, is declined), so no proposer can hold two of its agreements, and once it
signed it processes nothing more of that segment (it stays frozen).  The one
exception is a hand-back another seat said no to (``_released_by``): that offer
can never be sealed, the bot plays on, and so does the seat that signed it (it
never signs another continuation at that cut; at a later one it may).  A hand-back
that comes to nothing never ends the game: the bot's peer tells its bot to play
on, and its player may ask again from the next deal.
"""

from __future__ import annotations

import math
from dataclasses import replace

from p2pbelka.peer.seatchange import effects
from p2pbelka.peer.seatchange.agreeing import Agreeing
from p2pbelka.peer.seatchange.core import guarded, log, proposer_of
from p2pbelka.peer.seatchange.effects import CatchUp, Effect, Freeze, Replaced, cut_of
from p2pbelka.peer.seatchange.offer import follow
from p2pbelka.peer.seatchange.proposing import Proposing
from p2pbelka.peer.seatchange.stages import (
    Agreed,
    Asking,
    Awaiting,
    Considering,
    Draining,
    Handing,
    Idle,
    MachineError,
    Offering,
    Stage,
    Switched,
)
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.protocol.seatchange import Agree, ClosedOffer, Decline, Offer
from p2pbelka.table.segments import previous_of
from p2pbelka.table.session import Table

__all__ = ["MachineError", "SeatChange", "Stage"]


class SeatChange(Proposing, Agreeing):
    """The seat change of one peer, for the segment in play (``enter``): its inputs.
    (Its state and its one transition are ``core.MachineCore``'s; its sides are
    ``Proposing`` and ``Agreeing``.)"""

    # -- the runner's side -------------------------------------------------------------

    def take(self) -> list[Effect]:
        """The effects to carry out, in order; the outbox is empty after."""
        out, self._out = self._out, []
        return out

    def deadline(self) -> float | None:
        """When ``tick`` next has something to do (None: nothing is timed)."""
        at, question = self.at, self._question()
        times = [question.until] if question is not None else []
        if isinstance(at, Awaiting):
            times.append(at.until)
        elif isinstance(at, Offering):
            times += [at.offer.until, at.offer.resend]
        elif isinstance(at, Agreed):
            times += [self._agreement_ends(at), at.resend]
        elif isinstance(at, Draining):
            times.append(at.at)
        return min(times, default=None)

    @property
    def segment(self) -> bytes:
        assert self.table is not None
        return self.table.game_id

    @guarded(None)
    def enter(self, table: Table, bots: dict[int, Table]) -> None:
        """``table`` (and the bots' ``bots``, by seat) is the segment in play now."""
        self.table, self._bot_tables = table, dict(bots)
        self.watching = table.state.me is None
        self._failed = set()
        self._back_from, self._paused, self._back_offers = {}, {}, {}
        self._put_off = {}
        self._said_no = None
        if self.stage is not Stage.IDLE:
            self._go(Idle())

    @guarded(None)
    def watch(self, table: Table) -> None:
        """Follow the game as an observer (our seat is a bot's until handed back)."""
        self.watching = True
        if self.stage is not Stage.IDLE:
            self._go(Idle())  # whatever this peer was doing for the table, it is not seated
        self._switch(table, ())

    def asking(self) -> int | None:
        """The question to our player this machine waits on (``AskPlayer.ask``), if any:
        any other still on a screen no longer applies."""
        question = self._question()
        return question.ask if question is not None else None

    def bot_table(self, seat: int) -> Table | None:
        """The table of the bot this peer runs for ``seat`` in this segment, if any."""
        return self._bot_tables.get(seat) if seat in self.bots else None

    @guarded(None)
    def restore(self, saved: list[effects.Agreed], now: float) -> None:
        """What this seat signed before it stopped (``Agreed``, from its journal): it
        signs no second continuation of those cuts, and a table that stands in a
        segment it agreed to leave waits for that continuation as before the crash
        (frozen, the same agreement sent again) until it comes or the time runs out."""
        table = self.table
        for agreed in saved:
            self._cuts[(agreed.previous, agreed.cut)] = agreed.segment
            if agreed.proposed:
                continue
            self._signed_from[agreed.previous] = agreed.segment
            if table is None or table.game_id != agreed.previous or self.stage is not Stage.IDLE:
                continue
            previous = previous_of(table)
            if cut_of(previous.view) != agreed.cut:
                # our table went on past the cut we signed at: another seat's no to a
                # hand-back released it (``_released_by``); the bot plays on, and so do we
                continue
            # Its id may be remembered already: this seat took the continuation in, and
            # stopped before it sat (a seat in it signs only once its table, with the
            # continuation's, is on the disk: a seat that did would stand in it now).
            self._restored.add(agreed.segment)
            self._out.append(Freeze())
            until = now + self.config.offer_timeout
            self._go(Agreed(agreed.segment, previous, agreed.sig, agreed.seat, until, now))
            self._tick_agreement(now)

    # -- inputs ---------------------------------------------------------------------------

    @guarded(False)
    def lost(self, seats: list[int], silent: float, now: float) -> bool:
        """The driver waited past the window for ``seats``.  True: leave it to the seat
        change (an offer is made or awaited); False: end the game as before."""
        table = self.table
        if self.watching:
            return True  # a bot plays our seat: the seated peers decide
        # A bot stopped for a hand-back is silent because of that pause, not gone: no
        # change is ever proposed for it (no bot for the bot), the pause is waited out.
        # (No honest pause lasts longer than an offer and a window: past that, offers
        # sent again and again to keep it paused stall nobody for ever.)
        pause = self.config.offer_timeout + self.config.give_up_after
        if silent < pause:
            seats = [s for s in seats if self._paused.get(s, -math.inf) <= now]
            if not seats:
                return True
        # A fresh bot our player put off (a bot lost with our restart, SPEC 9.5): the
        # seat waits, as any silent seat does, until our player is asked again.
        if any(self._put_off.get(s, -math.inf) > now for s in seats):
            seats = [s for s in seats if self._put_off.get(s, -math.inf) <= now]
            if not seats:
                return True
        if table is None or not self.config.seat_bots or len(seats) != 1:
            return False
        if table.state.n_seats < 3:
            # Nobody would co-sign: the proposer is the only seat left, and at a table of
            # two it cannot tell "the other is gone" from "I am cut off".  Each side,
            # alone, would seat a bot for the other, and the game would split in two.
            # A two-seat game never seats a bot (the driver waits as if cut off).
            return False
        if (
            not table.state.started
            or table.finished
            or table.state.me is None
            or table.view.closing
        ):
            return False  # (closing: the game is won, there is no next deal for a bot)
        seat = seats[0]
        if seat in self._failed:
            return False
        at = self.at
        if at.busy is not None or isinstance(at, Switched):
            return True  # (switched: the next segment is on its way)
        if table.state.me == proposer_of(table, seat):
            if isinstance(at, Considering):
                self._go(Idle())  # our own offer first: the one considered is dropped
            # a bot lost with our restart, before the seat was gone a window: our
            # player's no only puts the fresh bot off (``_asked_to_propose``)
            later = self.bot_lost(seat) and silent < self.config.give_up_after
            self._go(Asking(self._ask_player(seat, silent, now, later=later)))
            return True
        waiting = Awaiting(seat, now + self.config.offer_timeout)
        if isinstance(at, Considering):
            # the offer being considered is answered first, then this wait goes on
            self._update(replace(at, waiting=waiting))
        elif seat in table.view.missing():
            # asked now, with the proposer's player, not once its offer comes: every
            # player at the table hears of the loss at the same moment
            self._go(replace(waiting, question=self._ask_player(seat, silent, now)))
        else:
            self._go(waiting)
        return True

    @guarded(None)
    def heard(self, sender: int, msg: Offer | Agree | Decline | ClosedOffer, now: float) -> None:
        """A control message of the seat change from ``sender``'s peer."""
        if isinstance(msg, Offer):
            self._on_offer(sender, msg, now)
            return
        if isinstance(msg, Decline) and (
            self._kept_for_now(sender, msg) or self._released_by(sender, msg)
        ):
            return
        if isinstance(msg, ClosedOffer):
            if not self._closed_by(msg):
                self.refused["seat_closed"] += 1
            return
        if isinstance(msg, Agree):
            self._no_again(msg.segment, now)
            self._closed_again(sender, msg.segment)
            self._sealed_again(sender, msg.segment)
        at = self.at
        if not isinstance(at, Offering) or at.offer.segment != msg.segment:
            kind = "seat_agree" if isinstance(msg, Agree) else "seat_decline"
            self.refused[kind] += 1
            log.debug("ignored a %s from seat %d: no offer of ours is open", kind, sender)
            return
        offer = at.offer
        if sender == offer.seat or sender not in range(len(offer.previous.setup.seats)):
            return
        if isinstance(msg, Agree):
            if offer.agree(sender, msg.sig):
                if not offer.missing():
                    self._seal(offer, now)
            else:
                self.outcomes["bad agreement"] += 1
                log.warning("seat %d's agreement is not its signature on our offer", sender)
        elif not msg.retry:
            self._offer_failed(offer, f"seat {sender} said no: {msg.why}", now)

    @guarded(None)
    def answered(self, ask: int, yes: bool, now: float) -> None:
        """Our player's answer to ``AskPlayer(ask, ...)`` (a late one is dropped)."""
        at, question = self.at, self._question()
        if question is None or question.ask != ask:
            return
        if isinstance(at, Awaiting):
            self._asked_early(replace(at, question=None), yes, now)
        elif isinstance(at, Asking):
            self._asked_to_propose(question, yes, now)
        elif isinstance(at, Considering):
            self._asked_to_sign(at, yes, now)
        elif isinstance(at, Handing):
            self._asked_to_hand_back(at, yes, now)

    @guarded(None)
    def hand_back(self, seat: int, segment: bytes, nonce: bytes, now: float) -> None:
        """``seat``'s player asks its seat back (``Reclaim``), which a bot of ours plays:
        ask our player, let the bot finish this deal, then offer the seat to the
        player's own key with its fresh ``nonce`` (the new id is derived from it).
        A bot our program ran before it restarted is gone with it (its key and secrets
        were never kept): the seat is handed back from where the table waits for it."""
        table = self.table
        if table is None or (self.bot_table(seat) is None and not self.bot_lost(seat)):
            return  # no bot of ours plays that seat
        if segment != table.game_id:
            log.info("seat %d asks for its seat back in a segment not in play here", seat)
            return
        if self.stage is not Stage.IDLE or table.finished:
            log.info("seat %d asks for its seat back: busy (%s)", seat, self.stage.value)
            return
        if table.state.deal_id < self._back_from.get(seat, 0):
            # refused in this deal (and told so): asked again from the next, not sooner
            log.info(
                "seat %d asks for its seat back again before deal %d", seat, table.state.deal_id
            )
            return
        self._go(Handing(self._ask_player(seat, 0.0, now, back=self._name(seat)), nonce))

    def bot_lost(self, seat: int) -> bool:
        """A bot holds ``seat`` whose peer we are (we host its changes), and we run none
        there: the bot went with our program's restart, and nobody else can play it."""
        table = self.table
        if table is None or table.state.setup is None or table.state.me is None:
            return False
        if seat == table.state.me or seat >= len(self.ids.keys):
            return False
        held = table.state.setup.seats[seat].key != self.ids.keys[seat]
        return held and proposer_of(table, seat) == table.state.me and seat not in self.bots

    @guarded(None)
    def seen(self, raw: bytes, nonce: bytes | None) -> None:
        """A ``table`` envelope of a segment not in play here: the continuation we
        agreed to, sealed (or, watching, the one that hands our seat back): follow it.
        ``nonce``: the one our ``Reclaim`` sent in this segment, if any."""
        table = self.table
        if self.stage is Stage.SWITCHED or table is None:
            return
        try:
            envelope = open_envelope(raw)
        except ProtocolError:
            return
        msg = envelope.msg
        if not isinstance(msg, m.TableMsg) or msg.after is None:
            return
        agreed = self.at if isinstance(self.at, Agreed) else None
        home = msg.after.seat == self.ids.home_seat and msg.after.segment == table.game_id
        ours = home and msg.seats[self.ids.home_seat].key == self.ids.signer.public_key
        if agreed is None and not self.watching:
            if home and not ours:  # our own seat given to another while we were away
                self._out.append(Replaced())
            return
        if raw not in self._tables_seen:
            self._tables_seen = [*self._tables_seen[-7:], raw]
        if agreed is not None:
            if envelope.game != agreed.segment:
                return
            previous, nonce = agreed.previous, None
        else:
            if not ours:
                return
            previous = previous_of(table)
            # the seat comes back to us only under an id derived from our fresh nonce
            nonce = nonce if msg.flow >= m.NONCES_FLOW else None
            if nonce is None and msg.flow >= m.NONCES_FLOW:
                return
        again = envelope.game in self._restored and self.ids.known(envelope.game)
        following = follow(envelope, self.ids, previous, nonce, again=again)
        if isinstance(following, str):
            if self._refusals.get(raw) != following:  # once, not at every retry
                log.warning("refused a continuation: %s", following)
                self._refusals[raw] = following
                while len(self._refusals) > len(self._tables_seen):
                    del self._refusals[next(iter(self._refusals))]
            host = next((s for s, p in enumerate(msg.seats) if p.key == envelope.sender), None)
            if agreed is None and host is not None:
                self._out.append(CatchUp(host))  # our table may lack what it cuts at
            return
        if not again:
            self._remember(envelope.game)  # before we sign anything in it
        self.outcomes["followed"] += 1
        self._switch(following, ())

    def retry(self, nonce: bytes | None) -> None:
        """Try again the continuations seen so far (our table may have caught up)."""
        for raw in list(self._tables_seen):
            self.seen(raw, nonce)

    @guarded(None)
    def tick(self, now: float) -> None:
        """The time is ``now``: what is due by then is done."""
        question = self._question()
        if question is not None and now >= question.until:
            self.answered(question.ask, False, now)  # no answer is no
        if isinstance(self.at, Offering):
            self._tick_offer(self.at.offer, now)
        if isinstance(self.at, Agreed):
            self._tick_agreement(now)
        # (an offer being considered when the wait ends is answered first: the stage
        # is back to AWAITING after, and the next tick closes it)
        at = self.at
        if isinstance(at, Awaiting) and now >= at.until:
            self._close(at.seat, "no offer came from the proposing seat")
        at = self.at
        if isinstance(at, Draining) and now >= at.at:
            self._tick_drain(at, now)
