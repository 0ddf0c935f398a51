"""``p2pbelka bench net``: peer processes over loopback, bots that answer at once.

Four peers play Belka; with ``--game belot`` two or three (``--players``) play
Belot.  Each peer is a separate ``p2pbelka host``/``join`` process with its own
identity and config dir, so the figures include everything a real game pays:
process scheduling (the peers share the cores), the handshakes, the mesh, the
signatures and the deck, the transcript and secrets files, and the syncs to
the disk before each send.  Per deal: the wall time from the lot (or the
previous deal's audit) to this deal's audit, the bytes each peer sent (frames
with their length prefix and tag), and the transcript's bytes; and the CPU time
each peer process spent over the same span (``cpu_*``: user and system, as the
process counts it).  Apart from the deals: each peer's startup (interpreter,
imports, arguments, identity) and lobby (finding the table, handshakes, seats,
the mesh, the lot), and ``process_cpu_ms_per_peer``, everything a peer process
spent from start to exit (lingering at the end included).  ``_x`` figures are
multiples of the yardstick (one PyNaCl ed25519 noclamp multiplication, timed in
the same run, at the start and again at the end: ``yardstick_end_us``); the
load average at the start and end says what else shared the cores.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from p2pbelka.rules import registry

TIMEOUT = 120.0


def _spawn(
    root: Path,
    name: str,
    args: list[str],
    profile_dir: Path | None = None,
    module: str = "p2pbelka.cli.main",
) -> tuple[subprocess.Popen[bytes], Path]:
    home = root / name
    home.mkdir(parents=True)
    out = root / f"{name}.out"
    env = dict(os.environ, P2PBELKA_HOME=str(home))
    python = [sys.executable]
    if profile_dir is not None:  # ``bench net --profile``: see bench/netprofile.py
        python += ["-m", "cProfile", "-o", str(profile_dir / f"{name}.prof")]
    with open(out, "wb") as fo:
        proc = subprocess.Popen(
            [*python, "-m", module, *args],
            stdout=fo,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,
        )
    return proc, out


def _lobby_port(proc: subprocess.Popen[bytes], out: Path) -> int:
    return int(_wait_for(proc, out, r"lobby port (\d+)", "the host did not open its table"))


def _wait_for(proc: subprocess.Popen[bytes], out: Path, pattern: str, why: str) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        found = re.search(pattern, out.read_text())
        if found:
            return found.group(1)
        time.sleep(0.02)
    raise RuntimeError(why)


def one_game(
    root: Path,
    game: str = registry.DEFAULT,
    players: int | None = None,
    sync: bool = True,
    profile_dir: Path | None = None,
    watchers: int = 0,
    watched: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One game of peer processes and their figures, host first; with ``watchers``,
    that many watcher processes follow it from before the start, and their figures
    go into ``watched``."""
    common = ["--bot", "random", "--quiet", "--stats", "--listen", "127.0.0.1", "--linger", "2"]
    if not sync:
        common.append("--no-sync")
    players = players or registry.spec(game).default_seats
    table = ["--game", game, "--players", str(players)]
    procs = []
    lookers: list[tuple[subprocess.Popen[bytes], Path]] = []
    spawned: list[float] = []  # when each process was started (the monotonic clock)
    try:
        spawned.append(time.monotonic())
        host_args = ["host", "--auto-approve", "--no-announce", *table, *common]
        if watchers:
            host_args += ["--watchers", str(watchers)]
        host = _spawn(root, "host", host_args, profile_dir)
        procs.append(host)
        port = _lobby_port(*host)
        if watchers:  # all in one process: see bench/netwatch.py
            address = [f"127.0.0.1:{port}", "--count", str(watchers)]
            looker = _spawn(root, "watch", address, module="p2pbelka.bench.netwatch")
            lookers.append(looker)
            _wait_for(*looker, r"(watching)", "a watcher was not let in")
        for n in range(1, players):
            spawned.append(time.monotonic())
            procs.append(
                _spawn(
                    root,
                    f"join{n}",
                    ["join", "--connect", f"127.0.0.1:{port}", *common],
                    profile_dir,
                )
            )
        deadline = time.monotonic() + TIMEOUT
        for proc, _ in procs + lookers:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    finally:
        for proc, _ in procs + lookers:
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
    for _, out in lookers:
        for line in out.read_text().splitlines():
            if not line.startswith("{"):
                continue
            figures = json.loads(line)
            if figures["fed"] != figures["records"]:
                raise RuntimeError(f"a watcher was not fed the whole game: {figures}")
            if watched is not None:
                watched.append(figures)
    for s, at in zip(stats, spawned, strict=True):
        s["transcript_bytes"] = Path(s["transcript"]).stat().st_size
        s["spawned_at"] = at
    return stats


