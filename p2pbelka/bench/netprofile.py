"""Where a LAN peer's CPU goes: ``p2pbelka bench net --profile``.

One game as ``bench net`` plays it, every peer process run under ``cProfile``;
each function's own time (``tottime``) is put in one bucket (the group's
multiplications, signatures, disk syncs, sockets, trio, msgpack, a p2pbelka
layer, start-up and imports, the rest of the standard library), summed over the
peers and divided by peers and deals.  Time spent waiting in ``epoll`` is idle,
not CPU, and is left out; start-up is reported as a bucket of its own rather
than spread over the deals' figures.  The profiler itself slows pure-Python
code more than C calls, so the shares lean towards Python: read them as where
to look, and the plain ``bench net`` for how fast.
"""

from __future__ import annotations

import pstats
import tempfile
from collections import defaultdict
from pathlib import Path

from p2pbelka.rules import registry

# (bucket, test on "file:function"); the first that matches wins.
_C_CALLS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("idle", ("epoll' objects",)),
    ("group multiplications", ("_libsecp256k1.", "crypto_scalarmult", "crypto_core_ed25519")),
    ("signatures", ("crypto_sign",)),
    ("disk syncs", ("fdatasync", "posix.fsync")),
    # The main thread handing the GIL to a worker (a sync moved off the loop, the
    # next deal's seed): the profiler books the wait on the call that yielded.
    ("waiting on worker threads", ("_thread.lock' objects", "_thread.RLock' objects")),
    ("scalar arithmetic (pow)", ("builtins.pow",)),
    # ``posix.write``: frames a link hands to the kernel at once (``send_now``); the
    # only other caller in a game is one 32-byte secret a deal.
    ("sockets", ("_socket.socket", "posix.write")),
    (
        "start-up and imports",
        (
            "builtins.compile",
            "builtins.exec",
            "marshal.loads",
            "_imp.",
            "io.open_code",
            "__build_class__",
        ),
    ),
)
_PATHS: tuple[tuple[str, str], ...] = (
    ("/importlib/", "start-up and imports"),
    ("<frozen", "start-up and imports"),
    ("/argparse.py", "start-up and imports"),
    ("/dataclasses.py", "start-up and imports"),
    ("/enum.py", "start-up and imports"),
    ("/trio/", "trio"),
    ("/msgpack/", "msgpack"),
    ("/nacl/", "signatures"),
    ("/coincurve/", "group multiplications"),
    ("/p2pbelka/cli/", "start-up and imports"),
)
LAYERS = ("fairdeal", "protocol", "net", "peer", "table", "rules", "bots", "cards")


def bucket(path: str, name: str) -> str:
    """The bucket of one profiled function (``path`` as cProfile names the file)."""
    where = f"{path}:{name}"
    for label, needles in _C_CALLS:
        if any(needle in where for needle in needles):
            return label
    for needle, label in _PATHS:
        if needle in path:
            return label
    if "/p2pbelka/" in path:
        layer = path.split("/p2pbelka/", 1)[1].split("/", 1)[0]
        return f"p2pbelka.{layer}" if layer in LAYERS else "p2pbelka, other"
    return "standard library and other"


def breakdown(profiles: list[Path], deals: int) -> dict[str, float]:
    """Milliseconds per peer per deal in each bucket, largest first (idle left out)."""
    totals: dict[str, float] = defaultdict(float)
    for path in profiles:
        stats = pstats.Stats(str(path))
        for (file, _line, name), row in stats.stats.items():  # type: ignore[attr-defined]
            totals[bucket(file, name)] += row[2]  # tottime, seconds
    totals.pop("idle", None)
    scale = 1000 / max(1, len(profiles)) / max(1, deals)
    return {
        label: round(seconds * scale, 2)
        for label, seconds in sorted(totals.items(), key=lambda item: -item[1])
    }


def run(
    quick: bool = False, game: str = registry.DEFAULT, players: int | None = None
) -> dict[str, object]:
    """One profiled game (``quick`` changes nothing: a profile needs a whole game)."""
    from p2pbelka.bench.net import one_game

    seats = players or registry.spec(game).default_seats
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        profiles = root / "profiles"
        profiles.mkdir()
        stats = one_game(root / "game", game, seats, profile_dir=profiles)
        deals = int(stats[0]["deals"])
        shares = breakdown(sorted(profiles.glob("*.prof")), deals)
    total = sum(shares.values())
    startup = shares.get("start-up and imports", 0.0)
    figures: dict[str, object] = {
        "game": game,
        "peers": seats,
        "deals": deals,
        "profiled_cpu_ms_per_peer_per_deal": round(total, 1),
        "profiled_cpu_ms_per_peer_per_deal_without_startup": round(total - startup, 1),
    }
    for label, ms in shares.items():
        figures[f"profile: {label}"] = f"{ms} ms ({100 * ms / total:.0f}%)" if total else ms
    return figures
