"""The exchange of results at a table's end, attacked with real peers on loopback: a seat
that floods ``ladder`` messages during the game (junk, oversized, malformed, in bulk), a
watcher that offers results, a host whose sharing is slow (its watchers get the game's
end first), and a seat whose player turned sharing off while the other did not.  The
game, its transcript and its result stand every time; nobody is named."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
import trio

from p2pbelka.bench.netwatch import Followed, follow
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.share import MAX_WRAPPED, wrap
from p2pbelka.net.connection import dial
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer import seat as seat_module
from p2pbelka.peer import tableshare
from p2pbelka.peer.lan import GameResult, LobbyEvent, NetOptions, OnLobby, TableOpen
from p2pbelka.peer.loopback import seat_home
from p2pbelka.peer.mesh import Mesh
from p2pbelka.protocol.codec import encode
from p2pbelka.protocol.transcript import iter_records
from p2pbelka.table.verify import verify_bytes
from tests.lan.helpers import belot_of_two, two_players

NET = NetOptions(linger=1.0, sync=False)
GUARD = 60.0
"""Seconds a test may wait for an event at most before it fails (it never should)."""
HAVE = encode({"have": b"", "t": "have"})


async def _play(
    root: Path, players: list[Identity], on_lobby: OnLobby | None = None
) -> list[GameResult]:
    return await belot_of_two(root, players, NET, on_lobby)


def _sound(results: list[GameResult]) -> None:
    """Both seats finished the same game, which verifies OK: nobody was named."""
    files = {r.store.transcript_path.read_bytes() for r in results}
    assert len(files) == 1 and all(r.finished for r in results)
    report = verify_bytes(files.pop())
    assert report.ok and not report.faults, report.verdict


def _sharers(monkeypatch: pytest.MonkeyPatch) -> dict[bytes, tableshare.TableShare]:
    """Every ``TableShare`` made from now on, by its owner's key."""
    made: dict[bytes, tableshare.TableShare] = {}
    real = tableshare.TableShare.__init__

    def init(self: tableshare.TableShare, mesh: Mesh, *args: Any) -> None:
        real(self, mesh, *args)
        made[self.owner] = self

    monkeypatch.setattr(tableshare.TableShare, "__init__", init)
    return made


async def test_ladder_messages_flooded_during_the_game_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Seat 1's program sends, as soon as its link is up, junk, a message over the
    bound, one that is no wrapped message, and 300 ``have``s.  Seat 0 keeps two of them
    (the first ends its exchange with seat 1 at the end), ignores the rest, and neither
    the game nor its end notices: the same transcript, OK, and seat 0's own result."""
    caplog.set_level(logging.INFO, logger="p2pbelka.peer")
    players = two_players(tmp_path)
    cheat = players[1].public_key
    sharers = _sharers(monkeypatch)
    flood = [
        wrap(b"\xc1"),
        encode({"m": bytes(MAX_WRAPPED), "t": "ladder"}),  # a frame, but over 60 KiB
        b"\x82\xa1m\xff\xff",  # told as wrapped, does not decode
        *[wrap(HAVE)] * 300,
    ]
    kept: dict[bytes, int] = {}
    real_run = tableshare.TableShare.run

    async def run(self: tableshare.TableShare, seats: Any) -> tableshare.TableShared:
        kept[self.owner] = sum(len(early) for early in self._early.values())
        return await real_run(self, seats)

    monkeypatch.setattr(tableshare.TableShare, "run", run)

    async def cheat_early() -> None:
        with trio.fail_after(GUARD):
            while cheat not in sharers or not sharers[cheat].mesh.links_to(0):
                await trio.sleep(0.01)
        for payload in flood:
            sharers[cheat].mesh.send_to(0, payload)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(cheat_early)
        results = await _play(tmp_path, players)
    _sound(results)
    honest = results[0].shared
    assert honest is not None and len(honest.peers) == 1
    assert "does not decode" in honest.peers[0].error and honest.counted == 0
    # what seat 0 held of them, at most, all game long
    assert kept[players[0].public_key] == tableshare.EARLY
    # the rest ignored (and seat 1's own ``have``, if it came before seat 0 began)
    ignored = caplog.text.count("from seat 1: not asked for now")
    assert ignored - (len(flood) - tableshare.EARLY) in (0, 1)
    assert "ignored a payload from seat 1" not in caplog.text  # none reached the table
    with Ledger(seat_home(tmp_path, 0) / "ladder.sqlite") as ledger:
        assert [g for g, _ in ledger.certificates()] == [results[0].game_id]


