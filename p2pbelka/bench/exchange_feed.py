"""Exchange vectors of a watcher's feed at the host (protocol/SPEC.md section 7.5):
what the host sends first to an admitted watcher (``watching``, ``alive``, the records
from the index it asked for), and after the host cut its transcript back (``rewind``):
a watcher fed before that asks from past the cut gets ``rewind`` and the records from
the cut, once; one asking from before the cut, or never fed, gets the records from
its index; one never fed asking past the end is refused.

The records are real envelopes of ``exchange_game``'s seeded game (seat 0's transcript
after the first deal); after the cut the host appends seat 1's records from the cut
on (another order of the same game, as a host that took its seat back appends the
game the others played).  The host's side is the reference's ``Feed`` (its sans-IO
part: ``record``, ``rewind``, ``refusal``, ``opening``).
"""

from __future__ import annotations

from typing import Any

from p2pbelka.bench.exchange_game import lost_game
from p2pbelka.net.identity import Identity
from p2pbelka.peer.lan.watchers import Feed
from p2pbelka.protocol import lobby as lb

KEPT = 6
"""Records the host holds before the cut."""
CUT = 3
DANA, EVE = (Identity.from_seed(bytes([seed]) * 32).public_key for seed in (0x21, 0x22))


def _answer(feed: Feed, who: bytes, start: int) -> dict[str, Any]:
    why = feed.refusal(who, start)
    sent = [lb.encode_control(lb.Refuse(why))] if why else feed.opening(who, start)
    return {"watch": lb.encode_control(lb.Watch("Dana" if who == DANA else "Eve", start)).hex(),
            "refused": why, "sent": [p.hex() for p in sent]}  # fmt: skip


def feed() -> dict[str, Any]:
    _local, tables, _seed = lost_game()
    first = tables[0].view.transcript[:KEPT]
    later = tables[1].view.transcript[CUT : KEPT + 1]
    host = Feed(2)
    for envelope in first:
        host.record(envelope)
    steps = [{"path": "Dana watches from 0", "held": len(host.records),
              **_answer(host, DANA, 0)}]  # fmt: skip
    host.admitted.append(DANA)
    host.rewind(CUT)
    for envelope in later:
        host.record(envelope)
    held = len(host.records)
    for path, who, start in (
        (f"Eve, never fed, asks from {held + 1}", EVE, held + 1),
        (f"Dana, fed before the cut to {CUT}, asks again from {held + 1}", DANA, held + 1),
        (f"Dana asks once more from {held}: told once", DANA, held),
        (f"Eve asks from {CUT - 1}", EVE, CUT - 1),
    ):
        steps.append({"path": path, "held": held, **_answer(host, who, start)})
    if not steps[1]["refused"] or steps[2]["refused"]:
        raise AssertionError(steps)
    return {
        "about": "SPEC.md section 7.5, the host's side of a watcher's feed: Dana's key is "
        "Ed25519 of the seed 0x21 x 32, Eve's 0x22; `held` is how many records the "
        f"host's transcript holds; after the first step the host cuts it back to {CUT} "
        "records (it took its seat back) and appends the game the others played; each "
        "step is a `watch` and what the host sends first (`sent`: `watching`, `alive`, "
        "then `rewind` and the records, or `refuse`)",
        "records": [e.raw.hex() for e in first],
        "after_cut": [e.raw.hex() for e in later],
        "steps": steps,
    }
