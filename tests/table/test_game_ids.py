"""A game id no host chooses: the id is derived from every seat's fresh nonce, so the
attack of a host that reuses an earlier game's id (and relays the victim's old
``sit``, seq 0 of its chain under that id, against its new one: "proof" of an
equivocation the victim never made) cannot even be set up.  No table the host can
sign under the old id is accepted by the victim, who signs nothing, and the old
``sit`` names a game nobody plays; in a game under a derived id it is refused as of
another game.  Belka for four, Belot for three and for two (where the host is
every other seat).  In memory: ``LocalGame``, ``Table`` and ``run_sync``."""

from __future__ import annotations

import functools
import hashlib
from dataclasses import replace

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, seal_envelope
from p2pbelka.protocol.ids import game_id_of
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from tests.audit import verify_bytes
from tests.table.helpers import faults_of

VICTIM = 1
TABLES = [("belka", 4), ("belot", 3), ("belot", 2)]


@functools.cache
def _first_game(game_name: str, players: int) -> tuple[LocalGame, tuple[Envelope, ...]]:
    """A game the victim played: its ingredients and its transcript (played once a
    process for every test here: they only read it).  What the tests take of it is the
    victim's ``sit``, its first envelope, the same bytes however far the game goes: it
    is played until every seat has sat (the host's ``table`` is its seat: it sends no
    ``sit``; counting it, the game was played to its end, a thousand records)."""
    first = LocalGame.seeded(5, game=game_name, players=players)
    tables = first.make_tables()

    def seated(_events: list[list[ev.Event]]) -> bool:
        return sum(e.type == "sit" for e in tables[VICTIM].view.transcript) == players - 1

    run_sync(tables, [make_bot("random", s) for s in range(players)], until=seated)
    assert _old_sit(tuple(tables[VICTIM].view.transcript), first.signers[VICTIM].public_key)
    return first, tuple(tables[VICTIM].view.transcript)


def _second_game(first: LocalGame) -> LocalGame:
    """The same players again (under other names, so their new ``sit``s differ from the
    old), every seat with a fresh nonce (as each draws one; here made from its old one,
    so the second game, whose deals its id seeds, is the same game every run)."""
    fresh = [hashlib.sha256(b"again" + nonce).digest()[: m.NONCE_SIZE] for nonce in first.nonces]
    names = [f"{name} again" for name in first.names]
    return replace(first, names=names, nonces=fresh, seed_sources=None)


def _old_sit(transcript: tuple[Envelope, ...], victim_key: bytes) -> Envelope:
    sit = next(e for e in transcript if e.sender == victim_key and e.type == "sit")
    assert sit.seq == 0
    return sit


def _victim(second: LocalGame, game_id: bytes) -> Table:
    """The victim's table for the second game, as its lobby builds it: expecting the
    table to carry its own fresh nonce at its seat."""
    return Table(game_id, signer=second.signers[VICTIM], nonce=second.nonces[VICTIM])


def _refusals(table: Table) -> list[str]:
    return [e.reason for e in table.take_events() if isinstance(e, ev.Rejected)]


@pytest.mark.parametrize(("game_name", "players"), TABLES)
def test_a_table_under_the_old_id_with_fresh_nonces_is_refused(
    game_name: str, players: int
) -> None:
    """The host signs the new table (every seat's fresh nonce in it) under the old
    game's id: not the id those nonces give, so nobody sits down to it."""
    first, transcript = _first_game(game_name, players)
    second = _second_game(first)
    forged = seal_envelope(second.signers[0], first.game_id, 0, 0, ZERO_HASH, second.setup())
    victim = _victim(second, first.game_id)
    victim.receive(forged.raw)
    assert victim.state.setup is None
    assert any("is not the one the seats' nonces give" in r for r in _refusals(victim))
    victim.receive(_old_sit(transcript, first.signers[VICTIM].public_key).raw)
    assert victim.state.setup is None and not victim.take_outgoing(), "the victim signed"
    assert not victim.view.faults
    # verify of the forged opening says INVALID at record 0, naming nobody
    report = verify_bytes(dump_transcript([forged]))
    assert report.error is not None and "record 0" in report.error
    assert "is not the one the seats' nonces give" in report.error


@pytest.mark.parametrize(("game_name", "players"), TABLES)
def test_a_table_that_derives_the_old_id_lacks_the_victims_nonce(
    game_name: str, players: int
) -> None:
    """The only way to derive the old id is to put the old game's nonces in the table
    (they are public, in its first record): then the victim's fresh nonce is not at
    its seat, and the victim refuses before it sits or signs."""
    first, transcript = _first_game(game_name, players)
    second = _second_game(first)
    old_nonces = replace(second.setup(), nonces=tuple(first.nonces))
    assert game_id_of(old_nonces.nonces) == first.game_id
    host = Table.host(second.signers[0], old_nonces)  # the host's own table takes it
    assert host.game_id == first.game_id and host.state.setup is not None
    forged = host.view.transcript[0]
    victim = _victim(second, first.game_id)
    victim.receive(forged.raw)
    assert victim.state.setup is None
    assert any(f"does not carry this seat's nonce at seat {VICTIM}" in r for r in _refusals(victim))
    victim.receive(_old_sit(transcript, first.signers[VICTIM].public_key).raw)
    assert victim.state.setup is None and not victim.take_outgoing(), "the victim signed"


SHORT_SECOND = {("belka", 4): 15, ("belot", 3): 13, ("belot", 2): 4}
"""The seeds of the second games' secrets that make them short among the first 15
(200, 843 and 461 records, where seed 6's ran to 560, 1104 and 674): each is played to
its end."""


@pytest.mark.parametrize(("game_name", "players"), TABLES)
def test_the_victims_old_sit_relayed_into_the_new_game_proves_nothing(
    game_name: str, players: int
) -> None:
    """The honest second game, under its derived id: the host relays the victim's old
    ``sit`` with everything it sends.  Every table refuses it as of another game, the
    game is played to its end, and nobody (the victim least) is named; ``verify`` of
    the victim's file says OK."""
    first, transcript = _first_game(game_name, players)
    seeds = LocalGame.seeded(SHORT_SECOND[game_name, players]).seed_sources
    second = replace(_second_game(first), seed_sources=seeds)
    assert second.game_id != first.game_id
    old = _old_sit(transcript, first.signers[VICTIM].public_key)
    tables = second.make_tables()

    def relay(seat: int, raw: bytes) -> list[bytes]:
        return [raw, old.raw] if seat == 0 else [raw]

    events = run_sync(tables, [make_bot("random", s) for s in range(players)], tamper=relay)
    assert all(t.state.over for t in tables), [t.state.phase for t in tables]
    assert not any(faults_of(e) for e in events)
    refused = [e.reason for e in events[VICTIM] if isinstance(e, ev.Rejected)]
    assert "envelope of another game" in refused
    assert verify_bytes(dump_transcript(tables[VICTIM].view.transcript)).ok
