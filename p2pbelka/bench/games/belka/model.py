"""``p2pbelka bench model``: calibrate the ``strong`` level's reading of the other seats.

The sampler (:mod:`p2pbelka.bots.belka.sampler`) weighs a guess of the hidden hands
by how well it explains the play.  Two numbers set that weight, and they are
measured here on games between *different* bots (the heuristic, the
rule-based and the plain Monte-Carlo sparring partners, seats mixed), so that
they describe players in general rather than the heuristic alone:

- ``surprise``: how much likelier a play is to be the card the heuristic
  would have chosen when the guess is the true hand than when it is a
  consistent random guess (the likelihood ratio of "as expected" against
  "a surprise");
- ``declined``: the share of hands that could ask for a re-deal and did not.
"""

from __future__ import annotations

import random
from dataclasses import replace

from p2pbelka.bench.games.belka.opponents import bench_bot
from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.policy import choose
from p2pbelka.bots.belka.sampler import sample_hands
from p2pbelka.cards import CARDS
from p2pbelka.rules.belka import core
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.options import options_from
from p2pbelka.rules.belka.randomplay import random_hands
from p2pbelka.rules.common.play import Play

MIX = ("heuristic", "rules", "mc", "strong")


def _alike(a: int, b: int, trump: int) -> bool:
    esuit = core.EFFECTIVE_SUIT[trump]
    return a == b or (esuit[a] == esuit[b] and core.POINTS[a] == core.POINTS[b] == 0)


def measure(deals: int, seed: int = 5) -> dict[str, object]:
    rng = random.Random(seed)
    options = options_from("classic")
    agree_true = agree_guess = plays = 0
    by_level: dict[str, list[int]] = {level: [0, 0] for level in MIX}
    qualified = declined = 0
    for i in range(deals):
        levels = [MIX[(i + s) % len(MIX)] for s in range(4)]
        bots = [bench_bot(levels[s], seed * 1000 + 4 * i + s) for s in range(4)]
        game = GameState.new(options, i % 4)
        game = replace(game, seat_suits=None).start_deal(random_hands(rng, i % 4))
        deal = game.deal
        assert deal is not None
        for s in range(4):
            if deal.can_claim_redeal(s):
                qualified += 1
                if not bots[s].claim_redeal(replace(game, deal=deal.view(s)), s):
                    declined += 1
        while not deal.finished:
            seat = deal.turn
            assert seat is not None
            card = bots[seat].play(replace(game, deal=deal.view(seat)), seat).index
            seen = seen_from(deal, seat)
            plays += 1
            agree = _alike(choose(seen), card, seen.trump)
            agree_true += agree
            by_level[levels[seat]][0] += agree
            by_level[levels[seat]][1] += 1
            deal = deal.apply(Play(seat, CARDS[card]))
            # The same play as the next seat reads it: a consistent guess of the hand it came from.
            observer = seen_from(deal, (seat + 1) & 3)
            guess = sample_hands(observer, rng)[seat] | 1 << card
            agree_guess += _alike(choose(replace(seen, hand=guess)), card, seen.trump)
    a = agree_true / max(1, plays)
    b = agree_guess / max(1, plays)
    ratio = (a / b) / ((1 - a) / (1 - b)) if 0 < b and a < 1 else float("inf")
    return {
        "model_plays": plays,
        "model_agree_true_hand": round(a, 3),
        "model_agree_guessed_hand": round(b, 3),
        "model_surprise": round(ratio, 2),
        **{
            f"model_agree_true_hand_{level}": round(n / max(1, total), 3)
            for level, (n, total) in by_level.items()
        },
        "model_redeal_hands": qualified,
        "model_declined": round(declined / max(1, qualified), 3),
    }


def run(quick: bool = False) -> dict[str, object]:
    return measure(4 if quick else 120)
