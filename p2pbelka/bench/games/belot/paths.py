"""Belot's path vectors (``bench/path_vectors.py``): a whole two-seat game, fair-deal
version 1, a dispute naming odd seats, the dishonest seats of a Belot deal (a false
``unopened``, a false claim of 1001, a false declaration), and honest games steered
by bots that see more or declare eagerly (two hanging deals, long sequences)."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

from p2pbelka.bench import path_endings
from p2pbelka.bench.path_vectors import CHEATER, PathVector, dispute_of_odd_seats
from p2pbelka.bots import make_bot
from p2pbelka.bots.common.seat import Bot, SeatBot
from p2pbelka.cards import CARDS
from p2pbelka.protocol import messages as m
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot import moves as belot_mv
from p2pbelka.rules.belot.deal import DealState
from p2pbelka.rules.common.play import Play
from p2pbelka.table import moves as mv
from p2pbelka.table.games.belot.track import BelotTrack
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Table
from p2pbelka.table.state import TableState


class FalseUnopened(TableState):
    """Belot: says its three more did not open when they did (a false dispute)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            return m.UnopenedMsg()
        return msg


class FalseClaim(TableState):
    """Belot: claims 1001 at its first turn to play (before any trick: a false claim)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            return m.ClaimMsg()
        return msg


class FalseDeclaration(TableState):
    """Belot: at its first turn to play, declares two cards of its own that make no
    combination (their positions opened with its own shares: no dispute)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            rnd = self.round
            cards = sorted(rnd.my_hand.items())
            for (p1, c1), (p2, c2) in itertools.pairwise(cards):
                if c1 >> 3 != c2 >> 3:  # two suits: never belle, never a sequence
                    return m.DeclareMsg((rnd.deck.my_opening(p1), rnd.deck.my_opening(p2)))
        return msg


class ShareOutsideBatch(TableState):
    """Belot: its first ``shares`` adds a share for the last stock position, outside the
    batch (a fault of its sender, fairdeal.md section 13, not a refusal naming nobody)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.SharesMsg) and self.deal_id == 1:
            deck = self.round.deck
            return m.SharesMsg((*msg.shares, deck.my_opening(len(deck.owners) - 1)))
        return msg


class HangingDeals:
    """Every seat's bot at once, seeing every hand: it tries to make each played deal
    hang (the declarer's total equal to the best other's) by random playouts of the
    deal from the first moment every seat's table holds the same plays, and plays
    the cards of the first playout that hangs, until ``count`` deals were steered so;
    every other move (a deal no playout made hang included) is a random bot's.  Only
    the choice among legal cards is steered: the game is an honest one."""

    def __init__(self, tables: list[Table], seed: int, count: int = 2) -> None:
        self.tables, self.count = tables, count
        self.rng = random.Random(f"hanging deals {seed}")
        self.random = [make_bot("random", seed * 10 + s) for s in range(len(tables))]
        self.plans: dict[int, list[int] | None] = {}  # deal id -> its card indices, in order

    def bots(self) -> list[Bot]:
        return [_Steered(self, seat) for seat in range(len(self.tables))]

    def choose(self, seat: int, game: Any, question: Question) -> mv.Move:
        deal = game.deal
        plan = (
            self._plan(self.tables[seat].state.deal_id, deal) if question.kind == "play" else None
        )
        if plan is not None and len(deal.plays) < len(plan):
            move = mv.PlayCard(CARDS[plan[len(deal.plays)]])
            if move in question.moves:
                return move
        return self.random[seat].for_game("belot").choose(game, seat, question)

    def _plan(self, deal_id: int, deal: DealState) -> list[int] | None:
        found = sum(plan is not None for plan in self.plans.values())
        if deal_id in self.plans or found >= self.count:
            return self.plans.get(deal_id)
        views = [_deal_of(t) for t in self.tables]
        hands = tuple(v.hands[s] if v is not None else None for s, v in enumerate(views))
        if None in hands or any(
            v is None or v.phase != "play" or v.plays != deal.plays for v in views
        ):
            return None  # a table is behind: plan when every one holds the same plays
        full = replace(deal, hands=hands)
        plan = None
        for _ in range(PLAYOUTS):
            plays = self._playout(full)
            if plays is not None:
                plan = [*deal.plays, *plays]
                break
        self.plans[deal_id] = plan  # None: no hanging found, the deal is played at random
        return plan

    def _playout(self, state: DealState) -> list[int] | None:
        plays = []
        while state.phase == "play":
            seat = state.turn
            assert seat is not None
            card = self.rng.choice(state.legal_cards(seat))
            state = state.apply(Play(seat, card))
            plays.append(card.index)
        assert state.declarer is not None
        hangs = core.deal_result(state.totals(), state.declarer) == core.HANGING
        return plays if hangs else None


PLAYOUTS = 3000
"""Random playouts tried per deal before it is left to chance."""


def _deal_of(table: Table) -> DealState | None:
    track = table.state.track
    assert isinstance(track, BelotTrack)
    return track.game.deal


class _Steered:
    """One seat's bot of ``HangingDeals`` (the ``Bot`` a table is driven by)."""

    def __init__(self, steer: HangingDeals, seat: int) -> None:
        self.steer, self.seat = steer, seat

    def for_game(self, game: str) -> SeatBot:
        return self  # type: ignore[return-value]

    def choose(self, game: Any, seat: int, question: Question) -> mv.Move:
        return self.steer.choose(seat, game, question)


