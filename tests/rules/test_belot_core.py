"""Belot's fast core: the seed's point tables, orders, following, combinations and their ladder."""

from __future__ import annotations

import pytest

from p2pbelka.cards import Card, parse_cards, to_mask
from p2pbelka.rules.belot import belot_options, core
from p2pbelka.rules.common.options import OptionError

C, D, H, S = range(4)
FOURS = core.FOUR_VALUES


def m(text: str) -> int:
    return to_mask(parse_cards(text))


def i(text: str) -> int:
    return Card.parse(text).index


def combo(text: str, trump: int = C, fours: tuple[int, ...] = FOURS) -> tuple[int, int, int]:
    found = core.combination(m(text), trump, fours)
    assert found is not None, text
    return found


# -- points ---------------------------------------------------------------------------


def test_the_deck_holds_152_points_whatever_the_trump() -> None:
    for trump in range(4):
        assert sum(core.POINTS[trump]) == core.DECK_POINTS == 152
        assert core.mask_points((1 << 32) - 1, trump) == 152
        assert core.mask_points(0xFF << (8 * trump), trump) == 62
        assert core.mask_points(0xFF << (8 * ((trump + 1) % 4)), trump) == 30
    assert core.LAST_TRICK == 10


@pytest.mark.parametrize(
    ("card", "plain", "trump"),
    [("7S", 0, 0), ("8S", 0, 0), ("9S", 0, 14), ("TS", 10, 10), ("JS", 2, 20),
     ("QS", 3, 3), ("KS", 4, 4), ("AS", 11, 11)],
)  # fmt: skip
def test_card_points_from_the_seed(card: str, plain: int, trump: int) -> None:
    assert core.POINTS[C][i(card)] == plain
    assert core.POINTS[S][i(card)] == trump


def test_orders_plain_and_trump() -> None:
    plain = "7 8 9 J Q K T A".split()  # weakest first
    trump = "7 8 Q K T A 9 J".split()
    for k in range(7):
        lo, hi = i(plain[k] + "H"), i(plain[k + 1] + "H")
        assert core.POWER[S][H][hi] > core.POWER[S][H][lo]
        lo, hi = i(trump[k] + "H"), i(trump[k + 1] + "H")
        assert core.POWER[H][H][hi] > core.POWER[H][H][lo]
    # Any trump beats the best card of the led suit; another plain suit never wins.
    assert core.POWER[S][H][i("7S")] > core.POWER[S][H][i("AH")]
    assert core.POWER[S][H][i("AD")] == -1


def test_trick_winner() -> None:
    trick = [i(c) for c in ("KH", "AH", "7S")]
    assert core.trick_winner(trick, S) == 2  # the trump
    assert core.trick_winner(trick, C) == 1  # the ace of the led suit
    assert core.trick_winner([i("9D"), i("JD")], D) == 1
    assert core.trick_winner([i("9D"), i("JD")], C) == 1  # plain: jack above nine
    assert core.trick_winner([i("TD"), i("JD")], C) == 0  # plain: ten above jack


def test_legal_follow_beat_a_led_trump_no_duty_to_trump() -> None:
    hand = m("7S QS JS 8H AD")
    # Plain led: follow; void: any card (no duty to trump).
    assert core.legal_mask(hand, H, S) == m("8H")
    assert core.legal_mask(hand, C, S) == hand
    # Trump led: beat the highest trump on the table if possible.
    assert core.legal_mask(hand, S, S, i("9S")) == m("JS")
    assert core.legal_mask(hand, S, S, i("KS")) == m("JS")
    assert core.legal_mask(hand, S, S, i("8S")) == m("QS JS")
    # Cannot beat it: any trump; no trump at all: any card.
    assert core.legal_mask(m("7S QS 8H"), S, S, i("9S")) == m("7S QS")
    assert core.legal_mask(m("8H AD"), S, S, i("9S")) == m("8H AD")
    # A plain suit led and trumped: following it is enough, nothing to beat.
    assert core.legal_mask(m("7H AH JS"), H, S, -1) == m("7H AH")
    assert core.legal_mask(hand, -1, S) == hand
    assert core.top_trump([i("7S"), i("9S"), i("AS")], S) == i("9S")
    assert core.top_trump([i("7H")], S) == -1


