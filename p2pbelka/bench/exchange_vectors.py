"""Vectors of the exchanges on the wire that are not files: ``protocol/vectors/exchanges/``.

Each JSON gives a path as the bytes of each message (hex), who sends it, and the state
each side ends in, in the words of protocol/SPEC.md and transport.md, from fixed keys
and seeds (protocol/vectors/README.md, "Exchanges", lists them):

- ``beacons.json``: the beacon listener's rules (transport.md section 5.2), a beacon
  with ``watch``;
- ``dnssd.json``: the DNS-SD record and the hints a listener keeps (section 5.4);
- ``chat.json``: chat lines said and heard, the host's checks of a watcher's lines,
  the ``/watching`` line (SPEC.md sections 7.4 and 7.5);
- ``control.json``: every control message, the payloads refused, a lobby from its
  first ``lobby`` to ``start``, a watcher's admission (sections 7.1 to 7.5, 9.4, 9.5);
- ``watchers.json``: what the host sends a watcher first, before and after it cut
  its transcript back (``rewind``, section 7.5);
- ``recovery.json``: a ``resend`` and its answer (section 7.3);
- ``seat-change.json``: an offer, its agreements, the sealed continuation, the
  refusals and ``seat_closed`` (sections 9.2 to 9.4);
- ``seat-change-run.json``: the same change as the peers' machines run it, message
  by message with every seat's state: agreed, declined over a line of links, timed
  out (section 9.4);
- ``hand-back.json``: the seat taken back by its player (``seat_reclaim``, the bot
  stopped before its next deal, the offer to the player's key with its nonce, the
  continuation it takes; one with another nonce it refuses: section 9.5);
- ``beacon-cap.json``: the listener's cap of 256 tables (transport.md 5.2, rule 6);
- ``host-door.json``: the host's lobby door and a watcher's feed as its trio tasks
  run them under a mock clock: ``wait``, the 10 s for ``hello``, a removed key, the
  pace of ``alive`` and ``fed`` at the end (sections 7.2, 7.5);
- ``linger.json``: ``done`` and the linger after it on a seat's mesh (section 7.3);
- ``seat-chain.json``: the answer to ``seat_chain`` as a seat's reclaimer and mesh
  send it (section 9.5);
- ``watcher-alive.json``: ``alive`` as the reference watcher takes it: a host silent
  after ``alive`` taken for away at 20 s, one that never sends it waited on (7.5);
- ``top-up.json``: a watching player's top-up, both ends the reference's (9.5);
- ``ladder-share.json``: two ledgers sharing results (one at a table's end), and probes
  refused (protocol/results.md section 6).

The transport's handshake refusals are in ``transport.json`` (``transport_vectors``).
``python -m p2pbelka.bench.exchange_vectors`` rewrites the files; the suite
regenerates them byte for byte and replays each from its bytes
(``tests/protocol/test_exchange_vectors.py``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from p2pbelka.bench import (
    exchange_beacons,
    exchange_cap,
    exchange_chat,
    exchange_dnssd,
    exchange_feed,
    exchange_game,
    exchange_handback,
    exchange_hostdoor,
    exchange_linger,
    exchange_lobby,
    exchange_machine,
    exchange_seatchain,
    exchange_share,
    exchange_topup,
    exchange_watchside,
)

DIRECTORY = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "exchanges"

VECTORS: dict[str, Callable[[], dict[str, Any]]] = {
    "beacons": exchange_beacons.beacons,
    "dnssd": exchange_dnssd.dnssd,
    "chat": exchange_chat.chat,
    "control": exchange_lobby.control,
    "watchers": exchange_feed.feed,
    "recovery": exchange_game.recovery,
    "seat-change": exchange_game.seat_change,
    "seat-change-run": exchange_machine.machine,
    "hand-back": exchange_handback.hand_back,
    "beacon-cap": exchange_cap.beacon_cap,
    "host-door": exchange_hostdoor.host_door,
    "linger": exchange_linger.linger,
    "seat-chain": exchange_seatchain.seat_chain,
    "watcher-alive": exchange_watchside.watcher_alive,
    "top-up": exchange_topup.top_up,
    "ladder-share": exchange_share.share,
}


def text(name: str) -> str:
    return json.dumps(VECTORS[name](), indent=1, ensure_ascii=False) + "\n"


def path(name: str) -> Path:
    return DIRECTORY / f"{name}.json"


def main(argv: list[str]) -> int:
    DIRECTORY.mkdir(parents=True, exist_ok=True)
    for name in argv or list(VECTORS):
        path(name).write_text(text(name), encoding="utf-8")
        print(f"wrote {path(name).name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
