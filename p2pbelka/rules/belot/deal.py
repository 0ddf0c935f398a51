"""One Belot deal as an immutable state: bidding, the extra cards, declarations, tricks.

A :class:`DealState` never changes; :meth:`DealState.apply` returns a new one
or raises :class:`~p2pbelka.rules.common.errors.RuleViolation` naming the deal, the
trick, the seat, the card or call and the rule.  The phases, in order:

1. ``bidding``: six cards each are dealt and the ``turned`` card is known;
   one :class:`Bid` per turn from the seat after the dealer.  All passing
   twice makes the deal ``void`` (finished, nobody scores).
2. ``extra``: the declarer is known; :meth:`DealState.with_extra` gives each
   seat its three more cards (nobody has a turn meanwhile).
3. ``play``: nine tricks.  At its own lead (before the first card of a trick)
   a seat may :class:`Declare` combinations, one per action, and after taking
   a trick but the last it may :class:`Claim` 1001, which ends the deal.

Hands are masks, or None for a hand this state does not know
(:meth:`DealState.view`); with an unknown hand only what is public is checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from p2pbelka.cards import CARDS, FULL_MASK, SUIT_LETTERS, Card, Suit, from_mask
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.options import BelotOptions
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.play import HandInput, Play, Trick, hand_mask

PLAY, PASS = "play", "pass"
SEQUENCE_NAMES: Mapping[int, str] = {
    3: "terz",
    4: "berz",
    5: "quint",
    6: "six",
    7: "seven",
    8: "eight",
}


@dataclass(frozen=True, slots=True)
class Bid:
    """``seat`` calls: round 1 ``"play"`` or ``"pass"``, round 2 a suit letter or ``"pass"``."""

    seat: int
    call: str


@dataclass(frozen=True, slots=True)
class Declare:
    """``seat`` shows one combination (a sequence, a four of a kind, or belle)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Claim:
    """``seat`` claims 1001 after taking a trick."""

    seat: int


