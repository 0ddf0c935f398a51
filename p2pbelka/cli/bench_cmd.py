"""``p2pbelka bench TOPIC [--json]``: print figures measured on this machine."""

from __future__ import annotations

import argparse
import importlib
import json

# topic -> module under p2pbelka.bench; each has ``run(quick: bool) -> dict[str, object]``
TOPICS: dict[str, str] = {
    "rules": "rules",
    "deal": "deal",
    "transport": "transport",
    "net": "net",
    "bots": "bots",
    "model": "model",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("topic", choices=sorted(TOPICS), help="what to measure")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quick", action="store_true", help="a short run, for smoke tests")


def run(args: argparse.Namespace) -> int:
    module = importlib.import_module(f"p2pbelka.bench.{TOPICS[args.topic]}")
    figures: dict[str, object] = module.run(quick=args.quick)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        width = max(len(key) for key in figures)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0
