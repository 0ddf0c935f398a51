"""Results are shared in a lobby, before any game (protocol/results.md 6.2): two homes
whose players sat together before, each holding games the other lacks, meet in a lobby
(real peers on loopback, each with its own home) and, without playing, print the same
``ladder --json`` byte for byte.  A stranger's junk, forgeries, other people's games and
floods are refused, strangers together cost one exchange's bounds a lobby, a stalling
one is left after ``STALL`` seconds while the lobby goes on, and a player who turned
sharing off shares nothing."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from p2pbelka.bench.ladder import certificate_of
from p2pbelka.bots import make_bot
from p2pbelka.ladder.certificate import MAGIC, Outcome
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.share import is_wrapped, unwrap, wrap
from p2pbelka.net.connection import dial
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lobby as lb
from p2pbelka.peer import lobbyshare
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.lan import (
    LobbyEvent,
    NetOptions,
    OnLobby,
    ResultsShared,
    SeatsChanged,
    TableOpen,
    host_game,
    join_game,
)
from p2pbelka.peer.store import seat_home
from p2pbelka.protocol.codec import decode, encode
from p2pbelka.protocol.envelope import Signer
from p2pbelka.rules import registry
from p2pbelka.ui.words.lobbylog import event_line
from tests.lan.test_lan_table_share import _fill as fill
from tests.lan.test_lan_table_share import _ladder_json

CLUB = [Signer.from_seed(bytes([n + 70]) * 32) for n in range(4)]
"""Members of the club a stranger names."""
GUARD = 60.0
"""Seconds a test waits for an event at most before it fails (it never should)."""


def _home(root: Path, n: int) -> Path:
    return seat_home(root, n)


def _players(root: Path, n: int = 2) -> list[Identity]:
    return [Identity.load_or_create(_home(root, k), f"player {k}") for k in range(n)]


def _net(root: Path, n: int, **options: object) -> NetOptions:
    return NetOptions(listen_host="127.0.0.1", announce=False, home=_home(root, n), **options)  # type: ignore[arg-type]


def _ledger(root: Path, player: Identity, n: int) -> Ledger:
    return Ledger(_home(root, n) / "ladder.sqlite", player.public_key)


def _fill(root: Path, players: list[Identity]) -> None:
    """Each home: games its player played with members the other never met (as for the
    table's test), and one game the two played together (so neither is a stranger)."""
    signers = [Signer(p.private_key) for p in players]
    together = certificate_of(signers, "belot", Outcome(0, (151, 9)), 6900)
    fill(root, players)
    for n, player in enumerate(players):
        with _ledger(root, player, n) as ledger:
            ledger.add(together.raw, "played")


class Lobby:
    """A host's lobby on loopback (a Belot table of three, so two people never fill
    it, and nobody says ready: no game starts), and what each side heard."""

    def __init__(self, game: str = "belot", players: int = 3) -> None:
        self.game, self.players = game, players
        self.events: dict[str, list[LobbyEvent]] = {}
        self.port = 0
        self.opened = trio.Event()
        self.news = trio.Event()

    def hear(self, who: str) -> OnLobby:
        self.events[who] = []

        async def on_lobby(event: LobbyEvent) -> None:
            if isinstance(event, TableOpen):
                self.port = event.lobby_port
                self.opened.set()
            self.events[who].append(event)
            self.news.set()
            self.news = trio.Event()

        return on_lobby

    def shared(self, who: str) -> list[ResultsShared]:
        return [e for e in self.events.get(who, []) if isinstance(e, ResultsShared)]

    def counts(self, **said: int) -> Callable[[], bool]:
        """Each of these said it shared so many times."""
        return lambda: all(len(self.shared(who)) == n for who, n in said.items())

    async def until(self, check: Callable[[], object]) -> None:
        """Wait until ``check`` holds: asked again at each lobby event, and now and then
        (for what a log says)."""
        with trio.fail_after(GUARD):
            while not check():
                with trio.move_on_after(0.05):
                    await self.news.wait()

    async def host(self, player: Identity, net: NetOptions) -> None:
        front = BotFrontEnd(make_bot("random", 1))
        await host_game(
            player,
            "club night",
            front,
            net=net,
            on_lobby=self.hear("host"),
            game=self.game,
            players=self.players,
        )

    async def join(self, who: str, player: Identity, net: NetOptions) -> None:
        await self.opened.wait()
        front = BotFrontEnd(make_bot("random", 2))
        await join_game(
            player, "127.0.0.1", self.port, front, net=net, on_lobby=self.hear(who), ready=False
        )


async def test_two_homes_meet_in_a_lobby_and_print_the_same_ladder_without_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    players = _players(tmp_path)
    _fill(tmp_path, players)
    homes = [_home(tmp_path, n) for n in range(2)]
    before = [_ladder_json(h, monkeypatch, capsys) for h in homes]
    assert before[0] != before[1]
    lobby = Lobby()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, players[0], _net(tmp_path, 0))
        nursery.start_soon(lobby.join, "joiner", players[1], _net(tmp_path, 1))
        await lobby.until(lambda: lobby.shared("host") and lobby.shared("joiner"))
        nursery.cancel_scope.cancel()
    for who in ("host", "joiner"):
        [done] = lobby.shared(who)
        assert (done.came, done.counted, done.error) == (6, 6, ""), done
        assert event_line(done) == "ladder: 6 results came from the table, 6 counted"
    after = [_ladder_json(h, monkeypatch, capsys) for h in homes]
    assert after[0] == after[1] != before[0]
    with _ledger(tmp_path, players[0], 0) as a, _ledger(tmp_path, players[1], 1) as b:
        assert a.certificates() == b.certificates()
        assert len(a.certificates()) == 13