class LongestDeclared:
    """A random bot that, at its lead, declares the longest combination it may (a
    sequence of more cards first) before anything else: honest, only eager."""

    def __init__(self, seed: int) -> None:
        self.random = make_bot("random", seed)

    def for_game(self, game: str) -> SeatBot:
        return self  # type: ignore[return-value]

    def choose(self, game: Any, seat: int, question: Question) -> mv.Move:
        declares = [m for m in question.moves if isinstance(m, belot_mv.Declare)]
        if declares:
            return max(declares, key=lambda m: len(m.cards))
        return self.random.for_game("belot").choose(game, seat, question)


def _declaring_bots(tables: list[Table], seed: int) -> list[Bot]:
    return [LongestDeclared(seed * 10 + s) for s in range(len(tables))]


def _hanging_bots(tables: list[Table], seed: int) -> list[Bot]:
    return HangingDeals(tables, seed).bots()


VECTORS = [
    PathVector(
        "belot-2-game",
        8,
        "a whole two-seat Belot game (fair-deal version 2) played to OK: deals made,"
        " bait, a void deal, a hanging bait and its points paid, a true claim of 1001"
        " that ends the game, the closes",
        game="belot",
        players=2,
    ),
    PathVector(
        "dispute-odd-seats",
        4,
        "three-seat Belot: seat 1's dispute after the lot lists seats 3, 2, 0, 2; it names"
        " seats 0 and 2 (repeats collapse, a seat the table lacks is ignored)",
        game="belot",
        players=3,
        edit=dispute_of_odd_seats,
    ),
    PathVector(
        "belot-fairdeal-1",
        4,
        "three-seat Belot under fair-deal version 1 (32-byte points), to the end of its first deal",
        game="belot",
        players=3,
        fairdeal=1,
        whole=False,
    ),
    PathVector(
        "belot-false-claim",
        4,
        f"three-seat Belot: seat {CHEATER} claims 1001 at its first turn to play (a false"
        " claim, a fault on its face)",
        game="belot",
        players=3,
        cheat=FalseClaim,
    ),
    PathVector(
        "belot-false-declaration",
        4,
        f"three-seat Belot: seat {CHEATER} declares two of its own cards that make no"
        " combination (a false declaration, a fault on its face)",
        game="belot",
        players=3,
        cheat=FalseDeclaration,
    ),
    PathVector(
        "belot-false-unopened",
        4,
        f"three-seat Belot: seat {CHEATER} sends unopened when its cards opened (a false"
        " dispute the audit proves)",
        game="belot",
        players=3,
        cheat=FalseUnopened,
    ),
    PathVector(
        "belot-share-outside-batch",
        4,
        f"three-seat Belot: seat {CHEATER}'s first shares add one for a stock position,"
        " outside the batch (a fault naming its sender, never a refusal)",
        game="belot",
        players=3,
        cheat=ShareOutsideBatch,
    ),
    PathVector(
        "belot-sequences",
        20,
        "three-seat Belot, one deal, every seat declaring its longest combination at"
        " its lead: seat 2 a berz, seat 1 a quint, seat 0 a terz; compared, only the"
        " quint's owner scores (100)",
        game="belot",
        players=3,
        bots=_declaring_bots,
        whole=False,
    ),
    *(
        PathVector(
            f"belot-hanging-{way.replace('_', '-')}",
            16,
            f"two-seat Belot, hanging_twice={way}: the first two deals hang (42, then"
            " 53: their cards chosen, all legal), then a deal that pays its top seat"
            f" {what}",
            game="belot",
            players=2,
            options={"hanging_twice": way},
            bots=_hanging_bots,
            whole=False,
            deals=3,
        )
        for way, what in (("together", "both sums (95)"), ("one_each", "the first sum only (42)"))
    ),
]

# -- endings and proofs (issue 41 items 1-13) -------------------------------------------

