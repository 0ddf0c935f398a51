"""Setting up deals: the draw of the first dealer, then for each deal its record
(``DealRound``: the deck, with the local seat's secrets for it), and the work done
ahead of time while the driver is idle (``prepare``).

The local seat's secrets come from its seed source in one fixed order (the lot
value, then one seed per deal), whether drawn when due or ahead of time, so a
resumed table that draws from the same source lines up.  From flow 2 on a deal's
``deal_end``s carry every seat's commitment for the next deal.  A continuation
segment draws every secret fresh from a source of its own (a peer keeps one per
segment): nothing drawn for the segment before, not even the seed drawn ahead for
the deal the cut voided, is used in it (protocol/SPEC.md section 9.1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from p2pbelka.fairdeal.deck import LocalSeat, initial_deck
from p2pbelka.fairdeal.derive import DealContext
from p2pbelka.protocol import messages as m
from p2pbelka.table import events as ev
from p2pbelka.table.dealdeck import DealDeck
from p2pbelka.table.round import DealRound
from p2pbelka.table.track import GameTrack

N_POSITIONS = 32


@dataclass
class LotDraw:
    """The commit-reveal draw of the first dealer."""

    commits: dict[int, bytes] = field(default_factory=dict)
    values: dict[int, bytes] = field(default_factory=dict)
    mine: bytes | None = None


class DealSetup:
    def __init__(self, game_id: bytes, seed_source: Callable[[], bytes]) -> None:
        self._game_id = game_id
        self.seed_source = seed_source
        self._setup: m.TableMsg | None = None
        self._me: int | None = None
        self.lots = LotDraw()
        self.deal_id = 0
        self.round: DealRound | None = None
        self.cards_ready = False
        """The game's card points are computed (``prepare``, or the first deal)."""
        self.next_local: LocalSeat | None = None
        """The local seat's next deal, made ahead of time (``prepare``)."""
        self._carried: dict[int, bytes] = {}
        """Flow 2: the next deal's commitments, carried on this deal's deal_ends."""

    def seat(self, setup: m.TableMsg, me: int | None) -> None:
        """The table description is accepted: ``me`` is the local seat (None: none)."""
        self._setup, self._me = setup, me

    def context(self, deal_id: int) -> DealContext:
        assert self._setup is not None
        n_seats, version = len(self._setup.seats), self._setup.fairdeal
        return DealContext(self._game_id, deal_id, n_seats, N_POSITIONS, version)

    def begin(self, track: GameTrack, every_pass: bool) -> ev.DealStarted:
        """The next deal (or re-deal): its record, the local seat's secrets for it."""
        self.deal_id += 1
        track.begin_deal()
        ctx = self.context(self.deal_id)
        local: LocalSeat | None = None
        if self.next_local is not None and self.next_local.ctx == ctx:
            local, self.next_local = self.next_local, None  # made ahead by ``prepare``
        elif self._me is not None:
            local = LocalSeat(ctx, self._me, self.seed_source())
        assert self._setup is not None
        n = len(self._setup.seats)
        order = [(track.dealer + 1 + i) % n for i in range(n)]
        deck = DealDeck(ctx, order, track.owners(), local, every_pass=every_pass)
        deck.commitments.update(self._carried)  # flow 2: from the last deal's deal_ends
        self._carried = {}
        self.round = DealRound(self.deal_id, deck)
        self.cards_ready = True  # the deal computed them if ``prepare`` had not
        return ev.DealStarted(self.deal_id, track.deal_number, track.dealer, track.standing())

    def carry_commitment(self, seat: int, commitment: bytes) -> None:
        self._carried[seat] = commitment

    def upcoming_commitment(self) -> bytes:
        """The local seat's commitment for the next deal id (its secrets for that deal
        are made now, if ``prepare`` has not made them yet)."""
        assert self._me is not None
        if self.next_local is None:
            ctx = self.context(self.deal_id + 1)
            self.next_local = LocalSeat(ctx, self._me, self.seed_source())
        return self.next_local.commitment

    def prepare_cards(self) -> bool:
        """Before the first deal: the game's card points, once (see ``Table.prepare``)."""
        if self.cards_ready or self._setup is None:
            return False
        self.cards_ready = True
        initial_deck(self.context(self.deal_id))
        return True

    def prepare_next(self, track: GameTrack) -> bool:
        """During a deal: the local seat's secrets for the next one, then, if it will
        likely shuffle first in it, its shuffle of the initial deck (see ``Table.prepare``)."""
        assert self._me is not None and self._setup is not None
        nxt = self.next_local
        if nxt is None:
            self.upcoming_commitment()
            return True
        # The next dealer is usually the seat after this one (a counted re-deal keeps
        # the dealer, and then this work is wasted): its pass order starts after it.
        if (track.dealer + 2) % len(self._setup.seats) != self._me:
            return False
        return nxt.prepare_first_shuffle()
