"""Deal summaries (hypothesis): each game's summary of random played deals reads back
from its JSON, its JSON is what the dict writers gave before the summaries were typed,
and a malformed field is refused by its JSON path."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pbelka.cards import CARDS, format_cards, from_mask, iter_bits
from p2pbelka.rules.belka import options_from
from p2pbelka.rules.belka import randomplay as belka_random
from p2pbelka.rules.belka.game import DealResult as BelkaResult
from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.rules.belka.summary import summarize as belka_summarize
from p2pbelka.rules.belot import belot_options
from p2pbelka.rules.belot import randomplay as belot_random
from p2pbelka.rules.belot.core import deal_pattern
from p2pbelka.rules.belot.game import DealResult as BelotResult
from p2pbelka.rules.belot.summary import BelotSummary
from p2pbelka.rules.belot.summary import summarize as belot_summarize
from p2pbelka.rules.common.recordio import RecordError
from p2pbelka.rules.registry import spec

SETTINGS = settings(max_examples=25, deadline=None)

# -- the dict writers the typed summaries replaced (table/games/<game>/track.py) ---------


def old_belka_summary(result: BelkaResult, hands: Sequence[int]) -> dict[str, Any]:
    return {
        "number": result.number,
        "dealer": result.dealer,
        "trump": result.trump.letter,
        "trump_team": result.trump_team,
        "hands": [format_cards(from_mask(h)) for h in hands],
        "redeal_claim": result.redeal_claim,
        "tricks": [
            {"leader": t.leader, "cards": format_cards(t.cards), "winner": t.winner}
            for t in result.tricks
        ],
        "card_points": list(result.card_points),
        "awarded": list(result.awarded),
        "score": list(result.score),
        "offenses": [f"seat {o.seat}: {o.rule} with {o.card}" for o in result.offenses],
        "notes": list(result.notes),
        "cards_checked": len(result.plays) or len(CARDS),
    }


def old_belot_summary(
    result: BelotResult,
    first: Sequence[int],
    extra: Sequence[int],
    cards: Sequence[int],
    owners: Sequence[int],
) -> dict[str, Any]:
    deal = result.deal
    stock = [CARDS[c] for c, o in zip(cards, owners, strict=True) if o == -2]
    out: dict[str, Any] = {
        "game": "belot",
        "number": result.number,
        "dealer": result.dealer,
        "hands": [format_cards(from_mask(h)) for h in first],
        "turned": str(deal.turned),
        "bids": list(deal.bids),
        "void": result.void,
        "stock": format_cards(stock),
        "score": list(result.score),
        "hanging": result.hanging,
        "cards_checked": len(cards),
    }
    if result.void:
        return out
    assert deal.trump is not None
    out.update(
        declarer=deal.declarer,
        trump=deal.trump.letter,
        extra=[format_cards(from_mask(h)) for h in extra],
        declarations=[
            {"seat": d.seat, "trick": d.trick, "cards": format_cards(d.cards), "name": d.name}
            for d in deal.declarations
        ],
        tricks=[
            {"leader": t.leader, "cards": format_cards(t.cards), "winner": t.winner}
            for t in deal.tricks
        ],
        card_points=list(deal.card_points),
        last_trick=deal.last_trick,
        combinations=list(result.combinations),
        totals=list(result.totals),
        result=result.result,
        written=list(result.written),
        paid=result.paid,
        claim=deal.claim,
    )
    return out


# -- and the one-line descriptions (cli/selfplay_cmd.py, cli/verify_cmd.py, peer/text.py) ---


def old_belka_line(s: dict[str, Any]) -> str:
    kind = "re-deal" if s["redeal_claim"] is not None else f"trump {s['trump']}"
    return (
        f"dealer {s['dealer']}, {kind}, card points {s['card_points']},"
        f" awarded {s['awarded']}, score {s['score']}"
    )


def old_belka_verified_line(deal: dict[str, Any]) -> str:
    kind = "re-deal" if deal["redeal_claim"] is not None else f"trump {deal['trump']}"
    return (
        f"dealer {deal['dealer']}, {kind}, shuffle and 32 cards"
        f" verified, card points {deal['card_points']}, awarded {deal['awarded']},"
        f" score {deal['score']}"
    )


def old_belka_log_line(s: dict[str, Any]) -> str:
    kind = "re-deal" if s.get("redeal_claim") is not None else f"trump {s.get('trump')}"
    return (
        f"{kind}, card points {s.get('card_points')},"
        f" awarded {s.get('awarded')}, score {s.get('score')}"
    )


def old_belot_line(deal: dict[str, Any]) -> str:
    head = f"dealer {deal['dealer']}, turned {deal['turned']}"
    if deal["void"]:
        return f"{head}, void (all passed), score {deal['score']}"
    declared = "; ".join(f"seat {d['seat']} {d['name']} {d['cards']}" for d in deal["declarations"])
    claim = f", seat {deal['claim']} claimed 1001" if deal["claim"] is not None else ""
    return (
        f"{head}, seat {deal['declarer']} plays {deal['trump']},"
        f" declared [{declared}], totals {deal['totals']}, {deal['result']}{claim},"
        f" written {deal['written']}, hanging {deal['hanging']}, score {deal['score']}"
    )


def old_belot_log_line(s: dict[str, Any]) -> str:
    if s.get("void"):
        return f"turned {s.get('turned')}, void (all passed), score {s.get('score')}"
    return (
        f"seat {s.get('declarer')} played {s.get('trump')}, totals {s.get('totals')},"
        f" {s.get('result')}, written {s.get('written')}, score {s.get('score')}"
    )


# -- random played deals ---------------------------------------------------------------------


def belot_positions(
    result: BelotResult, rng: random.Random
) -> tuple[list[int], list[int], list[int], tuple[int, ...]]:
    """A deck the deal could have come from: (first six, three more, every position's
    card, the owners of the positions), as the table's audit finds them."""
    deal = result.deal
    players = deal.players
    first = [h or 0 for h in deal.dealt]
    taken = sum(first) | deal.turned.bit
    rest = [c for c in range(32) if not taken >> c & 1]
    rng.shuffle(rest)
    if deal.extra is not None:
        extra = [h or 0 for h in deal.extra]
    else:  # a void deal: the three more were never dealt
        extra = [sum(1 << c for c in rest[3 * s : 3 * s + 3]) for s in range(players)]
    dealt = sum(extra)
    stock = [c for c in rest if not dealt >> c & 1]
    owners = deal_pattern(players, deal.dealer)
    pools = {
        "first": [list(iter_bits(h)) for h in first],
        "extra": [list(iter_bits(h)) for h in extra],
    }
    cards = []
    for pos, owner in enumerate(owners):
        if owner == -1:
            cards.append(deal.turned.index)
        elif owner == -2:
            cards.append(stock.pop())
        else:
            cards.append(pools["first" if pos < 6 * players else "extra"][owner].pop())
    return first, extra, cards, owners


