"""The strong levels' time budget on a busy machine, with a clock the test advances: a
decision stops adding worlds once its budget is spent (after a least number), plays a
legal move, and draws the same random numbers as without a budget."""

from __future__ import annotations

import random

from p2pbelka.bots import registry
from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.policy import legal
from p2pbelka.bots.belka.strong import StrongBot
from p2pbelka.bots.belot.base import decide, make_belot_bot, seat_view
from p2pbelka.bots.belot.knowledge import known_from
from p2pbelka.bots.belot.strong import StrongBelotBot
from p2pbelka.bots.belot.tournament import play_deal
from p2pbelka.bots.common.budget import TABLE_SECONDS, UNLIMITED, Budget, table_budget
from p2pbelka.cards import CARDS
from p2pbelka.rules.belot.deal import Action
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.randomplay import random_deck
from tests.bots.test_bots_play import random_game


class BusyClock:
    """A machine so busy that every look at the clock finds ``step`` seconds gone."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def test_no_budget_never_stops() -> None:
    spent = UNLIMITED.start()
    assert not any(spent(k) for k in range(1000))


def test_a_budget_stops_after_its_time_but_never_before_the_least_worlds() -> None:
    clock = BusyClock(0.1)
    spent = Budget(seconds=0.25, least=4, clock=clock).start()
    # The clock is read only once the least worlds are valued: at 0.2, 0.3, then 0.4 s.
    assert [spent(k) for k in range(8)] == [False] * 6 + [True, True]
    quiet = Budget(seconds=10.0, least=2, clock=BusyClock(0.001)).start()
    assert not any(spent_k for spent_k in (quiet(k) for k in range(50)))


def test_belka_strong_keeps_its_budget_on_a_busy_machine() -> None:
    for seed in range(6):
        game = random_game(seed, 4 + seed)
        deal = game.deal
        assert deal is not None
        seat = deal.turn
        assert seat is not None
        seen = seen_from(deal.view(seat), seat)
        clock = BusyClock(0.05)
        busy = StrongBot(seed, budget=Budget(seconds=0.2, least=3, clock=clock))
        card = busy.choose(seen, deal.options)
        assert legal(seen) >> card & 1
        # One look to start, one per world valued past the least: a handful, not 80.
        assert clock.reads <= 1 + 5
        # The random numbers drawn do not depend on the time taken.
        calm = StrongBot(seed)
        calm.choose(seen, deal.options)
        assert calm.rng.random() == busy.rng.random()


def test_belot_strong_keeps_its_budget_on_a_busy_machine() -> None:
    rng = random.Random(3)
    for players in (2, 3):
        game = BelotGame.new(players=players, first_dealer=0)
        first, turned, _extra = random_deck(rng, players, 0)
        game = game.start_deal(first, CARDS[turned])
        assert game.deal is not None
        seat = game.deal.turn
        assert seat is not None
        view = seat_view(game, seat)
        clock = BusyClock(0.05)
        busy = StrongBelotBot(7, budget=Budget(seconds=0.2, least=3, clock=clock))
        call = busy.bid(view, seat)
        assert call in game.deal.legal_calls(seat)
        assert clock.reads <= 1 + 5
        calm = StrongBelotBot(7)
        calm.bid(view, seat)
        assert calm.rng.random() == busy.rng.random()
        assert known_from(view, seat).hand == game.deal.hands[seat]


def test_belot_strong_cards_keep_their_budget_on_a_busy_machine() -> None:
    checked: list[int] = []

    def ask(game: BelotGame, seat: int) -> list[Action]:
        deal = game.deal
        assert deal is not None
        if deal.phase == "play" and deal.legal_mask(seat).bit_count() > 2 and not checked:
            view = seat_view(game, seat)
            clock = BusyClock(0.05)
            busy = StrongBelotBot(7, budget=Budget(seconds=0.2, least=3, clock=clock))
            card = busy.play(view, seat)
            assert deal.legal_mask(seat) >> card.index & 1
            assert clock.reads <= 1 + 5  # a handful of worlds valued, not 48
            calm = StrongBelotBot(7)
            calm.play(view, seat)
            assert calm.rng.random() == busy.rng.random()
            checked.append(seat)
        return decide(heuristic, game, seat)

    heuristic = make_belot_bot("heuristic", 1)
    for players in (2, 3):
        checked.clear()
        rng = random.Random(players)
        game = BelotGame.new(players=players, first_dealer=0)
        first, turned, extra = random_deck(rng, players, 0)
        play_deal(game.start_deal(first, CARDS[turned]), extra, ask)
        assert checked


def test_an_unseeded_seat_bot_keeps_the_tables_time_and_a_seeded_one_every_world() -> None:
    belka = registry.make_seat_bot("belka", "strong")
    assert belka.bot.budget == table_budget(1)  # type: ignore[attr-defined]
    belot = registry.make_seat_bot("belot", "strong:2")
    assert belot.bot.budget == table_budget(2)  # type: ignore[attr-defined]
    assert table_budget(2).seconds == 2 * TABLE_SECONDS
    for game in ("belka", "belot"):
        seeded = registry.make_seat_bot(game, "strong", seed=5)
        assert seeded.bot.budget == UNLIMITED  # type: ignore[attr-defined]
