"""Scoring and the game: classic count, eyes, eggs, goli, re-deals, penalties, the target."""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.belka import (
    EGGS_TITLE,
    GOAT_TITLE,
    EggsChoice,
    GameState,
    Offense,
    RedealClaim,
    RuleViolation,
    Trick,
    deal_score,
    options_from,
)

CLASSIC = options_from("classic")
EYES = options_from("eyes")


def finish(
    game: GameState,
    points0: int,
    jc_holder: int = 0,
    tricks0: int = 4,
    offenses: tuple[Offense, ...] = (),
) -> GameState:
    """Play a deal whose outcome is given (card points and tricks of team 0)."""
    deal = game.start_deal(None, jc_holder=jc_holder).deal
    assert deal is not None
    tricks = tuple(Trick(0, (), 0 if i < tricks0 else 1) for i in range(8))
    done = replace(
        deal,
        plays=tuple(range(32)),
        card_points=(points0, 120 - points0),
        tricks=tricks,
        offenses=offenses,
    )
    return replace(game, deal=done).finish_deal()


def redeal(game: GameState, seat: int = 0) -> GameState:
    deal = game.start_deal(None, jc_holder=1).deal
    assert deal is not None
    return replace(game, deal=replace(deal, redeal_claim=seat)).finish_deal()


@pytest.mark.parametrize(
    ("points", "trump_team", "expected"),
    [(61, 0, 1), (90, 0, 1), (91, 0, 2), (119, 0, 2), (61, 1, 2), (90, 1, 2), (91, 1, 3)],
)
def test_classic_boundaries(points: int, trump_team: int, expected: int) -> None:
    ds = deal_score(CLASSIC, (points, 120 - points), trump_team, (4, 4), False)
    assert ds.winner == 0 and ds.base == expected and not ds.goli
    mirrored = deal_score(CLASSIC, (120 - points, points), 1 - trump_team, (4, 4), False)
    assert mirrored.winner == 1 and mirrored.base == expected


def test_card_points_must_sum_to_120() -> None:
    with pytest.raises(ValueError):
        deal_score(CLASSIC, (60, 59), 0, (4, 4), False)


def test_classic_deal_scores_to_the_winners() -> None:
    game = finish(GameState.new(CLASSIC), 95, jc_holder=1)  # J♣ with the opponents: 2 + 1
    assert game.score == (3, 0) and game.history[-1].awarded == (3, 0)
    assert game.dealer == 1 and game.deal_number == 1
    game = finish(game, 30, jc_holder=3)  # team 1 with the J♣ takes 90
    assert game.score == (3, 1)


def test_seat_suits_fixed_by_the_first_deal() -> None:
    game = GameState.new(CLASSIC)
    assert game.first_deal
    game = finish(game, 70, jc_holder=2)
    assert game.seat_suits == (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS)
    assert game.start_deal(None, jc_holder=3).deal.trump is Suit.HEARTS  # type: ignore[union-attr]
    dsh = finish(GameState.new(options_from("classic", {"trump_order": "DSH"})), 70, 2)
    assert dsh.seat_suits == (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)


def test_game_to_twelve() -> None:
    game = GameState.new(CLASSIC)
    for _ in range(3):
        game = finish(game, 100, jc_holder=1)  # 3 each
    assert game.score == (9, 0) and game.winner is None
    game = finish(game, 100, jc_holder=1)
    assert game.score == (12, 0) and game.winner == 0 and game.finished
    with pytest.raises(RuleViolation) as info:
        game.start_deal(None, jc_holder=0)
    assert info.value.rule == "game_over"


def test_goli_wins_the_game() -> None:
    game = finish(GameState.new(CLASSIC), 0, jc_holder=0, tricks0=1)
    assert game.winner == 1 and game.history[-1].goli


def test_goli_continues() -> None:
    opts = options_from("classic", {"goli": "continues"})
    game = finish(GameState.new(opts), 70, jc_holder=0)
    game = finish(game, 120, jc_holder=0)
    assert game.winner is None and game.games_won == (1, 0)
    assert game.score == (0, 0) and game.titles == ((), (GOAT_TITLE,))
    assert not game.first_deal  # no new trump assignment
    game = finish(game, 0, jc_holder=1)
    assert game.games_won == (1, 1) and game.titles == ((GOAT_TITLE,), ())


def test_goli_off_scores_as_a_plain_win() -> None:
    opts = options_from("classic", {"goli": "off"})
    game = finish(GameState.new(opts), 120, jc_holder=1)
    assert game.winner is None and game.score == (3, 0)