async def test_the_watchers_get_the_end_before_the_host_shares_and_may_not_offer_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The host's results' exchange begins only once its watcher was fed the whole game
    (it would wait forever if the watchers' ``fed`` waited on it); a watcher that sends
    a ``ladder`` message is cut off as for any other payload that is no chat."""
    caplog.set_level(logging.INFO, logger="p2pbelka.peer.lan.watchers")
    players = two_players(tmp_path)
    host = players[0].public_key
    fed = trio.Event()
    watched: list[Followed] = []
    real_run = tableshare.TableShare.run

    async def run(self: tableshare.TableShare, seats: Any) -> tableshare.TableShared:
        if self.owner == host:
            with trio.fail_after(GUARD):
                await fed.wait()
        return await real_run(self, seats)

    monkeypatch.setattr(tableshare.TableShare, "run", run)

    async with trio.open_nursery() as nursery:

        async def opened(event: LobbyEvent) -> None:
            if isinstance(event, TableOpen):
                nursery.start_soon(watch, event.lobby_port)
                nursery.start_soon(offer, event.lobby_port)

        async def watch(port: int) -> None:
            got = await follow("127.0.0.1", port, Identity.generate("Watcher"), host_key=host)
            watched.append(got)
            fed.set()

        results = await _play(tmp_path, players, opened)
    _sound(results)
    records = iter_records(results[0].store.transcript_path.read_bytes())
    assert watched[0].records == [record.envelope.raw for record in records]
    assert watched[0].fed == len(watched[0].records)
    assert all(r.shared is not None and r.shared.peers for r in results)
    cut = [line for line in caplog.text.splitlines() if "Offerer" in line and "cut off" in line]
    assert cut, caplog.text[-2000:]


async def offer(port: int) -> None:
    """A watcher that offers its results to the host (a ``have``, wrapped)."""
    identity = Identity.generate("Offerer")
    channel = await dial("127.0.0.1", port, identity, context=lb.LOBBY_CONTEXT)
    async with channel:
        await channel.receive()  # the lobby
        await channel.send(lb.encode_control(lb.Watch("Offerer", 0)))
        while not isinstance(lb.decode_control(await channel.receive()), lb.Watching):
            pass
        try:
            await channel.send(wrap(HAVE))
            async for _ in channel:
                pass
        except NetError:
            pass


async def test_a_seat_that_does_not_share_ends_the_other_s_exchange_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 1 plays with sharing off (``--no-share``), seat 0 with it on: seat 1 ignores
    seat 0's ``have`` and leaves after its linger, and seat 0's exchange with it ends
    when its links close, not at the bound (which is made far longer than the test)."""
    players = two_players(tmp_path)
    monkeypatch.setattr(tableshare, "SHARE_TIME", 3600.0)
    real = seat_module.TableShare

    def made(mesh: Mesh, games: Path, owner: bytes, game_id: bytes) -> Any:
        return None if owner == players[1].public_key else real(mesh, games, owner, game_id)

    monkeypatch.setattr(seat_module, "TableShare", made)
    results = await _play(tmp_path, players)
    _sound(results)
    assert results[1].shared is None
    honest = results[0].shared
    assert honest is not None
    assert all("link is down" in p.error for p in honest.peers), honest
