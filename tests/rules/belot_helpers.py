"""Hand-made Belot deals and finished deals with chosen totals, for the Belot tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from p2pbelka.cards import Card, Suit, parse_cards, to_mask
from p2pbelka.rules.belot import BelotGame, Bid, DealState, Trick, belot_options

# Deal A (3 players, dealer 0): seat 1 holds all eight clubs once the extra cards come.
A_FIRST = ["7H 8H 9H AS KS 7D", "JC 9C AC TC KC QC", "JD QD KD AD TD JS"]
A_TURNED = "JH"
A_EXTRA = ["TH 8D 9D", "7C 8C AH", "QS 9S 8S"]
A_STOCK = "7S TS QH KH JH"


def m(text: str) -> int:
    return to_mask(parse_cards(text))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def deal_a(calls: Sequence[str] = ("pass", "pass", "pass", "C"), **options: str) -> DealState:
    """Deal A after ``calls`` (from seat 1), with the extra cards dealt if bidding is over."""
    deal = DealState.start(
        belot_options(options), 3, 0, [m(h) for h in A_FIRST], Card.parse(A_TURNED)
    )
    for call in calls:
        turn = deal.turn
        assert turn is not None
        deal = deal.apply(Bid(turn, call))
    if deal.phase == "extra":
        deal = deal.with_extra([m(h) for h in A_EXTRA])
    return deal


def finish(
    game: BelotGame,
    declarer: int,
    totals: Sequence[int],
    last: int | None = None,
) -> BelotGame:
    """Play out the next deal as a finished one whose totals are ``totals``.

    Every seat with points took a trick; ``last`` (default: the first seat with
    the most points) took the ninth and its ten is inside its total.
    """
    n = game.players
    if last is None:
        last = max(range(n), key=lambda s: totals[s])
    game = game.start_deal(None, Card.parse("7C"))
    deal = game.deal
    assert deal is not None
    winners = [s for s in range(n) if totals[s] > 0 and s != last]
    winners += [last] * (9 - len(winners))
    tricks = tuple(Trick(w, (), w) for w in winners)
    points = tuple(totals[s] - (10 if s == last else 0) for s in range(n))
    deal = replace(
        deal,
        bids=("play",),
        declarer=declarer,
        trump=Suit.CLUBS,
        extra=(None,) * n,
        tricks=tricks,
        card_points=points,
    )
    assert deal.finished and deal.totals() == tuple(totals)
    return replace(game, deal=deal).finish_deal()


def void(game: BelotGame) -> BelotGame:
    """The next deal, all passing twice."""
    game = game.start_deal(None, Card.parse("7C"))
    for _ in range(2 * game.players):
        deal = game.deal
        assert deal is not None and deal.turn is not None
        game = game.apply(Bid(deal.turn, "pass"))
    return game.finish_deal()