@SETTINGS
@given(st.integers(0, 2**32), st.sampled_from(["classic", "eyes"]), st.integers(0, 3))
def test_belka_summaries_read_back_and_say_what_they_said(
    seed: int, preset: str, first_dealer: int
) -> None:
    game = belka_random.play_random_game(options_from(preset), random.Random(seed), first_dealer)
    for result in game.history:
        hands = [h or 0 for h in result.hands]
        summary = belka_summarize(result, hands)
        old = old_belka_summary(result, hands)
        assert summary.to_json() == old
        assert list(summary.to_json()) == list(old)  # the same keys in the same order
        assert BelkaSummary.from_json(summary.to_json()) == summary
        assert spec("belka").summary_from_json(copy.deepcopy(old), "") == summary
        assert summary.line() == old_belka_line(old)
        assert summary.line(verified=True) == old_belka_verified_line(old)
        assert summary.log_line() == old_belka_log_line(old)


@SETTINGS
@given(
    st.integers(0, 2**32),
    st.sampled_from([2, 3]),
    st.sampled_from(["together", "one_each"]),
    st.floats(0.0, 1.0),
)
def test_belot_summaries_read_back_and_say_what_they_said(
    seed: int, players: int, hanging_twice: str, claim_rate: float
) -> None:
    rng = random.Random(seed)
    options = belot_options({"hanging_twice": hanging_twice})
    game = belot_random.play_random_game(options, rng, players, seed % players, claim_rate)
    for result in game.history:
        first, extra, cards, owners = belot_positions(result, rng)
        stock = [CARDS[c] for c, o in zip(cards, owners, strict=True) if o == -2]
        summary = belot_summarize(result, stock, len(cards))
        old = old_belot_summary(result, first, extra, cards, owners)
        assert summary.to_json() == old
        assert list(summary.to_json()) == list(old)
        assert BelotSummary.from_json(summary.to_json()) == summary
        assert spec("belot").summary_from_json(copy.deepcopy(old), "") == summary
        assert summary.void == result.void
        assert summary.line() == old_belot_line(old)
        assert summary.line(verified=True) == "shuffle and 32 cards verified, " + old_belot_line(
            old
        )
        assert summary.log_line() == old_belot_log_line(old)


def test_random_belot_games_summarize_void_deals_claims_and_paid_hanging_points() -> None:
    """The seeds above meet every kind of deal (so the properties cover each)."""
    seen: set[str] = set()
    paid = False
    for seed in range(12):
        game = belot_random.play_random_game(belot_options(), random.Random(seed), 2 + seed % 2)
        for result in game.history:
            played = belot_summarize(result).played
            seen.add("void" if played is None else played.result)
            paid = paid or (played is not None and played.paid > 0)
    assert {"void", "made", "bait", "hanging", "claim"} <= seen and paid


# -- malformed summaries -------------------------------------------------------------------


