"""``exchanges/ladder-share.json``: two ledgers share results (protocol/results.md
section 6), every payload in the order it is delivered, and the state each side ends in.

Keys: member ``n``'s Ed25519 seed is SHA-256 of ``p2pbelka/share-vector/member <n>``;
``a`` is member 0's ledger, ``b`` member 1's.  Every certificate is a Belka game with
no play behind it (``bench.ladder.certificate_of``: the table and every seat's close,
made by the seat 0 player), dated from ``AT`` on.  Delivery: both sides' ``have`` go
first, then each payload is delivered in the order it was sent and the answers go to
the back of the line.  A ``probe`` side is not the reference: it sends what its case
says, all at once, and the reference side stops at the first payload it refuses.  A
``table`` case is the exchange at a table's end (SPEC.md 7.3): every payload is the
``ladder`` control message that carries it, and both sides ask for the game just
played (``table``, its id) though each holds a certificate of it; ``b``'s, made by
member 1 half a minute before ``a``'s, is the one both keep.  A ``lobby`` case is the
exchange in a lobby (results.md 6.2): every payload wrapped as at a table, and no game
just played.  ``replay`` runs a case again from the file's bytes alone.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from p2pbelka.bench.exchange_beacons import GAME
from p2pbelka.bench.ladder import certificate_of
from p2pbelka.ladder.certificate import CLOSED, Outcome, read, seal
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.share import ShareError, Sharing, is_wrapped, unwrap, wrap
from p2pbelka.protocol.codec import decode, encode
from p2pbelka.protocol.envelope import Signer

AT = 1767225600
"""2026-01-01T00:00:00Z: the first game's date; game ``n`` is ``n`` minutes after it."""
GAMES = {
    0: (0, 1, 2, 3),  # a and b at one table: each then takes the other's results
    1: (0, 2, 1, 3),
    2: (0, 4, 2, 5),  # a with e and f, whom b never met
    3: (1, 3, 2, 0),
    4: (1, 2, 3, 4),  # b with c, d and e, without a
    7: (2, 3, 4, 1),  # b, c, d, e again, a certificate a holds as given
}
"""Game number: the members at its seats 0 to 3."""
CASES: list[dict[str, Any]] = [
    {
        "name": "each-lacks-some",
        "about": "a and b sat at game 0; each takes the other's games, all counted",
        "a": [0, 1, 2],
        "b": [0, 3],
    },
    {
        "name": "strangers",
        "about": "a and b never sat together: only a game between keys one met counts",
        "a": [2, 7],
        "b": [4],
    },
    {
        "name": "at-a-table",
        "about": "a and b just played game 0, each with its own certificate of it: each"
        " takes the other's games and both keep b's, the earlier, of game 0",
        "a": [0, 1, 2],
        "b": ["0b", 3],
        "table": 0,
    },
    {
        "name": "in-a-lobby",
        "about": "a (the host) and b (a joiner it seated) sat at game 0 before: in the"
        " lobby, every payload wrapped, each takes the other's games",
        "a": [0, 1, 2],
        "b": [0, 3],
        "lobby": True,
    },
    {
        "name": "junk",
        "about": "the probe (b's key) sends bytes that are no certificate: refused",
        "a": [0, 1],
        "probe": [["have", [3]], ["certs", ["junk"]]],
    },
    {
        "name": "too-many",
        "about": "the probe sends two certificates for the one asked: the first counts",
        "a": [0, 1],
        "probe": [["have", [3]], ["certs", [3, 4]]],
    },
    {
        "name": "out-of-order",
        "about": "the probe's have names its ids in descending order: refused",
        "a": [0],
        "probe": [["have", [4, 3]]],
    },
]


def member(n: int) -> Signer:
    return Signer.from_seed(hashlib.sha256(f"p2pbelka/share-vector/member {n}".encode()).digest())


def certificates() -> dict[int, bytes]:
    """Every game's certificate by game number."""
    out = {}
    for n, seats in GAMES.items():
        signers = [member(s) for s in seats]
        names = [f"member {s}" for s in seats]
        outcome = Outcome(n % 2, (12, n % 12) if n % 2 == 0 else (n % 12, 12))
        out[n] = certificate_of(signers, GAME, outcome, AT + 60 * n, names).raw
    return out


def second_maker(raw: bytes) -> bytes:
    """The same game's certificate made by member 1, half a minute earlier."""
    made = read(raw)
    return seal(CLOSED, made.table, made.outcome, made.at - 30, member(1), made.ends).raw


def game_id(raw: bytes) -> bytes:
    """A certificate's game id, as the ledger keys it."""
    return read(raw).game_id


def probe_payloads(script: Sequence[Sequence[Any]], certs: dict[int, bytes]) -> list[bytes]:
    """The payloads a probe sends: its ``have`` names games (in the order given, right
    or wrong), its ``certs`` games' certificates or the bytes of a string."""
    out = []
    for kind, items in script:
        if kind == "have":
            out.append(encode({"have": b"".join(game_id(certs[n]) for n in items), "t": "have"}))
        else:
            blobs = [certs[n] if isinstance(n, int) else n.encode() for n in items]
            out.append(encode({"certs": blobs, "t": "certs"}))
    return out


