"""A Belot deal's summary: the deal as players read it afterwards (and as ``verify``
prints it), written once by :func:`summarize` from the scored deal.

The table writes one when it audits a deal; the referee's report of a record
(:mod:`p2pbelka.rules.belot.records`) is read off the same summary, so both say the
same of a deal.  A void deal (all passed twice) has no :class:`BelotPlay`: its JSON
stops at ``cards_checked``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2pbelka.cards import SUIT_LETTERS, Card, Suit, format_cards, from_mask
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.deal import PASS, PLAY, SEQUENCE_NAMES
from p2pbelka.rules.belot.game import CLAIMED, GAME, DealResult
from p2pbelka.rules.common.recordio import expect
from p2pbelka.rules.common.summary import JsonObject, TrickSummary

FIELDS = (
    "game", "number", "dealer", "hands", "turned", "bids", "void", "stock", "score",
    "hanging", "cards_checked",
)  # fmt: skip
"""The JSON fields of every deal, in the order written."""

PLAY_FIELDS = (
    "declarer", "trump", "extra", "declarations", "tricks", "card_points", "last_trick",
    "combinations", "totals", "result", "written", "paid", "claim",
)  # fmt: skip
"""The JSON fields of a deal that was played (not void), written after :data:`FIELDS`."""

CALLS = (PLAY, PASS, *SUIT_LETTERS)
RESULTS = (*core.RESULT_NAMES, CLAIMED)
COMBINATIONS = (*SEQUENCE_NAMES.values(), *core.KIND_NAMES[1:])


@dataclass(frozen=True, slots=True)
class DeclarationSummary:
    """A declared combination: ``trick`` is the trick its owner was about to lead."""

    seat: int
    trick: int
    cards: tuple[Card, ...]
    name: str

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "trick": self.trick,
            "cards": format_cards(self.cards),
            "name": self.name,
        }

    @classmethod
    def from_json(cls, value: object, path: str, seats: int) -> DeclarationSummary:
        obj = JsonObject.of(value, path, ("seat", "trick", "cards", "name"))
        return cls(
            obj.seat("seat", seats),
            obj.integer("trick", 0, 8),
            obj.cards("cards"),
            obj.choice("name", COMBINATIONS),
        )


@dataclass(frozen=True, slots=True)
class BelotPlay:
    """What a deal that was taken came to.  By seat: ``extra`` (the three more cards),
    ``card_points``, ``combinations`` (scored), ``totals``, ``written`` (paid hanging
    points included).  ``last_trick``: who took the ninth trick (None after a claim);
    ``result``: ``made``, ``bait``, ``hanging`` or ``claim``; ``paid``: hanging points
    paid out in this deal (to the top seat); ``claim``: the seat that claimed 1001."""

    declarer: int
    trump: Suit
    extra: tuple[tuple[Card, ...], ...]
    declarations: tuple[DeclarationSummary, ...]
    tricks: tuple[TrickSummary, ...]
    card_points: tuple[int, ...]
    last_trick: int | None
    combinations: tuple[int, ...]
    totals: tuple[int, ...]
    result: str
    written: tuple[int, ...]
    paid: int
    claim: int | None

    def to_json(self) -> dict[str, object]:
        return {
            "declarer": self.declarer,
            "trump": self.trump.letter,
            "extra": [format_cards(h) for h in self.extra],
            "declarations": [d.to_json() for d in self.declarations],
            "tricks": [t.to_json() for t in self.tricks],
            "card_points": list(self.card_points),
            "last_trick": self.last_trick,
            "combinations": list(self.combinations),
            "totals": list(self.totals),
            "result": self.result,
            "written": list(self.written),
            "paid": self.paid,
            "claim": self.claim,
        }

    @classmethod
    def from_json(cls, obj: JsonObject, seats: int) -> BelotPlay:
        return cls(
            declarer=obj.seat("declarer", seats),
            trump=obj.suit("trump"),
            extra=obj.hands("extra", seats),
            declarations=tuple(
                DeclarationSummary.from_json(v, p, seats) for v, p in obj.items("declarations")
            ),
            tricks=tuple(TrickSummary.from_json(v, p, seats) for v, p in obj.items("tricks")),
            card_points=obj.integers("card_points", seats),
            last_trick=obj.optional_seat("last_trick", seats),
            combinations=obj.integers("combinations", seats),
            totals=obj.integers("totals", seats),
            result=obj.choice("result", RESULTS),
            written=obj.integers("written", seats),
            paid=obj.integer("paid"),
            claim=obj.optional_seat("claim", seats),
        )


@dataclass(frozen=True, slots=True)
class BelotSummary:
    """One audited Belot deal.  ``hands``: the first six of each seat; ``turned``: the
    card turned up; ``bids``: the calls in order, from the seat after the dealer;
    ``stock``: the cards left face down; ``score``: the written scores after the deal;
    ``hanging``: points still hanging after it; ``played``: None for a void deal."""

    number: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    turned: Card
    bids: tuple[str, ...]
    stock: tuple[Card, ...]
    score: tuple[int, ...]
    hanging: int
    cards_checked: int
    played: BelotPlay | None

    @property
    def void(self) -> bool:
        """All passed twice: nobody played, nobody scored."""
        return self.played is None

    @property
    def players(self) -> int:
        return len(self.hands)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "game": GAME,
            "number": self.number,
            "dealer": self.dealer,
            "hands": [format_cards(h) for h in self.hands],
            "turned": str(self.turned),
            "bids": list(self.bids),
            "void": self.void,
            "stock": format_cards(self.stock),
            "score": list(self.score),
            "hanging": self.hanging,
            "cards_checked": self.cards_checked,
        }
        if self.played is not None:
            out.update(self.played.to_json())
        return out

    @classmethod
    def from_json(cls, value: object, path: str = "") -> BelotSummary:
        """The summary ``to_json`` gave; ``RecordError`` naming the path of a bad field."""
        raw = expect(value, dict, path, "an object")
        void = JsonObject(raw, path).flag("void") if "void" in raw else False
        obj = JsonObject.of(raw, path, FIELDS if void else FIELDS + PLAY_FIELDS)
        obj.choice("game", (GAME,))
        seats = len(obj.items("hands"))
        return cls(
            number=obj.integer("number"),
            dealer=obj.seat("dealer", seats),
            hands=obj.hands("hands"),
            turned=obj.card("turned"),
            bids=obj.choices("bids", CALLS),
            stock=obj.cards("stock"),
            score=obj.integers("score", seats),
            hanging=obj.integer("hanging"),
            cards_checked=obj.integer("cards_checked"),
            played=None if void else BelotPlay.from_json(obj, seats),
        )

    def line(self, verified: bool = False) -> str:
        checked = "shuffle and 32 cards verified, " if verified else ""
        head = f"{checked}dealer {self.dealer}, turned {self.turned}"
        played = self.played
        if played is None:
            return f"{head}, void (all passed), score {list(self.score)}"
        declared = "; ".join(
            f"seat {d.seat} {d.name} {format_cards(d.cards)}" for d in played.declarations
        )
        claim = f", seat {played.claim} claimed 1001" if played.claim is not None else ""
        return (
            f"{head}, seat {played.declarer} plays {played.trump.letter},"
            f" declared [{declared}], totals {list(played.totals)}, {played.result}{claim},"
            f" written {list(played.written)}, hanging {self.hanging},"
            f" score {list(self.score)}"
        )

    def log_line(self) -> str:
        played = self.played
        if played is None:
            return f"turned {self.turned}, void (all passed), score {list(self.score)}"
        return (
            f"seat {played.declarer} played {played.trump.letter},"
            f" totals {list(played.totals)}, {played.result},"
            f" written {list(played.written)}, score {list(self.score)}"
        )


def _hand(mask: int | None, number: int) -> tuple[Card, ...]:
    if mask is None:
        raise ValueError(f"deal {number}: a summary needs every hand")
    return tuple(from_mask(mask))


def summarize(
    result: DealResult, stock: Sequence[Card] = (), cards_checked: int = 0
) -> BelotSummary:
    """The summary of a scored deal, every hand known.  ``stock`` (in deck order) and
    ``cards_checked`` are the audit's: a game record (the referee's) has neither."""
    deal = result.deal
    played = None
    if not result.void:
        assert deal.trump is not None and deal.declarer is not None and deal.extra is not None
        assert result.result is not None
        played = BelotPlay(
            declarer=deal.declarer,
            trump=deal.trump,
            extra=tuple(_hand(h, deal.number) for h in deal.extra),
            declarations=tuple(
                DeclarationSummary(d.seat, d.trick, tuple(d.cards), d.name)
                for d in deal.declarations
            ),
            tricks=tuple(TrickSummary.of(t) for t in deal.tricks),
            card_points=tuple(deal.card_points),
            last_trick=deal.last_trick,
            combinations=tuple(result.combinations),
            totals=tuple(result.totals),
            result=result.result,
            written=tuple(result.written),
            paid=result.paid,
            claim=deal.claim,
        )
    return BelotSummary(
        number=result.number,
        dealer=result.dealer,
        hands=tuple(_hand(h, deal.number) for h in deal.dealt),
        turned=deal.turned,
        bids=tuple(deal.bids),
        stock=tuple(stock),
        score=tuple(result.score),
        hanging=result.hanging,
        cards_checked=cards_checked,
        played=played,
    )