TRIO_CLUB = [Signer.from_seed(bytes([n + 90]) * 32) for n in range(6)]
"""Members each of three homes played with, two a home, whom no other home met."""


def _fill_three(root: Path, players: list[Identity]) -> None:
    """Three homes: the host (0) played one game with each joiner, the joiners never
    with each other, and each home holds three games with members only it met."""
    signers = [Signer(p.private_key) for p in players]
    for n, player in enumerate(players):
        with _ledger(root, player, n) as ledger:
            for g in range(3):
                seats = [signers[n], TRIO_CLUB[2 * n + g % 2]]
                made = certificate_of(seats, "belot", Outcome(g % 2, (151, g)), 8000 + 10 * n + g)
                ledger.add(made.raw, "played")
            for j in (1, 2):
                if n in (0, j):
                    made = certificate_of(
                        [signers[0], signers[j]], "belot", Outcome(0, (151, j)), 8100 + j
                    )
                    ledger.add(made.raw, "played")


def _seated(lobby: Lobby, who: str, seat: int) -> Callable[[], bool]:
    return lambda: any(
        isinstance(e, SeatsChanged) and e.me == seat for e in lobby.events.get(who, [])
    )


async def test_three_homes_converge_through_the_host_without_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Belka table of four with three people (no game starts): joiner A shares with
    the host before joiner B comes; the host, having gained B's games, begins the
    exchange again with A, so all three print the same ladder."""
    players = _players(tmp_path, 3)
    _fill_three(tmp_path, players)
    homes = [_home(tmp_path, n) for n in range(3)]
    before = [_ladder_json(h, monkeypatch, capsys) for h in homes]
    assert len(set(before)) == 3
    lobby = Lobby(game=registry.DEFAULT, players=4)
    host, a, b = players
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, host, _net(tmp_path, 0))
        nursery.start_soon(lobby.join, "a", a, _net(tmp_path, 1))
        await lobby.until(lambda: lobby.shared("host") and lobby.shared("a"))
        nursery.start_soon(lobby.join, "b", b, _net(tmp_path, 2))
        await lobby.until(lobby.counts(a=2, b=1, host=3))
        nursery.cancel_scope.cancel()
    first, then, again = lobby.shared("host")
    assert (first.peer, then.peer, again.peer) == (a.public_key, b.public_key, a.public_key)
    assert (first.counted, then.counted, again.counted) == (3, 3, 0)
    assert [(d.came, d.counted, d.error) for d in lobby.shared("a")] == [(4, 4, ""), (3, 3, "")]
    assert [(d.came, d.counted, d.error) for d in lobby.shared("b")] == [(7, 7, "")]
    after = [_ladder_json(h, monkeypatch, capsys) for h in homes]
    assert after[0] == after[1] == after[2]
    with _ledger(tmp_path, host, 0) as ledger:
        assert len(ledger.certificates()) == 11


def _made(monkeypatch: pytest.MonkeyPatch) -> list[lobbyshare.LobbyShares]:
    """Every ``LobbyShares`` made from now on (the host's, the joiners')."""
    made: list[lobbyshare.LobbyShares] = []
    real = lobbyshare.LobbyShares.__init__

    def init(self: lobbyshare.LobbyShares, *args: Any) -> None:
        real(self, *args)
        made.append(self)

    monkeypatch.setattr(lobbyshare.LobbyShares, "__init__", init)
    return made


async def test_a_joiner_that_rejoins_gets_no_further_exchange(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Joiner A shares, leaves and comes back: the host begins nothing with its new
    connection (one exchange a key a lobby, and further ones only on the connection it
    shared on), so B's games, gained after, are not sent to A again."""
    monkeypatch.setattr(lobbyshare, "STALL", 0.5)
    made = _made(monkeypatch)
    players = _players(tmp_path, 3)
    _fill_three(tmp_path, players)
    lobby = Lobby(game=registry.DEFAULT, players=4)
    host, a, b = players
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, host, _net(tmp_path, 0))
        async with trio.open_nursery() as first:
            first.start_soon(lobby.join, "a", a, _net(tmp_path, 1))
            await lobby.until(lambda: lobby.shared("host") and lobby.shared("a"))
            first.cancel_scope.cancel()
        nursery.start_soon(lobby.join, "a again", a, _net(tmp_path, 1))
        await lobby.until(lambda: lobby.shared("a again"))
        [stalled] = lobby.shared("a again")
        assert "no word" in stalled.error and stalled.came == 0
        nursery.start_soon(lobby.join, "b", b, _net(tmp_path, 2))
        await lobby.until(lambda: lobby.shared("b"))
        await lobby.until(lambda: len(lobby.shared("host")) == 2)
        await lobby.until(_seated(lobby, "b", 2))
        nursery.cancel_scope.cancel()
    assert [d.peer for d in lobby.shared("host")] == [a.public_key, b.public_key]
    assert len(lobby.shared("a again")) == 1
    # the host decided as it counted B's games, before it said so: nothing begun for A
    hosts = [m for m in made if m.seated is not None]
    assert [m._exchanges[a.public_key].rounds for m in hosts] == [0]
    with _ledger(tmp_path, a, 1) as ledger:
        assert len(ledger.certificates()) == 8  # its own and the host's, not B's


