"""Duplicate matches between two bot levels, on the rules engine alone.

A match is two games on the same cards: the ``k``-th deal of both games is
dealt from the same seed, team A sits on seats 0/2 in the first game and on
seats 1/3 in the second.  Luck of the cards cancels out, so fewer games tell
the levels apart.  :func:`run_tournament` plays matches on worker processes and
keeps a resumable results file (:mod:`p2pbelka.bots.common.tournament`);
:data:`TOURNAMENT` is what Belka's entry in the bots' registry offers the
``tournament`` command.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from p2pbelka.bots.belka.base import BelkaBot, make_belka_bot
from p2pbelka.bots.common.tournament import (
    BotFactory,
    Progress,
    mean_ci,
    run_matches,
    share_ci,
    summary_json,
)
from p2pbelka.cards import CARDS
from p2pbelka.rules.belka.deal import RedealClaim
from p2pbelka.rules.belka.game import EggsChoice, GameState
from p2pbelka.rules.belka.options import PRESETS, Options, options_from
from p2pbelka.rules.belka.randomplay import random_hands
from p2pbelka.rules.common.play import Play

if TYPE_CHECKING:  # a match's processes start only when a tournament runs
    from concurrent.futures import Future, ProcessPoolExecutor

MAX_DEALS = 80
"""A game still open after this many deals (re-deals included) counts as a draw."""


def seat_view(game: GameState, seat: int) -> GameState:
    """The game as ``seat`` may see it: the current deal's other hands unknown."""
    if game.deal is None:
        return game
    return replace(game, deal=game.deal.view(seat))


def play_game(
    bots: list[BelkaBot], options: Options, deal_seed: Callable[[int], int], first_dealer: int = 0
) -> GameState:
    """One game; deal ``k`` (re-deals counted) is dealt from ``deal_seed(k)``."""
    game = GameState.new(options, first_dealer)
    while not game.finished and len(game.history) < MAX_DEALS:
        if game.pending_choice is not None:
            seat = game.pending_choice
            choice = bots[seat].choose_eggs(seat_view(game, seat), seat)
            game = game.apply(EggsChoice(seat, choice))
            continue
        rng = random.Random(deal_seed(game.deal_number))
        game = game.start_deal(random_hands(rng, game.dealer))
        deal = game.deal
        assert deal is not None
        for offset in range(1, 5):
            seat = (deal.dealer + offset) % 4
            if deal.can_claim_redeal(seat) and bots[seat].claim_redeal(seat_view(game, seat), seat):
                game = game.apply(RedealClaim(seat))
                break
        while game.deal is not None and not game.deal.finished:
            turn = game.deal.turn
            assert turn is not None
            card = bots[turn].play(seat_view(game, turn), turn)
            game = game.apply(Play(turn, CARDS[card.index]))
        game = game.finish_deal()
    return game


def _team_gain(options: Options, awarded: tuple[int, int], team: int) -> int:
    """Game points a deal brought ``team``: won (classic), or eyes opened against the others."""
    return awarded[1 - team] if options.eyes else awarded[team]


def play_match(
    level_a: str,
    level_b: str,
    seed: int,
    index: int,
    preset: str = "classic",
    factory: BotFactory = make_belka_bot,
) -> dict[str, Any]:
    """Match ``index`` of a tournament: two games on the same cards, seats swapped."""
    options = options_from(preset)
    base = random.Random(f"{seed}:{index}").getrandbits(63)
    first_dealer = index % 4
    result: dict[str, Any] = {"match": index, "games_a": 0, "games_b": 0, "draws": 0}
    deals_a = deals_b = deals = gain_a = gain_b = 0
    for a_seat in (0, 1):
        bots = [
            factory(level_a if s & 1 == a_seat else level_b, base + 10 * a_seat + s)
            for s in range(4)
        ]
        game = play_game(bots, options, lambda k: base ^ (k * 0x9E3779B97F4A7C15), first_dealer)
        if game.winner is None:
            result["draws"] += 1
        elif game.winner == a_seat:
            result["games_a"] += 1
        else:
            result["games_b"] += 1
        for deal in game.history:
            if deal.redeal_claim is not None:
                continue
            deals += 1
            if deal.winner == a_seat:
                deals_a += 1
            elif deal.winner is not None:
                deals_b += 1
            gain_a += _team_gain(options, deal.awarded, a_seat)
            gain_b += _team_gain(options, deal.awarded, 1 - a_seat)
    result.update(deals=deals, deals_a=deals_a, deals_b=deals_b, gain_a=gain_a, gain_b=gain_b)
    return result


