"""Deal the hidden cards again, consistently with what one seat knows.

Input is a :class:`~p2pbelka.bots.knowledge.Seen` (built from the seat's view)
and nothing else: the cards no one has shown go to the other seats, as many as
each still holds, never into a suit the seat has shown void in, and the J♣ to
its announced holder.  Cards are placed most-constrained first, each to a seat
drawn in proportion to its free places, which keeps the draw close to uniform
over the consistent deals.  :func:`weighted_samples` then prefers the deals
that explain the cards the others chose to play.
"""

from __future__ import annotations

import random

from p2pbelka.bots.knowledge import Seen
from p2pbelka.bots.policy import choose
from p2pbelka.bots.solver import step
from p2pbelka.cards import iter_bits
from p2pbelka.rules import core

_TRIES = 40
POINTS = core.POINTS
AGREE_GUESS = 0.69
"""How often a seat's play is the heuristic's choice from a consistent random guess
of its hand (``p2pbelka bench model``, games between different bots)."""
PLAYER_TYPES: tuple[tuple[float, float], ...] = ((0.5, 0.97), (0.5, 0.73))
"""(prior share, how often its play is the heuristic's choice from its true hand): a
player much like the heuristic (allowed a slip in thirty), and the other bots
measured by ``p2pbelka bench model`` (rule-based 0.77, plain Monte-Carlo 0.69,
strong 0.74)."""
PRIOR: tuple[float, ...] = tuple(share for share, _ in PLAYER_TYPES)
"""The type shares of a seat not read yet."""
DECLINED = 0.35
"""How much less likely a deal is for each other hand in it that could have asked for a
re-deal: the share of such hands that did not ask, across the bots (``bench model``)."""


def sample_hands(seen: Seen, rng: random.Random) -> list[int]:
    """Four hands: the seat's own, and a consistent guess for each other seat."""
    for _ in range(_TRIES):
        hands = _try(seen, rng, respect_voids=True)
        if hands is not None:
            return hands
    # Cannot happen with a consistent view; a guess ignoring voids still lets the bot play.
    hands = _try(seen, rng, respect_voids=False)
    assert hands is not None
    return hands


def _try(seen: Seen, rng: random.Random, respect_voids: bool) -> list[int] | None:
    esuit = core.EFFECTIVE_SUIT[seen.trump]
    seats = [s for s in range(4) if s != seen.seat]
    need = [0 if s == seen.seat else seen.counts[s] for s in range(4)]
    hands = [0, 0, 0, 0]
    hands[seen.seat] = seen.hand
    cards = list(iter_bits(seen.others))
    jc = core.JC_INDEX
    if jc in cards:
        cards.remove(jc)
        holder = seen.jc_holder
        if holder == seen.seat or need[holder] == 0:
            holder = max(seats, key=lambda s: need[s])
        hands[holder] |= 1 << jc
        need[holder] -= 1
    voids = seen.voids if respect_voids else [0, 0, 0, 0]
    rng.shuffle(cards)
    eligible = {c: [s for s in seats if not voids[s] >> esuit[c] & 1] for c in cards}
    cards.sort(key=lambda c: len(eligible[c]))
    for c in cards:
        places = [s for s in eligible[c] if need[s]]
        if not places:
            return None
        total = sum(need[s] for s in places)
        pick = rng.randrange(total)
        for s in places:
            pick -= need[s]
            if pick < 0:
                break
        hands[s] |= 1 << c
        need[s] -= 1
    return hands


def surprises(seen: Seen, hands: list[int]) -> int:
    """How many of the other seats' plays so far a sound player would not have made."""
    return sum(surprises_by_seat(seen, hands)[0])


