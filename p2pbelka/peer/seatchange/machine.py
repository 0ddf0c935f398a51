"""The seat change as a machine of its own: every decision, no task, no clock read.

Inputs: a seat given up on (``lost``), the other seats' control messages
(``heard``: offers, agreements, declines), a continuation ``table`` envelope
(``seen``), a player asking its seat back (``hand_back``), our player's answer
(``answered``) and the time (``tick``; every input takes ``now``).  Outputs: the
steps of ``steps.py`` (send, ask the player, switch to a segment, closed and
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

What a continuation is and how it is checked is ``table/carry.py``; this module
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

import logging
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Concatenate, ParamSpec, TypeVar

from p2pbelka.peer.seatchange import steps
from p2pbelka.peer.seatchange.offer import (
    Bots,
    OpenOffer,
    build_offer,
    follow,
    offer_problem,
    one_only,
    seal,
)
from p2pbelka.peer.seatchange.stages import (
    OWN_CHANGE,
    SUCCESSORS,
    Agreed,
    Asking,
    Awaiting,
    Considering,
    Draining,
    Handing,
    Idle,
    MachineError,
    Offering,
    Question,
    Stage,
    StageData,
    Switched,
)
from p2pbelka.peer.seatchange.steps import (
    AskPlayer,
    BotGoesOn,
    Broadcast,
    CatchUp,
    Closed,
    Config,
    Freeze,
    Identities,
    Kept,
    Remember,
    Replaced,
    SendTo,
    Step,
    Switch,
    Thaw,
    cut_of,
)
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Signer, open_envelope
from p2pbelka.protocol.seatchange import Agree, Decline, Offer, encode_seat_change, sign_agreement
from p2pbelka.table.segments import previous_of
from p2pbelka.table.session import Table

__all__ = ["MachineError", "SeatChange", "Stage"]

log = logging.getLogger(__name__)

DRAIN_EVERY = 0.1
"""How often a bot finishing its deal before a hand-back is looked at."""
NO_AGAIN = "this seat said no to it"
"""Why an offer said no to once is declined again (a seat never signs it after)."""
Cut = tuple[tuple[int, bytes], ...]
"""Where a continuation cuts its segment: every seat's envelope count and last hash."""

P = ParamSpec("P")
R = TypeVar("R")


