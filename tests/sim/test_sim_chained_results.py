"""Whole games whose seat changed hands keep their results (protocol/results.md section
1.1): the simulator's real peers, their links cut on a fixed schedule, play to the end;
every seat that finished (and the watcher) writes a chained certificate beside its
saved game, which verifies and counts in its ledger for the players who sat down at the
start, the one who left included.  A chain cut short in the middle or at its end is
refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from p2pbelka.ladder import certificate as cert
from p2pbelka.ladder.files import IN_A_DIRECTORY
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.results import result_of
from p2pbelka.protocol.codec import decode, encode
from p2pbelka.protocol.envelope import Signer
from p2pbelka.sim.checks import violations
from p2pbelka.sim.faults import parse
from p2pbelka.sim.world import Outcome, simulate
from p2pbelka.table.verify import verify_bytes


def _certificates(root: Path) -> dict[str, cert.Certificate]:
    """Each program's certificate (``seat0``, ``watcher0``, ...), read and checked, and
    each beside the transcript it was made of."""
    out = {}
    for path in sorted(root.glob(f"*/games/*/{IN_A_DIRECTORY}")):
        assert (path.parent / "transcript.p2pb").exists()
        out[path.parts[-4]] = cert.read(path.read_bytes())
    return out


def _ledger(root: Path, program: str, outcome: Outcome) -> list[Any]:
    owner = outcome.keys[int(program[-1])] if program.startswith("seat") else None
    with Ledger(root / program / "ladder.sqlite", owner) as ledger:
        assert ledger.notes == []
        return ledger.results()


def test_a_seat_a_bot_finished_counts_for_the_player_who_left(tmp_path: Path) -> None:
    """Seat 3 cut off for good in deal 1: a bot plays it to the end."""
    outcome = simulate(5, "belka", 4, parse("cut 3<->*@100+inf"), keep=tmp_path, twice=False)
    assert violations(outcome) == []
    made = _certificates(tmp_path)
    assert sorted(made) == ["seat0", "seat1", "seat2"]  # seat 3 stopped: it has none yet
    for program, one in made.items():
        assert one.kind == cert.CHAINED and one.maker_seat == int(program[-1])
        assert len(one.segments) == 1 and one.cuts[0].sender == outcome.keys[3]
        assert one.keys == tuple(outcome.keys)  # the players who sat down
        assert one.outcome == made["seat0"].outcome
        results = _ledger(tmp_path, program, outcome)
        assert [r.game_id for r in results] == [one.game_id]
        assert [s.key for s in results[0].seats] == list(outcome.keys)
        assert results[0].seats == result_of(one).seats
    # the player who left is charged with its side's result, as any seat of it
    winner = made["seat0"].outcome.winner
    assert result_of(made["seat0"]).seats[3].rank == (0 if winner == 1 else 1)


def test_a_seat_handed_back_is_one_game_of_three_segments(tmp_path: Path) -> None:
    """Seat 1 cut off past the window and back: a bot, then the player again; the game
    ends with every seat and the watcher holding one chained certificate of it."""
    outcome = simulate(2, "belka", 4, parse("cut 1<->*@100+100"), keep=tmp_path, twice=False)
    assert violations(outcome) == []
    made = _certificates(tmp_path)
    assert sorted(made) == ["seat0", "seat1", "seat2", "seat3", "watcher0"]
    copy = next(c.transcript for c in outcome.copies if c.seat == 0)
    assert [(c.seat, c.back) for c in verify_bytes(copy).changes] == [(1, False), (1, True)]
    for one in made.values():
        assert one.kind == cert.CHAINED and len(one.segments) == 2
        assert one.holders[1][0] == one.holders[1][2] == outcome.keys[1]
        assert len(one.raw) < 48 * 1024  # offered in the exchanges (results.md section 6)
    seat0 = made["seat0"]
    maker = Signer.from_seed(b"\x05" * 32)
    cut = _cut_short(seat0, maker)
    # the middle link left out: the last no longer continues the first
    with pytest.raises(cert.CertificateError, match=r"segments\[0\]: not a valid continuation"):
        cert.read(cut["middle"])
    # the last link left out: the closes are of a segment the chain never reaches
    with pytest.raises(cert.CertificateError, match=r"ends\[0\], seat 0 \(Asel\)"):
        cert.read(cut["end"])
    # counted on every seat's ledger (the watcher's own counts there too), once
    for program in made:
        assert len(_ledger(tmp_path, program, outcome)) == 1


def _cut_short(made: cert.Certificate, maker: Signer) -> dict[str, bytes]:
    body: dict[str, Any] = decode(made.raw[len(cert.MAGIC) :], limit=cert.MAX_CERTIFICATE)
    out = {}
    for name, keep in (("middle", slice(1, 2)), ("end", slice(0, 1))):
        short = dict(body, segments=body["segments"][keep], cuts=body["cuts"][keep])
        short = {k: v for k, v in short.items() if k != "sig"}
        short["sig"] = maker.sign(cert.signed_bytes(short))
        out[name] = cert.MAGIC + encode(dict(sorted(short.items())))
    return out
