"""A result certificate: a game's result without its whole transcript (protocol/results.md).

A game that ended by the closing exchange is proven by the host's ``table`` envelope
(the game, its seats' keys and names, the rules, and the nonces its id derives from)
and every seat's last word: its ``close``, or, for a seat that did not close, its
envelope at the head every close names (so it sat and played to the end).  A game that
ended with a seat proven cheating carries its transcript, which proves it.  A game
finished after a seat changed hands (a bot seated for a player gone, or the player back)
is proven by every segment's ``table`` (each continuation signed by every seat that kept
its place), the last envelope of each seat that left (so every key the result counts
for signed its place in it) and the last segment's last words.  A disputed or
unfinished game has no certificate.  Whoever makes one signs it (``by``): its outcome
and date are that key's word, checkable against the transcript the closes commit to.

Every check is the table's: ``open_envelope`` for each signature, ``check_table`` for
the table description, ``check_link`` for a continuation, ``verify_bytes`` for a proof.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.edkeys import is_sound_key, verify
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError, decode, encode
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope
from p2pbelka.protocol.transcript import MAGIC as TRANSCRIPT_MAGIC
from p2pbelka.protocol.transcript import encode_record
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table.opening import check_link, check_table
from p2pbelka.table.verify import verify_bytes

MAGIC = b"P2PBELKA-RES-v1\n"
LABEL = "p2pbelka/result/v1"
"""What a certificate's signature is over comes first in it (never an envelope's)."""
MAX_CERTIFICATE = 2 * 1024 * 1024
"""Largest certificate read, in bytes: a proof carries a transcript cut at its fault."""
LAST_DAY = 253_402_300_799
"""The last second a certificate may name (9999-12-31T23:59:59Z): any date prints."""
MAX_CHANGES = 32
"""Most continuations a chained certificate carries (a seat changes hands between
deals, and no evening's game has this many)."""
CLOSED, PROVEN, CHAINED = "closed", "proven", "chained"
KEYS = {
    CLOSED: ("at", "by", "ends", "kind", "outcome", "sig", "table", "v"),
    PROVEN: ("at", "by", "kind", "outcome", "sig", "table", "transcript", "v"),
    CHAINED: ("at", "by", "cuts", "ends", "kind", "outcome", "segments", "sig", "table", "v"),
}


class CertificateError(ValueError):
    """A certificate that does not check out; ``where`` names the byte, field or seat."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Outcome:
    """How the game ended.  Closed: ``winner`` is the winning side (an index into the
    game's ``teams``) and ``score`` each side's; proven: ``proven`` the seats proven
    cheating (their sides lose)."""

    winner: int | None = None
    score: tuple[int, ...] = ()
    proven: tuple[int, ...] = ()

    def to_wire(self) -> dict[str, object]:
        if self.winner is None:
            return {"proven": list(self.proven)}
        return {"score": list(self.score), "winner": self.winner}


@dataclass(frozen=True, slots=True)
class Certificate:
    raw: bytes
    """The whole file: ``MAGIC`` then the canonical map."""
    kind: str
    table: Envelope
    ends: tuple[Envelope, ...]
    transcript: bytes
    outcome: Outcome
    at: int
    """When the game ended, as its maker's clock said (seconds since 1970, UTC)."""
    by: bytes
    segments: tuple[Envelope, ...] = ()
    """Chained: each continuation's ``table``, in order (the game's first is ``table``)."""
    cuts: tuple[Envelope, ...] = ()
    """Chained: for each continuation, the last envelope of the seat that changed hands
    in the segment before it (at the head the continuation names)."""

    @property
    def setup(self) -> m.TableMsg:
        """The game's first table: its seats are the players the result counts for."""
        assert isinstance(self.table.msg, m.TableMsg)
        return self.table.msg

    @property
    def last(self) -> Envelope:
        """The ``table`` of the segment the game ended in (``ends`` are of it)."""
        return self.segments[-1] if self.segments else self.table

    @property
    def holders(self) -> tuple[tuple[bytes, ...], ...]:
        """Every key that held each seat, by seat, in the order they held it."""
        out: list[list[bytes]] = [[key] for key in self.keys]
        for segment in self.segments:
            assert isinstance(segment.msg, m.TableMsg) and segment.msg.after is not None
            seat = segment.msg.after.seat
            out[seat].append(segment.msg.seats[seat].key)
        return tuple(tuple(keys) for keys in out)

    @property
    def game_id(self) -> bytes:
        return self.table.game

    @property
    def keys(self) -> tuple[bytes, ...]:
        return tuple(s.key for s in self.setup.seats)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.setup.seats)

    @property
    def maker_seat(self) -> int | None:
        """The seat whose key made the certificate (a key that held it in any segment),
        None for a watcher's."""
        return next((s for s, keys in enumerate(self.holders) if self.by in keys), None)

    @property
    def unclosed(self) -> tuple[int, ...]:
        return tuple(i for i, e in enumerate(self.ends) if not isinstance(e.msg, m.CloseMsg))


def signed_bytes(body: dict[str, object]) -> bytes:
    """What ``sig`` signs: the label and the map without ``sig``, one msgpack array."""
    return encode([LABEL, {k: v for k, v in sorted(body.items()) if k != "sig"}])


def seal(
    kind: str,
    table: Envelope,
    outcome: Outcome,
    at: int,
    signer: Signer,
    ends: tuple[Envelope, ...] = (),
    transcript: bytes = b"",
    segments: tuple[Envelope, ...] = (),
    cuts: tuple[Envelope, ...] = (),
) -> Certificate:
    """A certificate signed by ``signer``, read back through ``read`` (so a certificate
    this code makes is one it accepts, or it raises)."""
    body: dict[str, object] = {
        "at": at,
        "by": signer.public_key,
        "kind": kind,
        "outcome": outcome.to_wire(),
        "table": table.raw,
        "v": 1,
    }
    if kind in (CLOSED, CHAINED):
        body["ends"] = [e.raw for e in ends]
    if kind == CHAINED:
        body["segments"] = [e.raw for e in segments]
        body["cuts"] = [e.raw for e in cuts]
    if kind == PROVEN:
        body["transcript"] = transcript
    body["sig"] = signer.sign(signed_bytes(body))
    return read(MAGIC + encode(dict(sorted(body.items()))))


def read(raw: bytes) -> Certificate:
    """Decode and check a certificate; ``CertificateError`` naming what is at fault."""
    if not raw.startswith(MAGIC):
        raise CertificateError("byte 0", "not a p2pbelka result certificate (bad magic)")
    try:
        body = decode(raw[len(MAGIC) :], f"byte {len(MAGIC)}", MAX_CERTIFICATE)
    except ProtocolError as exc:
        raise CertificateError(exc.where, exc.reason) from None
    kind = _fields(body)
    table = _table(body["table"], raw)
    outcome = _outcome(body["outcome"], table)
    at, by = body["at"], body["by"]
    if type(at) is not int or not 0 <= at <= LAST_DAY:
        raise CertificateError("at", "expected a time in seconds, before the year 10000")
    if not is_sound_key(by):
        raise CertificateError("by", "not a usable Ed25519 key")
    segments, cuts = _chain(body, table, raw) if kind == CHAINED else ((), ())
    last = segments[-1] if segments else table
    ends = _ends(body["ends"], last, raw) if kind in (CLOSED, CHAINED) else ()
    sig = body["sig"]
    if type(sig) is not bytes or not verify(by, sig, signed_bytes(body)):
        raise CertificateError("sig", "its maker's signature does not check out")
    if kind in (CLOSED, CHAINED):
        return Certificate(raw, kind, table, ends, b"", outcome, at, by, segments, cuts)
    transcript = body["transcript"]
    if type(transcript) is not bytes:
        raise CertificateError("transcript", "expected bytes")
    _proof(transcript, table, outcome)
    return Certificate(raw, kind, table, (), transcript, outcome, at, by)


def _fields(body: object) -> str:
    if type(body) is not dict:
        raise CertificateError("certificate", "expected a map")
    kind = body.get("kind")
    if kind not in KEYS:
        kinds = f"{CLOSED!r}, {PROVEN!r} or {CHAINED!r}"
        raise CertificateError("kind", f"expected {kinds}, got {kind!r:.40}")
    if tuple(body) != KEYS[kind]:
        raise CertificateError("certificate", f"expected exactly the keys {', '.join(KEYS[kind])}")
    if body["v"] != 1 or type(body["v"]) is not int:
        raise CertificateError("v", "a certificate version this program does not read")
    return str(kind)


def _open(raw: object, where: str, whole: bytes) -> Envelope:
    """An envelope of the certificate ``whole``; an error names its byte offset too."""
    if type(raw) is not bytes:
        raise CertificateError(where, "expected an envelope's bytes")
    try:
        return open_envelope(raw)
    except ProtocolError as exc:
        raise CertificateError(f"byte {whole.find(raw)}, {where}", str(exc)) from None


def _table(raw: object, whole: bytes) -> Envelope:
    """The game's opening, checked as a seat checks it before it sits down (flow 3: the
    game id derived from every seat's nonce); a continuation is not certified."""
    table = _open(raw, "table", whole)
    checked = check_table(table, None, oldest_flow=m.NONCES_FLOW)
    if isinstance(checked, ev.Rejected):
        raise CertificateError("table", checked.reason)
    if table.msg.after is not None:  # type: ignore[attr-defined]
        raise CertificateError("table", "a continuation segment is not certified")
    return table


def _chain(
    body: dict[str, object], table: Envelope, whole: bytes
) -> tuple[tuple[Envelope, ...], tuple[Envelope, ...]]:
    """Each continuation's ``table``, checked against the one before it (a link to it
    under an id of its own, one seat changing hands, every other seat's agreement), and
    the last envelope of the seat that changed hands at the head the link names (so
    every key charged with the result signed its place in the game)."""
    raws, cut_raws = body["segments"], body["cuts"]
    if type(raws) is not list or not 1 <= len(raws) <= MAX_CHANGES:
        raise CertificateError("segments", f"expected 1 to {MAX_CHANGES} continuations' tables")
    if type(cut_raws) is not list or len(cut_raws) != len(raws):
        raise CertificateError("cuts", "expected one envelope for each continuation")
    segments: list[Envelope] = []
    cuts: list[Envelope] = []
    before = table
    used: tuple[bytes, ...] = (table.game,)
    for k, raw in enumerate(raws):
        where = f"segments[{k}]"
        segment = _open(raw, where, whole)
        checked = check_link(segment, before, used)
        if isinstance(checked, ev.Rejected):
            raise CertificateError(f"byte {whole.find(raw)}, {where}", checked.reason)
        cuts.append(_cut(cut_raws[k], k, before, segment, whole))
        segments.append(segment)
        before, used = segment, (*used, segment.game)
    return tuple(segments), tuple(cuts)


def _cut(raw: object, k: int, before: Envelope, segment: Envelope, whole: bytes) -> Envelope:
    """The envelope of the seat that changed hands at the head continuation ``k`` names."""
    assert isinstance(segment.msg, m.TableMsg) and segment.msg.after is not None
    after = segment.msg.after
    where = f"cuts[{k}], {_who(before, after.seat)}"
    cut = _open(raw, where, whole)
    assert isinstance(before.msg, m.TableMsg)
    if cut.sender != before.msg.seats[after.seat].key or cut.game != before.game:
        raise CertificateError(where, "not signed by that seat's key in the segment before")
    count, head = after.heads[after.seat]
    if cut.digest != head or cut.seq + 1 != count:
        raise CertificateError(where, "not the envelope at the head the continuation names")
    return cut


def _who(table: Envelope, seat: int) -> str:
    assert isinstance(table.msg, m.TableMsg)
    return f"seat {seat} ({table.msg.seats[seat].name})"


def _ends(raw: object, table: Envelope, whole: bytes) -> tuple[Envelope, ...]:
    """Every seat's last word: closes that name one set of chain heads, and for a seat
    that did not close, its envelope at the head they name."""
    assert isinstance(table.msg, m.TableMsg)
    seats = table.msg.seats
    if type(raw) is not list or len(raw) != len(seats):
        raise CertificateError("ends", f"expected one envelope for each of the {len(seats)} seats")
    ends = tuple(_open(e, f"ends[{i}], {_who(table, i)}", whole) for i, e in enumerate(raw))
    for i, end in enumerate(ends):
        if end.sender != seats[i].key or end.game != table.game:
            raise CertificateError(
                f"ends[{i}], {_who(table, i)}", "not signed by that seat's key in this game"
            )
    closes = [i for i, e in enumerate(ends) if isinstance(e.msg, m.CloseMsg)]
    if not closes:
        raise CertificateError("ends", "no seat's close: the game is not shown finished")
    heads = ends[closes[0]].view
    if len(heads) != len(seats):
        raise CertificateError(f"ends[{closes[0]}]", "its view does not list every seat")
    for i, end in enumerate(ends):
        where = f"ends[{i}], {_who(table, i)}"
        count, head = heads[i]
        if i in closes and end.view != heads:
            other = f"its close names other chain heads than seat {closes[0]}'s"
            raise CertificateError(where, other)
        if i in closes and (end.seq, end.prev) != (count, head):
            raise CertificateError(where, "its close does not follow the head the closes name")
        if i not in closes and (end.digest != head or end.seq + 1 != count):
            raise CertificateError(where, "not the envelope at the head the closes name")
    return ends


def _outcome(raw: object, table: Envelope) -> Outcome:
    assert isinstance(table.msg, m.TableMsg)
    n = len(table.msg.seats)
    sides = len(spec(table.msg.game).teams(n))
    if type(raw) is dict and tuple(raw) == ("proven",):
        seats = raw["proven"]
        if (
            type(seats) is not list
            or not seats
            or seats != sorted(set(seats))
            or any(type(s) is not int or not 0 <= s < n for s in seats)
        ):
            raise CertificateError("outcome.proven", "expected seats in ascending order")
        return Outcome(proven=tuple(seats))
    if type(raw) is not dict or tuple(raw) != ("score", "winner"):
        raise CertificateError("outcome", "expected {score, winner} or {proven}")
    score, winner = raw["score"], raw["winner"]
    if type(score) is not list or len(score) != sides or any(type(s) is not int for s in score):
        raise CertificateError("outcome.score", f"expected {sides} whole numbers, one a side")
    if type(winner) is not int or not 0 <= winner < sides:
        raise CertificateError("outcome.winner", f"expected a side, 0 to {sides - 1}")
    return Outcome(winner, tuple(score))


def _proof(transcript: bytes, table: Envelope, outcome: Outcome) -> None:
    """The transcript proves exactly the seats the outcome names, in this game."""
    if outcome.winner is not None:
        raise CertificateError("outcome", "a proof's outcome names the seats proven")
    report = verify_bytes(transcript)
    if not report.proven:
        raise CertificateError("transcript", f"proves no seat at fault ({report.verdict})")
    if not transcript.startswith(TRANSCRIPT_MAGIC + encode_record(table)):
        raise CertificateError("transcript", "not the transcript of the game this table opens")
    proven = tuple(sorted({f.seat for f in report.faults if f.fatal and f.proven}))
    if proven != outcome.proven:
        named = f"the transcript proves seats {list(proven)}, not {list(outcome.proven)}"
        raise CertificateError("outcome.proven", named)
