"""The life of a game at the table, as one transition table (protocol/SPEC.md §4).

``common_steps`` maps each phase to what it accepts (message class -> handler), who
speaks in it and in which order, what the local seat sends when its turn comes
(a message the table makes by itself, or a question for the player), the phases
that may follow it, the work done once every speaker has spoken, and which phase
comes next.  Read it top to bottom and you have one deal: commit, shuffle, lock,
shares, the game's own announcements, play, reveal and audit, deal end, and the
next deal or the end of the game.  A game adds its own phases (``GamePhases``, in
the game's module; ``schedule_for`` puts the two together), and ``registry.py``
holds each game's whole schedule.  This module names no game.

In a *parallel* phase every seat sends at once and the envelopes are processed
in the phase's order; in the others seats speak in turn.  A handler that finds
a seat at fault raises :class:`Abort`; a problem nobody can be blamed for yet
is a *dispute* on the deal's record, and the deal skips to the reveal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from p2pbelka.cards import CARDS
from p2pbelka.fairdeal.errors import FairDealError
from p2pbelka.fairdeal.lots import check_lot, commit_lot, resolve_lots
from p2pbelka.protocol import messages as m
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.context import TableContext
from p2pbelka.table.dealdeck import DeckFault
from p2pbelka.table.errors import MoveRefused
from p2pbelka.table.phase import (
    ENDS,
    FIRST,
    STOPS,
    Abort,
    Action,
    GamePhases,
    MoveToMessage,
    Phase,
    PhaseId,
    Question,
    Step,
    Then,
    all_seats,
    leads_to,
)

LOT_PURPOSE = b"first-dealer"


# -- who speaks -----------------------------------------------------------------------


def all_but_host(table: TableContext) -> list[int]:
    return [s for s in range(table.n_seats) if s != table.host_seat]


def pass_order(table: TableContext) -> list[int]:
    """The seats after the dealer, in play order: who shuffles and locks."""
    dealer, n = table.track.dealer, table.n_seats
    return [(dealer + 1 + i) % n for i in range(n)]


def whose_card(table: TableContext) -> list[int]:
    turn = table.track.turn
    return [] if table.round.disputes or turn is None else [turn]


# -- before the first deal: seating and the lot ------------------------------------------


def on_sit(table: TableContext, seat: int, msg: m.SitMsg) -> None:
    if msg.table != table.table_digest:
        raise Abort(table.fault(seat, "agreed to a different table description"))


def own_lot_commit(table: TableContext) -> m.Message:
    assert table.me is not None
    table.lots.mine = table.draw_secret()
    return m.LotCommitMsg(commit_lot(table.game_id, LOT_PURPOSE, table.me, table.lots.mine))


def own_lot_reveal(table: TableContext) -> m.Message:
    assert table.lots.mine is not None
    return m.LotRevealMsg(table.lots.mine)


def on_lot_commit(table: TableContext, seat: int, msg: m.LotCommitMsg) -> None:
    table.lots.commits[seat] = msg.c


def on_lot_reveal(table: TableContext, seat: int, msg: m.LotRevealMsg) -> None:
    table.lots.values[seat] = msg.v
    if not check_lot(table.game_id, LOT_PURPOSE, seat, msg.v, table.lots.commits.get(seat)):
        raise Abort(table.fault(seat, "revealed a lot value that does not match its commitment"))


def finish_lot(table: TableContext) -> None:
    """Every lot is revealed: the first dealer is drawn, and the game starts."""
    seats = all_seats(table)
    outcome = resolve_lots(
        table.game_id,
        LOT_PURPOSE,
        [table.lots.commits[s] for s in seats],
        [table.lots.values[s] for s in seats],
        table.n_seats,
    )
    assert outcome.choice is not None  # every reveal was checked as it came
    table.start_game(outcome.choice)


# -- the deck: commit, shuffle, lock, shares ------------------------------------------------


def own_commit(table: TableContext) -> m.Message:
    local = table.round.deck.local
    assert local is not None
    return m.CommitMsg(local.commitment)


def on_commit(table: TableContext, seat: int, msg: m.CommitMsg) -> None:
    table.round.deck.commitments[seat] = msg.c


def own_pass(table: TableContext) -> m.Message | None:
    deck = table.round.deck
    built_on = m.deck_digest(deck.current())
    try:
        points = tuple(deck.local_pass())
    except DeckFault as exc:
        raise Abort(table.fault(exc.seat, exc.what)) from None
    if table.phase == Phase.SHUFFLE:
        return m.ShuffleMsg(points, built_on)
    return m.LockMsg(points, built_on)


def on_pass(table: TableContext, seat: int, msg: m.ShuffleMsg | m.LockMsg) -> None:
    deck = table.round.deck
    if msg.input != m.deck_digest(deck.current()):
        # Its view agreed with ours, so it had accepted the deck we hold: its own
        # signed statements contradict each other.
        raise Abort(table.fault(seat, "its pass names an input deck other than the one it had"))
    try:
        deck.add_pass(seat, msg.deck)
    except DeckFault as exc:
        raise Abort(table.fault(exc.seat, exc.what)) from None


def own_shares(table: TableContext) -> m.Message:
    return m.SharesMsg(tuple(table.round.deck.my_shares()))


def on_shares(table: TableContext, seat: int, msg: m.SharesMsg) -> None:
    try:
        table.round.deck.add_shares(seat, msg.shares)
    except DeckFault as exc:
        raise Abort(table.fault(exc.seat, exc.what)) from None


def read_hand(table: TableContext) -> None:
    """Every seat's shares are in: the local seat reads its hand."""
    if table.me is not None:
        hand = table.round.deck.read_my_hand()
        table.round.my_hand = hand or {}
        if hand is not None:
            cards = tuple(sorted(CARDS[c] for c in hand.values()))
            table.emit(ev.HandDealt(table.me, cards))