Action = Bid | Declare | Play | Claim


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declared combination: ``trick`` is the trick its owner was about to lead."""

    seat: int
    trick: int
    mask: int
    kind: int
    value: int
    key: int

    @property
    def cards(self) -> list[Card]:
        return from_mask(self.mask)

    @property
    def name(self) -> str:
        if self.kind == core.SEQUENCE:
            return SEQUENCE_NAMES[self.mask.bit_count()]
        return core.KIND_NAMES[self.kind]


@dataclass(frozen=True, slots=True)
class DealState:
    """One deal.  Create with :meth:`start` (or ``BelotGame.start_deal``).

    Fields: ``options``; ``players`` (2 or 3); ``number`` (in the game, 0-based);
    ``dealer``; ``turned`` (the card under the stock); ``scores`` (written
    scores before this deal, for claims); ``hands`` (now, mask or None per
    seat); ``dealt`` (the first six); ``extra`` (the three more, None until
    dealt); ``bids``; ``declarer`` and ``trump`` (None until someone bids);
    ``void``; ``plays`` (card indices in order); ``played`` (their mask);
    ``leader``; ``trick`` (its card indices so far); ``tricks``;
    ``card_points`` (per seat, finished tricks, without the last-trick ten);
    ``declarations``; ``claim`` (the seat that claimed 1001).
    """

    options: BelotOptions
    players: int
    number: int
    dealer: int
    turned: Card
    scores: tuple[int, ...]
    hands: tuple[int | None, ...]
    dealt: tuple[int | None, ...]
    extra: tuple[int | None, ...] | None = None
    bids: tuple[str, ...] = ()
    declarer: int | None = None
    trump: Suit | None = None
    void: bool = False
    plays: tuple[int, ...] = ()
    played: int = 0
    leader: int = 0
    trick: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = ()
    card_points: tuple[int, ...] = ()
    declarations: tuple[Declaration, ...] = ()
    claim: int | None = None

    # -- creation -----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        options: BelotOptions,
        players: int,
        dealer: int,
        hands: Sequence[HandInput] | None,
        turned: Card,
        *,
        scores: Sequence[int] | None = None,
        number: int = 0,
    ) -> DealState:
        """A deal before bidding: ``hands`` the first six cards of each seat (mask,
        cards, or None if unknown; None for all unknown), ``turned`` the card
        turned up under the stock."""
        if players not in (2, 3):
            raise RuleViolation(E.BAD_HANDS, f"Belot is for 2 or 3 players, not {players}")
        if not 0 <= dealer < players:
            raise RuleViolation(E.BAD_SEAT, f"no seat {dealer} to deal", deal=number)
        masks = _check_cards(hands, players, 6, turned.bit, number)
        return cls(
            options=options,
            players=players,
            number=number,
            dealer=dealer,
            turned=turned,
            scores=tuple(scores) if scores is not None else (0,) * players,
            hands=masks,
            dealt=masks,
            leader=(dealer + 1) % players,
            card_points=(0,) * players,
        )

    # -- questions ----------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``bidding``, ``extra`` (waiting for the three more cards), ``play`` or ``over``."""
        if self.void or self.claim is not None or len(self.tricks) == 9:
            return "over"
        if self.declarer is None:
            return "bidding"
        return "extra" if self.extra is None else "play"

    @property
    def finished(self) -> bool:
        return self.phase == "over"

    @property
    def turn(self) -> int | None:
        """The seat to call or play, or None (deal over, or the extra cards are due)."""
        phase = self.phase
        if phase == "bidding":
            return (self.dealer + 1 + len(self.bids)) % self.players
        if phase == "play":
            return (self.leader + len(self.trick)) % self.players
        return None

    @property
    def bidding_round(self) -> int:
        """1 or 2: the round of the next (or last) call."""
        return 1 if len(self.bids) < self.players else 2

    @property
    def trick_number(self) -> int:
        """0-based number of the trick being played (9 when all are played)."""
        return len(self.tricks)

    @property
    def at_lead(self) -> bool:
        """The leader may declare (and, after a trick, claim): no card of this trick yet."""
        return self.phase == "play" and not self.trick

    @property
    def took_trick(self) -> int:
        """Bit ``s`` set when seat ``s`` has taken a trick."""
        bits = 0
        for t in self.tricks:
            bits |= 1 << t.winner
        return bits

    @property
    def last_trick(self) -> int | None:
        """Who took the ninth trick (None before it, or after a claim)."""
        return self.tricks[8].winner if len(self.tricks) == 9 else None

    def scored_combinations(self) -> tuple[int, ...]:
        """Combination and belle points per seat, as if the deal ended now."""
        declared = [(d.seat, d.kind, d.value, d.key) for d in self.declarations]
        return tuple(core.scored_combinations(declared, self.took_trick, self.players))

    def totals(self) -> tuple[int, ...]:
        """Per seat: card points, +10 for the last trick, scored combinations and belle."""
        scored = self.scored_combinations()
        last = self.last_trick
        return tuple(
            self.card_points[s] + scored[s] + (core.LAST_TRICK if s == last else 0)
            for s in range(self.players)
        )

    def claim_total(self, seat: int) -> int:
        """What a claim by ``seat`` would count: written score, cards so far, combinations."""
        return self.scores[seat] + self.card_points[seat] + self.scored_combinations()[seat]

    def can_claim(self, seat: int) -> bool:
        return self._claim_moment(seat) and self.claim_total(seat) >= core.TARGET

    @property
    def stock(self) -> int | None:
        """The cards nobody was dealt, the turned one included (None if a hand is unknown)."""
        dealt = self.turned.bit
        for hand in (*self.dealt, *(self.extra or ())):
            if hand is None:
                return None
            dealt |= hand
        return (FULL_MASK ^ dealt) | self.turned.bit

    def hand(self, seat: int) -> list[Card] | None:
        mask = self.hands[seat]
        return None if mask is None else from_mask(mask)

    def legal_mask(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play now (0 if it is not its turn to play)."""
        hand = self.hands[seat]
        if hand is None:
            raise RuleViolation(
                E.HAND_UNKNOWN, "this state does not know the hand", deal=self.number, seat=seat
            )
        if self.phase != "play" or seat != self.turn:
            return 0
        return core.legal_mask(hand, *self._led())

    def legal_cards(self, seat: int) -> list[Card]:
        return from_mask(self.legal_mask(seat))

    def legal_calls(self, seat: int) -> list[str]:
        if self.phase != "bidding" or seat != self.turn:
            return []
        if self.bidding_round == 1:
            return [PLAY, PASS]
        return [s for s in SUIT_LETTERS if s != self.turned.suit.letter] + [PASS]

    def legal_declarations(self, seat: int) -> list[tuple[Card, ...]]:
        """Every combination ``seat`` may declare now (its hand must be known)."""
        hand = self.hands[seat]
        if hand is None or not self.at_lead or seat != self.leader or self.trump is None:
            return []
        fours = self.options.fours
        found = []
        for mask in core.combinations_in(hand, self.trump, fours):
            kind = core.combination(mask, self.trump, fours)
            if kind is not None and core.may_add(self._declared_masks(), seat, mask, kind[0]):
                found.append(tuple(from_mask(mask)))
        return found

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (cards and declarations need its hand)."""
        actions: list[Action] = [Bid(seat, c) for c in self.legal_calls(seat)]
        if self.phase == "play" and self.hands[seat] is not None:
            actions.extend(Declare(seat, cards) for cards in self.legal_declarations(seat))
            if self.can_claim(seat):
                actions.append(Claim(seat))
            actions.extend(Play(seat, c) for c in self.legal_cards(seat))
        return actions

    def view(self, seat: int) -> DealState:
        """This state as ``seat`` sees it: the other hands (so the stock) unknown."""

        def mine(masks: tuple[int | None, ...]) -> tuple[int | None, ...]:
            return tuple(h if s == seat else None for s, h in enumerate(masks))

        return replace(
            self,
            hands=mine(self.hands),
            dealt=mine(self.dealt),
            extra=None if self.extra is None else mine(self.extra),
        )

    def __str__(self) -> str:
        trump = "-" if self.trump is None else self.trump.letter
        lines = [
            f"deal {self.number}, dealer {self.dealer}, turned {self.turned}, trump {trump},"
            f" declarer {self.declarer}, {self.phase}; card points {list(self.card_points)}"
        ]
        for seat, hand in enumerate(self.hands):
            cards = "?" if hand is None else " ".join(str(c) for c in from_mask(hand))
            mark = " <- to act" if seat == self.turn else ""
            lines.append(f"  seat {seat}: {cards}{mark}")
        return "\n".join(lines)

    # -- actions ------------------------------------------------------------------

    def apply(self, action: Action) -> DealState:
        """The state after ``action``, or :class:`RuleViolation`."""
        if not 0 <= action.seat < self.players:
            raise self._fail(E.BAD_SEAT, "no such seat", action.seat)
        if isinstance(action, Play):
            return self._play(action.seat, action.card)
        if isinstance(action, Bid):
            return self._bid(action.seat, action.call)
        if isinstance(action, Declare):
            return self._declare(action.seat, action.cards)
        if isinstance(action, Claim):
            return self._claim(action.seat)
        raise TypeError(f"not a Belot action: {action!r}")

    def with_extra(self, extra: Sequence[HandInput] | None) -> DealState:
        """The three more cards of each seat (mask, cards, or None if unknown), after bidding."""
        if self.phase != "extra":
            why = "bidding is not over" if self.phase == "bidding" else "they were dealt already"
            if self.void:
                why = "the deal is void"
            raise RuleViolation(E.NO_EXTRA, f"no extra cards now: {why}", deal=self.number)
        taken = self.turned.bit
        for hand in self.dealt:
            taken |= hand or 0
        masks = _check_cards(extra, self.players, 3, taken, self.number)
        hands = tuple(
            None if h is None or x is None else h | x
            for h, x in zip(self.hands, masks, strict=True)
        )
        return replace(self, extra=masks, hands=hands, leader=(self.dealer + 1) % self.players)

    # -- internals ----------------------------------------------------------------

    def _fail(
        self,
        rule: str,
        message: str,
        seat: int,
        card: Card | None = None,
        call: str | None = None,
    ) -> RuleViolation:
        trick = len(self.tricks) if self.phase in ("play", "over") and not self.void else None
        return RuleViolation(
            rule, message, deal=self.number, trick=trick, seat=seat, card=card, call=call
        )

    def _led(self) -> tuple[int, int, int]:
        """(led suit or -1, trump, top trump or -1) for :func:`core.legal_mask`."""
        assert self.trump is not None
        trump = int(self.trump)
        if not self.trick:
            return (-1, trump, -1)
        return (self.trick[0] >> 3, trump, core.top_trump(self.trick, trump))

    def refusal(self, seat: int, card: Card) -> str | None:
        """The id of the rule of the trick that forbids ``seat`` to play ``card`` of its
        hand now (``FOLLOW_SUIT``, ``BEAT_TRUMP``); None when the trick allows it, or
        outside play, or the hand is unknown or lacks the card (other rules say so)."""
        hand = self.hands[seat]
        if self.phase != "play" or hand is None or not hand & card.bit:
            return None
        led, trump, top = self._led()
        if core.legal_mask(hand, led, trump, top) & card.bit:
            return None
        return E.FOLLOW_SUIT if card.suit != led else E.BEAT_TRUMP

    @property
    def top_trump(self) -> Card | None:
        """The highest trump of the trick in progress (the card a led trump must beat)."""
        if self.phase != "play" or not self.trick:
            return None
        top = self._led()[2]
        return CARDS[top] if top >= 0 else None

    def _declared_masks(self) -> list[tuple[int, int, int]]:
        return [(d.seat, d.kind, d.mask) for d in self.declarations]

    def _check_phase(
        self, seat: int, wanted: str, card: Card | None = None, call: str | None = None
    ) -> None:
        phase = self.phase
        if phase == wanted:
            return
        if phase == "over":
            raise self._fail(E.DEAL_OVER, "the deal is over", seat, card, call)
        if wanted == "bidding":
            raise self._fail(E.NOT_BIDDING, "the bidding is over", seat, card, call)
        if phase == "bidding":
            raise self._fail(E.BIDDING, "the bidding is not over", seat, card, call)
        raise self._fail(
            E.EXTRA_PENDING, "the three more cards are not dealt yet", seat, card, call
        )

    def _bid(self, seat: int, call: str) -> DealState:
        self._check_phase(seat, "bidding", call=call)
        if seat != self.turn:
            raise RuleViolation(
                E.TURN, f"it is seat {self.turn}'s call", deal=self.number, seat=seat, call=call
            )
        if call not in self.legal_calls(seat):
            if self.bidding_round == 1:
                why = 'round 1: "play" or "pass"'
            else:
                why = f'round 2: a suit other than {self.turned.suit.letter}, or "pass"'
            raise RuleViolation(E.BID, why, deal=self.number, seat=seat, call=call)
        bids = (*self.bids, call)
        if call == PLAY:
            return replace(self, bids=bids, declarer=seat, trump=self.turned.suit)
        if call != PASS:
            return replace(self, bids=bids, declarer=seat, trump=Suit.parse(call))
        return replace(self, bids=bids, void=len(bids) == 2 * self.players)

    def _seen_elsewhere(self, seat: int, mask: int) -> int:
        """Cards of ``mask`` that cannot be in ``seat``'s hand: played, turned, held by another."""
        gone = mask & (self.played | self.turned.bit)
        for other, held in enumerate(self.hands):
            if other != seat and held is not None:
                gone |= mask & held
        return gone

    def _declare(self, seat: int, cards: Iterable[Card]) -> DealState:
        self._check_phase(seat, "play")
        shown = tuple(cards)
        mask = hand_mask(shown)
        first = shown[0] if shown else None
        if not self.at_lead or seat != self.leader:
            raise self._fail(
                E.DECLARE_MOMENT,
                f"only seat {self.leader} may declare, before leading trick {len(self.tricks) + 1}"
                if self.at_lead
                else "declarations are made before the first card of a trick",
                seat,
                first,
            )
        hand = self.hands[seat]
        missing = mask & ~hand if hand is not None else self._seen_elsewhere(seat, mask)
        if missing:
            raise self._fail(
                E.NOT_IN_HAND, "a declared card is not in the hand", seat, from_mask(missing)[0]
            )
        assert self.trump is not None
        found = core.combination(mask, int(self.trump), self.options.fours)
        if found is None or len(shown) != mask.bit_count():
            text = " ".join(str(c) for c in shown)
            raise self._fail(
                E.NOT_A_COMBINATION, f"{text or 'nothing'} is not a combination", seat, first
            )
        kind, value, key = found
        if not core.may_add(self._declared_masks(), seat, mask, kind):
            if kind == core.SEQUENCE:
                raise self._fail(
                    E.SEQUENCE_OVERLAP,
                    "shares a card with a sequence this seat declared",
                    seat,
                    first,
                )
            raise self._fail(
                E.DECLARED_TWICE, f"this {core.KIND_NAMES[kind]} was declared", seat, first
            )
        decl = Declaration(seat, len(self.tricks), mask, kind, value, key)
        return replace(self, declarations=(*self.declarations, decl))

    def _claim_moment(self, seat: int) -> bool:
        return self.at_lead and 1 <= len(self.tricks) <= 8 and seat == self.leader

    def _claim(self, seat: int) -> DealState:
        self._check_phase(seat, "play")
        if not self._claim_moment(seat):
            raise self._fail(
                E.CLAIM_MOMENT,
                "1001 is claimed by the seat that took a trick (not the last),"
                " before the next card",
                seat,
            )
        total = self.claim_total(seat)
        if total < core.TARGET:
            scored = self.scored_combinations()[seat]
            raise self._fail(
                E.FALSE_CLAIM,
                f"false claim: written {self.scores[seat]} + cards {self.card_points[seat]}"
                f" + combinations {scored} = {total}, under {core.TARGET}",
                seat,
            )
        return replace(self, claim=seat)

    def _play(self, seat: int, card: Card) -> DealState:
        self._check_phase(seat, "play", card)
        if seat != self.turn:
            raise self._fail(E.TURN, f"it is seat {self.turn}'s turn", seat, card)
        bit = card.bit
        if self.played & bit:
            raise self._fail(E.ALREADY_PLAYED, "the card was already played", seat, card)
        hand = self.hands[seat]
        if hand is None:
            if bit == self.turned.bit:
                raise self._fail(E.TURNED_CARD, "the turned card is never dealt", seat, card)
            for other, held in enumerate(self.hands):
                if held is not None and held & bit:
                    raise self._fail(E.HELD_BY_OTHER, f"seat {other} holds the card", seat, card)
        else:
            if not hand & bit:
                raise self._fail(E.NOT_IN_HAND, "the card is not in the hand", seat, card)
            rule = self.refusal(seat, card)
            if rule is not None:
                led, _trump, top = self._led()
                if rule == E.FOLLOW_SUIT:
                    raise self._fail(rule, f"must follow {SUIT_LETTERS[led]}", seat, card)
                raise self._fail(rule, f"must beat the {CARDS[top]} on the table", seat, card)
        return self._after_play(seat, card.index, hand)

    def _after_play(self, seat: int, index: int, hand: int | None) -> DealState:
        bit = 1 << index
        hands = self.hands
        if hand is not None:
            hands = (*hands[:seat], hand ^ bit, *hands[seat + 1 :])
        trick = (*self.trick, index)
        leader = self.leader
        tricks = self.tricks
        points = self.card_points
        if len(trick) == self.players:
            assert self.trump is not None
            trump = int(self.trump)
            winner = (leader + core.trick_winner(trick, trump)) % self.players
            tricks = (*tricks, Trick(leader, tuple(CARDS[i] for i in trick), winner))
            gained = sum(core.POINTS[trump][i] for i in trick)
            points = (*points[:winner], points[winner] + gained, *points[winner + 1 :])
            trick = ()
            leader = winner
        return replace(
            self,
            hands=hands,
            plays=(*self.plays, index),
            played=self.played | bit,
            leader=leader,
            trick=trick,
            tricks=tricks,
            card_points=points,
        )


def _check_cards(
    hands: Sequence[HandInput] | None, players: int, size: int, taken: int, number: int
) -> tuple[int | None, ...]:
    """Hands of ``size`` cards each, none twice and none among ``taken``."""
    if hands is None:
        return (None,) * players
    if len(hands) != players:
        raise RuleViolation(E.BAD_HANDS, f"{players} hands expected, got {len(hands)}", deal=number)
    masks = tuple(None if h is None else hand_mask(h) for h in hands)
    seen = taken
    for seat, mask in enumerate(masks):
        if mask is None:
            continue
        if mask < 0 or mask & ~FULL_MASK or mask.bit_count() != size:
            raise RuleViolation(E.BAD_HANDS, f"{size} cards expected", deal=number, seat=seat)
        if mask & seen:
            raise RuleViolation(
                E.BAD_HANDS,
                "a card is dealt twice (or the turned card is dealt)",
                deal=number,
                seat=seat,
                card=from_mask(mask & seen)[0],
            )
        seen |= mask
    return masks