# -- combinations ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        ("7H 8H 9H", 20),  # terz
        ("TD JD QD KD", 50),  # berz
        ("9C TC JC QC KC", 100),  # quint
        ("7S 8S 9S TS JS QS", 100),
        ("7S 8S 9S TS JS QS KS", 100),
        ("7S 8S 9S TS JS QS KS AS", 100),  # an eight
        ("QC QD QH QS", 100),
        ("KC KD KH KS", 50),
        ("TC TD TH TS", 50),
        ("AC AD AH AS", 110),
        ("9C 9D 9H 9S", 140),
        ("JC JD JH JS", 200),
        ("KC QC", 20),  # belle, clubs trump
    ],
)
def test_every_combination_value(cards: str, value: int) -> None:
    assert combo(cards)[1] == value


def test_not_combinations() -> None:
    fours = core.four_values(0, 0)
    for text in ("7H 8H", "7H 8H TH", "7H 8H 9D", "KH QH", "KC QC JC QH", "8C 8D 8H 8S",
                 "7C 7D 7H 7S", "AC", ""):  # fmt: skip
        assert core.combination(m(text), C, fours) is None, text
    # Belle is the trump king and queen only.
    assert core.combination(m("KH QH"), H, fours) == (core.BELLE, 20, 0)


def test_four_eights_and_sevens_by_option() -> None:
    opts = belot_options({"four_eights": "60", "four_sevens": "200"})
    assert combo("8C 8D 8H 8S", fours=opts.fours)[1] == 60
    assert combo("7C 7D 7H 7S", fours=opts.fours)[1] == 200
    assert belot_options().fours == FOURS
    for bad in ("201", "-1", "05", "x", "1.5", " 5"):
        with pytest.raises(OptionError):
            belot_options({"four_sevens": bad})
    with pytest.raises(OptionError):
        belot_options({"four_sevens": 50})
    with pytest.raises(OptionError):
        belot_options({"hanging_twice": "never"})
    with pytest.raises(OptionError):
        belot_options({"hanging": "together"})


def key(text: str, trump: int = C, fours: tuple[int, ...] = FOURS) -> int:
    return combo(text, trump, fours)[2]


def test_ladder_any_four_beats_any_sequence() -> None:
    fours = core.four_values(10, 10)
    eight = key("7S 8S 9S TS JS QS KS AS", S)
    assert key("7C 7D 7H 7S", fours=fours) > eight
    assert key("QC QD QH QS") > eight


def test_ladder_fours_among_themselves() -> None:
    fours = core.four_values(10, 10)
    order = ["7", "8", "Q", "K", "T", "A", "9", "J"]
    keys = [key(" ".join(r + s for s in "CDHS"), fours=fours) for r in order]
    assert keys == sorted(keys) and len(set(keys)) == 8
    # By rank, not by value: four kings (50) beat four queens (100).
    assert key("KC KD KH KS") > key("QC QD QH QS")


def test_ladder_sequences() -> None:
    assert key("7H 8H 9H TH") > key("QD KD AD")  # longer first
    assert key("8H 9H TH") > key("7D 8D 9D")  # then the top card
    assert key("8H 9H TH", H) > key("8D 9D TD", H)  # then trump over plain
    assert key("8H 9H TH") == key("8D 9D TD")  # still equal: the first declared


def scored(decls: list[tuple[int, str]], took: int, trump: int = C, players: int = 3) -> list[int]:
    return core.scored_combinations(
        [(seat, *combo(text, trump)) for seat, text in decls], took, players
    )