# -- cards opened to all -------------------------------------------------------------------


def open_position(table: TableContext, seat: int, opening: m.Opening) -> int | None:
    """Open a position of ``seat``'s to all; None (and a dispute) if it does not open."""
    rnd = table.round
    try:
        card = rnd.deck.open(seat, opening)
    except DeckFault as exc:
        raise Abort(table.fault(exc.seat, exc.what)) from None
    except FairDealError as exc:
        table.dispute(seat, f"opened a position that is not a card: {exc}")
        return None
    shown = rnd.public_cards.get(card, seat)
    if shown != seat:
        by = f"by seat {shown}" if shown >= 0 else "to all, as no seat's card"
        table.dispute(seat, f"opened {CARDS[card]}, already shown {by}")
        return None
    if seat != table.me and card in rnd.my_hand.values():
        note_shown_twice(table, seat, card)
    rnd.public_cards[card] = seat
    return card


def note_shown_twice(table: TableContext, seat: int, card: int) -> None:
    """``seat`` (-1: no seat's, as Belot's turned card) showed ``card``, which the local
    seat holds too: the deck is unsound (a pass copied a position).

    Not a dispute of this table alone: it would leave the schedule by itself while
    the others, who cannot know, play on.  The table goes on like every other, its
    rules engine no longer judging by its own hand (as the others do not), and the
    local seat shows its copy in its next play (``forced_play``): every table then
    sees the card shown twice at the same record and goes to the reveal, where the
    audit names the pass that did it (SPEC section 4.6)."""
    rnd, me = table.round, table.me
    if rnd.shown_twice is not None or me is None:
        return  # the first such card is the one shown
    rnd.shown_twice = rnd.position_of(card)
    table.track.forget_hand(me)
    table.emit(ev.CardInTwoHands(seat, CARDS[card]))


def forced_play(table: TableContext) -> m.PlayMsg | None:
    """The local seat's next play when another seat showed a card of its hand: that
    position, whatever the rules would allow (every table disputes it before the
    rules see it); None otherwise."""
    pos = table.round.shown_twice
    if pos is None:
        return None
    return m.PlayMsg(pos, table.round.deck.my_opening(pos).key)


