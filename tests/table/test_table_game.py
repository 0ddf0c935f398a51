"""Whole games between four peers: identical transcripts that verify, in process and in trio."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from trio.testing import MockClock

from p2pbelka.bots import make_bot
from p2pbelka.cli.main import main
from p2pbelka.peer.local import LocalGame, play_local_game
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.protocol.transcript import MAGIC, dump_transcript, iter_records
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from p2pbelka.table.state import TableState
from tests.audit import verify_bytes
from tests.table.helpers import play_sync

SEED = 16
"""The seed of the whole games here: won in the fourth deal (260 records, where most
seeds' games run to 600 or more), as many deals as these tests look at."""


@pytest.fixture(scope="module")
def classic_game() -> bytes:
    tables, events = play_sync(SEED)
    assert all(t.state.phase.value == "over" for t in tables)
    transcripts = {dump_transcript(t.view.transcript) for t in tables}
    assert len(transcripts) == 1, "every peer must hold the same transcript"
    assert not [e for e in events[0] if isinstance(e, ev.Rejected)]
    return transcripts.pop()


def test_a_whole_game_verifies(classic_game: bytes) -> None:
    report = verify_bytes(classic_game)
    assert report.ok, report.verdict
    assert report.winner in (0, 1)
    assert len(report.deals) >= 3
    for deal in report.deals:
        if deal.summary.redeal_claim is None:
            assert sum(deal.summary.card_points) == 120
            assert len(deal.summary.tricks) == 8


def test_eyes_preset_game_verifies() -> None:
    tables, _ = play_sync(16, preset="eyes")  # won in its fourth deal (seed 12's: 524 records)
    report = verify_bytes(dump_transcript(tables[0].view.transcript))
    assert report.ok, report.verdict
    assert report.winner in (0, 1)


async def test_four_trio_peers_over_memory_channels(autojump_clock: MockClock) -> None:
    # Virtual seconds (no real I/O here): they pass only while every peer waits, so a
    # busy machine cannot make a peer look silent.
    # seed 26: a game won in its second deal (140 records; seed 21's ran to 856)
    results = await play_local_game(LocalGame.seeded(26))
    assert all(r.finished for r in results)
    assert len({tuple(e.digest for e in r.transcript) for r in results}) == 1
    assert verify_bytes(dump_transcript(results[0].transcript)).ok


async def test_work_done_ahead_changes_no_byte(autojump_clock: MockClock) -> None:
    """Drivers let idle tables make the next deal's secrets and first shuffle ahead
    (``Table.prepare``); the seeds are still drawn in order, one per deal, so the
    game is byte for byte the one the same seeds and bots give without it."""
    from p2pbelka.bots import make_bot
    from p2pbelka.peer.sync import run_sync

    # A seed whose bots make no choice in a parallel phase (a ready or a re-deal claim,
    # signed with the view the seat holds when its player decides, which the order of
    # delivery changes): there, only the work done ahead could change a byte.
    results = await play_local_game(LocalGame.seeded(22))
    tables = LocalGame.seeded(22).make_tables()
    run_sync(tables, [make_bot("random", seat) for seat in range(4)])
    assert [e.digest for e in results[0].transcript] == [
        e.digest for e in tables[0].view.transcript
    ]


def test_prepare_makes_the_next_deal_and_the_first_shuffle() -> None:
    tables, _ = play_sync(SEED, until=lambda t: t[0].state.phase.value == "play")
    for table in tables:
        deal, dealer = table.state.deal_id, table.state.track.dealer
        steps = 0
        while table.prepare():
            steps += 1
        nxt = table.state.deals.next_local
        assert nxt is not None and nxt.ctx.deal_id == deal + 1
        first = (dealer + 2) % 4 == table.state.me
        assert steps == (1 + 4 if first else 1)  # the secrets, then 4 pieces of 8 points
        assert not table.prepare()


def test_prepare_computes_the_card_points_before_the_first_deal() -> None:
    """While the lots are drawn, an idle table hashes the game's cards to the group
    (about 11 ms in fair-deal version 2), once, so the first pass does not."""
    from p2pbelka.fairdeal.deck import card_table

    game = LocalGame.seeded(77)
    host = game.make_tables()[0]
    assert host.state.deal_id == 0
    before = card_table.cache_info()
    assert host.prepare()
    after = card_table.cache_info()
    assert after.misses == before.misses + 1
    card_table(game.game_id, game.fairdeal, 32)
    assert card_table.cache_info().hits == after.hits + 1, "the deal will find them made"
    assert not host.prepare(), "once; the rest waits for a deal"


def _records(data: bytes) -> list[tuple[int, int]]:
    """(offset, length) of each record."""
    return [(r.offset, 4 + len(r.envelope.raw)) for r in iter_records(data)]


def test_a_flipped_byte_names_the_record(classic_game: bytes) -> None:
    rng = random.Random(3)
    records = _records(classic_game)
    for _ in range(10):
        index = rng.randrange(len(records))
        offset, length = records[index]
        byte = offset + 4 + rng.randrange(length - 4)
        tampered = bytearray(classic_game)
        tampered[byte] ^= 1 << rng.randrange(8)
        report = verify_bytes(bytes(tampered))
        assert not report.ok
        assert report.error is not None and f"record {index}" in report.error


def test_a_swapped_pair_of_messages_is_out_of_order(classic_game: bytes) -> None:
    records = _records(classic_game)
    # records 5 and 6 are two seats' lot commitments, sent in parallel
    (a, la), (b, lb) = records[5], records[6]
    swapped = (
        classic_game[:a]
        + classic_game[b : b + lb]
        + classic_game[a : a + la]
        + classic_game[b + lb :]
    )
    report = verify_bytes(swapped)
    assert report.error is not None and "out of order" in report.error
    assert "record 5" in report.error and "seat" in report.error


def test_a_truncated_transcript_names_the_byte(classic_game: bytes) -> None:
    # the last record cut short: the records before it are judged, the damage named
    last = _records(classic_game)[-1][0]
    for cut in (classic_game[:-10], classic_game[: last + 2]):
        report = verify_bytes(cut)
        assert report.error is None and report.cut_at == last and not report.ok
        assert report.verdict.startswith(
            f"INCOMPLETE: the last record damaged at byte {last} (the file ends inside it);"
        )
        assert report.verdict.endswith("and the game is over in them")
    # the record before a cut one damaged: INVALID, as any damage before the last record
    offset, length = _records(classic_game)[-2]
    damaged = bytearray(classic_game[:-10])
    damaged[offset + length // 2] ^= 0x40
    report = verify_bytes(bytes(damaged))
    assert report.error is not None and report.verdict.startswith("INVALID")
    prefix = classic_game[: _records(classic_game)[100][0]]
    partial = verify_bytes(prefix)
    assert partial.error is None and not partial.finished
    assert partial.verdict.startswith("INCOMPLETE")
    assert verify_bytes(b"not a transcript").error is not None
    assert verify_bytes(MAGIC).error is not None


def test_selfplay_and_verify_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.p2pb"
    assert main(["selfplay", "--seed", "4", "--transcript", str(path), "--quiet"]) == 0
    assert "wins" in capsys.readouterr().out
    record = tmp_path / "game.json"
    assert main(["verify", str(path), "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "OK: every deal was dealt fairly" in out
    assert main(["verify", str(path), "--every-pass"]) == 0
    assert "OK: every deal was dealt fairly" in capsys.readouterr().out
    # the rules engine's referee agrees with the fair-deal verifier on the whole game
    assert main(["referee", str(record)]) == 0
    refereed = json.loads(capsys.readouterr().out)
    score = out.splitlines()[-3].rsplit("score ", 1)[1]
    assert str(refereed["score"]) == score
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))
    assert main(["verify", str(path)]) == 1
    assert "INVALID" in capsys.readouterr().out
    assert main(["verify", str(tmp_path / "missing")]) == 2


class _Audits(TableState):
    """An honest seat's phases that note when it audits (in ``log``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[str] = []

    def emit(self, event: ev.Event) -> None:
        if isinstance(event, ev.DealAudited):
            self.log.append(f"audited {event.deal_id}")
        super().emit(event)


class _Recorder(Table):
    """An honest table that notes when its deal_end leaves and when it audits."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, state=_Audits, **kwargs)
        assert isinstance(self.state, _Audits)
        self.log = self.state.log

    def take_outgoing(self) -> list[bytes]:
        out = super().take_outgoing()
        for raw in out:
            envelope = open_envelope(raw)
            if envelope.type == "deal_end":
                self.log.append(f"deal_end {envelope.deal}")
        return out


def test_a_seat_sends_its_deal_end_before_it_audits() -> None:
    """The audit runs while the deal_ends travel (SPEC 4.7), and the same bytes go
    out as when a seat audited first: every transcript still verifies."""
    game = LocalGame.seeded(SEED)
    tables = game.make_tables()
    assert game.seed_sources is not None
    signer, source, nonce = game.signers[1], game.seed_sources[1], game.nonces[1]
    recorder = _Recorder(game.game_id, signer=signer, seed_source=source, nonce=nonce)
    tables[1] = recorder
    run_sync(tables, [make_bot("random", SEED * 10 + s) for s in range(4)])  # as play_sync
    deals = tables[1].state.deal_id
    assert recorder.log == [
        f"{what} {d}" for d in range(1, deals + 1) for what in ("deal_end", "audited")
    ]
    assert verify_bytes(dump_transcript(tables[0].view.transcript)).ok


def _tables_with_flow(seed: int, flow: int) -> list[Table]:
    import dataclasses

    game = LocalGame.seeded(seed)
    assert game.seed_sources is not None
    # Before flow 3 a table names the id its host chose (and carries no nonces): such
    # tables are played here, as old peers played them, by seats told to sit at them.
    if flow >= m.NONCES_FLOW:
        return game.make_tables()
    setup = dataclasses.replace(game.setup(), flow=flow, nonces=())
    sources = game.seed_sources
    old = {"game_id": game.game_id, "oldest_flow": flow}
    host = Table.host(game.signers[0], setup, seed_source=sources[0], **old)
    others = [
        Table(game.game_id, signer=signer, seed_source=sources[seat], oldest_flow=flow)
        for seat, signer in enumerate(game.signers)
        if seat
    ]
    return [host, *others]


def _types_by_deal(table: Table) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for envelope in table.view.transcript:
        out.setdefault(envelope.deal, []).append(envelope.type)
    return out


@pytest.mark.parametrize("flow", [2, 3])
def test_flow_2_carries_the_next_commitments_on_deal_end(flow: int) -> None:
    """A table of flow 2 (and of every flow since, a new table's included): only the
    first deal has a commit phase; every deal_end commits its sender for the next deal
    id, and the game verifies."""
    from p2pbelka.bots import make_bot
    from p2pbelka.peer.sync import run_sync

    tables = _tables_with_flow(SEED, flow)
    run_sync(tables, [make_bot("random", SEED * 10 + s) for s in range(4)])
    assert (
        tables[0].state.over
        and tables[0].state.setup is not None
        and tables[0].state.setup.flow == flow
    )
    deals = _types_by_deal(tables[0])
    assert len(deals) >= 3
    assert deals[1].count("commit") == 4
    assert all("commit" not in types for deal, types in deals.items() if deal > 1)
    ends = [e for e in tables[0].view.transcript if e.type == "deal_end"]
    assert ends and all(getattr(e.msg, "c", None) is not None for e in ends)
    assert verify_bytes(dump_transcript(tables[0].view.transcript)).ok


def test_flow_1_tables_from_before_still_play_and_verify() -> None:
    """A table description without ``flow`` (every transcript made before flow 2):
    a commit phase in every deal and empty deal_ends, as ever."""
    from p2pbelka.bots import make_bot
    from p2pbelka.peer.sync import run_sync

    tables = _tables_with_flow(SEED, 1)
    run_sync(tables, [make_bot("random", SEED * 10 + s) for s in range(4)])
    assert tables[0].state.over
    assert all(
        types.count("commit") == 4 for deal, types in _types_by_deal(tables[0]).items() if deal
    )
    ends = [e for e in tables[0].view.transcript if e.type == "deal_end"]
    assert ends and all(getattr(e.msg, "c", None) is None for e in ends)
    data = dump_transcript(tables[0].view.transcript)
    assert b"flow" not in data[:400]  # the table envelope leaves flow 1 out
    assert verify_bytes(data).ok
