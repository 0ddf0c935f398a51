"""One Belka deal as an immutable state: the hands, the tricks, whose turn.

A :class:`DealState` never changes; :meth:`DealState.apply` returns a new one
or raises :class:`~p2pbelka.rules.common.errors.RuleViolation` naming the seat, the
card and the rule.  Hands are 32-bit masks, or None for a hand this state does
not know (a peer knows only its own hand during play; a bot is given
:meth:`DealState.view`).  With an unknown hand only the turn and the card's
freshness can be checked; the end-of-deal audit replays the deal with every
hand known (:meth:`DealState.audited`), recording reneges as offenses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from p2pbelka.cards import CARDS, FULL_MASK, Card, Suit, from_mask
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.options import Options
from p2pbelka.rules.common import errors as E
from p2pbelka.rules.common.errors import RuleViolation
from p2pbelka.rules.common.play import HandInput, Play, Trick, hand_mask


@dataclass(frozen=True, slots=True)
class RedealClaim:
    """``seat`` shows its hand (under 13 card points, or four nines) and asks for a re-deal."""

    seat: int


@dataclass(frozen=True, slots=True)
class Offense:
    """A renege accepted in audit mode: ``seat`` played ``card`` in ``trick`` against ``rule``."""

    seat: int
    trick: int
    card: Card
    rule: str


def seat_suits_from(jc_holder: int, trump_order: str) -> tuple[Suit, ...]:
    """Each seat's suit after the first deal: clubs for the J♣ holder, then ``trump_order``."""
    suits = [Suit.CLUBS] * 4
    for offset, letter in enumerate(trump_order, start=1):
        suits[(jc_holder + offset) % 4] = Suit.parse(letter)
    return tuple(suits)