async def test_a_stranger_s_results_begin_no_further_exchange(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stranger brings the host a game between two keys it met (it counts), but only
    what a player the host met brings makes it begin further exchanges: keys made for
    the purpose cannot spend them.  Joiner A's one further exchange, after B's games,
    carries the stranger's game too; the stranger's own, through the strangers' bound."""
    players = _players(tmp_path, 4)
    _fill_three(tmp_path, players[:3])
    host, a, b, stranger = players
    signers = [Signer(p.private_key) for p in players]
    game = certificate_of([signers[1], signers[2]], "belot", Outcome(1, (20, 151)), 8200)
    _liar(monkeypatch, stranger.public_key, {game.game_id: game.raw})
    lobby = Lobby(game=registry.DEFAULT, players=4)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, host, _net(tmp_path, 0))
        nursery.start_soon(lobby.join, "a", a, _net(tmp_path, 1))
        await lobby.until(lambda: lobby.shared("host") and lobby.shared("a"))
        nursery.start_soon(lobby.join, "stranger", stranger, _net(tmp_path, 3))
        await lobby.until(lambda: len(lobby.shared("host")) == 2)
        nursery.start_soon(lobby.join, "b", b, _net(tmp_path, 2))
        await lobby.until(lobby.counts(a=2, b=1, stranger=2, host=5))
        nursery.cancel_scope.cancel()
    host_saw = lobby.shared("host")
    assert [d.peer for d in host_saw[:3]] == [a.public_key, stranger.public_key, b.public_key]
    assert host_saw[1].counted == 1 and host_saw[2].counted == 3
    assert [(d.came, d.counted, d.error) for d in lobby.shared("a")] == [(4, 4, ""), (4, 4, "")]
    assert [d.came for d in lobby.shared("b")] == [8]