# -- trick play ------------------------------------------------------------------------------


def ask_card(table: TableContext) -> m.Message | Question:
    assert table.me is not None
    forced = forced_play(table)
    if forced is not None:
        return forced
    cards = table.track.legal_cards(table.me)
    return Question("play", tuple(mv.PlayCard(c) for c in cards))


def play_card(table: TableContext, move: mv.Move) -> m.Message:
    assert isinstance(move, mv.PlayCard)
    pos = table.round.position_of(move.card.index)
    if pos is None:
        raise MoveRefused(f"{move.card} is not in your hand")
    return m.PlayMsg(pos, table.round.deck.my_opening(pos).key)


def on_play(table: TableContext, seat: int, msg: m.PlayMsg) -> None:
    if msg.pos in table.round.played:
        raise Abort(table.fault(seat, f"played position {msg.pos} a second time"))
    card = table.open_position(seat, m.Opening(msg.pos, msg.key))
    table.round.played.add(msg.pos)
    if card is None:
        return
    track = table.track
    before = track.trick_so_far()
    try:
        done = track.play(seat, CARDS[card])
    except RuleViolation as exc:
        raise Abort(table.fault(seat, f"illegal play: {exc}")) from None
    if done is None:
        trick = track.trick_so_far()
        table.emit(ev.CardPlayed(seat, CARDS[card], trick.leader, trick.cards, track.turn))
        return
    table.emit(ev.CardPlayed(seat, CARDS[card], before.leader, done.cards, None))
    table.emit(
        ev.TrickTaken(
            done.leader,
            done.cards,
            done.winner,
            track.turn,
            track.tricks_won(),
            track.card_points(),
        )
    )


# -- the end of a deal -------------------------------------------------------------------------


def own_reveal(table: TableContext) -> m.Message:
    local = table.round.deck.local
    assert local is not None
    return m.RevealMsg(local.seed)


def on_reveal(table: TableContext, seat: int, msg: m.RevealMsg) -> None:
    if not table.round.deck.add_seed(seat, msg.seed):
        raise Abort(table.fault(seat, "revealed a seed that does not match its commitment"))


def run_audit(game: GamePhases, table: TableContext) -> None:
    """The end-of-deal audit: the deal end's prelude, so each seat's ``deal_end``
    (which says nothing the audit could change) is on its way while the seat audits,
    and no ``deal_end`` is processed before the audit passed: a failed audit ends
    the game with the last ``reveal`` as the last record, as before."""
    report = game.audit(table.round, table.track)
    for fault in [*report.cancelled, *report.faults]:  # cancelled: verify --every-pass
        table.emit(ev.FaultFound(fault))
    fatal = [f for f in report.faults if f.fatal]
    if fatal:
        raise Abort(*fatal)
    assert report.summary is not None
    table.emit(ev.DealAudited(table.deal_id, report.summary, table.track.standing()))


def own_deal_end(table: TableContext) -> m.Message:
    """At flow 2, with the commitment to this seat's seed for the next deal id: the
    commit phase of the next deal is then not needed (if the game ends, or the next
    deal comes after a game's own phase between deals, the commitment waits or is never
    used)."""
    return m.DealEndMsg(table.upcoming_commitment() if table.carries_commitments else None)


def on_deal_end(table: TableContext, seat: int, msg: m.DealEndMsg) -> None:
    """The envelope's view, checked before this, says the sender saw every chain of
    the deal (its reveal included) as we did.  At flow 2 it commits the sender for
    the next deal; at flow 1 a commitment is not the schedule's."""
    if table.carries_commitments != (msg.c is not None):
        what = "carries no commitment" if msg.c is None else "carries a commitment"
        raise Abort(table.fault(seat, f"its deal_end {what} (flow {table.flow})"))
    if msg.c is not None:
        table.carry_commitment(seat, msg.c)