def test_eggs_plus4_choice() -> None:
    game = finish(GameState.new(CLASSIC), 60)
    assert game.score == (0, 0) and game.eggs_pending and game.history[-1].eggs
    game = finish(game, 60)  # eggs again: not stacked
    game = finish(game, 50, jc_holder=1)  # team 1 wins 1
    assert game.pending_choice == 1 and game.score == (0, 1)
    assert [a.choice for a in game.legal_actions(3)] == ["plus4", "title"]  # type: ignore[union-attr]
    assert game.legal_actions(0) == []
    with pytest.raises(RuleViolation) as info:
        game.start_deal(None, jc_holder=0)
    assert info.value.rule == "choice_pending"
    with pytest.raises(RuleViolation) as info:
        game.apply(EggsChoice(0, "plus4"))
    assert info.value.rule == "choice_team"
    with pytest.raises(RuleViolation) as info:
        game.apply(EggsChoice(1, "plus5"))
    assert info.value.rule == "bad_choice"
    plus = game.apply(EggsChoice(1, "plus4"))
    assert plus.score == (0, 5) and plus.pending_choice is None and not plus.eggs_pending
    assert plus.history[-1].eggs_choice == "plus4" and plus.history[-1].awarded == (0, 5)
    title = game.apply(EggsChoice(3, "title"))
    assert title.score == (0, 1) and title.titles == ((EGGS_TITLE,), ())
    with pytest.raises(RuleViolation) as info:
        plus.apply(EggsChoice(1, "plus4"))
    assert info.value.rule == "no_choice_pending"


def test_eggs_plus4_can_win_the_game() -> None:
    game = GameState.new(CLASSIC)
    for _ in range(3):
        game = finish(game, 100, jc_holder=1)
    game = finish(finish(game, 60), 70, jc_holder=0)  # 9 + 1, then +4
    assert game.pending_choice == 0
    assert game.apply(EggsChoice(2, "plus4")).winner == 0


@pytest.mark.parametrize(("eggs", "expected"), [("double", 4), ("four", 4), ("none", 2)])
def test_eggs_variants(eggs: str, expected: int) -> None:
    game = finish(GameState.new(options_from("classic", {"eggs": eggs})), 60)
    assert game.eggs_pending == (eggs != "none")
    game = finish(game, 100, jc_holder=0)  # 2 points
    assert game.score == (expected, 0) and game.pending_choice is None
    assert game.history[-1].bonus == (None if eggs == "none" else eggs)


def test_first_deal_two() -> None:
    opts = options_from("classic", {"first_deal_two": "on"})
    game = redeal(GameState.new(opts))  # a re-dealt first deal stays the first
    assert game.first_deal
    game = finish(game, 100, jc_holder=1)
    assert game.score == (2, 0)
    game = finish(game, 100, jc_holder=1)
    assert game.score == (5, 0)


def test_three_redeals_classic() -> None:
    game = GameState.new(CLASSIC, first_dealer=1)
    game = redeal(redeal(game))
    assert game.redeal_streak == 2 and game.dealer == 1 and game.score == (0, 0)
    game = redeal(game)
    # A penalty on the dealing team (seat 1, team 1): one point to the other team.
    assert game.redeal_streak == 0 and game.score == (1, 0)
    assert "one point to team 0" in game.history[-1].notes[1]
    assert game.dealer == 1 and game.deal_number == 3 and game.first_deal
    game = finish(redeal(game), 70, jc_holder=0)
    assert game.redeal_streak == 0 and game.dealer == 2


def test_three_redeals_classic_end_the_game_for_the_other_team() -> None:
    game = replace(GameState.new(CLASSIC, first_dealer=2), score=(3, 11))
    game = redeal(redeal(redeal(game)))
    # Team 0 deals; the point goes to team 1, which reaches 12 and wins.
    assert game.score == (3, 12) and game.winner == 1
    game = replace(GameState.new(CLASSIC, first_dealer=2), score=(11, 3))
    game = redeal(redeal(redeal(game)))
    assert game.score == (11, 4) and game.winner is None


def test_redeal_claim_through_the_game() -> None:
    from p2pbelka.cards import parse_cards

    hands = [
        parse_cards("QC 9C 8C 7C KD 9D 8D 7D"),
        parse_cards("JC JD QD TD KH 9S TS AS"),
        parse_cards("TC KC AC AD 7H 8H QS KS"),
        parse_cards("JH JS 9H TH QH AH 7S 8S"),
    ]
    game = GameState.new(CLASSIC).start_deal(hands)
    assert any(isinstance(a, RedealClaim) for a in game.legal_actions(0))
    game = game.apply(RedealClaim(0)).finish_deal()
    assert game.history[-1].redeal_claim == 0 and game.dealer == 0


def test_renege_penalty_classic() -> None:
    offense = (Offense(1, 2, Card.parse("7H"), "follow_suit"),)
    game = finish(GameState.new(CLASSIC), 30, jc_holder=1, offenses=offense)
    # the other team gets 1; the deal's own result (team 1 takes 90 with the J♣) stands
    assert game.score == (1, 1)
    assert "seat 1" in game.history[-1].notes[0]


