"""Duplicate Belot matches: one bot of level A against bots of level B, hands rotated.

A match is ``players`` games on the same cards: deal ``k`` of every game is
shuffled from the same seed and dealt from that game's dealer, and level A
sits on seat ``r`` in game ``r`` (level B on the other seats).  Over a match
the A bot so holds every seat's hand of each deal (as long as the games' deals
stay in step; a hanging bait moves the deal on differently), and the luck of
the cards cancels out.  The figure is the share of games the A seat wins,
against ``1 / players`` for equal bots; its 95% interval is over matches.
Results go to a resumable state file (:mod:`p2pbelka.bots.common.tournament`);
:data:`TOURNAMENT` is what Belot's entry in the bots' registry offers the
``tournament`` command.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from p2pbelka.bots.belot.base import BelotBot, decide, make_belot_bot
from p2pbelka.bots.common.tournament import (
    BotFactory,
    Progress,
    mean_ci,
    run_matches,
    share_ci,
    summary_json,
)
from p2pbelka.cards import CARDS
from p2pbelka.rules.belot.deal import Action
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.rules.belot.options import BelotOptions, belot_options
from p2pbelka.rules.belot.randomplay import random_deck
from p2pbelka.rules.belot.spec import SEAT_COUNTS

if TYPE_CHECKING:  # a match's processes start only when a tournament runs
    from concurrent.futures import Future, ProcessPoolExecutor

MAX_DEALS = 200
"""A game still open after this many deals (void ones included) counts as a draw."""


def deal_cards(base: int, k: int, players: int, dealer: int) -> tuple[list[int], int, list[int]]:
    """Deal ``k`` of a match: (first six per seat, turned card, three more per seat)."""
    rng = random.Random(base ^ (k * 0x9E3779B97F4A7C15))
    return random_deck(rng, players, dealer)


def play_deal(
    game: BelotGame, extra: list[int], ask: Callable[[BelotGame, int], list[Action]]
) -> BelotGame:
    """Play the started deal of ``game`` to its end: ``ask(game, seat)`` gives the actions of
    each turn (see :func:`decide`); ``extra`` are the three more cards per seat."""
    while game.deal is not None and not game.deal.finished:
        deal = game.deal
        if deal.phase == "extra":
            game = game.deal_extra(extra)
            continue
        seat = deal.turn
        assert seat is not None
        for action in ask(game, seat):
            game = game.apply(action)
    return game


def play_game(
    bots: list[BelotBot],
    options: BelotOptions,
    base: int,
    first_dealer: int = 0,
    max_deals: int = MAX_DEALS,
) -> BelotGame:
    """One game, every bot asked from its own seat's view; deal ``k`` from ``(base, k)``."""
    players = len(bots)
    game = BelotGame.new(options, players, first_dealer)
    while not game.finished and len(game.history) < max_deals:
        first, turned, extra = deal_cards(base, game.deal_number, players, game.dealer)
        game = game.start_deal(first, CARDS[turned])
        game = play_deal(game, extra, lambda g, seat: decide(bots[seat], g, seat))
        game = game.finish_deal()
    return game


def seating(level_a: str, level_b: str, players: int, game: int) -> list[str]:
    """The levels by seat in game ``game`` of a match: A on seat ``game``."""
    return [level_a if s == game % players else level_b for s in range(players)]


def match_base(seed: int, index: int) -> int:
    """The seed of match ``index``'s cards (and, offset per game and seat, of its bots)."""
    return random.Random(f"belot:{seed}:{index}").getrandbits(63)


def play_match(
    level_a: str,
    level_b: str,
    players: int,
    seed: int,
    index: int,
    factory: BotFactory = make_belot_bot,
) -> dict[str, Any]:
    """Match ``index``: ``players`` games on the same cards, A on each seat in turn."""
    options = belot_options()
    base = match_base(seed, index)
    first_dealer = index % players
    row: dict[str, Any] = {"match": index, "wins_a": 0, "wins_b": 0, "draws": 0}
    deals = declared = made = score_a = score_b = 0
    for r in range(players):
        levels = seating(level_a, level_b, players, r)
        bots = [factory(level, base + 10 * r + s) for s, level in enumerate(levels)]
        game = play_game(bots, options, base, first_dealer)
        if game.winner is None:
            row["draws"] += 1
        elif game.winner == r:
            row["wins_a"] += 1
        else:
            row["wins_b"] += 1
        score_a += game.score[r]
        score_b += sum(game.score) - game.score[r]
        for result in game.history:
            if result.void:
                continue
            deals += 1
            if result.deal.declarer == r:
                declared += 1
                made += result.result in ("made", "claim")
    row.update(
        games=players,
        deals=deals,
        declared_a=declared,
        made_a=made,
        score_a=score_a,
        score_b=score_b,
    )
    return row