def uncommitted(table: TableContext) -> list[int]:
    """Who sends ``commit``: every seat, but at flow 2 after the first deal nobody
    (their ``deal_end``s carried the commitments; the phase is skipped)."""
    known = table.round.deck.commitments
    return [s for s in all_seats(table) if s not in known]


# -- between deals ---------------------------------------------------------------------------

NEXT_DEAL = leads_to(Phase.COMMIT, Phase.SHUFFLE, Phase.CLOSE, Phase.OVER)
"""What follows a deal (and whatever a game does between deals): the next deal's
commit (or, when every commitment came on a ``deal_end``, its shuffle), or the end
(from flow 3 through the closing exchange)."""


def closes(table: TableContext) -> bool:
    """Flow 3: a won game ends with the closing exchange, whose views cover the last
    deal's ``deal_end``s (nothing else signed comes after them)."""
    return table.flow >= 3


def close_deal(table: TableContext) -> None:
    """A deal and all that follows it are done: the game is won (over, or from flow 3
    closing), or the next deal begins."""
    track = table.track
    if not track.finished:
        table.begin_deal()
    elif not closes(table):
        game_over(table)


def game_over(table: TableContext) -> None:
    track = table.track
    table.emit(ev.GameOver(track.winner, track.final_score))


def next_deal_or_over(table: TableContext) -> PhaseId:
    """After ``close_deal``: the closing exchange (flow 3) or the end, or the next
    deal's first phase (from flow 2 every commitment came on a ``deal_end``, so no
    commit phase)."""
    if table.track.finished:
        return Phase.CLOSE if closes(table) else Phase.OVER
    committed = len(table.round.deck.commitments) == table.n_seats
    return Phase.SHUFFLE if committed else Phase.COMMIT


def on_close(table: TableContext, seat: int, msg: m.CloseMsg) -> None:
    """Nothing to check but the view, which the runner compared before this: it covers
    every envelope of the game as ours does."""


def between_deals(game: GamePhases, table: TableContext) -> PhaseId | None:
    """The game's own phase between deals, if it is due now (its order names a seat)."""
    phase = game.between_deals
    if phase is None or not game.steps[phase].order(table):
        return None
    return phase


def after_deal_end(game: GamePhases) -> tuple[Action, Then]:
    """What follows the deal-end reports: the game's phase between deals when it is due,
    else (closing the deal) the next deal or the end."""

    def close(table: TableContext) -> None:
        if between_deals(game, table) is None:
            close_deal(table)

    def then(table: TableContext) -> PhaseId:
        return between_deals(game, table) or next_deal_or_over(table)

    return close, then


def sit_down(game: GamePhases) -> tuple[Action, Then]:
    """Every seat sat: draw the first dealer, or, in a continuation segment, go on
    from the rules' state the previous segment left, as after a deal's end (no lot:
    the dealer is the one that segment's deals give)."""
    close, after = after_deal_end(game)

    def exit_(table: TableContext) -> None:
        if table.continue_game():
            close(table)

    def then(table: TableContext) -> PhaseId:
        return after(table) if table.started else Phase.LOT_COMMIT

    return exit_, then


# -- the transition table --------------------------------------------------------------------


def shares_step(after_shares: PhaseId) -> Step:
    """The shares: every seat publishes its key shares of the positions dealt to the
    others, then reads its hand; ``after_shares`` follows."""
    return Step(
        {m.SharesMsg: on_shares}, all_seats, own_shares, leads_to(after_shares), on_exit=read_hand
    )


PLAY_STEP = Step(
    {m.PlayMsg: on_play},
    whose_card,
    ask_card,
    leads_to(Phase.REVEAL),
    parallel=False,
    turn_based=True,
    decision=True,
    slot=lambda t: len(t.round.played),
)
"""Trick play: the seat whose card is due plays it, until the deal is played out."""