@dataclass(frozen=True, slots=True)
class DealState:
    """One deal.  Create with :meth:`start` (or ``GameState.start_deal``).

    Fields: ``options``; ``number`` (deal number in the game, 0-based);
    ``dealer``; ``first`` (the game's first deal: clubs are trumps); ``trump``;
    ``jc_holder`` (the seat dealt J♣); ``hands`` (current hands, mask or None
    per seat); ``dealt`` (hands as dealt); ``plays`` (card indices in play
    order); ``played`` (their mask); ``leader`` (of the current trick);
    ``trick`` (its card indices so far); ``tricks`` (finished tricks);
    ``card_points`` (per team, finished tricks); ``led_suits`` (bit per suit
    led so far); ``offenses`` (audit mode only); ``redeal_claim`` (the seat
    that asked for a re-deal, which ends the deal); ``audit`` (lenient replay).
    """

    options: Options
    number: int
    dealer: int
    first: bool
    trump: Suit
    jc_holder: int
    hands: tuple[int | None, ...]
    dealt: tuple[int | None, ...]
    plays: tuple[int, ...] = ()
    played: int = 0
    leader: int = 0
    trick: tuple[int, ...] = ()
    tricks: tuple[Trick, ...] = ()
    card_points: tuple[int, int] = (0, 0)
    led_suits: int = 0
    offenses: tuple[Offense, ...] = ()
    redeal_claim: int | None = None
    audit: bool = False

    # -- creation -----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        options: Options,
        dealer: int,
        hands: Sequence[HandInput] | None = None,
        *,
        jc_holder: int | None = None,
        seat_suits: Sequence[Suit] | None = None,
        number: int = 0,
        audit: bool = False,
    ) -> DealState:
        """A deal before the first lead.

        ``hands``: four hands, each a mask, cards, or None if unknown (None for
        all unknown).  ``jc_holder`` is needed unless a known hand holds J♣; when
        given it is checked against the known hands.  ``seat_suits`` (fixed by
        the game's first deal) gives the trump; None means this is the first
        deal, played in clubs.
        """
        if not 0 <= dealer < 4:
            raise RuleViolation(E.BAD_SEAT, f"no seat {dealer} to deal", deal=number)
        masks = _check_hands(hands, number)
        holder = _find_jc_holder(masks, jc_holder, number)
        trump = Suit.CLUBS if seat_suits is None else Suit(seat_suits[holder])
        leader = (dealer + 1) % 4 if options.first_lead == "after_dealer" else (dealer + 3) % 4
        return cls(
            options=options,
            number=number,
            dealer=dealer,
            first=seat_suits is None,
            trump=trump,
            jc_holder=holder,
            hands=masks,
            dealt=masks,
            leader=leader,
            audit=audit,
        )

    # -- questions ----------------------------------------------------------------

    @property
    def trump_team(self) -> int:
        """The team of the J♣ holder."""
        return self.jc_holder & 1

    @property
    def finished(self) -> bool:
        return self.redeal_claim is not None or len(self.plays) == 32

    @property
    def turn(self) -> int | None:
        """The seat to play, or None when the deal is over."""
        if self.finished:
            return None
        return (self.leader + len(self.trick)) % 4

    @property
    def trick_number(self) -> int:
        """0-based number of the trick being played (8 when the deal is over)."""
        return len(self.tricks)

    @property
    def led_suit(self) -> Suit | None:
        """Effective suit of the current trick's first card (a jack leads trumps)."""
        if not self.trick:
            return None
        return Suit(core.EFFECTIVE_SUIT[self.trump][self.trick[0]])

    @property
    def current_trick(self) -> tuple[Card, ...]:
        return tuple(CARDS[i] for i in self.trick)

    @property
    def tricks_won(self) -> tuple[int, int]:
        team0 = sum(1 for t in self.tricks if not t.winner & 1)
        return (team0, len(self.tricks) - team0)

    def hand(self, seat: int) -> list[Card] | None:
        """The cards a seat holds now, or None if this state does not know them."""
        mask = self.hands[seat]
        return None if mask is None else from_mask(mask)

    def legal_mask(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play now (0 if it is not the seat's turn)."""
        hand = self.hands[seat]
        if hand is None:
            raise RuleViolation(
                E.HAND_UNKNOWN, "this state does not know the hand", deal=self.number, seat=seat
            )
        if seat != self.turn:
            return 0
        return core.legal_mask(hand, self._led(), self.trump, self._banned_aces())

    def legal_cards(self, seat: int) -> list[Card]:
        """The cards ``seat`` may play now, lowest index first (empty if not its turn)."""
        return from_mask(self.legal_mask(seat))

    def can_claim_redeal(self, seat: int) -> bool:
        hand = self.dealt[seat]
        return (
            not self.plays
            and self.redeal_claim is None
            and hand is not None
            and core.is_redeal_hand(hand)
        )

    def legal_actions(self, seat: int) -> list[Play | RedealClaim]:
        """Every action ``seat`` may take now (its hand must be known)."""
        actions: list[Play | RedealClaim] = [Play(seat, c) for c in self.legal_cards(seat)]
        if self.can_claim_redeal(seat):
            actions.append(RedealClaim(seat))
        return actions

    def view(self, seat: int) -> DealState:
        """This state as ``seat`` sees it: every other hand unknown."""
        return replace(
            self,
            hands=tuple(h if s == seat else None for s, h in enumerate(self.hands)),
            dealt=tuple(h if s == seat else None for s, h in enumerate(self.dealt)),
        )

    def __str__(self) -> str:
        """A few lines for logs and debugging: trump, the trick, every hand."""
        lines = [
            f"deal {self.number}, dealer {self.dealer}, trump {self.trump.letter} "
            f"(J♣ seat {self.jc_holder}), card points {self.card_points[0]}:{self.card_points[1]}"
        ]
        if self.redeal_claim is not None:
            lines.append(f"re-deal asked by seat {self.redeal_claim}")
        elif not self.finished:
            shown = " ".join(str(CARDS[i]) for i in self.trick) or "-"
            lines.append(f"trick {len(self.tricks) + 1}, led by seat {self.leader}: {shown}")
        for seat, hand in enumerate(self.hands):
            cards = "?" if hand is None else " ".join(str(c) for c in from_mask(hand))
            mark = " <- to play" if seat == self.turn else ""
            lines.append(f"  seat {seat}: {cards}{mark}")
        return "\n".join(lines)

    # -- actions ------------------------------------------------------------------

    def apply(self, action: Play | RedealClaim) -> DealState:
        """The state after ``action``, or :class:`RuleViolation`."""
        if isinstance(action, Play):
            return self._play(action.seat, action.card)
        if isinstance(action, RedealClaim):
            return self._claim(action.seat)
        raise TypeError(f"not a deal action: {action!r}")

    def with_hand(self, seat: int, hand: int | Iterable[Card]) -> DealState:
        """This state with ``seat``'s hand as dealt now known (e.g. shown for a re-deal)."""
        dealt = hand_mask(hand)
        mine = 0
        for i, card in enumerate(self.plays):
            if self._seat_of_play(i) == seat:
                mine |= 1 << card
        others = [h for s, h in enumerate(self.dealt) if s != seat and h is not None]
        if (
            dealt.bit_count() != 8
            or dealt & ~FULL_MASK
            or mine & ~dealt
            or any(h & dealt for h in others)
            or (dealt >> core.JC_INDEX & 1) != (seat == self.jc_holder)
        ):
            raise RuleViolation(
                E.BAD_HANDS, "hand does not fit this deal", deal=self.number, seat=seat
            )
        hands = list(self.hands)
        hands[seat] = dealt & ~mine
        dealt_all = list(self.dealt)
        dealt_all[seat] = dealt
        return replace(self, hands=tuple(hands), dealt=tuple(dealt_all))

    def audited(self, hands: Sequence[int | Iterable[Card]]) -> DealState:
        """Replay this deal with all four hands known, in audit (lenient) mode.

        Reneges become :attr:`offenses`; a card not in its player's hand, or
        hands that do not fit the deal, still raise.
        """
        masks = _check_hands(list(hands), self.number)
        if None in masks:
            raise RuleViolation(E.BAD_HANDS, "the audit needs all four hands", deal=self.number)
        for seat, (known, new) in enumerate(zip(self.dealt, masks, strict=True)):
            if known is not None and known != new:
                raise RuleViolation(
                    E.BAD_HANDS, "hand differs from the known one", deal=self.number, seat=seat
                )
        _find_jc_holder(masks, self.jc_holder, self.number)
        state = DealState(
            options=self.options,
            number=self.number,
            dealer=self.dealer,
            first=self.first,
            trump=self.trump,
            jc_holder=self.jc_holder,
            hands=masks,
            dealt=masks,
            leader=self.tricks[0].leader if self.tricks else self.leader,
            audit=True,
        )
        for card in self.plays:
            turn = state.turn
            assert turn is not None
            state = state._play(turn, CARDS[card])
        if self.redeal_claim is not None:
            state = state._claim(self.redeal_claim)
        return state

    # -- internals ----------------------------------------------------------------

    def _seat_of_play(self, i: int) -> int:
        trick, pos = divmod(i, 4)
        leader = self.tricks[trick].leader if trick < len(self.tricks) else self.leader
        return (leader + pos) % 4

    def _led(self) -> int:
        return core.EFFECTIVE_SUIT[self.trump][self.trick[0]] if self.trick else -1

    def refusal(self, seat: int, card: Card) -> str | None:
        """The id of the rule of the trick that forbids ``seat`` to play ``card`` of its
        hand now (``FOLLOW_SUIT``, ``NO_UNLED_ACE_DISCARD``); None when the trick allows it
        or the hand is unknown or lacks the card (other rules say so)."""
        hand = self.hands[seat]
        if hand is None or not hand & card.bit:
            return None
        led = self._led()
        if core.legal_mask(hand, led, self.trump, self._banned_aces()) & card.bit:
            return None
        if hand & core.EFFECTIVE_SUIT_MASKS[self.trump][led]:
            return E.FOLLOW_SUIT
        return E.NO_UNLED_ACE_DISCARD

    def _banned_aces(self) -> int:
        if self.options.no_unled_ace_discard != "on" or not self.trick:
            return 0
        return core.unled_aces(self.trump, self.led_suits)

    def _fail(self, rule: str, message: str, seat: int, card: Card | None = None) -> RuleViolation:
        return RuleViolation(
            rule, message, deal=self.number, trick=len(self.tricks), seat=seat, card=card
        )

    def _claim(self, seat: int) -> DealState:
        if not 0 <= seat < 4:
            raise self._fail(E.BAD_SEAT, "no such seat", seat)
        if self.redeal_claim is not None:
            raise self._fail(E.DEAL_OVER, "a re-deal was already asked for", seat)
        if self.plays:
            raise self._fail(E.REDEAL_AFTER_LEAD, "a re-deal is asked for before the lead", seat)
        hand = self.dealt[seat]
        if hand is None:
            raise self._fail(E.HAND_UNKNOWN, "the hand must be shown to ask for a re-deal", seat)
        if not core.is_redeal_hand(hand):
            raise self._fail(
                E.REDEAL_NOT_QUALIFIED,
                f"hand has {core.mask_points(hand)} points and not all four nines",
                seat,
            )
        return replace(self, redeal_claim=seat)

    def _play(self, seat: int, card: Card) -> DealState:
        if self.finished:
            raise self._fail(E.DEAL_OVER, "the deal is over", seat, card)
        if seat != self.turn:
            raise self._fail(E.TURN, f"it is seat {self.turn}'s turn", seat, card)
        index = card.index
        bit = 1 << index
        if self.played & bit:
            raise self._fail(E.ALREADY_PLAYED, "the card was already played", seat, card)
        hand = self.hands[seat]
        offenses = self.offenses
        if hand is None:
            for other, held in enumerate(self.hands):
                if held is not None and held & bit:
                    raise self._fail(E.HELD_BY_OTHER, f"seat {other} holds the card", seat, card)
        else:
            if not hand & bit:
                raise self._fail(E.NOT_IN_HAND, "the card is not in the hand", seat, card)
            rule = self.refusal(seat, card)
            if rule is not None:
                if rule == E.FOLLOW_SUIT:
                    why = f"must follow {Suit(self._led()).letter} (jacks are trumps)"
                else:
                    why = "may not throw an ace of a suit not yet led"
                if not self.audit:
                    raise self._fail(rule, why, seat, card)
                offenses = (*offenses, Offense(seat, len(self.tricks), card, rule))
        hands = list(self.hands)
        if hand is not None:
            hands[seat] = hand ^ bit
        trick = (*self.trick, index)
        leader = self.leader
        tricks = self.tricks
        points = self.card_points
        led_suits = self.led_suits
        if len(trick) == 4:
            winner = (leader + core.trick_winner(trick, self.trump)) % 4
            tricks = (*tricks, Trick(leader, tuple(CARDS[i] for i in trick), winner))
            gained = sum(core.POINTS[i] for i in trick)
            if winner & 1:
                points = (points[0], points[1] + gained)
            else:
                points = (points[0] + gained, points[1])
            led_suits |= 1 << core.EFFECTIVE_SUIT[self.trump][trick[0]]
            trick = ()
            leader = winner
        return DealState(
            self.options,
            self.number,
            self.dealer,
            self.first,
            self.trump,
            self.jc_holder,
            tuple(hands),
            self.dealt,
            (*self.plays, index),
            self.played | bit,
            leader,
            trick,
            tricks,
            points,
            led_suits,
            offenses,
            None,
            self.audit,
        )


def _check_hands(hands: Sequence[HandInput] | None, number: int) -> tuple[int | None, ...]:
    if hands is None:
        return (None, None, None, None)
    if len(hands) != 4:
        raise RuleViolation(E.BAD_HANDS, f"four hands expected, got {len(hands)}", deal=number)
    masks = tuple(None if h is None else hand_mask(h) for h in hands)
    seen = 0
    for seat, mask in enumerate(masks):
        if mask is None:
            continue
        if mask & ~FULL_MASK or mask < 0 or mask.bit_count() != 8:
            raise RuleViolation(E.BAD_HANDS, "a hand has 8 cards", deal=number, seat=seat)
        if mask & seen:
            raise RuleViolation(
                E.BAD_HANDS,
                "a card is dealt twice",
                deal=number,
                seat=seat,
                card=from_mask(mask & seen)[0],
            )
        seen |= mask
    return masks


def _find_jc_holder(masks: Sequence[int | None], claimed: int | None, number: int) -> int:
    if claimed is not None and not 0 <= claimed < 4:
        raise RuleViolation(E.JC_HOLDER, "no such seat holds J♣", deal=number, seat=claimed)
    jc = 1 << core.JC_INDEX
    found = next((s for s, m in enumerate(masks) if m is not None and m & jc), None)
    if found is not None:
        if claimed is not None and claimed != found:
            raise RuleViolation(
                E.JC_HOLDER, f"J♣ was dealt to seat {found}", deal=number, seat=claimed
            )
        return found
    if claimed is None:
        raise RuleViolation(E.JC_HOLDER, "the J♣ holder must be given", deal=number)
    if masks[claimed] is not None:
        raise RuleViolation(
            E.JC_HOLDER, "the seat's known hand has no J♣", deal=number, seat=claimed
        )
    return claimed
