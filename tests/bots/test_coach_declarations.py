"""The coach grades what a Belot seat declared at each of its leads: from the seat's own
view only, against every set of combinations the rules allow there, flagging a costly
choice with the set to declare and the combination points behind it; and a deeper
search (ten times the worlds) agrees with what it flags."""

from __future__ import annotations

import random

import pytest

from p2pbelka.bots.belot.base import RandomBelotBot, decide, make_belot_bot, seat_view
from p2pbelka.bots.belot.coach import (
    DECLARE,
    declaration_choices,
    declaration_values,
    decode,
    encode,
)
from p2pbelka.bots.belot.heuristic import HeuristicBelotBot
from p2pbelka.bots.belot.knowledge import known_from
from p2pbelka.bots.belot.tournament import play_deal, play_game
from p2pbelka.bots.common.coach import (
    Coach,
    Position,
    advise,
    flags,
    judge,
    position_rng,
)
from p2pbelka.bots.registry import coach
from p2pbelka.cards import CARDS, Card, from_mask, parse_cards, to_mask
from p2pbelka.rules.belot.deal import Bid, Declare
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.options import belot_options
from p2pbelka.ui.words.coach import advice_line
from p2pbelka.ui.words.i18n import set_language

SEAT = 1
"""The coached seat: the seat after the dealer (seat 0), so it leads the first trick."""
TURNED = Card.parse("7C")


class Silent(HeuristicBelotBot):
    """Plays and calls by the rules of thumb, never declares."""

    def declarations(self, game: BelotGame, seat: int) -> list[tuple[Card, ...]]:
        return []


class RandomDeclarer(HeuristicBelotBot):
    """Plays and calls by the rules of thumb, declares at random (any part of what it
    holds, or nothing)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.chooser = RandomBelotBot(seed)

    def declarations(self, game: BelotGame, seat: int) -> list[tuple[Card, ...]]:
        return self.chooser.declarations(game, seat)


def _started(own: str, seed: int) -> tuple[BelotGame, list[int]]:
    """A deal dealt by seat 0 with clubs turned, SEAT holding ``own`` (its first six, then
    its three more) and calling the turned suit; the other 22 cards shuffled by ``seed``
    to the others and the stock.  The game at the first lead, and the three more cards."""
    mine = parse_cards(own)
    rest = [c.index for c in CARDS if c not in mine and c != TURNED]
    random.Random(seed).shuffle(rest)
    first = [
        to_mask(CARDS[c] for c in rest[:6]),
        to_mask(mine[:6]),
        to_mask(CARDS[c] for c in rest[6:12]),
    ]
    extra = [
        to_mask(CARDS[c] for c in rest[12:15]),
        to_mask(mine[6:]),
        to_mask(CARDS[c] for c in rest[15:18]),
    ]
    game = BelotGame.new(belot_options(), 3, 0).start_deal(first, TURNED)
    game = game.apply(Bid(SEAT, "play")).deal_extra(extra)
    return game, extra


def _finished(game: BelotGame, extra: list[int], bots: list[HeuristicBelotBot]) -> BelotGame:
    return play_deal(game, extra, lambda g, seat: decide(bots[seat], g, seat)).finish_deal()


def _lead(game: BelotGame) -> Position:
    """SEAT's declaration at the first lead, where it declared nothing, as the coach gets it."""
    return Position(seat_view(game, SEAT), SEAT, 0, 0, 0, 3_000_000, DECLARE)


def test_a_set_of_combinations_is_one_move_in_any_order() -> None:
    sets = [
        [0b111 << 8, 0b111 << 11],  # two terzes of one run of six, side by side
        [0b11111 << 24, to_mask(parse_cards("JC JD JH JS"))],  # a quint and a four sharing J♠
        [to_mask(parse_cards("KH QH")), 0b111 << 3],  # belle and a terz
        [],
    ]
    for masks in sets:
        move = encode(masks)
        assert sorted(decode(move)) == sorted(masks)
        assert encode(list(reversed(masks))) == move
    assert encode([]) == 0


def test_a_combination_left_undeclared_is_flagged_with_the_set_to_declare() -> None:
    game, extra = _started("JC JD JH JS AC TC AD AH 8S", seed=4)
    bots: list[HeuristicBelotBot] = [HeuristicBelotBot(0), Silent(1), HeuristicBelotBot(2)]
    done = _finished(game, extra, bots)
    found = coach("belot")
    declared = [p for p in found.positions(done, SEAT) if p.kind == DECLARE]
    assert declared[0].played == 0 and (declared[0].deal, declared[0].trick) == (0, 0)
    assert all(p.played == 0 for p in declared)  # it held the jacks at each lead, silent
    found_advice = [advise(found, p, found.threshold, 24, 1) for p in declared]
    flagged = [a for a in found_advice if a is not None]
    assert flagged and flagged[0].trick == 0  # declaring later is no answer: a jack goes
    advice = flagged[0]
    jacks = to_mask(parse_cards("JC JD JH JS"))
    assert advice.played == 0 and advice.better == encode([jacks])
    assert advice.cost > found.threshold and advice.reason.kind == "scored"
    assert advice.reason.better - advice.reason.played > 100
    assert found.move_parts(DECLARE, advice.better) == [("four jacks", (4, 12, 20, 28))]
    line = advice_line(advice, found)
    assert line.startswith(
        "deal 1, lead of trick 1: declaring nothing chosen, declaring four jacks"
    )
    assert "points of combinations" in line
    set_language("ru")
    assert "объявить четыре валета" in advice_line(advice, found)
    set_language("kk")
    assert "төрт валет" in advice_line(advice, found)


