"""A watcher learns no card before its holder plays or shows it, or the deal is revealed.

A watcher receives the host's transcript and nothing else: every envelope is public.
For the first deals of a Belka game for four and Belot games for two and three, this
takes the envelopes one by one, as a watcher receives them, and after each one:

- tries every decoding the fair-deal code offers with public data only: every point of
  every shuffle and lock pass, alone or with every subset of the key shares published
  so far for its position (a partial product of shares turns no locked point into a
  card), checked against every card point of the game;
- checks that a position decodes exactly when the last share for it is published: by
  its holder when the card is played (``play``) or shown (the J♣, a re-deal's hand, the
  turned card, a declaration), or by the holder's seed at the deal's reveal; and that
  the card it decodes to is the one the observer table names;
- checks that the observer table (what a watcher's screen is drawn from) names no card
  but those, and holds no hand.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import fields
from itertools import combinations

import pytest

from p2pbelka.fairdeal import DealContext, deal_cards, derive_secrets
from p2pbelka.fairdeal.errors import BadPoint
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table.dealsetup import N_POSITIONS
from p2pbelka.table.replay import Replay
from p2pbelka.table.session import Table
from tests.table.helpers import play_sync

GAMES = [("belka", 4, 5), ("belot", 2, 3), ("belot", 3, 4)]
DEALS = 2  # the first deals of each game: every kind of opening happens in them


def openings(msg: m.Message) -> Iterator[tuple[int, bytes]]:
    """Every (position, key share) a message publishes, whatever its type."""
    if isinstance(msg, m.PlayMsg):
        yield msg.pos, msg.key
    for f in fields(msg):  # type: ignore[arg-type]
        value = getattr(msg, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, m.Opening):
                yield item.pos, item.key


class Deal:
    """What a watcher holds of one deal: the passes, the shares, the seeds."""

    def __init__(self, ctx: DealContext) -> None:
        self.ctx = ctx
        self.decks: list[tuple[bytes, ...]] = []
        self.shares: dict[int, dict[int, bytes]] = {p: {} for p in range(N_POSITIONS)}
        self.tried: set[tuple[int, int, frozenset[int]]] = set()
        cards = deal_cards(ctx)
        self.card_of = cards.index_of

    def take(self, seat: int, msg: m.Message) -> None:
        if isinstance(msg, (m.ShuffleMsg, m.LockMsg)):
            self.decks.append(msg.deck)
        for pos, key in openings(msg):
            self.shares[pos][seat] = key
        if isinstance(msg, m.RevealMsg):
            secrets = derive_secrets(self.ctx, seat, msg.seed)
            for pos in range(N_POSITIONS):
                self.shares[pos][seat] = secrets.shares[pos]

    def readable(self) -> dict[int, int]:
        """The positions every share of which is public, and the card each opens to."""
        if not self.decks:
            return {}
        locked, n = self.decks[-1], self.ctx.n_seats
        out = {}
        for pos, shares in self.shares.items():
            if len(shares) == n:
                out[pos] = self._decode(locked[pos], list(shares.values()))
        return out

    def _decode(self, point: bytes, shares: list[bytes]) -> int:
        group = self.ctx.group
        scalar = shares[0]
        for share in shares[1:]:
            scalar = group.scalar_mul(scalar, share)
        try:
            card = self.card_of.get(group.mult(scalar, point))
        except BadPoint:
            card = None
        assert card is not None, "every share published, and still no card"
        return card

    def nothing_else_decodes(self, readable: dict[int, int]) -> None:
        """No point of any pass, with any subset of the shares public for its position
        (none at all included), is a card, but for the positions that are readable."""
        group = self.ctx.group
        for d, deck in enumerate(self.decks):
            for pos in range(N_POSITIONS):
                if pos in readable:
                    continue
                known = self.shares[pos]
                for size in range(len(known) + 1):
                    for seats in combinations(sorted(known), size):
                        key = (d, pos, frozenset(seats))
                        if key in self.tried:
                            continue
                        self.tried.add(key)
                        point = deck[pos]
                        for seat in seats:
                            point = group.mult(known[seat], point)
                        where = f"deck {d}, position {pos}, shares of seats {seats}"
                        assert point not in self.card_of, f"{where} decode to a card"


def shown_cards(events: list[ev.Event]) -> set[int]:
    """Every card the observer table's events name (a watcher's screen shows these)."""
    out: set[int] = set()
    for event in events:
        for name in ("card", "cards"):
            value = getattr(event, name, None)
            for card in value if isinstance(value, tuple) else (value,):
                if card is not None and hasattr(card, "index"):
                    out.add(card.index)
    return out


@functools.cache
def _first_deals(game: str, players: int, seed: int) -> tuple[Envelope, ...]:
    """Seat 0's envelopes of the first ``DEALS`` deals of the seeded honest game: played
    until a deal two further on begins (each deal starts once every seat has closed the
    one before, so the first ``DEALS`` are whole by then), not to the game's end."""

    def further(tables: list[Table]) -> bool:
        return any(e.deal > DEALS + 1 for e in tables[0].view.transcript[-3:])

    tables, _ = play_sync(seed, game_name=game, players=players, until=further)
    envelopes = tables[0].view.transcript
    assert any(e.deal > DEALS + 1 for e in envelopes), "the game ended first"
    return tuple(e for e in envelopes if e.deal <= DEALS)