def test_finish_requires_a_finished_deal() -> None:
    game = GameState.new(CLASSIC).start_deal(None, jc_holder=0)
    with pytest.raises(RuleViolation) as info:
        game.finish_deal()
    assert info.value.rule == "deal_not_finished"
    with pytest.raises(RuleViolation) as info:
        game.start_deal(None, jc_holder=0)
    assert info.value.rule == "deal_in_progress"
    with pytest.raises(RuleViolation) as info:
        GameState.new(CLASSIC).finish_deal()
    assert info.value.rule == "no_deal"


# -- eyes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points0", "jc_holder", "eyes"),
    [(61, 0, 1), (90, 0, 1), (91, 0, 2), (61, 1, 2), (119, 1, 3), (90, 1, 2)],
)
def test_eyes_opened_against_the_losers(points0: int, jc_holder: int, eyes: int) -> None:
    game = finish(GameState.new(EYES), points0, jc_holder=jc_holder)
    assert game.score == (0, eyes) and game.eyes_left == (12, 12 - eyes)


def test_eyes_spas_at_30() -> None:
    assert deal_score(EYES, (90, 30), 0, (4, 4), False).base == 1
    assert deal_score(EYES, (91, 29), 0, (4, 4), False).base == 2
    assert deal_score(EYES, (29, 91), 0, (4, 4), False).base == 3


def test_eyes_eggs_give_four() -> None:
    game = finish(GameState.new(EYES), 60)
    assert game.score == (0, 0) and game.eggs_pending
    game = finish(game, 70, jc_holder=0)
    assert game.score == (0, 4) and game.pending_choice is None


def test_eyes_all_tricks_win_and_goli_does_not() -> None:
    game = finish(GameState.new(EYES), 120, jc_holder=0, tricks0=7)
    assert game.winner is None and game.score == (0, 2)
    game = finish(game, 120, jc_holder=0, tricks0=8)
    assert game.winner == 0


def test_eyes_twelve_open_loses() -> None:
    game = GameState.new(EYES)
    for _ in range(4):
        game = finish(game, 100, jc_holder=1)  # 2 + 1 against team 1
    assert game.score == (0, 12) and game.winner == 0


def test_eyes_penalties() -> None:
    offense = (Offense(2, 0, Card.parse("7H"), "follow_suit"),)
    game = finish(GameState.new(EYES), 80, jc_holder=0, offenses=offense)
    assert game.score == (1, 1)  # one against the offender's team, one for the deal
    game = GameState.new(EYES, first_dealer=3)
    game = redeal(redeal(redeal(game)))
    assert game.score == (0, 1)  # one eye against the dealing team


def test_choice_seat_is_the_first_of_the_team_after_the_dealer() -> None:
    game = finish(finish(GameState.new(CLASSIC), 60), 50, jc_holder=1)  # dealer 1, team 1 wins
    assert game.pending_choice == 1 and game.choice_seat == 3
    game = finish(finish(GameState.new(CLASSIC), 60), 70, jc_holder=0)
    assert game.choice_seat == 2


def test_finish_with_an_audited_deal_charges_reneges() -> None:
    from p2pbelka.cards import parse_cards
    from p2pbelka.rules.belka import Play

    hands = [
        parse_cards("AC TC KC 7D 8D AH 7S 8S"),
        parse_cards("JC JD QC 9D TD KH 9S TS"),
        parse_cards("9C 8C AD KD 7H 8H QS KS"),
        parse_cards("JH JS 7C QD 9H TH QH AS"),
    ]
    game = GameState.new(CLASSIC).start_deal(None, jc_holder=1)
    rng = __import__("random").Random(4)
    game = game.apply(Play(1, Card.parse("9S"))).apply(Play(2, Card.parse("9C")))  # renege
    deal = game.deal
    assert deal is not None
    full = deal.audited(hands)
    while not full.finished:
        seat = full.turn
        assert seat is not None
        card = rng.choice(full.legal_cards(seat))
        full = full.apply(Play(seat, card))
        game = game.apply(Play(seat, card))
    with pytest.raises(RuleViolation) as info:
        game.finish_deal(replace(full, plays=full.plays[:-1]))
    assert info.value.rule == "deal_mismatch"
    assert game.deal is not None
    audited = game.deal.audited(hands)
    assert len(audited.offenses) == 1 and audited.offenses[0].seat == 2
    plain = game.finish_deal()
    charged = game.finish_deal(audited)
    assert charged.score[1] == plain.score[1] + 1  # team 0 reneged: team 1 gets one point
    assert charged.score[0] == plain.score[0]
