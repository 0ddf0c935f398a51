"""Belot's path vectors (``bench/path_vectors.py``): a whole two-seat game, fair-deal
version 1, a dispute naming odd seats, and the dishonest seats of a Belot deal (a
false ``unopened``, a false claim of 1001, a false declaration)."""

from __future__ import annotations

import itertools

from p2pbelka.bench.path_vectors import CHEATER, PathVector, dispute_of_odd_seats
from p2pbelka.protocol import messages as m
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Table


class FalseUnopened(Table):
    """Belot: says its three more did not open when they did (a false dispute)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            return m.UnopenedMsg()
        return msg


class FalseClaim(Table):
    """Belot: claims 1001 at its first turn to play (before any trick: a false claim)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            return m.ClaimMsg()
        return msg


class FalseDeclaration(Table):
    """Belot: at its first turn to play, declares two cards of its own that make no
    combination (their positions opened with its own shares: no dispute)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, Question) and msg.kind == "play" and self.deal_id == 1:
            rnd = self.round
            cards = sorted(rnd.my_hand.items())
            for (p1, c1), (p2, c2) in itertools.pairwise(cards):
                if c1 >> 3 != c2 >> 3:  # two suits: never belle, never a sequence
                    return m.DeclareMsg((rnd.deck.my_opening(p1), rnd.deck.my_opening(p2)))
        return msg


VECTORS = [
    PathVector(
        "belot-2-game",
        8,
        "a whole two-seat Belot game (fair-deal version 2) played to OK: deals made,"
        " bait, a void deal, a hanging bait and its points paid, a true claim of 1001"
        " that ends the game, the closes",
        game="belot",
        players=2,
    ),
    PathVector(
        "dispute-odd-seats",
        4,
        "three-seat Belot: seat 1's dispute after the lot lists seats 3, 2, 0, 2; it names"
        " seats 0 and 2 (repeats collapse, a seat the table lacks is ignored)",
        game="belot",
        players=3,
        edit=dispute_of_odd_seats,
    ),
    PathVector(
        "belot-fairdeal-1",
        4,
        "three-seat Belot under fair-deal version 1 (32-byte points), to the end of its first deal",
        game="belot",
        players=3,
        fairdeal=1,
        whole=False,
    ),
    PathVector(
        "belot-false-claim",
        4,
        f"three-seat Belot: seat {CHEATER} claims 1001 at its first turn to play (a false"
        " claim, a fault on its face)",
        game="belot",
        players=3,
        cheat=FalseClaim,
    ),
    PathVector(
        "belot-false-declaration",
        4,
        f"three-seat Belot: seat {CHEATER} declares two of its own cards that make no"
        " combination (a false declaration, a fault on its face)",
        game="belot",
        players=3,
        cheat=FalseDeclaration,
    ),
    PathVector(
        "belot-false-unopened",
        4,
        f"three-seat Belot: seat {CHEATER} sends unopened when its cards opened (a false"
        " dispute the audit proves)",
        game="belot",
        players=3,
        cheat=FalseUnopened,
    ),
    PathVector(
        "belot-combinations",
        7,
        "three-seat Belot, two deals: in the second, two seats declare combinations (a"
        " berz among them) and only the owner of the best one scores its combinations"
        " (belle aside)",
        game="belot",
        players=3,
        whole=False,
        deals=2,
    ),
]