VECTORS += [
    PathVector(
        "belot-close-dispute-no-seat",
        8,
        "the belot-2-game game (won): seat 0's close does not come; the recorder (seat 1)"
        " signs a dispute whose seats, 3 and 2, are none of the table's, one ahead of its"
        " chain (its own close held): it names its sender, OK, seat 1 named as not closing",
        game="belot",
        players=2,
        edit=path_endings.close_dispute_names_none,
        deals=99,
    ),
]

# Belot, continuations, rules and audits (issue 41 items 18-26)
from p2pbelka.bench import path_segments as _segments  # noqa: E402
from p2pbelka.bench.games.belot import disputes as _disputes  # noqa: E402
from p2pbelka.protocol.envelope import Envelope  # noqa: E402

_FOURS = {"four_eights": "50", "four_sevens": "30"}


def _after_turned(envelopes: list[Envelope]) -> int:
    """The records up to deal 1's ``turned`` phase."""
    return max(i for i, e in enumerate(envelopes) if e.type == "turned" and e.deal == 1) + 1


VECTORS += [
    PathVector(
        "belot-continuation",
        4,
        "three-seat Belot: seat 2 lost during deal 2, given to a bot by a continuation that"
        " seats 0 and 1 sign (seat 0 hosts), deal 2 voided and dealt again in the new segment",
        game="belot",
        players=3,
        whole=False,
        drive=_segments.seat_change(_segments.deal_under_way(2), seat=2),
    ),
    *(
        PathVector(
            name,
            4,
            f"three-seat Belot: {what}",
            game="belot",
            players=3,
            cheat=cheat,
        )
        for name, cheat, what in (
            (
                "belot-unopened",
                _disputes.ExtraShareOffSeed,
                f"seat {CHEATER}'s shares of the three more give seat 0's first one a key off"
                " its seed: seat 0's three more do not open, and it sends a genuine unopened"
                f" at its first turn; the audit names seat {CHEATER}",
            ),
            (
                "belot-turned-unopened",
                _disputes.TurnedOffSeed,
                f"seat {CHEATER}'s turned share is off its seed: the turned card does not open"
                f" (a dispute of no seat), and the audit names seat {CHEATER}",
            ),
            (
                "belot-hand-not-ok",
                _disputes.FirstShareOffSeed,
                f"seat {CHEATER}'s first shares give seat 0's first position a key off its"
                " seed: seat 0's turned says hand_ok false (a genuine dispute), and the audit"
                f" names seat {CHEATER}",
            ),
            (
                "belot-declare-dispute",
                _disputes.DeclareOffSeed,
                f"at its lead seat {CHEATER} declares a combination it holds, its second card's"
                " key off its seed: a dispute inside the declare (never a false declaration),"
                f" and the audit names seat {CHEATER}",
            ),
            (
                "belot-declare-not-at-lead",
                _disputes.DeclaresMidTrick,
                f"at its turn, a card of the trick down (not its lead), seat {CHEATER}"
                " declares a combination it holds, every card genuine: a false declaration",
            ),
            (
                "belot-claim-not-at-lead",
                _disputes.ClaimsMidTrick,
                f"at its turn, a card of the trick down (not its lead), seat {CHEATER} claims"
                " 1001: a false claim (the moment), whatever its total",
            ),
        )
    ),
    PathVector(
        "belot-continuation-fewer-seats",
        4,
        "three-seat Belot, seat 1 lost in deal 1's bidding: a continuation (seat 0 hosts)"
        " of two seats, seat 2 left out with its nonce, head and score, seat 0 signing:"
        " a Belot table of two seats is well formed, but a continuation keeps the number"
        " of seats (section 9.3), INVALID",
        game="belot",
        players=3,
        whole=False,
        edit=_segments.refused(_segments.fewer_seats, _after_turned, seat=1),
    ),
    PathVector(
        "belot-claim-in-bidding",
        5,
        f"three-seat Belot: at its turn to call, seat {CHEATER} claims 1001 instead: a type"
        " the bid phase does not take, refused when due (a refused record, nobody at"
        f" fault); the others give up on seat {CHEATER} (seat 0's dispute names it)",
        game="belot",
        players=3,
        cheat=_disputes.ClaimsWhenBidding,
    ),
    *(
        PathVector(
            f"belot-four-{rank}",
            seed,
            f"three-seat Belot with four_eights=50 and four_sevens=30, one deal: seat {seat}"
            f" declares four {rank} at its lead and scores {points} for it (honest bots that"
            " declare their longest combination first)",
            game="belot",
            players=3,
            options=_FOURS,
            bots=_declaring_bots,
            whole=False,
        )
        for rank, seed, seat, points in (("eights", 92, 0, 50), ("sevens", 97, 2, 30))
    ),
]
