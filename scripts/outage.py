#!/usr/bin/env python3
"""Measure a long outage on a LAN of network namespaces (needs root and iproute2).

Four peer processes, each in its own namespace on one bridge, play a game with
bots.  Once the first deal is under way, one joiner's cable is pulled out of
the bridge for ``--cut`` seconds (its connections hang, as on a real LAN), then
plugged back in.  Prints, for a game without the cut and one with it: the
bytes and frames each peer sent (per deal too), the deal times before the cut,
the deal the cut fell in, and the deals after it.

    python3 scripts/outage.py --cut 60

Not part of the test suite (it runs for minutes); the suite has a short cut.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.lan.helpers import Peer, PeerSet
from tests.netns import namespace_lan


def _game(root: Path, subnet: str, cut: float, victim: int, extra: list[str]) -> dict[str, object]:
    with namespace_lan(4, subnet) as lan, PeerSet(root) as peers:
        common = ["--bot", "random", "--quiet", "--stats", "--give-up-after", "600", *extra]

        def at(k: int) -> list[str]:
            return ["--listen", lan.addresses[k], "--interface", lan.addresses[k]]

        host = peers.spawn(
            "host",
            "host",
            "--auto-approve",
            "--no-announce",
            *common,
            *at(0),
            netns=lan.namespaces[0],
        )
        port = host.wait_for(r"lobby port (\d+)", 30).group(1)
        everyone: list[Peer] = [host]
        for k in range(1, 4):
            everyone.append(
                peers.spawn(
                    f"joiner{k}",
                    "join",
                    "--connect",
                    f"{lan.addresses[0]}:{port}",
                    *common,
                    *at(k),
                    netns=lan.namespaces[k],
                )
            )
            everyone[-1].wait_for(r"seats: ", 30)
        cut_at = None
        if cut:
            _wait_for_transcript(everyone[victim], 8_000)  # in the first deal
            cut_at = time.monotonic()
            lan.link(victim, up=False)
            time.sleep(cut)
            lan.link(victim, up=True)
        peers.wait(everyone, 600 + cut)
        stats = [p.stats() for p in everyone]
    return {"cut_at": cut_at, "stats": stats}


def _wait_for_transcript(peer: Peer, size: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        files = list(peer.home.glob("games/*/transcript.p2pb"))
        if files and files[0].stat().st_size >= size:
            return
        time.sleep(0.05)
    raise RuntimeError(f"{peer.name}'s game did not start:\n{peer.dump()}")


def _report(name: str, game: dict[str, object], cut: float) -> dict[str, object]:
    stats = game["stats"]
    assert isinstance(stats, list)
    deals = stats[0]["deals"]
    deal_ms = stats[0]["deal_ms"]
    out: dict[str, object] = {
        "game": name,
        "deals": deals,
        "finished": all(s["finished"] for s in stats),
        "bytes_sent": [s["bytes_sent"] for s in stats],
        "frames_sent": [s["frames_sent"] for s in stats],
        "bytes_per_deal": [round(s["bytes_sent"] / max(1, s["deals"])) for s in stats],
        "deal_ms_median": round(statistics.median(deal_ms), 1) if deal_ms else None,
    }
    if cut:
        during = next((i for i, ms in enumerate(deal_ms) if ms >= cut * 1000 * 0.9), None)
        out["deal_with_the_cut"] = during
        if during is not None:
            out["deal_ms_before_the_cut"] = deal_ms[:during]
            out["deal_ms_of_the_cut"] = deal_ms[during]
            out["deal_ms_after_the_cut"] = deal_ms[during + 1 :]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cut", type=float, default=60.0, help="seconds without a cable")
    parser.add_argument("--victim", type=int, default=2, help="whose cable (1-3: a joiner)")
    parser.add_argument("--no-baseline", action="store_true", help="only the game with the cut")
    parser.add_argument(
        "--min-deals-after", type=int, default=3, help="play again until this many follow"
    )
    parser.add_argument("extra", nargs="*", help="more options for every peer (after --)")
    args = parser.parse_args()
    reports = []
    with TemporaryDirectory() as tmp:
        if not args.no_baseline:
            normal = _game(Path(tmp) / "normal", "10.79.0", 0, args.victim, args.extra)
            reports.append(_report("normal", normal, 0))
        # A game may end after one deal: play again until deals follow the cut.
        for attempt in range(1, 6):
            cut = _game(Path(tmp) / f"cut{attempt}", "10.79.1", args.cut, args.victim, args.extra)
            report = _report(f"cut {args.cut:.0f} s (peer {args.victim})", cut, args.cut)
            report["attempt"] = attempt
            if len(report.get("deal_ms_after_the_cut", [])) >= args.min_deals_after:
                break
        reports.append(report)
    for report in reports:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
