"""``p2pbelka bench net``: peer processes over loopback, bots that answer at once.

Four peers play Belka; with ``--game belot`` two or three (``--players``) play
Belot.  Each peer is a separate ``p2pbelka host``/``join`` process with its own
identity and config dir, so the figures include everything a real game pays:
process scheduling (the peers share the cores), the handshakes, the mesh, the
signatures and the deck, the transcript and secrets files, and the syncs to
the disk before each send.  Per deal: the wall time from the lot (or the
previous deal's audit) to this deal's audit, the bytes each peer sent (frames
with their length prefix and tag), and the transcript's bytes.  ``_x`` figures
are multiples of the yardstick (one PyNaCl ed25519 noclamp multiplication,
timed in the same run).
"""

from __future__ import annotations

import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TIMEOUT = 120.0


def _spawn(root: Path, name: str, args: list[str]) -> tuple[subprocess.Popen[bytes], Path]:
    home = root / name
    home.mkdir()
    out = root / f"{name}.out"
    env = dict(os.environ, P2PBELKA_HOME=str(home))
    with open(out, "wb") as fo:
        proc = subprocess.Popen(
            [sys.executable, "-m", "p2pbelka.cli.main", *args],
            stdout=fo,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    return proc, out


def _lobby_port(proc: subprocess.Popen[bytes], out: Path) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        found = re.search(r"lobby port (\d+)", out.read_text())
        if found:
            return int(found.group(1))
        time.sleep(0.02)
    raise RuntimeError("the host did not open its table")


def one_game(
    root: Path, game: str = "belka", players: int = 4, sync: bool = True
) -> list[dict[str, Any]]:
    common = ["--bot", "random", "--quiet", "--stats", "--listen", "127.0.0.1", "--linger", "2"]
    if not sync:
        common.append("--no-sync")
    table = ["--game", game, "--players", str(players)]
    procs = []
    try:
        host = _spawn(root, "host", ["host", "--auto-approve", "--no-announce", *table, *common])
        procs.append(host)
        port = _lobby_port(*host)
        for n in range(1, players):
            procs.append(
                _spawn(root, f"join{n}", ["join", "--connect", f"127.0.0.1:{port}", *common])
            )
        deadline = time.monotonic() + TIMEOUT
        for proc, _ in procs:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    finally:
        for proc, _ in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    stats = []
    for _, out in procs:
        lines = [ln for ln in out.read_text().splitlines() if ln.startswith("{")]
        if not lines:
            raise RuntimeError(f"a peer printed no figures: {out.read_text()[-500:]}")
        stats.append(json.loads(lines[-1]))
    if not all(s["finished"] for s in stats):
        raise RuntimeError("a benchmark game did not finish")
    for s in stats:
        s["transcript_bytes"] = Path(s["transcript"]).stat().st_size
    return stats


def run(quick: bool = False, game: str = "belka", players: int | None = None) -> dict[str, object]:
    """Games as peers play them by default (every envelope synced to the disk before
    it is sent); the full run alternates them with games that do not sync, so the
    difference of the medians is the cost of the syncs, measured in the same run."""
    from p2pbelka.bench.deal_crypto import yardstick_us

    seats = players or (4 if game == "belka" else 3)
    count = 200 if quick else 2000
    unit_ms = yardstick_us(count) / 1000
    games = 1 if quick else 3
    deal_ms: list[float] = []
    unsynced_ms: list[float] = []
    bytes_per_deal: list[float] = []
    rss: list[int] = []
    sync_ms: list[float] = []
    syncs: list[float] = []
    deals = transcript_bytes = 0
    for _ in range(games):
        with tempfile.TemporaryDirectory() as tmp:
            stats = one_game(Path(tmp), game, seats)
        host = stats[0]
        deals += host["deals"]
        deal_ms += host["deal_ms"]
        transcript_bytes += host["transcript_bytes"]
        bytes_per_deal += [s["bytes_sent"] / s["deals"] for s in stats]
        rss += [s["maxrss_kib"] for s in stats]
        sync_ms += [s["sync_ms"] / s["deals"] for s in stats]
        syncs += [s["syncs"] / s["deals"] for s in stats]
        if not quick:
            with tempfile.TemporaryDirectory() as tmp:
                unsynced_ms += one_game(Path(tmp), game, seats, sync=False)[0]["deal_ms"]
    figures: dict[str, object] = {
        "game": game,
        "peers": seats,
        "yardstick_us": round(1000 * unit_ms, 1),
        "games": games,
        "deals": deals,
        "ms_per_deal_mean": round(statistics.fmean(deal_ms), 1),
        "ms_per_deal_median": round(statistics.median(deal_ms), 1),
        "ms_per_deal_max": round(max(deal_ms), 1),
        "ms_per_deal_median_x": round(statistics.median(deal_ms) / unit_ms),
        "bytes_sent_per_peer_per_deal": round(statistics.fmean(bytes_per_deal)),
        "bytes_sent_per_peer_per_deal_max": round(max(bytes_per_deal)),
        "transcript_bytes_per_deal": round(transcript_bytes / deals),
        # each seat's envelopes are on the disk before they are sent: the syncs it
        # waited for (one per step that signed), and the time they took
        "fsyncs_per_peer_per_deal": round(statistics.fmean(syncs), 1),
        "fsync_wait_ms_per_peer_per_deal": round(statistics.fmean(sync_ms), 1),
        "peak_rss_kib_per_peer_max": max(rss),
        "peak_rss_kib_per_peer_mean": round(statistics.fmean(rss)),
        "yardstick_end_us": round(yardstick_us(count), 1),
    }
    if unsynced_ms:
        unsynced = statistics.median(unsynced_ms)
        figures["ms_per_deal_median_without_fsync"] = round(unsynced, 1)
        figures["fsync_cost_ms_per_deal"] = round(statistics.median(deal_ms) - unsynced, 1)
    return figures