def run_tournament(
    level_a: str,
    level_b: str,
    matches: int,
    seed: int,
    preset: str = "classic",
    workers: int = 2,
    state: str | None = None,
    progress: Progress | None = None,
    factory: BotFactory = make_belka_bot,
) -> DuplicateSummary:
    """Play ``matches`` duplicate matches (two games each) and summarize them."""
    key = {"a": level_a, "b": level_b, "seed": seed, "preset": preset}

    def one(pool: ProcessPoolExecutor, i: int) -> Future[dict[str, Any]]:
        return pool.submit(play_match, level_a, level_b, seed, i, preset, factory)

    rows = run_matches(key, matches, one, workers, state, progress)
    return summarize(level_a, level_b, rows, seed, preset)


@dataclass(frozen=True, slots=True)
class DuplicateSummary:
    """What the matches between level ``a`` (team A) and level ``b`` came to: games and
    deals won, A's share of the games (a draw is half) and the game points per deal,
    each with its 95% interval over matches."""

    a: str
    b: str
    preset: str
    seed: int
    matches: int
    games: int
    games_a: int
    games_b: int
    draws: int
    win_rate_a: float
    win_rate_a_ci95: tuple[float, float]
    deals: int
    deals_a: int
    deals_b: int
    game_points_per_deal_a: float
    game_points_per_deal_b: float
    net_game_points_per_deal_a: float
    net_game_points_per_deal_a_ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        """The figures as ``tournament --json`` prints them (intervals as lists)."""
        return summary_json(self)

    def lines(self) -> list[str]:
        low, high = self.win_rate_a_ci95
        gl, gh = self.net_game_points_per_deal_a_ci95
        return [
            f"{self.a} (A) vs {self.b} (B), preset {self.preset}, seed {self.seed}",
            f"matches {self.matches}, games {self.games}, deals {self.deals}",
            f"games won    A {self.games_a}  B {self.games_b}  draws {self.draws}",
            f"A win rate   {self.win_rate_a:.1%}  (95% CI {low:.1%} .. {high:.1%})",
            f"deals won    A {self.deals_a}  B {self.deals_b}",
            f"game points per deal  A {self.game_points_per_deal_a:.3f}"
            f"  B {self.game_points_per_deal_b:.3f}"
            f"  A-B {self.net_game_points_per_deal_a:+.3f} (95% CI {gl:+.3f} .. {gh:+.3f})",
        ]


def summarize(
    level_a: str, level_b: str, rows: list[dict[str, Any]], seed: int, preset: str
) -> DuplicateSummary:
    games = 2 * len(rows)
    deals = sum(r["deals"] for r in rows)
    # Each match scores A's share of its two games (a draw is half): matches are independent.
    share, low, high = share_ci((r["games_a"] + 0.5 * r["draws"]) / 2 for r in rows)
    net, net_low, net_high = mean_ci((r["gain_a"] - r["gain_b"]) / max(1, r["deals"]) for r in rows)
    return DuplicateSummary(
        a=level_a,
        b=level_b,
        preset=preset,
        seed=seed,
        matches=len(rows),
        games=games,
        games_a=sum(r["games_a"] for r in rows),
        games_b=sum(r["games_b"] for r in rows),
        draws=sum(r["draws"] for r in rows),
        win_rate_a=round(share, 4),
        win_rate_a_ci95=(round(low, 4), round(high, 4)),
        deals=deals,
        deals_a=sum(r["deals_a"] for r in rows),
        deals_b=sum(r["deals_b"] for r in rows),
        game_points_per_deal_a=round(sum(r["gain_a"] for r in rows) / max(1, deals), 4),
        game_points_per_deal_b=round(sum(r["gain_b"] for r in rows) / max(1, deals), 4),
        net_game_points_per_deal_a=round(net, 4),
        net_game_points_per_deal_a_ci95=(round(net_low, 4), round(net_high, 4)),
    )


class BelkaTournament:
    """Belka's duplicate tournament: two games a match, team A on seats 0/2, then 1/3."""

    kind = "duplicate"

    def problem(self, preset: str, players: int, games: int) -> str | None:
        if preset not in PRESETS:
            return f"unknown preset {preset!r} ({', '.join(PRESETS)})"
        if games < 2:
            return "--games must be at least 2 (one match)"
        return None

    def run(
        self,
        level_a: str,
        level_b: str,
        games: int,
        seed: int,
        *,
        preset: str,
        players: int,
        workers: int,
        state: str | None,
        progress: Progress | None,
        factory: BotFactory | None = None,
    ) -> DuplicateSummary:
        return run_tournament(
            level_a,
            level_b,
            matches=games // 2,
            seed=seed,
            preset=preset,
            workers=workers,
            state=state,
            progress=progress,
            factory=factory or make_belka_bot,
        )


TOURNAMENT = BelkaTournament()
