"""Reading the other players across the deals of a game: which kind of player sits there.

The sampler (:mod:`p2pbelka.bots.belka.sampler`) reads each other seat as a mixture
of player types (:data:`~p2pbelka.bots.belka.sampler.PLAYER_TYPES`: one much like
the heuristic, one who plays otherwise), with shares calibrated by
``p2pbelka bench model`` on games between different bots.  Those shares are
only the prior.  Every finished deal shows every card each seat played, so
each seat's hand is known afterwards, and each of its plays can be checked
against what the heuristic would have played holding that hand: a seat whose
plays keep matching is read more and more as the heuristic-like type (and its
plays in the next deals then say much about its hand), one who keeps differing
as the other type (its guesses then rest on the voids it shows).  This is
Bayesian model selection per seat: the shares are the prior times each type's
likelihood of the agreements and differences seen, renormalised.

Only public facts are read: the cards of finished deals that were played (a
re-deal's hands were never shown, and are skipped).
"""

from __future__ import annotations

from p2pbelka.bots.belka.knowledge import seen_from
from p2pbelka.bots.belka.sampler import PLAYER_TYPES, PRIOR, Shares, surprises_by_seat
from p2pbelka.rules.belka.deal import DealState
from p2pbelka.rules.belka.game import GameState

FLOOR = 0.01
"""No type's share falls below this: a player may change style, or slip."""


def deal_evidence(deal: DealState, seat: int) -> tuple[list[int], list[int]]:
    """Per seat: plays of a finished deal that matched the heuristic's card, and those that did not.

    ``seat`` is the reader (its own plays are not counted).  Read from the
    cards played only; a deal not played out (a re-deal) gives nothing.
    """
    if deal.redeal_claim is not None or not deal.finished or not deal.tricks:
        return [0, 0, 0, 0], [0, 0, 0, 0]
    seen = seen_from(deal.view(seat), seat)
    missed, plays = surprises_by_seat(seen, [0, 0, 0, 0])
    return [p - m for p, m in zip(plays, missed, strict=True)], missed


def posterior(matched: int, missed: int, prior: Shares = PRIOR) -> Shares:
    """The type shares after ``matched`` plays like the heuristic's and ``missed`` unlike."""
    raw = [
        share * agree**matched * (1 - agree) ** missed
        for share, (_, agree) in zip(prior, PLAYER_TYPES, strict=True)
    ]
    total = sum(raw)
    if total <= 0:
        return prior
    shares = [max(FLOOR, r / total) for r in raw]
    norm = sum(shares)
    return tuple(x / norm for x in shares)


def _game_key(game: GameState) -> tuple[int, ...] | None:
    """What tells one game from another: its first deal's dealer, trump and first cards played."""
    for result in game.history:
        deal = result.deal
        if deal.tricks:
            return (deal.dealer, int(deal.trump), *(c.index for c in deal.tricks[0].cards))
    return None


class Reading:
    """The type shares of each seat, updated as the game's deals finish (incremental)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.read = 0
        self.matched = [0, 0, 0, 0]
        self.missed = [0, 0, 0, 0]
        self._game: tuple[int, ...] | None = None

    def update(self, game: GameState) -> None:
        """Read the finished deals of ``game`` not read yet (a new game starts over)."""
        ident = _game_key(game)
        if ident != self._game or len(game.history) < self.read:
            self.read = 0
            self.matched = [0, 0, 0, 0]
            self.missed = [0, 0, 0, 0]
            self._game = ident
        for result in game.history[self.read :]:
            matched, missed = deal_evidence(result.deal, self.seat)
            for s in range(4):
                self.matched[s] += matched[s]
                self.missed[s] += missed[s]
        self.read = len(game.history)

    def shares(self) -> list[Shares]:
        """Per seat, the weight of each player type (the reader's own seat: the prior)."""
        return [
            PRIOR if s == self.seat else posterior(self.matched[s], self.missed[s])
            for s in range(4)
        ]