def run_tournament(
    level_a: str,
    level_b: str,
    matches: int,
    seed: int,
    players: int = 3,
    workers: int = 2,
    state: str | None = None,
    progress: Progress | None = None,
    factory: BotFactory = make_belot_bot,
) -> BelotTournamentSummary:
    """Play ``matches`` rotated matches (``players`` games each) and summarize them."""
    key = {"game": "belot", "a": level_a, "b": level_b, "seed": seed, "players": players}

    def one(pool: ProcessPoolExecutor, i: int) -> Future[dict[str, Any]]:
        return pool.submit(play_match, level_a, level_b, players, seed, i, factory)

    rows = run_matches(key, matches, one, workers, state, progress)
    return summarize(level_a, level_b, players, rows, seed)


@dataclass(frozen=True, slots=True)
class BelotTournamentSummary:
    """What the matches between one bot of level ``a`` and ``players - 1`` of level ``b``
    came to: games won, A's share of them (against ``even_share`` for equal bots, with
    its 95% interval over matches), A's contracts made and the mean final scores."""

    game: str
    players: int
    a: str
    b: str
    seed: int
    matches: int
    games: int
    wins_a: int
    wins_b: int
    draws: int
    win_rate_a: float
    win_rate_a_ci95: tuple[float, float]
    even_share: float
    deals: int
    declared_a: int
    made_rate_a: float
    mean_score_a: float
    mean_score_b: float
    points_per_deal_a: float
    points_per_deal_b: float
    net_points_per_deal_a: float
    net_points_per_deal_a_ci95: tuple[float, float]

    def to_json(self) -> dict[str, Any]:
        """The figures as ``tournament --json`` prints them (the interval as a list)."""
        return summary_json(self)

    def lines(self) -> list[str]:
        n = self.players
        low, high = self.win_rate_a_ci95
        return [
            f"Belot, {n} players: one {self.a} (A) against {n - 1} {self.b}, seed {self.seed}",
            f"matches {self.matches}, games {self.games}, deals {self.deals}",
            f"games won    A {self.wins_a}  B {self.wins_b}  draws {self.draws}",
            f"A win rate   {self.win_rate_a:.1%}  (95% CI {low:.1%} .. {high:.1%};"
            f" equal bots {self.even_share:.1%})",
            f"A declared   {self.declared_a} deals, made {self.made_rate_a:.1%};"
            f" mean final score A {self.mean_score_a}  B {self.mean_score_b}",
            f"written points per deal  A {self.points_per_deal_a:.1f}"
            f"  B {self.points_per_deal_b:.1f}  A-B {self.net_points_per_deal_a:+.1f}"
            f" (95% CI {self.net_points_per_deal_a_ci95[0]:+.1f}"
            f" .. {self.net_points_per_deal_a_ci95[1]:+.1f})",
        ]


def summarize(
    level_a: str, level_b: str, players: int, rows: list[dict[str, Any]], seed: int
) -> BelotTournamentSummary:
    games = sum(r["games"] for r in rows)
    # Each match scores A's share of its games (a draw counts 1/players): matches are independent.
    share, low, high = share_ci((r["wins_a"] + r["draws"] / players) / r["games"] for r in rows)
    declared = sum(r["declared_a"] for r in rows)
    deals = sum(r["deals"] for r in rows)
    # A's written points per deal less one B seat's (the B seats' mean), match by match.
    net, net_low, net_high = mean_ci(
        (r["score_a"] - r["score_b"] / (players - 1)) / max(1, r["deals"]) for r in rows
    )
    return BelotTournamentSummary(
        game="belot",
        players=players,
        a=level_a,
        b=level_b,
        seed=seed,
        matches=len(rows),
        games=games,
        wins_a=sum(r["wins_a"] for r in rows),
        wins_b=sum(r["wins_b"] for r in rows),
        draws=sum(r["draws"] for r in rows),
        win_rate_a=round(share, 4),
        win_rate_a_ci95=(round(low, 4), round(high, 4)),
        even_share=round(1 / players, 4),
        deals=deals,
        declared_a=declared,
        made_rate_a=round(sum(r["made_a"] for r in rows) / max(1, declared), 4),
        mean_score_a=round(sum(r["score_a"] for r in rows) / max(1, games), 1),
        mean_score_b=round(sum(r["score_b"] for r in rows) / max(1, games * (players - 1)), 1),
        points_per_deal_a=round(sum(r["score_a"] for r in rows) / max(1, deals), 2),
        points_per_deal_b=round(sum(r["score_b"] for r in rows) / (players - 1) / max(1, deals), 2),
        net_points_per_deal_a=round(net, 2),
        net_points_per_deal_a_ci95=(round(net_low, 2), round(net_high, 2)),
    )


class BelotTournament:
    """Belot's rotated tournament: one A seat against B seats, A on every seat in turn."""

    kind = "rotation"

    def problem(self, preset: str, players: int, games: int) -> str | None:
        if players not in SEAT_COUNTS:
            return f"Belot is for --players {' or '.join(str(n) for n in SEAT_COUNTS)}"
        if games < players:
            return f"--games must be at least {players} (one match)"
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
    ) -> BelotTournamentSummary:
        matches = games // players
        factory = factory or make_belot_bot
        return run_tournament(
            level_a, level_b, matches, seed, players, workers, state, progress, factory
        )


TOURNAMENT = BelotTournament()