def common_steps(game: GamePhases) -> dict[PhaseId, Step]:
    """Every phase each game shares, in the order of a deal, with the game's own parts:
    the phase after the shares and the one between deals."""
    between = () if game.between_deals is None else (game.between_deals,)
    after_deal = NEXT_DEAL | leads_to(*between)
    sat, after_sitting = sit_down(game)
    closed, after_reports = after_deal_end(game)
    return {
        Phase.SIT: Step(
            {m.SitMsg: on_sit},
            all_but_host,
            lambda t: m.SitMsg(t.table_digest),
            leads_to(Phase.LOT_COMMIT) | after_deal,
            then=after_sitting,
            on_exit=sat,
            before_deals=True,
        ),
        Phase.LOT_COMMIT: Step(
            {m.LotCommitMsg: on_lot_commit},
            all_seats,
            own_lot_commit,
            leads_to(Phase.LOT_REVEAL),
            before_deals=True,
        ),
        Phase.LOT_REVEAL: Step(
            {m.LotRevealMsg: on_lot_reveal},
            all_seats,
            own_lot_reveal,
            leads_to(Phase.COMMIT),
            on_exit=finish_lot,
            before_deals=True,
        ),
        Phase.COMMIT: Step(
            {m.CommitMsg: on_commit}, uncommitted, own_commit, leads_to(Phase.SHUFFLE)
        ),
        Phase.SHUFFLE: Step(
            {m.ShuffleMsg: on_pass}, pass_order, own_pass, leads_to(Phase.LOCK), parallel=False
        ),
        Phase.LOCK: Step(
            {m.LockMsg: on_pass}, pass_order, own_pass, leads_to(Phase.SHARES), parallel=False
        ),
        Phase.SHARES: shares_step(game.after_shares),
        # ... the game's own phases (announcements, bidding), then trick play ...
        Phase.PLAY: PLAY_STEP,
        Phase.REVEAL: Step(
            {m.RevealMsg: on_reveal}, all_seats, own_reveal, leads_to(Phase.DEAL_END)
        ),
        Phase.DEAL_END: Step(
            {m.DealEndMsg: on_deal_end},
            all_seats,
            own_deal_end,
            after_deal,
            then=after_reports,
            on_exit=closed,
            prelude=lambda t: run_audit(game, t),
        ),
        # ... the game's own phase between deals (Belka's eggs choice), then the next
        # deal (close_deal, next_deal_or_over), or the end ...
        Phase.CLOSE: Step(
            {m.CloseMsg: on_close},
            all_seats,
            lambda t: m.CloseMsg(),
            leads_to(Phase.OVER),
            on_exit=game_over,
        ),
    }


COMMON_MOVES: Mapping[type[mv.Move], MoveToMessage] = {
    mv.PlayCard: play_card,
}


@dataclass(frozen=True, slots=True)
class Schedule:
    """One game's whole schedule: the common phases with the game's own."""

    steps: Mapping[PhaseId, Step]
    game: GamePhases
    moves: Mapping[type[mv.Move], MoveToMessage]

    def machine(self) -> dict[PhaseId, frozenset[PhaseId]]:
        """Each phase and the phases that may follow it (``STOPS`` may follow any)."""
        return {phase: step.successors | STOPS for phase, step in self.steps.items()}


def schedule_for(game: GamePhases) -> Schedule:
    """The game's whole schedule; ``ValueError`` if its phases do not make one: a phase
    of its own named like a common one, or a successor no step plays."""
    core = {str(p): p for p in Phase}
    for phase in game.steps:
        if str(phase) in core and core[str(phase)] is not phase:
            raise ValueError(f"the game's phase {phase!s} has the name of a common phase")
    steps = {**common_steps(game), **game.steps}
    for phase, step in steps.items():
        for nxt in step.successors:
            if (nxt not in steps and nxt not in ENDS) or nxt in STOPS:
                raise ValueError(f"{phase!s} leads to {nxt!s}, which no step plays")
    if FIRST not in steps:
        raise ValueError("the schedule has no first phase")
    return Schedule(steps, game, {**COMMON_MOVES, **game.moves})