async def test_a_joiner_that_asks_twice_in_a_further_exchange_is_stopped(
    tmp_path: Path,
) -> None:
    """A program seated in the lobby finishes its exchange with the host; once the host
    gained joiner B's games it begins a further exchange with it, and the program asks
    twice: the host stops that exchange, as any (it answers no want twice)."""
    players = _players(tmp_path, 3)
    _fill_three(tmp_path, players)
    host, program, b = players
    lobby = Lobby(game=registry.DEFAULT, players=4)

    async def wrapped(channel: Any) -> dict[str, Any]:
        while True:
            payload = await channel.receive()
            if is_wrapped(payload):
                message: dict[str, Any] = decode(unwrap(payload))
                return message

    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, host, _net(tmp_path, 0))
        await lobby.opened.wait()
        channel = await dial("127.0.0.1", lobby.port, program, context=lb.LOBBY_CONTEXT)
        async with channel:
            await channel.send(lb.encode_control(lb.Hello("program", "", 4000, bytes(16))))
            with trio.fail_after(GUARD):
                await channel.send(wrap(encode({"have": b"", "t": "have"})))
                offered = (await wrapped(channel))["have"]
                assert (await wrapped(channel))["want"] == b""
                await channel.send(wrap(encode({"t": "want", "want": b""})))
                await channel.send(wrap(encode({"t": "done"})))
                assert (await wrapped(channel))["t"] == "done"
                nursery.start_soon(lobby.join, "b", b, _net(tmp_path, 2))
                again = (await wrapped(channel))["have"]
            assert len(again) == len(offered) + 3 * 16
            await channel.send(wrap(encode({"have": b"", "t": "have"})))
            for _ in range(2):
                await channel.send(wrap(encode({"t": "want", "want": again})))
            await lobby.until(lambda: len(lobby.shared("host")) == 3)
        nursery.cancel_scope.cancel()
    first, then, further = lobby.shared("host")
    assert (first.peer, then.peer, further.peer) == (
        program.public_key,
        b.public_key,
        program.public_key,
    )
    assert "second want" in further.error and further.came == 0, further
    # what it answered the first want with, at most: the certificates asked, once
    with _ledger(tmp_path, host, 0) as ledger:
        held = dict(ledger.certificates())
    asked = [again[i : i + 16] for i in range(0, len(again), 16)]
    assert further.sent <= sum(len(held[g]) for g in asked) + 1024


def _liar(monkeypatch: pytest.MonkeyPatch, owner: bytes, offered: dict[bytes, bytes]) -> None:
    """``owner``'s program offers ``offered`` beside what its ledger holds."""
    real = lobbyshare.LobbyShares._read

    def read(self: lobbyshare.LobbyShares) -> tuple[dict[bytes, bytes], set[bytes]] | None:
        known = real(self)
        if known is None or self.owner != owner:
            return known
        return {**known[0], **offered}, known[1]

    monkeypatch.setattr(lobbyshare.LobbyShares, "_read", read)


async def test_a_stranger_s_junk_forgeries_and_flood_are_refused_and_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The host met members 0 and 1 of the club; a stranger (never at a table with it)
    offers a game between those two (it counts: every seat met the host), one of its
    own with member 0 (not counted: a stranger's game), one whose outcome it altered,
    one signed by keys that are not the seats', junk behind the certificate magic, and
    1,200 more ids: the host asks for 1,000 at most, and that spends the lobby's bound
    for strangers, so a second stranger's offer is not even read."""
    caplog.set_level(logging.INFO)
    players = _players(tmp_path, 3)
    host, stranger, second = players
    me = Signer(host.private_key)
    with _ledger(tmp_path, host, 0) as ledger:
        for n in range(2):
            ledger.add(
                certificate_of([me, CLUB[n]], "belot", Outcome(0, (151, n)), 5000 + n).raw, "played"
            )
    good = certificate_of(CLUB[:2], "belot", Outcome(1, (30, 151)), 5100)
    own = certificate_of(
        [Signer(stranger.private_key), CLUB[0]], "belot", Outcome(0, (151, 2)), 5101
    )
    altered = certificate_of(CLUB[:2], "belot", Outcome(0, (151, 20)), 5102).raw.replace(
        b"\x97", b"\x98", 1
    )
    wrong = certificate_of(CLUB[2:], "belot", Outcome(1, (40, 151)), 5103)
    stolen = wrong.raw.replace(CLUB[2].public_key, CLUB[0].public_key)
    offered = {
        good.game_id: good.raw,
        own.game_id: own.raw,
        bytes([0]) * 16: altered,
        bytes([1]) * 16: stolen,
        bytes([2]) * 16: MAGIC + b"junk",
    }
    assert max(offered) < b"\xf0"  # the flood's ids sort after them: these are asked for
    flood = {b"\xf0" + n.to_bytes(15, "big"): MAGIC + n.to_bytes(4, "big") for n in range(1200)}
    _liar(monkeypatch, stranger.public_key, {**offered, **flood})
    lobby = Lobby()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, host, _net(tmp_path, 0))
        nursery.start_soon(lobby.join, "stranger", stranger, _net(tmp_path, 1))
        await lobby.until(lambda: lobby.shared("host"))
        nursery.start_soon(lobby.join, "second", second, _net(tmp_path, 2))
        await lobby.until(lambda: len(lobby.shared("host")) == 2)
        nursery.cancel_scope.cancel()
    first, then = lobby.shared("host")
    assert first.peer == stranger.public_key and first.counted == 1, first
    assert "more than" in first.error or first.came == 1000, first
    assert then.peer == second.public_key and then.came == 0, then
    assert "bound for strangers is spent" in then.error
    with _ledger(tmp_path, host, 0) as ledger:
        held = {g for g, _ in ledger.certificates()}
    assert good.game_id in held and own.game_id not in held and len(held) == 3
    assert "stranger's result" in caplog.text and "refused from a peer" in caplog.text