def test_only_the_best_owner_scores_all_its_combinations() -> None:
    decls = [(0, "7H 8H 9H"), (0, "QC QD QH QS"), (1, "7S 8S 9S TS"), (2, "KC QC")]
    assert scored(decls, 0b111) == [120, 0, 20]  # the four wins; belle counts anyway
    decls = [(0, "7H 8H 9H"), (1, "8D 9D TD"), (0, "7S 8S 9S")]
    assert scored(decls, 0b111) == [0, 20, 0]  # 8-9-T beats both of seat 0's terzes


def test_equal_sequences_first_declared_and_trump() -> None:
    decls = [(1, "8H 9H TH"), (2, "8D 9D TD")]
    assert scored(decls, 0b111) == [0, 20, 0]
    assert scored(list(reversed(decls)), 0b111) == [0, 0, 20]
    assert scored(decls, 0b111, trump=D) == [0, 0, 20]  # trump beats the first declared


def test_belle_without_the_best_combination() -> None:
    decls = [(0, "KS QS"), (1, "7H 8H 9H")]
    assert scored(decls, 0b111, trump=S) == [20, 20, 0]
    assert scored(decls, 0b010, trump=S) == [0, 20, 0]  # belle needs a trick too


def test_an_owner_without_a_trick_is_out_of_the_comparison() -> None:
    decls = [(0, "JC JD JH JS"), (1, "7H 8H 9H")]
    assert scored(decls, 0b110) == [0, 20, 0]
    assert scored(decls, 0b100) == [0, 0, 0]
    assert scored(decls, 0b111) == [200, 0, 0]


def test_overlaps() -> None:
    run = m("7H 8H 9H TH")
    declared = [(0, core.SEQUENCE, run)]
    assert not core.may_add(declared, 0, m("TH JH QH"), core.SEQUENCE)  # shares TH
    assert core.may_add(declared, 1, m("TH JH QH"), core.SEQUENCE)  # another owner
    assert core.may_add(declared, 0, m("JH QH KH"), core.SEQUENCE)
    assert core.may_add(declared, 0, m("7C 7D 7H 7S"), core.FOUR)  # a four may share
    four = [(0, core.FOUR, m("7C 7D 7H 7S"))]
    assert not core.may_add(four, 0, m("7C 7D 7H 7S"), core.FOUR)
    assert core.may_add(four, 0, m("8C 8D 8H 8S"), core.FOUR)
    belle = [(0, core.BELLE, m("KH QH"))]
    assert not core.may_add(belle, 0, m("KH QH"), core.BELLE)
    assert core.may_add(belle, 0, m("JH QH KH"), core.SEQUENCE)


def test_combinations_in_a_hand() -> None:
    hand = m("7H 8H 9H TH JH 9C 9D 9S KS")
    found = core.combinations_in(hand, S, FOURS)
    seqs = [f for f in found if f & m("7H 8H 9H TH JH") == f and f.bit_count() >= 3]
    assert len(seqs) == 6  # 3 terzes, 2 berzes, 1 quint
    assert m("9C 9D 9H 9S") in found
    assert m("KS QS") not in found


def test_results() -> None:
    assert core.deal_result([100, 50, 20], 0) == core.MADE
    assert core.deal_result([50, 100, 20], 0) == core.BAIT
    assert core.deal_result([80, 80, 20], 1) == core.HANGING
    assert core.deal_result([20, 80, 80], 0) == core.BAIT  # a tie above the declarer
    assert core.top_seat([20, 80, 80]) == -1
    assert core.top_seat([20, 81, 80]) == 1


def test_deal_pattern() -> None:
    for players in (2, 3):
        pattern = core.deal_pattern(players, 1)
        assert len(pattern) == 32 and pattern.count(-1) == 1
        assert pattern.count(-2) == (5 if players == 3 else 14) - 1  # the turned card is the 5th
        for seat in range(players):
            assert pattern.count(seat) == 9
        assert pattern[:3] == ((2 % players),) * 3
