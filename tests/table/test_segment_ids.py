"""A segment id is used once: a continuation under the id of any earlier segment
(the game's first id included), or of another game, or under any id but the one
its own body derives, is refused by every honest table and by ``verify``, naming
the proposer, since a place is judged by (segment id, seat, seq) and an old
segment's envelopes would count again in it."""

from __future__ import annotations

import pytest

from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol.envelope import seal_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.segments import observe_segments, previous_of
from p2pbelka.table.session import Table
from tests.audit import verify_bytes
from tests.table.seatloss import Game, bot_then_back, hand_over

REUSED = "a continuation must have a segment id of its own"
NOT_DERIVED = "is not the one its table derives"
TABLES = [("belka", 4, 2), ("belot", 3, 1), ("belot", 2, 1)]


def _deliver(game: Game, host: int) -> None:
    """The host's continuation to every other seat's table of the next segment."""
    sent = game.tables[host].take_outgoing()
    for seat, table in enumerate(game.tables):
        if seat != host:
            for raw in sent:
                table.receive(raw)


def _rejections(game: Game) -> list[list[ev.Rejected]]:
    return [[e for e in t.take_events() if isinstance(e, ev.Rejected)] for t in game.tables]


@pytest.mark.parametrize(("game_name", "players", "lost"), TABLES)
def test_a_hand_back_under_the_first_segments_id_is_refused_everywhere(
    game_name: str, players: int, lost: int
) -> None:
    game, first_id, second_id, player = bot_then_back(game_name, players, lost)
    host = next(s for s in range(players) if s != lost)
    kept = game.files[host]
    rebuilt = observe_segments(kept)
    _, final = hand_over(game, lost, player, "Back", previous_table=rebuilt, segment=first_id)
    _deliver(game, host)
    for seat, (table, refused) in enumerate(zip(game.tables, _rejections(game), strict=True)):
        assert table.state.setup is None, f"seat {seat} accepted a reused segment id"
        assert any(REUSED in r.reason and r.seat == host for r in refused), (seat, refused)
    # verify of an honest file with the continuation appended says the same
    signer = game.tables[host]._signer
    assert signer is not None
    envelope = seal_envelope(signer, first_id, 0, 0, bytes(32), final)
    report = verify_bytes(dump_transcript([*kept, envelope]))
    assert not report.ok and REUSED in report.verdict, report.verdict
    assert f"seat {host}" in report.verdict
    assert second_id != first_id


@pytest.mark.parametrize(("game_name", "players", "lost"), TABLES)
def test_a_hand_back_under_another_games_id_is_refused_everywhere(
    game_name: str, players: int, lost: int
) -> None:
    """The proposer names the id of another game the seats played (or any id it
    chose): not the one the continuation derives, so every table and ``verify``
    refuse it, naming the proposer, and nobody sits in it."""
    game, _first_id, _second_id, player = bot_then_back(game_name, players, lost)
    other = LocalGame.seeded(99, game=game_name, players=players).game_id
    host = next(s for s in range(players) if s != lost)
    kept = game.files[host]
    rebuilt = observe_segments(kept)
    _, final = hand_over(game, lost, player, "Back", previous_table=rebuilt, segment=other)
    _deliver(game, host)
    for seat, (table, refused) in enumerate(zip(game.tables, _rejections(game), strict=True)):
        assert table.state.setup is None, f"seat {seat} accepted a chosen segment id"
        assert any(NOT_DERIVED in r.reason and r.seat == host for r in refused), (seat, refused)
        assert not table.take_outgoing() or seat == host, f"seat {seat} signed in it"
    signer = game.tables[host]._signer
    assert signer is not None
    envelope = seal_envelope(signer, other, 0, 0, bytes(32), final)
    report = verify_bytes(dump_transcript([*kept, envelope]))
    assert not report.ok and NOT_DERIVED in report.verdict and f"seat {host}" in report.verdict


@pytest.mark.parametrize(("game_name", "players", "lost"), TABLES[:1])
def test_a_fresh_hand_back_id_is_accepted(game_name: str, players: int, lost: int) -> None:
    game, _first, _second, player = bot_then_back(game_name, players, lost)
    host = next(s for s in range(players) if s != lost)
    rebuilt = observe_segments(game.files[host])
    hand_over(game, lost, player, "Back", previous_table=rebuilt)
    _deliver(game, host)
    assert all(t.state.setup is not None for t in game.tables)
    assert previous_used_all(game)


def previous_used_all(game: Game) -> bool:
    """Every table of the third segment knows both earlier ids."""
    return all(
        t.state.previous is not None and len(t.state.previous.used) == 2 for t in game.tables
    )


@pytest.mark.parametrize(("game_name", "players", "lost"), TABLES)
def test_a_hand_back_without_the_players_fresh_nonce_is_refused_by_the_player(
    game_name: str, players: int, lost: int
) -> None:
    """The returning player sends a fresh nonce with its ``seat_reclaim``: a hand-back
    carrying another (the proposer's choice, or the player's old one) could have an id
    the player signed under before, so the player's table refuses it before it sits;
    the one carrying its nonce is taken."""
    game, _first_id, _second_id, player = bot_then_back(game_name, players, lost)
    host = next(s for s in range(players) if s != lost)
    rebuilt = observe_segments(game.files[host])
    mine = bytes(range(200, 216))
    for brought, taken in ((bytes(range(16)), False), (mine, True)):
        trial = Game(list(game.tables), game.bots, [list(f) for f in game.files], game.events)
        segment, _ = hand_over(trial, lost, player, "Back", previous_table=rebuilt, nonce=brought)
        opening = trial.tables[host].take_outgoing()
        back = Table(segment, signer=player, previous=previous_of(rebuilt), nonce=mine)
        for raw in opening:
            back.receive(raw)
        assert (back.state.setup is not None) == taken
        if not taken:
            refused = [e.reason for e in back.take_events() if isinstance(e, ev.Rejected)]
            assert any("does not carry this seat's nonce" in r for r in refused), refused
            assert not back.take_outgoing(), "the player signed in it"