def a_belka_summary() -> dict[str, Any]:
    game = belka_random.play_random_game(options_from("classic"), random.Random(1), redeal_rate=0)
    result = game.history[0]
    return belka_summarize(result, [h or 0 for h in result.hands]).to_json()


def a_belot_summary(void: bool) -> dict[str, Any]:
    for seed in range(50):
        game = belot_random.play_random_game(belot_options(), random.Random(seed), 3)
        for result in game.history:
            full = result.deal.declarations and len(result.deal.tricks) == 9
            if result.void == void and (void or full):
                return belot_summarize(result, (), 32).to_json()
    raise AssertionError("no such deal")


def change(obj: Any, path: tuple[str | int, ...], value: Any) -> Any:
    """A copy of ``obj`` with the field at ``path`` set (or removed, for ``...``)."""
    out = copy.deepcopy(obj)
    where = out
    for key in path[:-1]:
        where = where[key]
    if value is ...:
        del where[path[-1]]
    else:
        where[path[-1]] = value
    return out


BELKA_BAD = [
    (("number",), "1", "number", "expected a whole number, got a string"),
    (("dealer",), 4, "dealer", "expected 0..3, got 4"),
    (("trump",), "X", "trump", "not a suit"),
    (("trump_team",), True, "trump_team", "expected a whole number, got a boolean"),
    (("hands",), ["JC"], "hands", "4 items expected, got 1"),
    (("hands", 2), "JC ZZ", "hands[2]", "not a suit: 'Z'"),
    (("tricks", 3, "winner"), None, "tricks[3].winner", "got null"),
    (("tricks", 0, "cards"), ["JC"], "tricks[0].cards", "expected a string of cards"),
    (("tricks", 1, "trump"), "C", "tricks[1].trump", "unknown field"),
    (("card_points",), [60], "card_points", "2 items expected, got 1"),
    (("notes",), [1], "notes[0]", "expected a string"),
    (("cards_checked",), ..., "cards_checked", "missing field"),
    (("extra",), 1, "extra", "unknown field"),
]


@pytest.mark.parametrize(("path", "value", "named", "why"), BELKA_BAD)
def test_a_malformed_belka_summary_is_refused_by_its_path(
    path: tuple[str | int, ...], value: Any, named: str, why: str
) -> None:
    good = a_belka_summary()
    assert BelkaSummary.from_json(good).to_json() == good
    with pytest.raises(RecordError) as refused:
        BelkaSummary.from_json(change(good, path, value))
    assert refused.value.path == named and why in str(refused.value)
    with pytest.raises(RecordError) as nested:
        spec("belka").summary_from_json(change(good, path, value), "deals[7]")
    assert nested.value.path == f"deals[7].{named}".replace(".[", "[")


BELOT_BAD = [
    (("game",), "belka", "game", "expected one of 'belot'"),
    (("void",), "no", "void", "expected true or false"),
    (("turned",), "QH KH", "turned", "expected one card, got 2"),
    (("bids", 0), "double", "bids[0]", "expected one of"),
    (("score",), [1, 2], "score", "3 items expected, got 2"),
    (("declarer",), 3, "declarer", "expected 0..2, got 3"),
    (("extra", 1), None, "extra[1]", "expected a string of cards"),
    (("declarations", 0, "name"), "quartet", "declarations[0].name", "expected one of"),
    (("declarations", 0, "trick"), 9, "declarations[0].trick", "expected 0..8, got 9"),
    (("tricks", 8, "leader"), -1, "tricks[8].leader", "expected 0..2, got -1"),
    (("result",), "won", "result", "expected one of"),
    (("last_trick",), "1", "last_trick", "expected a whole number"),
    (("paid",), ..., "paid", "missing field"),
]


@pytest.mark.parametrize(("path", "value", "named", "why"), BELOT_BAD)
def test_a_malformed_belot_summary_is_refused_by_its_path(
    path: tuple[str | int, ...], value: Any, named: str, why: str
) -> None:
    good = a_belot_summary(void=False)
    assert BelotSummary.from_json(good).to_json() == good
    with pytest.raises(RecordError) as refused:
        BelotSummary.from_json(change(good, path, value))
    assert refused.value.path == named and why in str(refused.value)


def test_a_void_belot_summary_has_no_play_fields() -> None:
    void = a_belot_summary(void=True)
    summary = BelotSummary.from_json(void)
    assert summary.void and summary.played is None and summary.to_json() == void
    with pytest.raises(RecordError) as refused:
        BelotSummary.from_json({**void, "declarer": 0})
    assert refused.value.path == "declarer" and "unknown field" in str(refused.value)
    played = a_belot_summary(void=False)
    with pytest.raises(RecordError) as refused:
        BelotSummary.from_json({**played, "void": True})
    assert refused.value.path == "declarer" and "unknown field" in str(refused.value)
    with pytest.raises(RecordError) as refused:
        BelotSummary.from_json([void])
    assert refused.value.path == "" and "expected an object" in str(refused.value)
