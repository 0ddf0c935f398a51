"""A seat lost for good and given to a bot, synchronously: the pieces the seat-change tests share.

``lose_seat`` plays a seeded game until a deal is under way, then drops one seat
for good (nothing more from it or to it) and lets the others settle, stuck on
it.  ``hand_over`` builds the continuation the way peers do (the lowest
remaining seat proposes, the others sign) and returns the next segment's tables.
``seeded_bot`` makes the new holder's key, seeds and nonce (so the segment id) from
the game's seed, so the game after the change is the same on every run; ``first_seed``
finds a seed whose game reaches what a test needs, or fails saying so.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from p2pbelka.bots import Bot, make_bot
from p2pbelka.fairdeal.derive import new_seed
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.seatchange import sign_agreement, with_agreements
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.segments import previous_of, propose
from p2pbelka.table.session import Table
from tests.table.crash import RecordedSegments

T = TypeVar("T")


@dataclass
class Game:
    """Every seat's table of the current segment, the bots, and what each transcript
    file holds so far (all segments)."""

    tables: list[Table]
    bots: list[Bot]
    files: list[list[Envelope]] = field(default_factory=list)
    events: list[list[ev.Event]] = field(default_factory=list)

    def file(self, seat: int) -> bytes:
        return dump_transcript(self.files[seat])

    def settle(self, seats: list[int], until: Callable[[list[Table]], bool] | None = None) -> None:
        """Deliver among ``seats`` only until nothing moves (or ``until``); save what
        their tables accepted."""
        tables = [self.tables[s] for s in seats]
        stop = (lambda _events: until(tables)) if until is not None else None
        got = run_sync(tables, [self.bots[s] for s in seats], until=stop)
        for seat, table, events in zip(seats, tables, got, strict=True):
            self.events[seat] += events
            self.files[seat] += table.take_accepted()


def start(seed: int, *, game_name: str = "belka", players: int = 4) -> tuple[Game, LocalGame]:
    local = LocalGame.seeded(seed, game=game_name, players=players)
    tables = local.make_tables()
    bots = [make_bot("random", seed * 10 + s) for s in range(players)]
    return Game(tables, bots, [[] for _ in tables], [[] for _ in tables]), local


def audited(table: Table) -> int:
    return table.state.track.deal_number if table.state.started else 0


def lose_seat(game: Game, lost: int, *, after_deals: int, plays: int = 5) -> None:
    """Play until ``after_deals`` deals were audited and ``plays`` cards of the next are
    down (or it ended), then lose ``lost`` for good; the others settle, stuck."""
    everyone = list(range(len(game.tables)))

    def far_enough(tables: list[Table]) -> bool:
        t = tables[0]
        if t.finished or audited(t) < after_deals:
            return False
        return audited(t) > after_deals or (t.state.deal_id > after_deals and _played(t) >= plays)

    game.settle(everyone, far_enough)
    game.settle([s for s in everyone if s != lost])


def _played(table: Table) -> int:
    try:
        return len(table.state.round.played)
    except AssertionError:
        return 0


def hand_over(
    game: Game,
    seat: int,
    key_signer: Signer,
    name: str,
    *,
    seed_sources: dict[int, Callable[[], bytes]] | None = None,
    previous_table: Table | None = None,
    nonce: bytes | None = None,
    segment: bytes | None = None,
    forge: Callable[[m.TableMsg], m.TableMsg] | None = None,
) -> tuple[bytes, m.TableMsg]:
    """The continuation putting ``key_signer``'s key in ``seat`` (with the new holder's
    ``nonce``, fresh from the OS by default): the lowest other seat proposes and hosts
    it, every other seat signs; every seat's table of the next segment replaces
    ``game.tables`` (the new holder's built on the proposer's cut).  Its segment id is
    derived from it; ``segment`` names another (an attack), and ``forge`` may change
    the finished ``table`` before it is sealed."""
    others = [s for s in range(len(game.tables)) if s != seat]
    host = others[0]
    signers = {s: _signer(game.tables[s]) for s in others}
    previous = previous_of(game.tables[host])
    segment, proposal = propose(
        previous,
        seat,
        key_signer.public_key,
        name,
        nonce or os.urandom(16),
        signers[host],
        segment,
    )
    agreed = dict(proposal.after.agreed) if proposal.after else {}
    for s in others[1:]:
        assert previous_of(game.tables[s]).view == previous.view, "the views differ at the cut"
        agreed[s] = sign_agreement(signers[s], segment, proposal)
    final = with_agreements(proposal, agreed)
    if forge is not None:
        final = forge(final)
    sources = seed_sources or {}
    new: list[Table] = []
    for s in range(len(game.tables)):
        # a new segment draws its secrets fresh (a peer keeps a source for each)
        source = sources.get(s) or (
            _fresh(game.tables[s].state.deals.seed_source) if s != seat else new_seed
        )
        prev = (
            previous_of(previous_table or game.tables[host])
            if s == seat
            else previous_of(game.tables[s])
        )
        if s == host:
            new.append(
                Table.host(signers[s], final, seed_source=source, previous=prev, game_id=segment)
            )
        else:
            signer = key_signer if s == seat else signers[s]
            new.append(Table(segment, signer=signer, seed_source=source, previous=prev))
    game.tables = new
    return segment, final


def _fresh(source: Callable[[], bytes]) -> Callable[[], bytes]:
    """A segment's own stream of secrets, seeded from the seat's (reproducible, and
    never one of the values the seat drew before)."""
    rng = random.Random(source())
    return lambda: rng.randbytes(32)


def _signer(table: Table) -> Signer:
    signer = table._signer  # the test drives every seat, so it holds every key
    assert signer is not None
    return signer


@dataclass(frozen=True)
class SeededBot:
    """What a seat's new holder brings, drawn from a seed rather than the OS: its key,
    its deal seeds, and its nonce for the segment it starts."""

    signer: Signer
    seed_source: Callable[[], bytes]
    nonce: bytes


def seeded_bot(seed: int) -> SeededBot:
    # not the game's own stream: LocalGame.seeded(seed) draws the seats' keys from
    # random.Random(seed), and a bot with a seated player's key is refused
    rng = random.Random(f"the bot of game {seed}")
    deals = random.Random(rng.randbytes(8))
    return SeededBot(
        Signer.from_seed(rng.randbytes(32)), lambda: deals.randbytes(32), rng.randbytes(16)
    )


def first_seed(situation: Callable[[int], T | None], seeds: range, what: str) -> T:
    """``situation(seed)`` for the first of ``seeds`` where it is not None.

    A seeded game reaches a given point (a deal still to come, a game not yet over)
    only for some seeds, and which ones changes with the rules and the bots: the
    test looks for one, in a bounded range, rather than skipping or passing without
    checking anything; if no seed gives ``what``, it fails and says so."""
    for seed in seeds:
        found = situation(seed)
        if found is not None:
            return found
    raise AssertionError(f"no seed in {seeds.start}..{seeds.stop - 1} gives {what}")


def bot_then_back(game_name: str, players: int, lost: int) -> tuple[Game, bytes, bytes, Signer]:
    """A seat lost, given to a bot (segment 2) that stops before a later deal: the game,
    the game's first id, segment 2's id and the player's signer (the first seed whose
    game is still on then)."""

    def situation(seed: int) -> tuple[Game, bytes, bytes, Signer] | None:
        game, local = start(seed, game_name=game_name, players=players)
        lose_seat(game, lost, after_deals=1, plays=2)
        if any(t.finished for t in game.tables):
            return None
        player = game.tables[lost]._signer
        assert player is not None
        at = game.tables[0].state.deal_id + 1
        bot = seeded_bot(seed)
        segment, _ = hand_over(
            game, lost, bot.signer, "Bot", seed_sources={lost: bot.seed_source}, nonce=bot.nonce
        )
        game.tables[lost].stop_at_deal(at)
        everyone = list(range(players))
        game.settle(everyone)
        if game.tables[0].finished:
            return None
        return game, local.game_id, segment, player

    return first_seed(situation, range(3, 40), "a game still on when the player comes back")


CHANGED = 2
"""The seat ``crash_a_deal_after_the_change`` hands to a bot."""


@dataclass
class Crash:
    """A game where seat 1 is about to crash, a deal after the seat change, and what
    it needs to rebuild its table: its signer and its recorded secrets (a source for
    each segment, as a peer's files keep them)."""

    game: Game
    signer: Signer
    recorded: RecordedSegments


def seat_1_recorded(seed: int) -> tuple[Game, LocalGame, RecordedSegments]:
    """A seeded game whose seat 1 records the secrets it draws, as a peer's files do."""
    game, local = start(seed)
    assert local.seed_sources is not None
    recorded = RecordedSegments(local.seed_sources[1])
    game.tables[1] = Table(
        local.game_id, signer=local.signers[1], seed_source=recorded.first, nonce=local.nonces[1]
    )
    return game, local, recorded


def handed_to_a_bot(game: Game, seed: int, recorded: RecordedSegments) -> int:
    """Seat 2 to a bot (its key and seeds from ``seed``); the new segment's first deal
    (the one the cut voids, dealt again)."""
    first = game.tables[0].state.deal_id
    bot = seeded_bot(seed)
    sources = {CHANGED: bot.seed_source, 1: recorded.next_segment()}
    hand_over(game, CHANGED, bot.signer, "Bot", seed_sources=sources, nonce=bot.nonce)
    return first


def crash_a_deal_after_the_change(seed: int) -> Crash | None:
    """Seat 2 handed to a bot after the first deal; the new segment's first deal
    audited at seat 1; None if the game ended before that."""
    game, local, recorded = seat_1_recorded(seed)
    lose_seat(game, CHANGED, after_deals=1)
    at = handed_to_a_bot(game, seed, recorded)
    game.settle([0, 1, 2, 3], until=lambda tables: audited(tables[1]) >= at)
    return None if game.tables[1].finished else Crash(game, local.signers[1], recorded)
