"""The life of a game at the table, as one transition table (protocol/SPEC.md §4).

``COMMON_STEPS`` maps each phase to what it accepts (message class -> handler), who
speaks in it and in which order, what the local seat sends when its turn comes
(a message the table makes by itself, or a question for the player), and what
phase comes next once every speaker has spoken.  Read it top to bottom and you
have one deal: commit, shuffle, lock, shares, the game's own announcements,
play, reveal and audit, deal end, and the next deal or the end of the game.
A game adds its own phases (``GamePhases``, in the game's module), and
``registry.py`` holds each game's whole schedule.

In a *parallel* phase every seat sends at once and the envelopes are processed
in the phase's order; in the others seats speak in turn.  A handler that finds
a seat at fault raises :class:`Abort`; a problem nobody can be blamed for yet
is a *dispute* on the deal's record, and the deal skips to the reveal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from p2pbelka.cards import CARDS
from p2pbelka.fairdeal.lots import check_lot, commit_lot, resolve_lots
from p2pbelka.protocol import messages as m
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.dealdeck import DeckFault
from p2pbelka.table.errors import MoveRefused
from p2pbelka.table.phase import Abort, GamePhases, Phase, Question, Step, all_seats

if TYPE_CHECKING:
    from p2pbelka.table.session import Table

LOT_PURPOSE = b"first-dealer"


@dataclass
class LotDraw:
    """The commit-reveal draw of the first dealer."""

    commits: dict[int, bytes] = field(default_factory=dict)
    values: dict[int, bytes] = field(default_factory=dict)
    mine: bytes | None = None


# -- who speaks -----------------------------------------------------------------------


def all_but_host(table: Table) -> list[int]:
    return [s for s in range(table.n_seats) if s != table.host_seat]


def pass_order(table: Table) -> list[int]:
    """The seats after the dealer, in play order: who shuffles and locks."""
    dealer, n = table.track.dealer, table.n_seats
    return [(dealer + 1 + i) % n for i in range(n)]


def whose_card(table: Table) -> list[int]:
    turn = table.track.turn
    return [] if table.round.disputes or turn is None else [turn]


# -- before the first deal: seating and the lot ------------------------------------------


def on_sit(table: Table, seat: int, msg: m.SitMsg) -> None:
    if msg.table != table.table_digest:
        raise Abort(table.fault(seat, "agreed to a different table description"))


def own_lot_commit(table: Table) -> m.Message:
    assert table.me is not None
    table.lots.mine = table.draw_secret()
    return m.LotCommitMsg(commit_lot(table.game_id, LOT_PURPOSE, table.me, table.lots.mine))


def own_lot_reveal(table: Table) -> m.Message:
    assert table.lots.mine is not None
    return m.LotRevealMsg(table.lots.mine)


def on_lot_commit(table: Table, seat: int, msg: m.LotCommitMsg) -> None:
    table.lots.commits[seat] = msg.c


def on_lot_reveal(table: Table, seat: int, msg: m.LotRevealMsg) -> None:
    table.lots.values[seat] = msg.v
    if not check_lot(table.game_id, LOT_PURPOSE, seat, msg.v, table.lots.commits.get(seat)):
        raise Abort(table.fault(seat, "revealed a lot value that does not match its commitment"))


def finish_lot(table: Table) -> Phase:
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
    return Phase.COMMIT


# -- the deck: commit, shuffle, lock, shares ------------------------------------------------


def own_commit(table: Table) -> m.Message:
    local = table.round.deck.local
    assert local is not None
    return m.CommitMsg(local.commitment)


def on_commit(table: Table, seat: int, msg: m.CommitMsg) -> None:
    table.round.deck.commitments[seat] = msg.c


def own_pass(table: Table) -> m.Message | None:
    deck = table.round.deck
    built_on = m.deck_digest(deck.current())
    try:
        points = tuple(deck.local_pass())
    except DeckFault as exc:
        raise Abort(table.fault(exc.seat, exc.what)) from None
    if table.phase is Phase.SHUFFLE:
        return m.ShuffleMsg(points, built_on)
    return m.LockMsg(points, built_on)


def on_pass(table: Table, seat: int, msg: m.ShuffleMsg | m.LockMsg) -> None:
    deck = table.round.deck
    if msg.input != m.deck_digest(deck.current()):
        # Its view agreed with ours, so it had accepted the deck we hold: its own
        # signed statements contradict each other.
        raise Abort(table.fault(seat, "its pass names an input deck other than the one it had"))
    try:
        deck.add_pass(seat, msg.deck)
    except DeckFault as exc:
        raise Abort(table.fault(exc.seat, exc.what)) from None


def own_shares(table: Table) -> m.Message:
    return m.SharesMsg(tuple(table.round.deck.my_shares()))


def on_shares(table: Table, seat: int, msg: m.SharesMsg) -> None:
    try:
        table.round.deck.add_shares(seat, msg.shares)
    except DeckFault as exc:
        raise Abort(table.fault(exc.seat, exc.what)) from None


def read_hand(table: Table) -> Phase:
    """Every seat's shares are in: the local seat reads its hand."""
    if table.me is not None:
        hand = table.round.deck.read_my_hand()
        table.round.my_hand = hand or {}
        if hand is not None:
            cards = tuple(sorted(CARDS[c] for c in hand.values()))
            table.emit(ev.HandDealt(table.me, cards))
    return table.phases.after_shares


# -- trick play ------------------------------------------------------------------------------


