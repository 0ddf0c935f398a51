"""The ``strong`` bot's decisions on a fixed set of positions, as one fingerprint.

The strong bot is seeded: on the same positions with the same seeds it must
make the same decisions and draw the same random numbers.  Speed work on the
search (solver, sampler, policy, rules core) must not change either; the
guard test compares :func:`fingerprint` to the value recorded before such work.
Run this module to print the fingerprint and the decisions behind it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import replace

from p2pbelka.bots.belka.base import make_belka_bot
from p2pbelka.bots.belka.heuristic import HeuristicBot
from p2pbelka.bots.belka.strong import StrongBot
from p2pbelka.bots.belka.tournament import play_game, seat_view
from p2pbelka.bots.belka.utility import after_deal
from p2pbelka.cards import Card
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import play_deal, random_hands
from tests.bots.test_bots_play import random_game

# (seed, cards played, preset, no_unled_ace_discard): early, middle and late positions.
POSITIONS: tuple[tuple[int, int, str, bool], ...] = (
    (1, 0, "classic", False),
    (2, 3, "eyes", False),
    (3, 6, "classic", True),
    (4, 11, "eyes", True),
    (5, 14, "classic", False),
    (6, 17, "eyes", False),
    (7, 21, "classic", False),
    (8, 25, "eyes", True),
    (9, 27, "classic", True),
    (10, 29, "eyes", False),
)


def _rng_tail(bot: StrongBot) -> str:
    """Where the bot's random stream stands: the next draw, without disturbing it."""
    probe = random.Random()
    probe.setstate(bot.rng.getstate())
    return f"{probe.random():.17g}"


def _position_decisions() -> list[str]:
    out = []
    for seed, plays, preset, ace_rule in POSITIONS:
        game = random_game(seed, plays, preset, ace_rule)
        assert game.deal is not None
        seat = game.deal.turn
        assert seat is not None
        bot = StrongBot(seed)
        card = bot.play(seat_view(game, seat), seat)
        out.append(f"pos {seed}: {card.index} {_rng_tail(bot)}")
    return out


def _later_deal(preset: str, seed: int) -> list[str]:
    """A heuristic first deal, then a strong seat plays the second one (read shares, a score)."""
    options = options_from(preset)
    game = GameState.new(options, seed % 4)
    heur = [HeuristicBot(seed + s) for s in range(4)]
    strong = StrongBot(seed)
    out = []
    for number in range(2):
        rng = random.Random(seed * 100 + number)
        game = game.start_deal(random_hands(rng, game.dealer))

        def choose(view: GameState, seat: int, number: int = number) -> Card:
            if number == 1 and seat & 1 == 0:
                card = strong.play(view, seat)
                out.append(f"deal {preset} {seed} seat {seat}: {card.index}")
                return card
            return heur[seat].play(view, seat)

        game = replace(game, deal=play_deal(game, choose)).finish_deal()
        if game.pending_choice is not None or game.finished:
            break
    out.append(f"deal {preset} {seed} end {game.score} {_rng_tail(strong)}")
    return out


def _redeal_decisions() -> list[str]:
    """Re-deal claims of the strong bot on hands that may ask, at a few scores."""
    out = []
    found = 0
    seed = 0
    while found < 4:
        seed += 1
        preset = "classic" if found % 2 == 0 else "eyes"
        game = GameState.new(options_from(preset), seed % 4)
        game = replace(game, score=(found * 3, found * 2))
        game = game.start_deal(random_hands(random.Random(seed), game.dealer))
        deal = game.deal
        assert deal is not None
        seats = [s for s in range(4) if deal.can_claim_redeal(s)]
        if not seats:
            continue
        found += 1
        seat = seats[0]
        bot = StrongBot(seed)
        claim = bot.claim_redeal(seat_view(game, seat), seat)
        out.append(f"redeal {seed} {preset} seat {seat}: {claim} {_rng_tail(bot)}")
    return out


def _eggs_decisions() -> list[str]:
    """Eggs choices (plus4 or a title) after a won deal with eggs pending."""
    out = []
    for seed, score, points0 in ((1, (0, 0), 80), (2, (9, 4), 95), (3, (2, 5), 30)):
        game = random_game(seed, 0, "classic")
        game = replace(game, score=score, eggs_pending=True)
        bot = StrongBot(seed)
        chosen: list[str] = []

        def eggs(g: GameState, s: int, bot: StrongBot = bot, chosen: list[str] = chosen) -> str:
            choice = bot.choose_eggs(seat_view(g, s), s)
            chosen.append(choice)
            return choice

        after_deal(game, points0, eggs)
        out.append(f"eggs {seed} {score} {points0}: {chosen} {_rng_tail(bot)}")
    return out


def decisions() -> list[str]:
    return (
        _position_decisions()
        + _later_deal("classic", 21)
        + _later_deal("eyes", 22)
        + _redeal_decisions()
        + _eggs_decisions()
    )


def _deal_seeds(base: int) -> Callable[[int], int]:
    """Deal ``k``'s seed in a match, as :func:`p2pbelka.bots.belka.tournament.play_match` has it."""
    return lambda k: base ^ (k * 0x9E3779B97F4A7C15)


def tournament_lines(level_b: str, matches: int, preset: str) -> list[str]:
    """Every deal of the first ``matches`` matches of ``tournament --a strong --b level_b
    --seed 16``: its cards in play order, re-deal claim, eggs choice and the score after."""
    options = options_from(preset)
    lines = []
    for index in range(matches):
        base = random.Random(f"16:{index}").getrandbits(63)
        for a_seat in (0, 1):
            bots = [
                make_belka_bot("strong" if s & 1 == a_seat else level_b, base + 10 * a_seat + s)
                for s in range(4)
            ]
            game = play_game(bots, options, _deal_seeds(base), index % 4)
            for d in game.history:
                deal = d.deal
                lines.append(
                    f"{index} {a_seat} {deal.plays} {deal.redeal_claim} {d.eggs_choice} {d.score}"
                )
            lines.append(f"{index} {a_seat} winner {game.winner} {game.score}")
    return lines


def fingerprint(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


if __name__ == "__main__":
    lines = decisions()
    print("\n".join(lines))
    print(fingerprint(lines))