def _guarded(
    fallback: R,
) -> Callable[[Callable[Concatenate[SeatChange, P], R]], Callable[Concatenate[SeatChange, P], R]]:
    """An input of the machine: a ``MachineError`` in it is raised when strict, else
    the change under way is given up (``_gave_up``) and ``fallback`` returned."""

    def wrap(
        method: Callable[Concatenate[SeatChange, P], R],
    ) -> Callable[Concatenate[SeatChange, P], R]:
        def guarded(self: SeatChange, /, *args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return method(self, *args, **kwargs)
            except MachineError as error:
                if self.strict:
                    raise
                self._gave_up(error)
                return fallback

        guarded.__name__, guarded.__doc__ = method.__name__, method.__doc__
        return guarded

    return wrap


class SeatChange:
    """The seat change of one peer, for the segment in play (``enter``)."""

    def __init__(self, ids: Identities, config: Config) -> None:
        self.ids = ids
        self.config = config
        self.table: Table | None = None
        self.watching = False
        """Our seat is a bot's: our table is an observer's until the seat comes back."""
        self.at: StageData = Idle()
        """The stage the change is in, with its data."""
        self.strict = False
        """Raise a ``MachineError`` (tests, the simulator) instead of giving up."""
        self.on_transition: Callable[[Stage, Stage], None] | None = None
        """Told every transition taken (the simulator's coverage)."""
        self.transitions: Counter[tuple[Stage, Stage]] = Counter()
        """The transitions taken, counted."""
        self.bots: dict[int, Signer] = {}
        """The bots this peer runs for lost seats, by seat."""
        self.refused: Counter[str] = Counter()
        """Control messages not acted on, by type (an answer to no offer of ours)."""
        self.outcomes: Counter[str] = Counter()
        """How changes ended here: agreed, declined, no answer, sealed, switched..."""
        self._bot_tables: dict[int, Table] = {}
        self._failed: set[int] = set()
        self._out: list[Step] = []
        self._asks = 0
        self._said_no: int | None = None  # our player refused a bot there: offers declined
        self._signed_from: dict[bytes, bytes] = {}  # segment -> the continuation we signed
        self._declined: set[bytes] = set()  # offers we said no to: never signed after
        self._back_from: dict[int, int] = {}  # seat -> the deal its player may ask again
        self._paused: dict[int, float] = {}  # seat -> its silence is a hand-back's until then
        self._back_offers: dict[bytes, Cut] = {}  # hand-back offers heard: their cuts
        self._said_again: dict[bytes, float] = {}  # when our no to one was said again
        self._released: set[tuple[bytes, Cut]] = set()  # cuts we signed, then went on from
        self._cuts: dict[tuple[bytes, bytes], bytes] = {}  # (segment, cut) -> ours, signed
        self._tables_seen: list[bytes] = []
        self._refusals: dict[bytes, str] = {}  # why each of those was refused (logged once)

    # -- the stage --------------------------------------------------------------------------

    @property
    def stage(self) -> Stage:
        return self.at.name

    @property
    def busy(self) -> int | None:
        """The seat the change under way is about."""
        return self.at.busy

    def _go(self, new: StageData) -> None:
        """The one way from a stage to another: refused if not declared."""
        before, after = self.at.name, new.name
        if after not in SUCCESSORS[before]:
            raise MachineError(f"the seat change went from {before.value} to {after.value}")
        self.at = new
        self.transitions[(before, after)] += 1
        if self.on_transition is not None:
            self.on_transition(before, after)

    def _update(self, data: StageData) -> None:
        """New data for the stage we are in (a timer moved, an answer noted): no
        transition."""
        assert data.name is self.at.name, (self.at.name, data.name)
        self.at = data

    def _gave_up(self, error: MachineError) -> None:
        """In the field, a ``MachineError``: the change under way fails as any failed
        change does (no bot for that seat: its give-up ends the game), whatever
        stage it was in."""
        log.error("%s (a bug): the change is given up", error)
        self.outcomes["machine error"] += 1
        seat = self.busy
        self.at = Idle()
        self._thaw()
        if seat is not None:
            self._failed.add(seat)
            self._out.append(Closed(seat, "the seat change failed here"))

    def _question(self) -> Question | None:
        at = self.at
        if isinstance(at, Asking | Awaiting | Considering | Handing):
            return at.question
        return None

    # -- the runner's side -------------------------------------------------------------

    def take(self) -> list[Step]:
        """The steps to do, in order; the outbox is empty after."""
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
            times += [at.until, at.resend]
        elif isinstance(at, Draining):
            times.append(at.at)
        return min(times, default=None)

    @property
    def segment(self) -> bytes:
        assert self.table is not None
        return self.table.game_id

    @_guarded(None)
    def enter(self, table: Table, bots: dict[int, Table]) -> None:
        """``table`` (and the bots' ``bots``, by seat) is the segment in play now."""
        self.table, self._bot_tables = table, dict(bots)
        self.watching = table.me is None
        self._failed = set()
        self._back_from, self._paused, self._back_offers = {}, {}, {}
        self._said_no = None
        if self.stage is not Stage.IDLE:
            self._go(Idle())

    @_guarded(None)
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

    @_guarded(None)
    def restore(self, saved: list[steps.Agreed], now: float) -> None:
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
            self._out.append(Freeze())
            until = now + self.config.offer_timeout
            self._go(Agreed(agreed.segment, previous, agreed.sig, agreed.seat, until, now))
            self._tick_agreement(now)

    # -- inputs ---------------------------------------------------------------------------

    @_guarded(False)
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
        if table is None or not self.config.seat_bots or len(seats) != 1:
            return False
        if not table.started or table.finished or table.me is None or table.closing:
            return False  # (closing: the game is won, there is no next deal for a bot)
        seat = seats[0]
        if seat in self._failed:
            return False
        at = self.at
        if at.busy is not None or isinstance(at, Switched):
            return True  # (switched: the next segment is on its way)
        if table.me == _proposer(table, seat):
            if isinstance(at, Considering):
                self._go(Idle())  # our own offer first: the one considered is dropped
            self._go(Asking(self._ask_player(seat, silent, now)))
            return True
        waiting = Awaiting(seat, now + self.config.offer_timeout)
        if isinstance(at, Considering):
            # the offer being considered is answered first, then this wait goes on
            self._update(replace(at, waiting=waiting))
        elif seat in table.missing():
            # asked now, with the proposer's player, not once its offer comes: every
            # player at the table hears of the loss at the same moment
            self._go(replace(waiting, question=self._ask_player(seat, silent, now)))
        else:
            self._go(waiting)
        return True

    @_guarded(None)
    def heard(self, sender: int, msg: Offer | Agree | Decline, now: float) -> None:
        """A control message of the seat change from ``sender``'s peer."""
        if isinstance(msg, Offer):
            self._on_offer(sender, msg, now)
            return
        if isinstance(msg, Decline) and (
            self._kept_for_now(sender, msg) or self._released_by(sender, msg)
        ):
            return
        if isinstance(msg, Agree):
            self._no_again(msg.segment, now)
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

    @_guarded(None)
    def answered(self, ask: int, yes: bool, now: float) -> None:
        """Our player's answer to ``AskPlayer(ask, ...)`` (a late one is dropped)."""
        at, question = self.at, self._question()
        if question is None or question.ask != ask:
            return
        if isinstance(at, Awaiting):
            self._asked_early(replace(at, question=None), yes, now)
        elif isinstance(at, Asking):
            self._asked_to_propose(question.seat, yes, now)
        elif isinstance(at, Considering):
            self._asked_to_sign(at, yes, now)
        elif isinstance(at, Handing):
            self._asked_to_hand_back(at, yes, now)

    @_guarded(None)
    def hand_back(self, seat: int, segment: bytes, nonce: bytes, now: float) -> None:
        """``seat``'s player asks its seat back (``Reclaim``), which a bot of ours plays:
        ask our player, let the bot finish this deal, then offer the seat to the
        player's own key with its fresh ``nonce`` (the new id is derived from it)."""
        table, bot_table = self.table, self.bot_table(seat)
        if table is None or bot_table is None:
            return  # no bot of ours plays that seat
        if segment != table.game_id:
            log.info("seat %d asks for its seat back in a segment not in play here", seat)
            return
        if self.stage is not Stage.IDLE or table.finished:
            log.info("seat %d asks for its seat back: busy (%s)", seat, self.stage.value)
            return
        if table.deal_id < self._back_from.get(seat, 0):
            # refused in this deal (and told so): asked again from the next, not sooner
            log.info("seat %d asks for its seat back again before deal %d", seat, table.deal_id)
            return
        self._go(Handing(self._ask_player(seat, 0.0, now, back=self._name(seat)), nonce))

    @_guarded(None)
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
        following = follow(envelope, self.ids, previous, nonce)
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
        self._remember(envelope.game)  # before we sign anything in it
        self.outcomes["followed"] += 1
        self._switch(following, ())

    def retry(self, nonce: bytes | None) -> None:
        """Try again the continuations seen so far (our table may have caught up)."""
        for raw in list(self._tables_seen):
            self.seen(raw, nonce)

    @_guarded(None)
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

    # -- the proposer -------------------------------------------------------------------

    def _asked_to_propose(self, seat: int, yes: bool, now: float) -> None:
        table = self.table
        assert table is not None and table.setup is not None
        if not yes:
            self._close(seat, "this seat's player did not want a bot")
        elif seat not in table.missing():
            self._idle()  # the seat came back meanwhile
        else:
            bot = self.ids.new_bot()
            self._offer_change(
                seat, bot.public_key, _bot_name(table.setup.seats[seat].name), now, bot
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
        assert offer.proposal.after is not None and table.me is not None
        own = dict(offer.proposal.after.agreed)[table.me]
        self._cuts[cut] = offer.segment
        self._out.append(steps.Agreed(cut[0], cut[1], offer.segment, seat, own, proposed=True))
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
        self._back_from[seat] = table.deal_id + 1
        decline = Decline(table.game_id, why[:200], True)
        self._out.append(SendTo(seat, encode_seat_change(decline)))

    def _kept_for_now(self, sender: int, msg: Decline) -> bool:
        """Watching, a ``seat_decline`` from the bot's peer naming the segment we watch
        answers our ``seat_reclaim``: not in this deal (True: taken)."""
        table = self.table
        if not self.watching or table is None or msg.segment != table.game_id:
            return False
        if sender != _proposer(table, self.ids.home_seat):
            return False
        self.outcomes["kept for now"] += 1
        self._out.append(Kept(msg.why))
        return True

    # -- handing a seat back ----------------------------------------------------------------

    def _asked_to_hand_back(self, at: Handing, yes: bool, now: float) -> None:
        seat = at.question.seat
        table, bot_table = self.table, self._bot_tables.get(seat)
        assert table is not None
        if not yes or bot_table is None:
            if bot_table is not None:
                self._keep(seat, "the player running the bot did not want to hand it back")
            self._idle()
            return
        stop = bot_table.deal_id + 1
        bot_table.stop_at_deal(stop)  # the bot finishes this deal and deals itself nothing more
        drain = Draining(seat, stop, at.nonce, now)
        self._go(drain)
        self._tick_drain(drain, now)

    def _tick_drain(self, drain: Draining, now: float) -> None:
        table = self.table
        assert table is not None
        if table.finished:
            self._idle()
        elif table.deal_id >= drain.stop and table.missing() == [drain.seat]:
            seat = drain.seat
            self._offer_change(seat, self.ids.keys[seat], self._name(seat), now, None, drain.nonce)
        else:
            self._update(replace(drain, at=now + DRAIN_EVERY))

    # -- a remaining seat ---------------------------------------------------------------------

    def _on_offer(self, sender: int, offer: Offer, now: float) -> None:
        table, after, at = self.table, offer.table.after, self.at
        if table is None or after is None or table.setup is None:
            return
        if isinstance(at, Agreed):
            if at.segment == offer.segment:  # ours was lost
                self._out.append(Broadcast(encode_seat_change(Agree(offer.segment, at.sig))))
            elif after.segment == at.previous.segment and sender == _proposer(table, after.seat):
                # another continuation of the segment we signed one of: never a second
                self._decline(offer, one_only(at.previous.segment, at.segment), False)
            return
        if self.stage in (Stage.CONSIDERING, Stage.SWITCHED) or table.me in (None, after.seat):
            return
        if sender != _proposer(table, after.seat):
            return
        holder = offer.table.seats[after.seat]
        back = holder.name if holder.key == self.ids.keys[after.seat] else None
        if back is not None:
            self._back_offers[offer.segment] = after.heads
        if back is not None and after.seat in table.missing():
            # the bot's peer stopped it for this offer: its silence is that pause, until
            # the offer is over (its timeout at most) and the bot had a window to move
            until = now + self.config.offer_timeout + self.config.give_up_after
            self._paused[after.seat] = max(self._paused.get(after.seat, -math.inf), until)
        if offer.segment in self._declined:
            # said no to once: never signed after (a resend, or one that crossed ours)
            self._decline(offer, NO_AGAIN, False)
            return
        if self.stage in OWN_CHANGE:
            self._decline(offer, f"seat {table.me} is busy with seat {self.busy}", True)
            return
        if after.seat == self._said_no:
            self._decline(offer, "the player does not want a bot", False)
            return
        problem = self.offer_problem(sender, offer, table)
        if problem:
            returned = after.seat not in table.missing()
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
        if yes and (table is None or waiting.seat not in table.missing()):
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
        sender = _proposer(table, seat)
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
        self._out.append(steps.Agreed(previous.segment, cut, offer.segment, seat, sig))
        until = now + self.config.offer_timeout
        self._go(Agreed(offer.segment, previous, sig, seat, until, now))
        self.outcomes["agreed"] += 1
        self._tick_agreement(now)

    def _tick_agreement(self, now: float) -> None:
        agreed = self.at
        assert isinstance(agreed, Agreed)
        # (a hand-back's, a moment past the offer's time: another seat's question, put
        # when the offer reached it, times out as a no then, and we go on on that no,
        # ``_released_by``)
        back = agreed.segment in self._back_offers
        if now >= agreed.until + (self.config.resend_every if back else 0.0):
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
        if sender in (table.me, agreed.seat, _proposer(table, agreed.seat)):
            return False  # only a seat whose signature it lacks proves it is dead
        log.info("seat %d said no to handing seat %d back: going on", sender, agreed.seat)
        self._released.add((table.game_id, heads))
        self._signed_from.pop(table.game_id, None)
        self.outcomes["released"] += 1
        self._thaw()
        self._idle()
        return True

    def offer_problem(self, sender: int, offer: Offer, table: Table) -> str:
        """Why this seat does not sign ``sender``'s ``offer`` on ``table`` ("" if it may)."""
        after = offer.table.after
        if after is not None and (table.game_id, after.heads) in self._released:
            return f"this seat signed a continuation at this cut of {table.game_id.hex()[:16]}"
        signed = self._signed_from.get(table.game_id)
        return offer_problem(table, sender, offer, self.ids, signed)

    # -- shared steps -------------------------------------------------------------------------

    def _ask_player(
        self, seat: int, silent: float, now: float, back: str | None = None
    ) -> Question:
        """Ask our player about ``seat`` (``back``: hand it back to that player): the
        question, for the stage that waits on its answer."""
        table = self.table
        assert table is not None and table.setup is not None
        name = table.setup.seats[seat].name
        bot = back if back is not None else _bot_name(name)
        self._asks += 1
        timeout = self.config.offer_timeout
        self._out.append(AskPlayer(self._asks, seat, name, silent, bot, back is not None, timeout))
        return Question(self._asks, seat, now + timeout, silent)

    def _decline(self, offer: Offer, why: str, retry: bool) -> None:
        if not retry:
            self._declined.add(offer.segment)
        self.outcomes["declined"] += 1
        self._out.append(Broadcast(encode_seat_change(Decline(offer.segment, why, retry))))

    def _close(self, seat: int, why: str) -> None:
        """The change about ``seat`` failed: the driver ends the game the next time it
        gives up on that seat."""
        log.warning("no bot for seat %d: %s", seat, why)
        self._failed.add(seat)
        self.outcomes["closed"] += 1
        self._thaw()
        self._out.append(Closed(seat, why))
        self._idle()

    def _thaw(self) -> None:
        """Go on with the segment in play, unless we signed a continuation of it: a seat
        that signed processes nothing more of the old segment (the proposer, who alone
        can seal its offer, goes on when it fails)."""
        if self.table is not None and self.table.game_id not in self._signed_from:
            self._out.append(Thaw())

    def _idle(self) -> None:
        self._go(Idle())

    def _remember(self, segment: bytes) -> None:
        self.ids.seen_ids.add(segment)
        self._out.append(Remember(segment))

    def _switch(self, table: Table, bots: Bots) -> None:
        self._go(Switched())
        self._out.append(Switch(table, bots))

    def _name(self, seat: int) -> str:
        names = self.ids.names
        return names[seat] if seat < len(names) else f"seat {seat}"


def _proposer(table: Table, lost: int) -> int:
    """The seat that proposes (and hosts) a change of ``lost``: the lowest other seat."""
    return next(s for s in range(table.n_seats) if s != lost)


def _bot_name(name: str) -> str:
    return f"Bot for {name}"[: m.MAX_NAME]