def run(
    quick: bool = False, game: str = registry.DEFAULT, players: int | None = None
) -> dict[str, object]:
    """Games as peers play them by default (every envelope synced to the disk before
    it is sent); the full run alternates them with games that do not sync, so the
    difference of the medians is the cost of the syncs, measured in the same run."""
    seats, count, unit_ms, load_start = bench_start(quick, game, players)
    games = 1 if quick else 3
    deal_ms: list[float] = []
    played: list[bool] = []  # per deal: cards played, or dealt again before any
    unsynced_ms: list[float] = []
    bytes_per_deal: list[float] = []
    rss: list[int] = []
    peers: list[dict[str, Any]] = []
    sync_ms: list[float] = []
    syncs: list[float] = []
    file_syncs: list[float] = []
    spent = 0.0  # the synced games' processes' CPU time
    deals = transcript_bytes = 0
    for _ in range(games):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with tempfile.TemporaryDirectory() as tmp:
            stats = one_game(Path(tmp), game, seats)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        spent += (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        host = stats[0]
        deals += host["deals"]
        deal_ms += host["deal_ms"]
        played += host.get("deal_played", [])
        transcript_bytes += host["transcript_bytes"]
        bytes_per_deal += [s["bytes_sent"] / s["deals"] for s in stats]
        rss += [s["maxrss_kib"] for s in stats]
        peers += stats
        sync_ms += [s["sync_ms"] / s["deals"] for s in stats]
        syncs += [s["syncs"] / s["deals"] for s in stats]
        file_syncs += [s["file_syncs"] / s["deals"] for s in stats if "file_syncs" in s]
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
        "ms_per_deal_mean_x": round(statistics.fmean(deal_ms) / unit_ms),
        **kind_figures(deal_ms, played, unit_ms),
        **cpu_figures(peers, deal_ms, seats, unit_ms),
        "process_cpu_ms_per_peer": round(1000 * spent / len(peers), 1),
        **startup_figures(peers),
        "bytes_sent_per_peer_per_deal": round(statistics.fmean(bytes_per_deal)),
        "bytes_sent_per_peer_per_deal_max": round(max(bytes_per_deal)),
        "transcript_bytes_per_deal": round(transcript_bytes / deals),
        # each seat's envelopes are on the disk with their inputs before they are
        # sent: the syncs it waited for (one group commit per step that signed), the
        # files they synced (transcript, journal, rarely secrets or the directory),
        # and the time they took
        "fsyncs_per_peer_per_deal": round(statistics.fmean(syncs), 1),
        **(
            {"file_syncs_per_peer_per_deal": round(statistics.fmean(file_syncs), 1)}
            if file_syncs
            else {}
        ),
        "fsync_wait_ms_per_peer_per_deal": round(statistics.fmean(sync_ms), 1),
        "peak_rss_kib_per_peer_max": max(rss),
        "peak_rss_kib_per_peer_mean": round(statistics.fmean(rss)),
        **bench_end(count, load_start),
    }
    if unsynced_ms:
        unsynced = statistics.median(unsynced_ms)
        figures["ms_per_deal_median_without_fsync"] = round(unsynced, 1)
        figures["fsync_cost_ms_per_deal"] = round(statistics.median(deal_ms) - unsynced, 1)
    return figures