def _dd_gain(game: BelotGame) -> float:
    """What declaring SEAT's terz gains over declaring nothing with every hand known."""
    deal = game.deal
    assert deal is not None
    known = known_from(game, SEAT)
    hands = [h or 0 for h in deal.hands]
    terz = to_mask(parse_cards("7H 8H 9H"))
    (nothing, _), (declared, _) = declaration_values(known, hands, [0, encode([terz])], 3)
    return declared - nothing


def test_the_advice_does_not_depend_on_the_cards_the_seat_could_not_see() -> None:
    # SEAT holds the lowest terz: it scores unless another seat declares a better
    # combination, which the hidden cards decide.
    own = "7H 8H 9H AC TC 8C AS QS AD"
    found: dict[bool, BelotGame] = {}
    for seed in range(60):
        game, _extra = _started(own, seed)
        found.setdefault(_dd_gain(game) > 15, game)
        if len(found) == 2:
            break
    assert len(found) == 2, "no pair of deals found"
    scores, beaten = found[True], found[False]
    assert _dd_gain(beaten) <= 0  # known, the hidden cards say: not worth declaring ...
    a, b = _lead(scores), _lead(beaten)
    assert scores.deal is not None and beaten.deal is not None
    assert scores.deal.hands != beaten.deal.hands  # ... the hidden cards differ ...
    assert a.view == b.view  # ... and the coach is handed the same view
    assert all(h is None for s, h in enumerate(a.view.deal.hands) if s != SEAT)
    grader: Coach = coach("belot")
    graded = grader.grade(a, 24, position_rng(5, a))
    assert graded == grader.grade(b, 24, position_rng(5, b))
    assert sorted(graded.moves) == [0, encode([to_mask(parse_cards("7H 8H 9H"))])]
    for threshold in (0.0, 10.0):
        assert advise(grader, a, threshold, 24, 5) == advise(grader, b, threshold, 24, 5)


def test_the_choices_are_every_set_the_rules_allow_the_one_made_and_nothing_first() -> None:
    # A run of five hearts (7 to J), belle in clubs: sets of disjoint sequences, with or
    # without belle, the rules of thumb's (belle and the quint) among them.
    game, _extra = _started("7H 8H 9H TH JH KC QC AS AD", seed=0)
    deal = game.deal
    assert deal is not None
    known = known_from(game, SEAT)
    terz = to_mask(parse_cards("7H 8H 9H"))
    moves = declaration_choices(deal, SEAT, known, encode([terz]))
    assert moves[:2] == [encode([terz]), 0]
    belle, quint = to_mask(parse_cards("KC QC")), to_mask(parse_cards("7H 8H 9H TH JH"))
    assert moves[2] == encode([belle, quint])
    assert len(set(moves)) == len(moves)
    for move in moves:  # each set is one the rules accept, one combination at a time
        after = deal
        for mask in decode(move):
            after = after.apply(Declare(SEAT, tuple(from_mask(mask))))
        assert sorted(d.mask for d in after.declarations) == sorted(decode(move))
    # a run of five: nothing, three terzes, two berzes, the quint -- each with or without
    # belle, twelve at most
    assert len(moves) == 12


def _agreement(games: int, worlds: int) -> tuple[int, int, int]:
    """Over ``games`` three-deal games with a seat declaring at random: that seat's
    declarations graded on ``worlds`` worlds, and the flagged ones again on ten times as
    many (another seed): (flagged, agreed, same better set)."""
    found = coach("belot")
    flagged = agreed = same = 0
    for g in range(games):
        bots = [RandomDeclarer(g), make_belot_bot("heuristic", seed=g + 1)]
        bots.append(make_belot_bot("heuristic", seed=g + 2))
        game = play_game(bots, belot_options(), 500 + g, max_deals=3)
        for p in found.positions(game, 0):
            if p.kind != DECLARE:
                continue
            graded = found.grade(p, worlds, position_rng(0, p))
            judged = judge(graded, p.played)
            if not flags(judged, found.threshold):
                continue
            deep = found.grade(p, 10 * worlds, position_rng(1, p))
            deeper = judge(deep, p.played)
            flagged += 1
            agreed += deeper.cost > found.threshold
            same += deep.moves[deeper.best] == graded.moves[judged.best]
    return flagged, agreed, same


def test_a_deeper_search_agrees_with_the_declarations_flagged() -> None:
    flagged, agreed, _same = _agreement(games=30, worlds=16)
    assert flagged >= 5
    assert agreed >= 0.9 * flagged


@pytest.mark.slow
def test_a_deeper_search_agrees_with_the_declarations_flagged_at_the_coach_s_worlds() -> None:
    flagged, agreed, same = _agreement(games=300, worlds=80)
    assert flagged >= 60
    assert agreed >= 0.9 * flagged and same >= 0.8 * flagged