def share() -> dict[str, Any]:
    certs = certificates()
    cases: list[dict[str, Any]] = []
    for case in CASES:
        holds: dict[str, list[bytes]] = {
            side: [certs[n] if n != "0b" else second_maker(certs[0]) for n in case[side]]
            for side in ("a", "b")
            if side in case
        }
        probe = probe_payloads(case["probe"], certs) if "probe" in case else None
        table = game_id(certs[case["table"]]) if "table" in case else None
        lobby = bool(case.get("lobby"))
        messages, end = run(holds, probe, table, lobby=lobby)
        written: dict[str, Any] = {"name": case["name"], "about": case["about"]}
        written |= _hex_holds(holds)
        written |= {"table": table.hex()} if table is not None else {}
        written |= {"lobby": True} if lobby else {}
        written |= {"probe": "probe" in case, "messages": messages, "end": end}
        cases.append(written)
    return {
        "about": __doc__.split("\n\n")[0].replace("\n", " ") if __doc__ else "",
        "keys": {side: member(n).public_key.hex() for side, n in (("a", 0), ("b", 1))},
        "cases": cases,
    }


def _hex_holds(holds: dict[str, list[bytes]]) -> dict[str, list[str]]:
    return {f"{side}_holds": [c.hex() for c in certs] for side, certs in holds.items()}


def replay(case: dict[str, Any]) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """A case run again from the file's bytes: its certificates, and, for a probe, the
    payloads the file says it sent."""
    holds = {
        side: [bytes.fromhex(c) for c in case[f"{side}_holds"]]
        for side in ("a", "b")
        if f"{side}_holds" in case
    }
    probe = None
    if case["probe"]:
        probe = [bytes.fromhex(m["payload"]) for m in case["messages"] if m["from"] == "b"]
    table = bytes.fromhex(case["table"]) if "table" in case else None
    return run(holds, probe, table, lobby=bool(case.get("lobby")))


def run(
    holds: dict[str, list[bytes]],
    probe: list[bytes] | None,
    table: bytes | None = None,
    *,
    lobby: bool = False,
) -> tuple[list[dict[str, str]], dict[str, Any]]:
    """The exchange between ``a`` (the reference) and ``b`` (the reference, or a probe
    sending ``probe``): every payload delivered, and each reference side's end; with
    ``table``, at a table's end after game ``table``; with ``lobby``, in a lobby."""
    keys = {"a": member(0).public_key, "b": member(1).public_key}
    with tempfile.TemporaryDirectory() as folder:
        ledgers = {
            side: Ledger(Path(folder) / f"{side}.sqlite", keys[side])
            for side in ("a", "b")
            if side == "a" or probe is None
        }
        for side, ledger in ledgers.items():
            for raw in holds[side]:
                ledger.add(raw, "played")
        also = frozenset([table] if table is not None else [])
        sides = {
            side: Sharing(dict(ledger.certificates()), also) for side, ledger in ledgers.items()
        }
        line = [("a", m) for m in sides["a"].start()]
        line += [("b", m) for m in (probe if probe is not None else sides["b"].start())]
        messages, errors = _deliver(sides, line, wrapped=table is not None or lobby)
        end = {}
        for side, ledger in ledgers.items():
            other = keys["b" if side == "a" else "a"]
            sharing = sides[side]
            counted = [
                raw
                for raw in sharing.received
                if ledger.add_shared(raw, other, sharing.wanted) is not None
            ]
            end[side] = {
                "wanted": [i.hex() for i in sorted(sharing.wanted)],
                "came": len(sharing.received),
                "counted": [game_id(c).hex() for c in counted],
                "holds": [i.hex() for i, _ in ledger.certificates()],
                "makers": [read(c).by.hex()[:16] for _, c in ledger.certificates()],
                "finished": sharing.done,
                "error": errors.get(side, ""),
            }
            ledger.close()
    return messages, end


def _deliver(
    sides: dict[str, Sharing], line: list[tuple[str, bytes]], *, wrapped: bool = False
) -> tuple[list[dict[str, str]], dict[str, str]]:
    """Deliver each payload in turn, the answers to the back of the line (``wrapped``:
    each in the ``ladder`` message that carries it at a table); a side that refuses one
    stops (its error kept), and nothing more reaches it."""
    messages: list[dict[str, str]] = []
    errors: dict[str, str] = {}
    if wrapped:
        line = [(sender, wrap(m)) for sender, m in line]
    while line:
        sender, payload = line.pop(0)
        inner = unwrap(payload) if is_wrapped(payload) else payload
        kind = decode(inner, "share")["t"]  # every payload here is a map with its t
        messages.append({"from": sender, "t": str(kind), "payload": payload.hex()})
        to = "b" if sender == "a" else "a"
        if to not in sides or to in errors:
            continue
        try:
            answers = sides[to].receive(inner)
            line += [(to, wrap(m) if wrapped else m) for m in answers]
        except ShareError as exc:
            errors[to] = str(exc)
    return messages, errors