def bench_start(quick: bool, game: str, players: int | None) -> tuple[int, int, float, float]:
    """The seats, the yardstick's repetitions and its time in ms, the load at the start."""
    from p2pbelka.bench.deal_crypto import yardstick_us

    count = 200 if quick else 2000
    seats = players or registry.spec(game).default_seats
    return seats, count, yardstick_us(count) / 1000, os.getloadavg()[0]


def bench_end(count: int, load_start: float) -> dict[str, object]:
    """The yardstick again, and the load, at the end: what else shared the cores."""
    from p2pbelka.bench.deal_crypto import yardstick_us

    return {
        "yardstick_end_us": round(yardstick_us(count), 1),
        "load_average_start": round(load_start, 2),
        "load_average_end": round(os.getloadavg()[0], 2),
    }


def kind_figures(deal_ms: list[float], played: list[bool], unit_ms: float) -> dict[str, object]:
    """The median of each kind of deal apart: one dealt again before a card was
    played costs half of one played out, so the median of all moves with how many
    deals of a few games the bots happened to deal again."""
    if len(played) != len(deal_ms):  # peers of an older build
        return {}
    out: dict[str, object] = {"deals_dealt_again": played.count(False)}
    for label, kind in (("played", True), ("dealt_again", False)):
        times = [ms for ms, was in zip(deal_ms, played, strict=True) if was is kind]
        if times:
            out[f"ms_per_deal_{label}_median"] = round(statistics.median(times), 1)
            out[f"ms_per_deal_{label}_median_x"] = round(statistics.median(times) / unit_ms)
    return out


def cpu_figures(
    peers: list[dict[str, Any]], deal_ms: list[float], seats: int, unit_ms: float
) -> dict[str, object]:
    """CPU time each peer process spent per deal (user and system, as the process
    counts it), beside the wall time: the peers share the machine's cores, so
    ``cores_busy`` (all peers' CPU over wall time) says whether the deal waits for
    CPU or for messages."""
    per_peer = [ms for s in peers for ms in s.get("deal_cpu_ms", [])]
    if not per_peer:  # peers of an older build: whole games only
        per_peer = [s["game_cpu_ms"] / s["deals"] for s in peers if s["deals"]]
    all_peers = statistics.fmean(per_peer) * seats
    return {
        "cpu_ms_per_deal_per_peer_median": round(statistics.median(per_peer), 1),
        "cpu_ms_per_deal_per_peer_mean": round(statistics.fmean(per_peer), 1),
        "cpu_x_per_deal_per_peer_median": round(statistics.median(per_peer) / unit_ms),
        "cpu_ms_per_deal_all_peers": round(all_peers, 1),
        "cpu_x_per_deal_all_peers": round(all_peers / unit_ms),
        "cores_busy_during_deals": round(all_peers / statistics.fmean(deal_ms), 2),
    }


def startup_figures(peers: list[dict[str, Any]]) -> dict[str, object]:
    """Before the first deal, per peer: starting the program (interpreter, imports,
    arguments, identity) and the lobby (finding the table, handshakes, seats, the
    mesh, the lot), in wall and CPU time.  Not part of any deal's figures."""
    startup = [1000 * (s["ready_at"] - s["spawned_at"]) for s in peers if "ready_at" in s]
    lobby = [1000 * (s["started_at"] - s["ready_at"]) for s in peers if s.get("started_at")]
    if not startup or not lobby:
        return {}
    return {
        "startup_ms_per_peer_mean": round(statistics.fmean(startup), 1),
        "startup_cpu_ms_per_peer_mean": round(
            statistics.fmean(s["startup_cpu_ms"] for s in peers), 1
        ),
        "lobby_ms_per_peer_mean": round(statistics.fmean(lobby), 1),
        "lobby_ms_max": round(max(lobby), 1),
        "lobby_cpu_ms_per_peer_mean": round(statistics.fmean(s["lobby_cpu_ms"] for s in peers), 1),
    }
