"""The rules engine as a table uses it: the game state, advanced by public facts.

During a deal a peer knows only its own hand, so the deal runs with the other
hands unknown (the engine checks turn and freshness for them); at the end the
audit replays it with every hand, and only that audited deal is scored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from p2pbelka.cards import Card
from p2pbelka.rules import core
from p2pbelka.rules.deal import DealState, Play, RedealClaim, Trick
from p2pbelka.rules.game import DealResult, EggsChoice, GameState
from p2pbelka.rules.options import options_from


class BelkaTrack:
    def __init__(self, preset: str, options: Mapping[str, str], first_dealer: int) -> None:
        self.game = GameState.new(options_from(preset, dict(options)), first_dealer)

    @staticmethod
    def check_options(preset: str, options: Mapping[str, str]) -> None:
        """Raise ``ValueError`` (OptionError) for an unknown preset, option or value."""
        options_from(preset, dict(options))

    # -- questions ------------------------------------------------------------------

    @property
    def dealer(self) -> int:
        return self.game.dealer

    @property
    def deal_number(self) -> int:
        return self.game.deal_number

    @property
    def deal(self) -> DealState:
        assert self.game.deal is not None, "no deal in progress"
        return self.game.deal

    @property
    def turn(self) -> int | None:
        return self.deal.turn

    def legal_cards(self, seat: int) -> list[Card]:
        return self.deal.legal_cards(seat)

    @staticmethod
    def can_claim_redeal(seat: int, hand: int) -> bool:
        return core.is_redeal_hand(hand)

    @property
    def chooser(self) -> int | None:
        """The seat that sends the eggs choice, when the rules ask for one."""
        return self.game.choice_seat

    @property
    def finished(self) -> bool:
        return self.game.finished

    @property
    def winner(self) -> int | None:
        return self.game.winner

    @property
    def score(self) -> tuple[int, int]:
        return self.game.score

    # -- moves ------------------------------------------------------------------------

    def start_deal(self, jc_holder: int, me: int | None, my_hand: int | None) -> None:
        hands: list[int | None] = [None] * 4
        if me is not None:
            hands[me] = my_hand
        self.game = self.game.start_deal(hands, jc_holder=jc_holder)

    def play(self, seat: int, card: Card) -> Trick | None:
        """Apply a play; return the trick it completed, if any.  Raises RuleViolation."""
        before = len(self.deal.tricks)
        self.game = self.game.apply(Play(seat, card))
        tricks = self.deal.tricks
        return tricks[-1] if len(tricks) > before else None

    def finish(self, hands: Sequence[int], redeal_claim: int | None) -> DealResult:
        """Score the deal from the audited hands (reneges become offenses).  Raises
        RuleViolation if the hands do not fit the public record of the deal."""
        deal = self.deal
        if redeal_claim is not None:
            deal = deal.with_hand(redeal_claim, hands[redeal_claim]).apply(
                RedealClaim(redeal_claim)
            )
            self.game = replace(self.game, deal=deal)
        self.game = self.game.finish_deal(deal.audited(hands))
        return self.game.history[-1]

    def choose_eggs(self, seat: int, choice: str) -> None:
        self.game = self.game.apply(EggsChoice(seat, choice))
