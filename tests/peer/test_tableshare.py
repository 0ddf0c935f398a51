"""The exchange at a table's end keeps its bounds whatever a seat does: what a seat
sends before this side begins is kept up to two messages, a seat that stays silent is
left when the time is up, a seat whose links went down is left at once, and a seat
that breaks the exchange ends only its own part.  A mesh stand-in carries the
messages (the real ones run in ``tests/lan/test_lan_table_share.py``)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import trio
from trio.testing import MockClock

from p2pbelka.bench.ladder import certificate_of
from p2pbelka.ladder.certificate import Outcome
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.share import Sharing, unwrap, wrap
from p2pbelka.peer.share import STALL
from p2pbelka.peer.tableshare import SHARE_TIME, TableShare
from p2pbelka.protocol.codec import decode, encode
from p2pbelka.protocol.envelope import Signer

KEYS = [Signer.from_seed(bytes([n + 90]) * 32) for n in range(3)]
GAME = certificate_of(KEYS[:2], "belot", Outcome(0, (151, 30)), 9000)


class Links:
    """What ``TableShare`` uses of a mesh: links that are up or not, what was sent."""

    def __init__(self, up: dict[int, int]) -> None:
        self.keys = [k.public_key for k in KEYS]
        self.up = up
        self.sent: list[tuple[int, dict[str, Any]]] = []
        self.on_ladder: Any = None
        self._changed = trio.Event()
        self.began = trio.Event()  # this side sent its first message

    def send_newest(self, seat: int, payload: bytes) -> bool:
        if not self.up.get(seat):
            return False
        self.sent.append((seat, decode(unwrap(payload))))
        self.began.set()
        return True

    def links_to(self, seat: int) -> int:
        return self.up.get(seat, 0)

    def drop(self, seat: int) -> None:
        self.up[seat] = 0
        self._changed.set()
        self._changed = trio.Event()

    async def changed(self) -> None:
        await self._changed.wait()

    async def flushed(self, timeout: float) -> None:
        return None


def _sharer(tmp_path: Path, links: Links) -> TableShare:
    games = tmp_path / "games"
    with Ledger(tmp_path / "ladder.sqlite", KEYS[0].public_key) as ledger:
        ledger.add(GAME.raw, "played")
    return TableShare(links, games, KEYS[0].public_key, GAME.game_id)  # type: ignore[arg-type]


async def test_a_silent_seat_is_left_after_a_few_seconds(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """A seat whose links are up but that says nothing holds the others' exit for
    ``STALL`` seconds, not the whole bound."""
    links = Links({1: 1, 2: 1})
    sharer = _sharer(tmp_path, links)
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_answer_as, sharer, 1, {GAME.game_id: GAME.raw})
        done = await sharer.run([1, 2])
    assert STALL <= trio.current_time() - start < SHARE_TIME
    errors = {p.peer: p.error for p in done.peers}
    assert errors[KEYS[1].public_key] == "" and "no word" in errors[KEYS[2].public_key]


async def test_a_seat_that_trickles_is_left_when_the_time_is_up(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """A seat that sends a certificate a message, each just before ``STALL`` is up,
    makes progress every time: the bound in all (``SHARE_TIME``) ends it, and what
    came before counts."""
    links = Links({2: 1})
    sharer = _sharer(tmp_path, links)
    games = [certificate_of(KEYS[:2], "belot", Outcome(0, (151, n)), 9300 + n) for n in range(30)]
    ids = sorted(g.game_id for g in games)
    start = trio.current_time()
    async with trio.open_nursery() as nursery:

        async def trickle() -> None:
            sharer.heard(2, wrap(encode({"have": b"".join(ids), "t": "have"})))
            await links.began.wait()
            await trio.sleep(0.1)
            sharer.heard(2, wrap(encode({"t": "want", "want": b""})))
            for game in sorted(games, key=lambda g: g.game_id):
                await trio.sleep(STALL - 1)
                sharer.heard(2, wrap(encode({"certs": [game.raw], "t": "certs"})))

        nursery.start_soon(trickle)
        done = await sharer.run([2])
        nursery.cancel_scope.cancel()
    assert trio.current_time() - start >= SHARE_TIME
    assert "too slow" in done.peers[0].error
    assert 0 < done.counted < len(games)


async def _answer_as(sharer: TableShare, seat: int, held: dict[bytes, bytes]) -> None:
    """Seat ``seat``'s side: the reference exchange, holding ``held``."""
    other = Sharing(held, frozenset([GAME.game_id]))
    sharer.heard(seat, wrap(other.start()[0]))
    while not other.done:
        await trio.sleep(0.1)
        for to, message in [m for m in sharer.mesh.sent if m[0] == seat]:  # type: ignore[attr-defined]
            sharer.mesh.sent.remove((to, message))  # type: ignore[attr-defined]
            for answer in other.receive(encode(message)):
                sharer.heard(seat, wrap(answer))


async def test_what_comes_before_the_start_is_bounded_and_a_breach_ends_one_seat(
    tmp_path: Path, autojump_clock: MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    links = Links({1: 1, 2: 1})
    sharer = _sharer(tmp_path, links)
    have = encode({"have": b"", "t": "have"})
    junk = encode({"certs": "no", "t": "certs"})
    for payload in (have, junk, have, have, have):  # only the first two are kept
        sharer.heard(2, wrap(payload))
    assert caplog.text.count("not asked for now") == 3
    start = trio.current_time()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_drop_later, links, 1)
        done = await sharer.run([1, 2])
    errors = {p.peer: p.error for p in done.peers}
    assert "not a list of byte strings" in errors[KEYS[2].public_key]
    assert "link is down" in errors[KEYS[1].public_key]
    assert trio.current_time() - start < SHARE_TIME  # neither waited for the bound
    assert done.counted == 0


async def _drop_later(links: Links, seat: int) -> None:
    await links.began.wait()  # the exchange began (the ledger read in a thread)
    await trio.sleep(1.0)
    links.drop(seat)


async def test_a_stranger_s_results_count_only_between_keys_met(
    tmp_path: Path, autojump_clock: MockClock
) -> None:
    """A game with no certificate (disputed, unfinished) leaves the seat
    of key 2 a stranger: of what it offers, only a game between keys that sat with
    this ledger's owner counts."""
    links = Links({2: 1})
    sharer = _sharer(tmp_path, links)
    met = certificate_of([KEYS[1], KEYS[0]], "belot", Outcome(1, (40, 151)), 9100)
    unmet = certificate_of([KEYS[2], KEYS[1]], "belot", Outcome(0, (151, 70)), 9200)
    offered = {c.game_id: c.raw for c in (met, unmet)}

    async with trio.open_nursery() as nursery:
        nursery.start_soon(_answer_as, sharer, 2, offered)
        done = await sharer.run([2])
    assert (done.came, done.counted) == (2, 1)
    assert "stranger" in done.peers[0].notes[0]
    with Ledger(tmp_path / "ladder.sqlite") as ledger:
        assert {g for g, _ in ledger.certificates()} == {GAME.game_id, met.game_id}
