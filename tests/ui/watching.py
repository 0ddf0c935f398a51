"""A watcher's feed without a network: a seeded game's transcript handed, envelope by
envelope, to an observer table, and its events to a watcher's front end, as the
watcher's program does with the host's feed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from p2pbelka.protocol.envelope import Envelope
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.replay import Replay
from p2pbelka.table.session import Table
from p2pbelka.table.verify import VerifyReport
from p2pbelka.ui.watcherscreen import ScreenWatchFront
from tests.audit import verify_bytes
from tests.table.helpers import played

After = Callable[[Table, list[ev.Event]], Awaitable[None]]


def game_of(game: str, players: int, seed: int) -> tuple[Envelope, ...]:
    """The whole transcript of a seeded game of bots (every seat's is the same), played
    once per test process."""
    whole = played(seed, game, players)
    assert whole.over[0]
    return whole.transcripts[0]


def lobby_of(game: str, names: Sequence[str]) -> LobbyState:
    seats = tuple(SeatView(bytes([n]) * 32, name, True) for n, name in enumerate(names))
    return LobbyState(b"\0" * 16, "kitchen", "classic", {}, seats, game)


async def feed(
    front: ScreenWatchFront, envelopes: Sequence[Envelope], after: After | None = None
) -> Table:
    """Every envelope to an observer table, and its events to ``front`` at once (the
    one-record lookahead is the verifier's: a proof pair is never split)."""
    table = Table(envelopes[0].game)
    replay = Replay(table)
    for i, envelope in enumerate(envelopes):
        following = envelopes[i + 1] if i + 1 < len(envelopes) else None
        replay.feed(envelope, following)
        events = table.take_events()
        await front.fed(table, events)
        if after is not None:
            await after(table, events)
    return table


def report_of(envelopes: Sequence[Envelope]) -> VerifyReport:
    """``verify`` of the game's file (the same report for every language a test reads)."""
    return verify_bytes(dump_transcript(envelopes))
