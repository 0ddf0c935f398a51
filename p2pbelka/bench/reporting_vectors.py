"""The edits behind the reporting and framing path vectors (protocol/SPEC.md sections
3.2, 3.3 and 5.1): a `table` each check refuses, a body or an encoding each rule of
sections 1 to 3.3 breaks, each kind of bad framing, a sender the table does not
seat.  Each edit takes the first records of a seeded game (``path_vectors.play``)
and signs what it changes with the key of the seat that sent it (or, where the
point is a key nobody seated, an outsider's), so the only thing wrong in a file is
the thing its vector is named for.  Game-independent: a game's ``paths.py`` lists
the vectors (``PathVector(edit=..., frame=...)``).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2pbelka.peer.local import LocalGame
from p2pbelka.protocol.codec import encode
from p2pbelka.protocol.envelope import VERSION, Envelope, Signer
from p2pbelka.protocol.ids import game_id_of
from p2pbelka.protocol.transcript import MAGIC, OLD_MAGICS
from p2pbelka.rules import registry
from p2pbelka.table.report import VerifyReport
from p2pbelka.table.verify import verify_bytes

Edit = Callable[[list[Envelope], LocalGame], list[bytes]]
Frame = Callable[[list[bytes]], bytes]

AT = 4
"""The record a bad body replaces: seat 0's ``lot_commit`` (after the table and the
three sits), with records after it, so the file goes on past the damage."""
KEEP = 8
"""Records of the game each body and framing vector keeps (the lot's commitments)."""
OUTSIDER = Signer.from_seed(hashlib.sha256(b"p2pbelka path vector: a key no table seats").digest())


def sealed(signer: Signer, parts: list[bytes]) -> bytes:
    """An envelope whose ``inner`` is the msgpack array of ``parts`` (each already
    encoded, so a part may break the canonical form), signed by ``signer``."""
    inner = bytes([0x90 + len(parts)]) + b"".join(parts)
    return encode([inner, signer.sign(inner)])


def fields(envelope: Envelope, **changes: Any) -> list[bytes]:
    """The encoded fields of ``envelope``'s ``inner``, some replaced (by name: ``type``,
    ``body``, ``seq``...; a ``bytes`` value of ``raw_<name>`` goes in as it is)."""
    values: dict[str, Any] = {
        "version": VERSION,
        "game": envelope.game,
        "deal": envelope.deal,
        "seq": envelope.seq,
        "prev": envelope.prev,
        "sender": envelope.sender,
        "view": [[count, head] for count, head in envelope.view],
        "type": envelope.type,
        "body": envelope.msg.to_wire(),
    }
    out = []
    for name, value in values.items():
        raw = changes.get(f"raw_{name}")
        out.append(raw if raw is not None else encode(changes.get(name, value)))
    return out


def _signer(game: LocalGame, envelope: Envelope) -> Signer:
    return next(s for s in game.signers if s.public_key == envelope.sender)


# -- the table (SPEC 3.2: refused, a record that reads; 3.3: malformed, one that does not)


def table_edit(
    change: Callable[[dict[str, Any]], None], outsider: bool = False, **envelope_changes: Any
) -> Edit:
    """The game's ``table`` with ``change`` made to its body, sealed under the id its
    (changed) nonces give, so nothing but the change is wrong (``outsider``: signed by a
    key no seat holds); then the three sits, which a reader never reaches."""

    def edit(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
        table = envelopes[0]
        body = table.msg.to_wire()
        change(body)
        changes: dict[str, Any] = {"body": body, **envelope_changes}
        nonces = body.get("nonces")
        if isinstance(nonces, list) and all(isinstance(n, bytes) for n in nonces):
            changes.setdefault("game", game_id_of(nonces))
        signer = OUTSIDER if outsider else _signer(game, table)
        changes["sender"] = signer.public_key
        return [sealed(signer, fields(table, **changes)), *(e.raw for e in envelopes[1:AT])]

    return edit


def setting(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        body[key] = value
        body_sorted = dict(sorted(body.items()))
        body.clear()
        body.update(body_sorted)

    return change


def dropping(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda body: body.pop(key)


def three_seats(body: dict[str, Any]) -> None:
    """Belka with three seats (and three nonces: the id is theirs)."""
    body["seats"] = body["seats"][:3]
    body["nonces"] = body["nonces"][:3]


def option(name: str, value: str) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        body["options"] = dict(sorted({**body["options"], name: value}.items()))

    return change


def seat_key(seat: int, key: bytes | None) -> Callable[[dict[str, Any]], None]:
    """``seat`` holding ``key`` (None: the key of the seat before it)."""

    def change(body: dict[str, Any]) -> None:
        held = key if key is not None else body["seats"][seat - 1][0]
        body["seats"][seat] = [held, body["seats"][seat][1]]

    return change


def first_nonces(count: int) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        body["nonces"] = body["nonces"][:count]

    return change


def seat_name(seat: int, name: str) -> Callable[[dict[str, Any]], None]:
    def change(body: dict[str, Any]) -> None:
        body["seats"][seat] = [body["seats"][seat][0], name]

    return change


def no_table(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """The file starts at seat 1's ``sit``: record 0 is no table description."""
    return [e.raw for e in envelopes[1:AT]]


# -- a bad body or encoding (SPEC 1, 2 and 3.3: the record does not read) -----------------


def body_edit(**changes: Any) -> Edit:
    """Record ``AT`` (seat 0's ``lot_commit``) with some of its fields replaced, signed
    again by seat 0; the records after it follow as they were."""

    def edit(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
        envelope = envelopes[AT]
        raw = sealed(_signer(game, envelope), fields(envelope, **changes))
        return [*(e.raw for e in envelopes[:AT]), raw, *(e.raw for e in envelopes[AT + 1 : KEEP])]

    return edit


def outer_edit(make: Callable[[bytes, bytes], bytes]) -> Edit:
    """Record ``AT`` whose outer array is ``make(inner, signature)`` (the signature
    still good): what surrounds ``inner`` is what breaks."""

    def edit(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
        envelope = envelopes[AT]
        inner = bytes([0x99]) + b"".join(fields(envelope))
        raw = make(inner, _signer(game, envelope).sign(inner))
        return [*(e.raw for e in envelopes[:AT]), raw, *(e.raw for e in envelopes[AT + 1 : KEEP])]

    return edit


def trailing_byte(inner: bytes, signature: bytes) -> bytes:
    """The envelope, then one byte more inside the record."""
    return encode([inner, signature]) + b"\x00"


def unseated(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """After the table and the sits, a ``lot_commit`` signed by a key no seat holds, as
    its first envelope (seq 0), viewing the chains as seat 0 did: a record that reads
    but names no seat."""
    envelope = envelopes[AT]
    parts = fields(envelope, sender=OUTSIDER.public_key, seq=0, prev=bytes(32))
    return [*(e.raw for e in envelopes[:AT]), sealed(OUTSIDER, parts)]


def first(count: int) -> Edit:
    return lambda envelopes, game: [e.raw for e in envelopes[:count]]


# -- framing (SPEC 5.1) -----------------------------------------------------------------


def _record(raw: bytes) -> bytes:
    return len(raw).to_bytes(4, "big") + raw


def magic(prefix: bytes) -> Frame:
    """The records under another 16-byte start than the magic."""
    assert len(prefix) == len(MAGIC)
    return lambda raws: prefix + b"".join(map(_record, raws))


PROTOCOL_1 = next(k for k, v in OLD_MAGICS.items() if v == 1)


def length_at(index: int, length: int) -> Frame:
    """Record ``index`` announced with ``length`` (0, or over the limit), its bytes
    and every record after it as they were."""

    def frame(raws: list[bytes]) -> bytes:
        body = [
            _record(r) if i != index else length.to_bytes(4, "big") + r for i, r in enumerate(raws)
        ]
        return MAGIC + b"".join(body)

    return frame


def cut(keep: int) -> Frame:
    """The whole file but its last ``keep``-th byte and everything after: ``keep`` bytes
    of the last record stay (fewer than 4: its length is cut off)."""

    def frame(raws: list[bytes]) -> bytes:
        whole = MAGIC + b"".join(map(_record, raws[:-1]))
        return whole + _record(raws[-1])[:keep]

    return frame


def unreadable_last(raws: list[bytes]) -> bytes:
    """The last record's length and bytes all there, the bytes no envelope (its
    signature cut to 63 bytes, the length saying so)."""
    last = raws[-1][:-1]
    last = last[:-65] + bytes([0xC4, 63]) + last[-63:]
    return MAGIC + b"".join(map(_record, [*raws[:-1], last]))


ZERO_KEY = bytes([1]) + bytes(31)
"""The neutral point's encoding: of small order, never a sound key."""


# -- verify's exit status and options (SPEC 5.1), on the vectors' own files ---------------

CLI_NAME = "verify-cli"
OUT = "OUT"
"""In a case's ``args``: the path of the game record ``--record`` writes."""


@dataclass(frozen=True)
class CliCase:
    name: str
    file: str
    """Relative to protocol/vectors."""
    args: tuple[str, ...]
    what: str


CLI_CASES = (
    CliCase("ok", "paths/game-ok.p2pb", (), "OK: status 0"),
    CliCase("ok-json", "paths/game-ok.p2pb", ("--json",), "OK as JSON: status 0"),
    CliCase(
        "record",
        "paths/game-ok.p2pb",
        ("--record", OUT),
        "--record writes the audited deals as a game record (docs/records.md): status 0",
    ),
    CliCase(
        "record-none",
        "paths/table-preset.p2pb",
        ("--record", OUT),
        "--record on a file with no audited deal writes nothing: status 1",
    ),
    CliCase("incomplete", "paths/host-seat-2.p2pb", (), "INCOMPLETE: status 1"),
    CliCase(
        "damaged",
        "paths/frame-cut-record.p2pb",
        ("--json",),
        "INCOMPLETE, the last record cut short: damaged_at its offset, status 1",
    ),
    CliCase("disputed", "paths/dispute-odd-seats.p2pb", ("--json",), "DISPUTED: status 1; deal 1"),
    CliCase(
        "proven-before-deal-1",
        "paths/view-ahead.p2pb",
        ("--json",),
        "CHEATING PROVEN in the lot: status 1; the fault's deal null",
    ),
    CliCase(
        "proven-audit", "paths/wrong-share.p2pb", ("--json",), "CHEATING PROVEN at an audit: deal 1"
    ),
    CliCase(
        "reneges",
        "paths/eyes-reneges.p2pb",
        ("--json",),
        "OK with two renege charges (not fatal, proven), deals 1 and 2: status 0",
    ),
    CliCase("invalid", "paths/invalid-order.p2pb", (), "INVALID at record 2: status 1"),
    CliCase(
        "invalid-unread",
        "paths/body-type.p2pb",
        (),
        "INVALID: record 4 does not read, after records that did: status 1",
    ),
    CliCase(
        "refused-record-0",
        "paths/table-preset.p2pb",
        (),
        "INVALID: record 0 reads and is refused: status 1",
    ),
    CliCase(
        "malformed-record-0",
        "paths/table-no-nonces.p2pb",
        (),
        "INVALID: record 0 does not read: status 2 (the verdict on standard error)",
    ),
    CliCase("no-record", "no-record.p2pb", (), "the magic and no record: status 2"),
    CliCase("bad-magic", "paths/frame-magic.p2pb", (), "no magic: status 2"),
    CliCase("protocol-1", "paths/frame-protocol-1.p2pb", (), "the protocol-1 magic: status 2"),
    CliCase("cut-record-0", "paths/frame-cut-first.p2pb", (), "record 0 cut short: status 2"),
    CliCase("missing-file", "paths/no-such-file.p2pb", (), "no such file: status 2"),
    CliCase(
        "passes-cancel",
        "paths/passes-cancel.p2pb",
        ("--json",),
        "deviations that cancel: plain verify says OK (status 0)",
    ),
    CliCase(
        "every-pass",
        "paths/passes-cancel.p2pb",
        ("--every-pass", "--json"),
        "--every-pass replays every pass: CHEATING PROVEN naming seats 1 and 3 in"
        " every deal, the whole file read (status 1)",
    ),
)


def cli_expected(root: Path, case: CliCase) -> dict[str, Any]:
    """What ``p2pbelka verify`` must do on ``case`` (SPEC 5.1): its exit status, the
    first word of its verdict and where it is printed, and with ``--json`` the
    report's fields a second implementation must match; with ``--record``, the game
    record written (null: none)."""
    path = root / case.file
    if not path.is_file():
        return {"exit_status": 2, "verdict": None, "stream": "stderr"}
    report = verify_bytes(path.read_bytes(), every_pass="--every-pass" in case.args)
    status = 2 if report.malformed else (0 if report.ok else 1)
    out: dict[str, Any] = {
        "exit_status": status,
        "verdict": report.verdict.split(":", 1)[0],
        "stream": "stderr" if status == 2 else "stdout",
    }
    if "--json" in case.args and status != 2:
        out["json"] = {
            "ok": report.ok,
            "records": report.records,
            "damaged_at": report.cut_at,
            "faults": [
                {"seat": f.seat, "deal": f.deal, "proven": f.proven, "fatal": f.fatal}
                for f in report.faults
            ],
            "score": list(report.score) if report.score is not None else None,
            "winner": report.winner,
        }
    if OUT in case.args:
        out["record"] = _record_of(report) if status != 2 else None
    return out


def _record_of(report: VerifyReport) -> Any:
    game = report.game
    if report.game_name is None or game is None or not game.history:
        return None
    return registry.spec(report.game_name).records.finished_to_record(game)


def cli_vector(root: Path) -> dict[str, Any]:
    return {
        "about": "p2pbelka verify vector: for each case, the file (relative to this"
        " directory), the arguments after it (OUT: a path for the game record), and what"
        " verify must do: its exit status, the first word of its verdict, the stream it"
        " is printed on (stdout, or stderr for a file that is no transcript), with --json"
        " the report's fields, with --record the record written (null: no file)."
        " protocol/SPEC.md section 5.1",
        "cases": [
            {"name": c.name, "what": c.what, "file": c.file, "args": list(c.args)}
            | cli_expected(root, c)
            for c in CLI_CASES
        ],
    }


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path("protocol/vectors")
    text = json.dumps(cli_vector(root), indent=1, ensure_ascii=False)
    (root / f"{CLI_NAME}.json").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
