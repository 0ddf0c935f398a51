"""Deal the hidden cards again, consistently with what one seat knows.

Input is a :class:`~p2pbelka.bots.belka.knowledge.Seen` (built from the seat's view)
and nothing else: the cards no one has shown go to the other seats, as many as
each still holds, never into a suit the seat has shown void in, and the J♣ to
its announced holder.  Cards are placed most-constrained first, each to a seat
drawn in proportion to its free places, which keeps the draw close to uniform
over the consistent deals.  :func:`weighted_samples` then prefers the deals
that explain the cards the others chose to play.
"""

from __future__ import annotations

import random

from p2pbelka.bots.belka.knowledge import Seen
from p2pbelka.bots.belka.policy import choose
from p2pbelka.bots.belka.solver import step
from p2pbelka.cards import iter_bits
from p2pbelka.rules.belka import core

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
    return _Dealer(seen).hands(rng)


_Plan = tuple[list[int], list[int], list[int], dict[int, list[int]], list[int]]
"""(hands so far, cards each seat still needs, cards to place, their eligible seats,
per card how many seats are eligible)."""


class _Dealer:
    """:func:`sample_hands` for one view: what does not change between draws worked out once
    (the cards to place, the seats each may go to), so a decision's many draws share it."""

    def __init__(self, seen: Seen) -> None:
        self.seen = seen
        self._plans: dict[bool, _Plan] = {}

    def hands(self, rng: random.Random) -> list[int]:
        for _ in range(_TRIES):
            hands = self._try(rng, respect_voids=True)
            if hands is not None:
                return hands
        # Cannot happen with a consistent view; a guess ignoring voids still lets the bot play.
        hands = self._try(rng, respect_voids=False)
        assert hands is not None
        return hands

    def _plan(self, respect_voids: bool) -> _Plan:
        """The draws' common part (see :data:`_Plan`), for this view and voids kept or not."""
        plan = self._plans.get(respect_voids)
        if plan is not None:
            return plan
        seen = self.seen
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
        eligible = {c: [s for s in seats if not voids[s] >> esuit[c] & 1] for c in cards}
        spread = [len(eligible.get(c, ())) for c in range(32)]
        plan = self._plans[respect_voids] = (hands, need, cards, eligible, spread)
        return plan

    def _try(self, rng: random.Random, respect_voids: bool) -> list[int] | None:
        base_hands, base_need, base_cards, eligible, spread = self._plan(respect_voids)
        hands = list(base_hands)
        need = list(base_need)
        cards = list(base_cards)
        rng.shuffle(cards)
        cards.sort(key=spread.__getitem__)
        randrange = rng.randrange
        for c in cards:
            places = [s for s in eligible[c] if need[s]]
            if not places:
                return None
            total = 0
            for s in places:
                total += need[s]
            pick = randrange(total)
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
    return _Replay(seen).surprises(hands)


class _Replay:
    """The deal so far as :func:`surprises_by_seat` replays it, for many guesses of the hands.

    What each seat could see at each of its plays is public, the same whatever
    the guess: it is worked out once, and a guess only supplies the hand.  A
    seat holding the same hand at the same play in two guesses gets the
    heuristic's verdict once.
    """

    def __init__(self, seen: Seen) -> None:
        esuit = core.EFFECTIVE_SUIT[seen.trump]
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
        # (seat, card, the seat's view as it chose, or None for the reader's own plays)
        self.plays: list[tuple[int, int, Seen | None]] = []
        self.played = [0, 0, 0, 0]
        """Per seat, the cards it played so far."""
        self.esuit = esuit
        self.reader = seen.seat
        self._missed: dict[int, bool] = {}
        nobody = [0, 0, 0, 0]
        for seat, card in seen.history:
            view = None
            if seat != seen.seat:
                view = scratch.copy()
                view.seat = seat
            self.plays.append((seat, card, view))
            self.played[seat] |= 1 << card
            step(nobody, scratch, card)

    def surprises(self, hands: list[int]) -> tuple[list[int], list[int]]:
        esuit = self.esuit
        memo = self._missed
        now = [hands[s] | self.played[s] for s in range(4)]
        missed = [0, 0, 0, 0]
        plays = [0, 0, 0, 0]
        for k, (seat, card, view) in enumerate(self.plays):
            hand = now[seat]
            if view is not None:
                plays[seat] += 1
                key = hand << 5 | k
                miss = memo.get(key)
                if miss is None:
                    view.hand = hand
                    guess = choose(view)
                    miss = memo[key] = guess != card and not (
                        esuit[guess] == esuit[card] and POINTS[guess] == POINTS[card] == 0
                    )
                if miss:
                    missed[seat] += 1
            now[seat] = hand & ~(1 << card)
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
    game (:mod:`p2pbelka.bots.belka.reading`); without them, the calibrated prior.
    """
    return _likelihood(seen, _Replay(seen), hands, shares)


def _likelihood(
    seen: Seen,
    replay: _Replay,
    hands: list[int],
    shares: list[Shares] | tuple[Shares, ...] | None,
) -> float:
    missed, plays = replay.surprises(hands)
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
            if core.is_redeal_hand(hands[seat] | replay.played[seat]):
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
    dealer = _Dealer(seen)
    if pool <= n:
        return [dealer.hands(rng) for _ in range(n)]
    replay = _Replay(seen)
    keyed: list[tuple[float, list[int]]] = []
    for _ in range(pool):
        hands = dealer.hands(rng)
        weight = _likelihood(seen, replay, hands, shares)
        keyed.append((rng.random() ** (1.0 / weight), hands))
    keyed.sort(key=lambda kh: -kh[0])
    return [hands for _, hands in keyed[:n]]