def first_deals(game: str, players: int, seed: int) -> list[Envelope]:
    return list(_first_deals(game, players, seed))


@pytest.mark.parametrize(("game", "players", "seed"), GAMES)
def test_a_watcher_decodes_no_card_before_it_is_played_or_revealed(
    game: str, players: int, seed: int
) -> None:
    envelopes = first_deals(game, players, seed)
    setup = envelopes[0].msg
    assert isinstance(setup, m.TableMsg)
    keys = [s.key for s in setup.seats]
    observer = Table(envelopes[0].game)
    replay = Replay(observer)
    deal: Deal | None = None
    seen: set[int] = set()  # cards the observer named in this deal
    opened_by_play = 0
    for i, envelope in enumerate(envelopes):
        following = envelopes[i + 1] if i + 1 < len(envelopes) else None
        replay.feed(envelope, following)
        events = observer.take_events()
        if envelope.deal >= 1 and (deal is None or deal.ctx.deal_id != envelope.deal):
            ctx = DealContext(envelope.game, envelope.deal, players, N_POSITIONS, setup.fairdeal)
            deal, seen = Deal(ctx), set()
        if deal is None:
            continue
        before = deal.readable()
        deal.take(keys.index(envelope.sender), envelope.msg)
        after = deal.readable()
        new = set(after) - set(before)
        published = {pos for pos, _key in openings(envelope.msg)}
        where = f"record {i} ({envelope.msg.TYPE} of seat {keys.index(envelope.sender)})"
        if isinstance(envelope.msg, m.RevealMsg):
            pass  # a seed opens what its holder held: the deal is over
        else:
            # a position opens only with the envelope that publishes its last share
            assert new <= published, f"{where} opened {new - published} it did not show"
        deal.nothing_else_decodes(after)
        if isinstance(envelope.msg, m.PlayMsg):
            played = [e for e in events if isinstance(e, ev.CardPlayed)]
            assert [e.card.index for e in played] == [after[envelope.msg.pos]], where
            opened_by_play += 1
        dealt_over = any(isinstance(e, ev.DealAudited) for e in events)
        seen |= shown_cards([e for e in events if not isinstance(e, ev.DealAudited)])
        if not dealt_over:
            assert seen <= set(after.values()), f"{where}: named {seen - set(after.values())}"
        state = observer.state.game.deal if observer.state.game is not None else None
        if state is not None and not dealt_over:
            assert all(hand is None for hand in state.hands), f"{where}: a hand is known"
    assert opened_by_play > 0
    assert deal is not None and len(deal.readable()) == N_POSITIONS  # revealed at the end