def ask_card(table: Table) -> Question:
    assert table.me is not None
    cards = table.track.legal_cards(table.me)
    return Question("play", tuple(mv.PlayCard(c) for c in cards))


def play_card(table: Table, move: mv.Move) -> m.Message:
    assert isinstance(move, mv.PlayCard)
    pos = table.round.position_of(move.card.index)
    if pos is None:
        raise MoveRefused(f"{move.card} is not in your hand")
    return m.PlayMsg(pos, table.round.deck.my_opening(pos).key)


def on_play(table: Table, seat: int, msg: m.PlayMsg) -> None:
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


def own_reveal(table: Table) -> m.Message:
    local = table.round.deck.local
    assert local is not None
    return m.RevealMsg(local.seed)


def on_reveal(table: Table, seat: int, msg: m.RevealMsg) -> None:
    if not table.round.deck.add_seed(seat, msg.seed):
        raise Abort(table.fault(seat, "revealed a seed that does not match its commitment"))


def run_audit(table: Table) -> None:
    """The end-of-deal audit: the deal end's prelude, so each seat's ``deal_end``
    (which says nothing the audit could change) is on its way while the seat audits,
    and no ``deal_end`` is processed before the audit passed: a failed audit ends
    the game with the last ``reveal`` as the last record, as before."""
    report = table.phases.audit(table.round, table.track)
    for fault in report.faults:
        table.emit(ev.FaultFound(fault))
    fatal = [f for f in report.faults if f.fatal]
    if fatal:
        raise Abort(*fatal)
    assert report.summary is not None
    table.emit(ev.DealAudited(table.deal_id, report.summary, table.track.standing()))


def own_deal_end(table: Table) -> m.Message:
    """At flow 2, with the commitment to this seat's seed for the next deal id: the
    commit phase of the next deal is then not needed (if the game ends, or the next
    deal comes after an eggs choice, the commitment waits or is never used)."""
    return m.DealEndMsg(table.upcoming_commitment() if table.carries_commitments else None)


def on_deal_end(table: Table, seat: int, msg: m.DealEndMsg) -> None:
    """The envelope's view, checked before this, says the sender saw every chain of
    the deal (its reveal included) as we did.  At flow 2 it commits the sender for
    the next deal; at flow 1 a commitment is not the schedule's."""
    if table.carries_commitments != (msg.c is not None):
        what = "carries no commitment" if msg.c is None else "carries a commitment"
        raise Abort(table.fault(seat, f"its deal_end {what} (flow {table.flow})"))
    if msg.c is not None:
        table.carry_commitment(seat, msg.c)


def uncommitted(table: Table) -> list[int]:
    """Who sends ``commit``: every seat, but at flow 2 after the first deal nobody
    (their ``deal_end``s carried the commitments; the phase is skipped)."""
    known = table.round.deck.commitments
    return [s for s in all_seats(table) if s not in known]


# -- the transition table --------------------------------------------------------------------

COMMON_STEPS: Mapping[Phase, Step] = {
    Phase.SIT: Step(
        {m.SitMsg: on_sit},
        all_but_host,
        lambda t: m.SitMsg(t.table_digest),
        lambda t: t.after_seating(),  # the lot, or a continuation's carried-over game
        before_deals=True,
    ),
    Phase.LOT_COMMIT: Step(
        {m.LotCommitMsg: on_lot_commit},
        all_seats,
        own_lot_commit,
        lambda t: Phase.LOT_REVEAL,
        before_deals=True,
    ),
    Phase.LOT_REVEAL: Step(
        {m.LotRevealMsg: on_lot_reveal},
        all_seats,
        own_lot_reveal,
        finish_lot,
        before_deals=True,
    ),
    Phase.COMMIT: Step({m.CommitMsg: on_commit}, uncommitted, own_commit, lambda t: Phase.SHUFFLE),
    Phase.SHUFFLE: Step(
        {m.ShuffleMsg: on_pass}, pass_order, own_pass, lambda t: Phase.LOCK, parallel=False
    ),
    Phase.LOCK: Step(
        {m.LockMsg: on_pass}, pass_order, own_pass, lambda t: Phase.SHARES, parallel=False
    ),
    Phase.SHARES: Step({m.SharesMsg: on_shares}, all_seats, own_shares, read_hand),
    # ... the game's own phases (announcements, bidding), then trick play ...
    Phase.PLAY: Step(
        {m.PlayMsg: on_play},
        whose_card,
        ask_card,
        lambda t: Phase.REVEAL,
        parallel=False,
        turn_based=True,
        decision=True,
    ),
    Phase.REVEAL: Step({m.RevealMsg: on_reveal}, all_seats, own_reveal, lambda t: Phase.DEAL_END),
    Phase.DEAL_END: Step(
        {m.DealEndMsg: on_deal_end},
        all_seats,
        own_deal_end,
        lambda t: t.phases.after_deal_end(t),
        prelude=run_audit,
    ),
    # ... the game's own phases after a deal (Belka's eggs choice), then the next deal
    # (next_deal_or_over) ...
}

COMMON_MOVES: Mapping[type[mv.Move], Callable[[Table, Any], m.Message]] = {
    mv.PlayCard: play_card,
}


@dataclass(frozen=True, slots=True)
class Schedule:
    """One game's whole schedule: the common phases with the game's own."""

    steps: Mapping[Phase, Step]
    game: GamePhases
    moves: Mapping[type[mv.Move], Callable[[Table, Any], m.Message]]


def schedule_for(game: GamePhases) -> Schedule:
    return Schedule({**COMMON_STEPS, **game.steps}, game, {**COMMON_MOVES, **game.moves})