async def test_a_stalling_stranger_is_left_and_the_lobby_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A program seated in the lobby offers 1,000 games, reads the host's answer (which
    asks for them) and then sends nothing: the host seats the next joiner as ever,
    leaves the exchange after ``STALL`` seconds (made short here), and what the
    stranger never sent costs the lobby's strangers nothing."""
    monkeypatch.setattr(lobbyshare, "STALL", 0.5)
    made = _made(monkeypatch)
    host, staller, other = _players(tmp_path, 3)
    offered = b"".join(n.to_bytes(16, "big") for n in range(1000))
    lobby = Lobby()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, host, _net(tmp_path, 0))
        await lobby.opened.wait()
        channel = await dial("127.0.0.1", lobby.port, staller, context=lb.LOBBY_CONTEXT)
        async with channel:
            await channel.receive()  # the lobby
            await channel.send(lb.encode_control(lb.Hello("staller", "", 4000, bytes(16))))
            await channel.send(wrap(encode({"have": offered, "t": "have"})))
            answers = []
            with trio.fail_after(GUARD):
                while len(answers) < 2:  # the host's have and want
                    payload = await channel.receive()
                    if is_wrapped(payload):
                        answers.append(decode(unwrap(payload)))
            assert [a["t"] for a in answers] == ["have", "want"]
            assert answers[1]["want"] == offered
            net = _net(tmp_path, 2, share_results=False)
            nursery.start_soon(lobby.join, "other", other, net)
            await lobby.until(
                lambda: any(
                    isinstance(e, SeatsChanged) and e.me == 2 for e in lobby.events.get("other", [])
                )
            )
            await lobby.until(lambda: lobby.shared("host"))
            [stalled] = lobby.shared("host")
            assert "no word" in stalled.error and stalled.came == 0, stalled
        nursery.cancel_scope.cancel()
    [shares] = made  # the host's (the other joiner does not share)
    assert not shares.strangers.spent and shares.strangers.results == 1000


@pytest.mark.parametrize("off", ["host", "joiner"])
async def test_a_player_who_turned_sharing_off_shares_nothing(
    tmp_path: Path, off: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobbyshare, "STALL", 1.0)
    players = _players(tmp_path)
    _fill(tmp_path, players)
    lobby = Lobby()
    share = {"host": off != "host", "joiner": off != "joiner"}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, players[0], _net(tmp_path, 0, share_results=share["host"]))
        net = _net(tmp_path, 1, share_results=share["joiner"])
        nursery.start_soon(lobby.join, "joiner", players[1], net)
        if off == "host":  # the joiner asks, hears nothing, and leaves it there
            await lobby.until(lambda: lobby.shared("joiner"))
            [done] = lobby.shared("joiner")
            assert done.came == 0 and "no word" in done.error
        else:  # the joiner is seated, says nothing of results: the host begins nothing
            await lobby.until(
                lambda: any(
                    isinstance(e, SeatsChanged) and e.me == 1
                    for e in lobby.events.get("joiner", [])
                )
            )
        nursery.cancel_scope.cancel()
    assert not lobby.shared("host")
    for n, player in enumerate(players):
        with _ledger(tmp_path, player, n) as ledger:
            assert len(ledger.certificates()) == 7


async def test_an_exchange_that_fails_unforeseen_ends_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A fault in the exchange itself (here: reading the ledger raises what nobody
    foresaw) is logged, and the lobby and its seating go on."""

    def broken(self: lobbyshare.LobbyShares) -> None:
        raise RuntimeError("no such ledger")

    monkeypatch.setattr(lobbyshare.LobbyShares, "_read", broken)
    players = _players(tmp_path)
    lobby = Lobby()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lobby.host, players[0], _net(tmp_path, 0))
        nursery.start_soon(lobby.join, "joiner", players[1], _net(tmp_path, 1))
        await lobby.until(lambda: "the results' exchange failed" in caplog.text)
        await lobby.until(
            lambda: any(
                isinstance(e, SeatsChanged) and e.me == 1 for e in lobby.events.get("joiner", [])
            )
        )
        nursery.cancel_scope.cancel()