def surprises_by_seat(seen: Seen, hands: list[int]) -> tuple[list[int], list[int]]:
    """Per seat: the plays so far the heuristic would not have made, and all its plays.

    The deal is replayed from the sampled hands as dealt, each seat shown only
    what it could see then.  Cards that play alike (small cards of one suit)
    count as the same choice.  The bot's own plays are not counted.
    """
    esuit = core.EFFECTIVE_SUIT[seen.trump]
    start = list(hands)
    for seat, card in seen.history:
        start[seat] |= 1 << card
    scratch = Seen(
        seat=seen.seat,
        trump=seen.trump,
        jc_holder=seen.jc_holder,
        hand=0,
        played=0,
        trick=[],
        leader=seen.first_leader,
        voids=[0, 0, 0, 0],
        led_by=[0, 0, 0, 0],
        counts=[8, 8, 8, 8],
        led_suits=0,
        points=(0, 0),
        ace_rule=seen.ace_rule,
        history=[],
        first_leader=seen.first_leader,
    )
    missed = [0, 0, 0, 0]
    plays = [0, 0, 0, 0]
    for seat, card in seen.history:
        if seat != seen.seat:
            scratch.seat = seat
            scratch.hand = start[seat]
            guess = choose(scratch)
            plays[seat] += 1
            if guess != card and not (
                esuit[guess] == esuit[card] and POINTS[guess] == POINTS[card] == 0
            ):
                missed[seat] += 1
        step(start, scratch, card)
    return missed, plays


Shares = tuple[float, ...]
"""Per seat: the weight of each of :data:`PLAYER_TYPES` (they sum to 1)."""


def likelihood(
    seen: Seen, hands: list[int], shares: list[Shares] | tuple[Shares, ...] | None = None
) -> float:
    """How well a guess of the hidden hands explains the play so far (relative weight).

    Each other seat is read as a mixture (:data:`PLAYER_TYPES`): a player who
    plays much like the heuristic, and one who plays otherwise; a play is
    weighed by how much likelier it is, under each, from this guess than
    from a random one, so a seat whose play fits the heuristic is soon read
    as such and one who does not is not held to it.  Each other hand that
    could have asked for a re-deal (nobody did: the deal is being played)
    multiplies the weight by :data:`DECLINED`.

    ``shares``: per seat, the weight of each player type as read so far in the
    game (:mod:`p2pbelka.bots.reading`); without them, the calibrated prior.
    """
    missed, plays = surprises_by_seat(seen, hands)
    weight = 1.0
    for seat in range(4):
        if plays[seat]:
            m, k = plays[seat] - missed[seat], missed[seat]
            mix = shares[seat] if shares is not None else PRIOR
            weight *= sum(
                share * (agree / AGREE_GUESS) ** m * ((1 - agree) / (1 - AGREE_GUESS)) ** k
                for share, (_, agree) in zip(mix, PLAYER_TYPES, strict=True)
            )
    for seat in range(4):
        if seat != seen.seat:
            dealt = hands[seat]
            for player, card in seen.history:
                if player == seat:
                    dealt |= 1 << card
            if core.is_redeal_hand(dealt):
                weight *= DECLINED
    return weight


def weighted_samples(
    seen: Seen,
    rng: random.Random,
    n: int,
    pool: int,
    shares: list[Shares] | tuple[Shares, ...] | None = None,
) -> list[list[int]]:
    """``n`` deals out of ``pool`` consistent ones, favouring those that explain the play.

    Each deal is weighed by :func:`likelihood` (how well it explains the
    others' plays and the re-deal nobody asked for).  Drawn without
    replacement by weight (keys ``u ** (1 / w)``).
    """
    if pool <= n:
        return [sample_hands(seen, rng) for _ in range(n)]
    keyed: list[tuple[float, list[int]]] = []
    for _ in range(pool):
        hands = sample_hands(seen, rng)
        weight = likelihood(seen, hands, shares)
        keyed.append((rng.random() ** (1.0 / weight), hands))
    keyed.sort(key=lambda kh: -kh[0])
    return [hands for _, hands in keyed[:n]]
