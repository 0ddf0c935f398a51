"""Belot's coach: a seat's calls, declarations and card plays in a finished game,
graded by the strong evaluation.

Each of the seat's plays is taken from the game *as the seat saw it then* (its own
cards, the turned card, every call, declaration and card so far): the hidden cards
are dealt again as the ``strong`` level deals them (consistent with the voids, the
trumps not beaten, the declared cards; weighed by the calls and declarations they
explain), every distinct legal card is played in each world, the rules of thumb
play on and the exact search finishes the deal, valued as the level values it:
the seat's written points less the others' mean, the race to 1001 included
(:func:`~p2pbelka.bots.belot.search.utility`).  See :mod:`p2pbelka.bots.common.coach`
for what is flagged.

Calls are graded too, as the level makes them: bidding worlds (the others' six
cards, every seat's three more) weighed by the calls before the seat's, the
later seats calling by the rules of thumb, the deal played out by the rules of
thumb for every seat, the seat's own later play included (so no later choice of
its own sees a hidden card).

Declarations too: at each of the seat's leads where the rules let it declare, what
it declared there (nothing, some or all of what it held) is graded against every
other set of combinations the rules allow at that moment (:func:`declaration_choices`:
nothing, all, any part -- sequences of one seat sharing no card), over the same
worlds as a card there: each set is declared in each world, the rules of thumb play
on (every seat, this one at its next lead too, declaring as the level does, a claim
of 1001 when true) and the exact search finishes the deal, valued as a card is.  The reason names
the combination points each set scored on average.  The worlds play with every hand
open, as the level's search does: what showing the cards tells the others is not
valued, only what the declaration scores or stops the others scoring (and the race
to 1001 it moves).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from p2pbelka.bots.belot.base import seat_view
from p2pbelka.bots.belot.fastsolver import solve
from p2pbelka.bots.belot.inference import weighted_bidding, weighted_hands
from p2pbelka.bots.belot.knowledge import Known, known_from
from p2pbelka.bots.belot.policy import declaration_plan
from p2pbelka.bots.belot.search import playout, sim_from, utility
from p2pbelka.bots.belot.solver import Table, distinct_moves
from p2pbelka.bots.belot.strong import POOL, SOLVE_CARDS, call_value, world_values
from p2pbelka.bots.common.coach import Graded, Position, with_choice
from p2pbelka.cards import CARDS, FULL_MASK, iter_bits, to_mask
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.deal import Bid, Claim, DealState, Declaration, Declare
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.common.play import Play

THRESHOLD = 10.0
"""Points (written, against the others' mean) a play must cost to be flagged when the
player names no threshold."""
BID = "bid"
"""The kind of a call's decision; its moves are places in :data:`CALLS`."""
CALLS = ("play", "pass", "C", "D", "H", "S")
CALL_WORDS = ("playing the turned suit", "pass", "clubs", "diamonds", "hearts", "spades")
"""The calls in words (``ui/games/belot/view.py`` puts them in the catalogue)."""
DECLARE = "declare"
"""The kind of a declaration's decision; its move is a set of combinations
(:func:`encode`)."""
DECLARE_WORDS = ("declaring nothing", "declaring {what}")
"""A set of combinations in words (``ui/games/belot/view.py`` puts them in the
catalogue), with the combinations' own words (:data:`SEQUENCE_WORDS`, ...) for
``{what}``."""
SEQUENCE_WORDS = {
    3: "terz",
    4: "berz",
    5: "quint",
    6: "six in a row",
    7: "seven in a row",
    8: "eight in a row",
}
FOUR_WORDS = (
    "four sevens",
    "four eights",
    "four nines",
    "four tens",
    "four jacks",
    "four queens",
    "four kings",
    "four aces",
)
BELLE_WORDS = "belle"
MAX_CHOICES = 12
"""Sets of combinations graded at one lead at most: the one declared, nothing, the
rules of thumb's, then the others by their face value."""
_BIDS = 1_000_000
_DECLARES = 3_000_000
"""Where the calls' and declarations' places start (their worlds' seeds apart from
the cards')."""


def encode(masks: Sequence[int]) -> int:
    """A set of combinations (their card masks) as one move: the sequences' cards in
    bits 0-31 and their lowest cards in 32-63, the fours' ranks in 64-71, belle's suit
    in 72-75; 0 is nothing.  The same set gives the same move in any order."""
    move = 0
    for mask in masks:
        if mask.bit_count() == 2:
            move |= 1 << (72 + ((mask & -mask).bit_length() - 1 >> 3))
        elif mask.bit_count() == 4 and mask in core.RANK_MASKS:
            move |= 1 << (64 + core.RANK_MASKS.index(mask))
        else:
            move |= mask | (mask & -mask) << 32
    return move


def decode(move: int) -> list[int]:
    """The card masks of the set of combinations :func:`encode` made ``move`` of:
    sequences (by their lowest card), fours (by rank), belle."""
    members, starts = move & FULL_MASK, move >> 32 & FULL_MASK
    masks: list[int] = []
    for low in iter_bits(starts):
        mask, card = 0, low
        while members >> card & 1 and (card == low or not starts >> card & 1):
            mask |= 1 << card
            if card & 7 == 7:
                break
            card += 1
        masks.append(mask)
    masks.extend(core.RANK_MASKS[r] for r in range(8) if move >> (64 + r) & 1)
    for suit in range(4):
        if move >> (72 + suit) & 1:
            masks.append(1 << (suit * 8 + core.KING) | 1 << (suit * 8 + core.QUEEN))
    return masks


def combination_words(mask: int) -> str:
    """One combination in English words (the catalogue's): "terz", "four jacks", "belle"."""
    if mask.bit_count() == 2:
        return BELLE_WORDS
    if mask.bit_count() == 4 and mask in core.RANK_MASKS:
        return FOUR_WORDS[core.RANK_MASKS.index(mask)]
    return SEQUENCE_WORDS[mask.bit_count()]


def declaration_choices(deal: DealState, seat: int, known: Known, played: int) -> list[int]:
    """The sets of combinations ``seat`` may declare at this lead (moves, :func:`encode`):
    the one ``played``, nothing, what the rules of thumb declare, then the others (the
    rules allow any part of what may be declared, sequences sharing no card) by their
    face value, :data:`MAX_CHOICES` at most."""
    legal = [to_mask(cards) for cards in deal.legal_declarations(seat)]
    sets: list[tuple[int, ...]] = [()]
    for mask in legal:
        is_seq = _is_sequence(mask, known)
        for chosen in list(sets):
            taken = sum(m for m in chosen if _is_sequence(m, known))
            if not (is_seq and taken & mask):
                sets.append((*chosen, mask))
    plan = declaration_plan(known.hand, seat, known.trump, known.fours, known.declared)
    first = [played, 0, encode(plan)]
    rest = sorted(sets, key=lambda c: -_face_value(c, known))
    moves: list[int] = []
    for move in [*first, *(encode(c) for c in rest)]:
        if move not in moves and len(moves) < MAX_CHOICES:
            moves.append(move)
    return moves


def _is_sequence(mask: int, known: Known) -> bool:
    found = core.combination(mask, known.trump, known.fours)
    return found is not None and found[0] == core.SEQUENCE


def _face_value(masks: Sequence[int], known: Known) -> int:
    return sum((core.combination(m, known.trump, known.fours) or (0, 0, 0))[1] for m in masks)


def declaration_values(
    known: Known, hands: list[int], moves: list[int], stop: int
) -> list[tuple[float, int]]:
    """Each set of combinations ``moves`` declared now in one world (``hands``): the seat's
    utility (the rules of thumb play on until ``stop`` cards a hand, the exact search
    finishes) and the combination points it scores when the rules of thumb play the
    deal out.  At its next lead the seat declares what the rules of thumb declare then
    (what it still holds): declaring nothing now is not declaring nothing ever."""
    seat = known.seat
    base = sim_from(known, hands)
    tt: Table = {}
    out: list[tuple[float, int]] = []
    for move in moves:
        sim = base.copy()
        for mask in decode(move):
            found = core.combination(mask, known.trump, known.fours)
            if found is not None:
                sim.declared.append((seat, *found, mask))
        sim.led |= 1 << seat  # nothing more at this lead: the lead's trick is played ...
        playout(sim, sim.hands[seat].bit_count() - 1)
        sim.led &= ~(1 << seat)  # ... and at its next lead it declares as the level does
        playout(sim, stop)
        end = sim.copy()
        playout(end)
        declared = [(s, k, v, key) for s, k, v, key, _m in end.declared]
        scored = core.scored_combinations(declared, end.took, end.players)[seat]
        value = utility(sim, seat) if sim.over else solve(sim, seat, tt)
        out.append((value, scored))
    return out


def _declare_due(game: BelotGame, pending: list[Declaration]) -> BelotGame:
    """The declarations made at the lead about to be played, in the order made."""
    deal = game.deal
    assert deal is not None
    while pending and deal.at_lead and pending[0].trick == len(deal.tricks):
        made = pending.pop(0)
        game = game.apply(Declare(made.seat, tuple(made.cards)))
        deal = game.deal
        assert deal is not None
    return game


def _declaration(g: BelotGame, seat: int, pending: list[Declaration]) -> Iterator[Position]:
    """The seat's declaration at the lead about to be played, if the rules let it declare:
    what it declared there (of ``pending``, the declarations still to be made)."""
    deal = g.deal
    assert deal is not None
    if not deal.at_lead or deal.leader != seat or not deal.legal_declarations(seat):
        return
    trick = len(deal.tricks)
    made = [d.mask for d in pending if d.seat == seat and d.trick == trick]
    at = _DECLARES + 16 * deal.number + trick
    yield Position(seat_view(g, seat), seat, encode(made), deal.number, trick, at, DECLARE)


class BelotCoach:
    """Belot's :class:`~p2pbelka.bots.common.coach.Coach`."""

    unit = "points"
    threshold = THRESHOLD

    def move_words(self, kind: str, move: int) -> str | None:
        if kind == DECLARE:
            return DECLARE_WORDS[move != 0]
        return CALL_WORDS[move] if kind == BID else None

    def move_parts(self, kind: str, move: int) -> list[tuple[str, tuple[int, ...]]] | None:
        if kind != DECLARE:
            return None
        return [(combination_words(m), tuple(iter_bits(m))) for m in decode(move)]

    def positions(self, game: BelotGame, seat: int) -> Iterator[Position]:
        """The seat's calls, declarations (at each of its leads where it could declare) and
        card plays in the finished deals of ``game``, each from its view."""
        g = BelotGame.new(game.options, game.players, game.first_dealer)
        index = 0
        for result in game.history:
            done = result.deal
            g = g.start_deal(done.dealt, done.turned)
            for k, call in enumerate(done.bids):
                deal = g.deal
                assert deal is not None and deal.turn is not None
                if deal.turn == seat:
                    at = _BIDS + 16 * done.number + k
                    move = CALLS.index(call)
                    yield Position(seat_view(g, seat), seat, move, done.number, 0, at, BID)
                g = g.apply(Bid(deal.turn, call))
            if done.extra is not None:
                g = g.deal_extra(done.extra)
                pending = list(done.declarations)
                for card in done.plays:
                    yield from _declaration(g, seat, pending)
                    g = _declare_due(g, pending)
                    deal = g.deal
                    assert deal is not None and deal.turn is not None
                    turn = deal.turn
                    if turn == seat:
                        yield Position(
                            seat_view(g, seat), seat, card, done.number, len(deal.tricks), index
                        )
                    index += 1
                    g = g.apply(Play(turn, CARDS[card]))
                yield from _declaration(g, seat, pending)
                g = _declare_due(g, pending)
                if done.claim is not None:
                    g = g.apply(Claim(done.claim))
            g = g.finish_deal()

    def grade(self, position: Position, worlds: int, rng: random.Random) -> Graded:
        if position.kind == BID:
            return _grade_call(position, worlds, rng)
        if position.kind == DECLARE:
            return _grade_declaration(position, worlds, rng)
        view: BelotGame = position.view
        deal = view.deal
        if deal is None:
            raise ValueError("no deal in progress at this position")
        known = known_from(view, position.seat)
        allowed = deal.legal_mask(position.seat)
        if not allowed >> position.played & 1:
            return Graded([position.played], [[]])
        trick = sum(1 << c for c in known.trick)
        blockers = (FULL_MASK & ~known.hand & ~known.played) | trick
        moves = with_choice(distinct_moves(allowed, known.trump, blockers), position.played)
        if len(moves) < 2:
            return Graded(moves, [[] for _ in moves])
        stop = SOLVE_CARDS[known.players]
        values: list[list[float]] = [[] for _ in moves]
        for hands in weighted_hands(known, rng, worlds, POOL * worlds):
            for i, value in enumerate(world_values(known, hands, moves, stop)):
                values[i].append(value)
        return Graded(moves, values)


def _grade_call(position: Position, worlds: int, rng: random.Random) -> Graded:
    """Every legal call over bidding worlds drawn from the seat's view, as the level
    values calls."""
    view: BelotGame = position.view
    deal = view.deal
    assert deal is not None
    known = known_from(view, position.seat)
    calls = deal.legal_calls(position.seat)
    values: list[list[float]] = [[] for _ in calls]
    for first, extra in weighted_bidding(known, rng, worlds, POOL * worlds):
        for i, call in enumerate(calls):
            values[i].append(call_value(known, first, extra, call))
    return Graded([CALLS.index(call) for call in calls], values)


def _grade_declaration(position: Position, worlds: int, rng: random.Random) -> Graded:
    """Every set of combinations the seat may declare at this lead, over worlds drawn from
    its view (the worlds a card there is graded on)."""
    view: BelotGame = position.view
    deal = view.deal
    assert deal is not None
    known = known_from(view, position.seat)
    moves = declaration_choices(deal, position.seat, known, position.played)
    stop = SOLVE_CARDS[known.players]
    values: list[list[float]] = [[] for _ in moves]
    scored: list[list[int]] = [[] for _ in moves]
    for hands in weighted_hands(known, rng, worlds, POOL * worlds):
        for i, (value, points) in enumerate(declaration_values(known, hands, moves, stop)):
            values[i].append(value)
            scored[i].append(points)
    return Graded(moves, values, scored=scored)


COACH = BelotCoach()
"""The coach in Belot's entry of the bots' registry."""
