"""Message bodies: one frozen dataclass per message type, with strict validation.

A body travels as a msgpack map with sorted string keys.  ``parse_body`` turns
an untrusted map into a typed message or raises ``ProtocolError`` naming the
field; it checks types, lengths and ranges, and rejects unknown fields.
Whether a message is *allowed now* is the table's business, not this module's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import ClassVar

from p2pbelka.edkeys import KEY_SIZE, is_sound_key
from p2pbelka.protocol.codec import ProtocolError

MAX_POSITIONS = 64
MAX_SEATS = 4
MAX_NAME = 64
MAX_WHY = 200
MAX_EVIDENCE = 32_000
"""Each envelope an ``evidence`` message carries (two fit in one envelope's limit)."""
FLOW = 3
"""The schedule revision a new table names (``TableMsg.flow``).  Every revision that
changes what a new table is goes here, and nowhere else."""
FLOWS = (1, 2, 3)
"""The schedule revisions this implementation plays and verifies."""
NONCES_FLOW = 3
"""The first revision whose tables carry every seat's nonce and derive their ids
(``protocol/ids.py``)."""
OLDEST_LIVE_FLOW = NONCES_FLOW
"""The oldest revision a seat sits down to (a lobby, a local game, a resume, a
continuation): before flow 3 the host chose the game id, so an older table's places
are not bound to its seats' own randomness; ``verify`` still reads them."""
NONCE_SIZE = 16
"""A seat's fresh randomness for one table (flow 3: ``TableMsg.nonces``)."""


@dataclass(frozen=True, slots=True)
class Opening:
    """A deck position and one seat's key share for it (``k⁻¹``, 32 bytes)."""

    pos: int
    key: bytes


# --- field checkers: each takes the raw value and the field's path -----------------
# Public: the lobby codec (protocol/lobby.py) checks its fields with the same rules.


def check_uint(value: object, where: str, limit: int = 2**32) -> int:
    if type(value) is not int or not 0 <= value < limit:
        raise ProtocolError(f"expected an integer in 0..{limit - 1}, got {value!r:.40}", where)
    return value


def check_bin(value: object, where: str, size: int) -> bytes:
    if type(value) is not bytes or len(value) != size:
        got = f"{len(value)} bytes" if isinstance(value, bytes) else type(value).__name__
        raise ProtocolError(f"expected {size} bytes, got {got}", where)
    return value


def check_text(value: object, where: str, limit: int = MAX_NAME) -> str:
    if type(value) is not str or not 0 < len(value) <= limit:
        raise ProtocolError(f"expected a string of 1..{limit} characters", where)
    if any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in value):
        raise ProtocolError(
            "control characters (U+0000-U+001F, U+007F-U+009F) are not allowed", where
        )
    return value


def check_list(value: object, where: str, min_len: int, max_len: int) -> list[object]:
    if type(value) is not list or not min_len <= len(value) <= max_len:
        raise ProtocolError(f"expected a list of {min_len}..{max_len} items", where)
    return value


def check_key(value: object, where: str) -> bytes:
    """A player's Ed25519 public key: 32 bytes, canonical, not of small order."""
    key = check_bin(value, where, KEY_SIZE)
    if not is_sound_key(key):
        raise ProtocolError("not a usable Ed25519 public key (small order or non-canonical)", where)
    return key


def check_options(
    value: object, where: str, text: Callable[[object, str], str] = check_text
) -> dict[str, str]:
    """A map of at most 32 rule option names to values, keys sorted, each checked by ``text``."""
    if type(value) is not dict or len(value) > 32:
        raise ProtocolError("expected a map of at most 32 option names to values", where)
    if list(value) != sorted(value, key=str):
        raise ProtocolError("map keys are not in sorted order", where)
    for name, choice in value.items():
        text(name, where)
        text(choice, f"{where}.{name}")
    return dict(value)


# This module's own parsers use the short names.
_uint, _bin, _text, _list = check_uint, check_bin, check_text, check_list


def _opening(value: object, where: str) -> Opening:
    pair = _list(value, where, 2, 2)
    return Opening(_uint(pair[0], f"{where}[0]", MAX_POSITIONS), _bin(pair[1], f"{where}[1]", 32))


def _openings(value: object, where: str) -> tuple[Opening, ...]:
    items = _list(value, where, 0, MAX_POSITIONS)
    openings = tuple(_opening(item, f"{where}[{i}]") for i, item in enumerate(items))
    if len({o.pos for o in openings}) != len(openings):
        raise ProtocolError("a position appears twice", where)
    return openings


def _blob(value: object, where: str, limit: int) -> bytes:
    if type(value) is not bytes or not 0 < len(value) <= limit:
        raise ProtocolError(f"expected 1..{limit} bytes", where)
    return value


def _points(value: object, where: str) -> tuple[bytes, ...]:
    """Group elements: 32 bytes (fair-deal version 1) or 33 (version 2); the exact
    length of the table's version is the deck's check, which names the author."""
    items = _list(value, where, 2, MAX_POSITIONS)
    out = []
    for i, item in enumerate(items):
        if type(item) is not bytes or len(item) not in (32, 33):
            raise ProtocolError("expected a 32- or 33-byte point", f"{where}[{i}]")
        out.append(item)
    return tuple(out)


# --- message types ------------------------------------------------------------------


class Message:
    """Base of every body.  ``TYPE`` is the wire name; ``to_wire`` gives the map."""

    TYPE: ClassVar[str]

    def to_wire(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for f in sorted(fields(self), key=lambda f: f.name):  # type: ignore[arg-type]
            out[f.name] = _to_wire(getattr(self, f.name))
        return out


def _to_wire(value: object) -> object:
    if isinstance(value, Opening):
        return [value.pos, value.key]
    if isinstance(value, tuple):
        return [_to_wire(v) for v in value]
    if isinstance(value, dict):
        return {k: _to_wire(v) for k, v in sorted(value.items())}
    return value


@dataclass(frozen=True, slots=True)
class SeatInfo:
    key: bytes
    name: str


@dataclass(frozen=True, slots=True)
class After:
    """What makes a ``table`` a *continuation* (protocol/SPEC.md section 9): the game
    goes on from segment ``segment``, cut where every seat's chain stood at
    ``heads``, with seat ``seat`` in new hands.  ``score``, ``dealer`` and ``deal``
    restate what the previous segment's finished deals give (checked); ``agreed``
    holds, for every other seat in ascending order, its signature on the change."""

    segment: bytes
    heads: tuple[tuple[int, bytes], ...]
    seat: int
    score: tuple[int, ...]
    dealer: int
    deal: int
    agreed: tuple[tuple[int, bytes], ...] = ()

    def to_wire(self, *, agreed: bool = True) -> dict[str, object]:
        wire: dict[str, object] = {
            "deal": self.deal,
            "dealer": self.dealer,
            "heads": [[count, head] for count, head in self.heads],
            "score": list(self.score),
            "seat": self.seat,
            "segment": self.segment,
        }
        if agreed:
            wire["agreed"] = [[seat, sig] for seat, sig in self.agreed]
        return dict(sorted(wire.items()))


@dataclass(frozen=True, slots=True)
class TableMsg(Message):
    """The host's description of the game: the first envelope of every transcript
    (and of every continuation segment, which also carries ``after``)."""

    TYPE: ClassVar[str] = "table"
    game: str
    preset: str
    options: dict[str, str]
    seats: tuple[SeatInfo, ...]
    fairdeal: int = 1
    """The fair-deal version (protocol/fairdeal.md section 11); 1 is written by
    leaving the key out, so each table has exactly one encoding."""
    after: After | None = None
    """Only in a continuation segment; left out otherwise."""
    flow: int = FLOW
    """The schedule's revision (protocol/SPEC.md section 4): from 2 on each seat's
    commitment for the next deal travels on its ``deal_end``, so later deals have no
    commit phase; 3 (new tables) adds ``nonces``, from which the game id and every
    segment id are derived (``protocol/ids.py``), and ends a won game with the closing
    exchange (``close``); 1 (tables from before, written by leaving the key out) has a
    commit phase in every deal."""
    nonces: tuple[bytes, ...] = ()
    """Flow 3 and later: one fresh 16-byte nonce per seat, in seat order (the first
    segment's id is derived from them); left out before flow 3."""

    def to_wire(self, *, agreed: bool = True) -> dict[str, object]:
        """The body; ``agreed=False`` leaves the signatures out of ``after``: what each
        agreeing seat signs (``protocol/seatchange.py``)."""
        wire: dict[str, object] = {
            "game": self.game,
            "options": dict(sorted(self.options.items())),
            "preset": self.preset,
            "seats": [[s.key, s.name] for s in self.seats],
        }
        if self.fairdeal != 1:
            wire["fairdeal"] = self.fairdeal
        if self.flow != 1:
            wire["flow"] = self.flow
        if self.nonces:
            wire["nonces"] = list(self.nonces)
        if self.after is not None:
            wire["after"] = self.after.to_wire(agreed=agreed)
        return dict(sorted(wire.items()))


@dataclass(frozen=True, slots=True)
class SitMsg(Message):
    """A seat's signed agreement to the table: the hash of the ``table`` envelope."""

    TYPE: ClassVar[str] = "sit"
    table: bytes


@dataclass(frozen=True, slots=True)
class LotCommitMsg(Message):
    TYPE: ClassVar[str] = "lot_commit"
    c: bytes


@dataclass(frozen=True, slots=True)
class LotRevealMsg(Message):
    TYPE: ClassVar[str] = "lot_reveal"
    v: bytes


@dataclass(frozen=True, slots=True)
class CommitMsg(Message):
    TYPE: ClassVar[str] = "commit"
    c: bytes


@dataclass(frozen=True, slots=True)
class ShuffleMsg(Message):
    """A shuffle pass: ``deck`` is the output; ``input`` the digest of the deck it was
    computed from (``deck_digest``), so a pass names what it builds on."""

    TYPE: ClassVar[str] = "shuffle"
    deck: tuple[bytes, ...]
    input: bytes


@dataclass(frozen=True, slots=True)
class LockMsg(Message):
    TYPE: ClassVar[str] = "lock"
    deck: tuple[bytes, ...]
    input: bytes


@dataclass(frozen=True, slots=True)
class SharesMsg(Message):
    """The sender's key shares for every position dealt to another seat."""

    TYPE: ClassVar[str] = "shares"
    shares: tuple[Opening, ...]


@dataclass(frozen=True, slots=True)
class TrumpMsg(Message):
    """After reading its hand: the J♣ opened (or ``None``: "not me"), and whether the hand
    opened to distinct cards (``hand_ok`` false starts a dispute: everyone reveals)."""

    TYPE: ClassVar[str] = "trump"
    jack: Opening | None
    hand_ok: bool


@dataclass(frozen=True, slots=True)
class ReadyMsg(Message):
    TYPE: ClassVar[str] = "ready"


@dataclass(frozen=True, slots=True)
class RedealMsg(Message):
    """A re-deal claim, with the claimant's whole hand opened to prove it."""

    TYPE: ClassVar[str] = "redeal"
    hand: tuple[Opening, ...]


@dataclass(frozen=True, slots=True)
class PlayMsg(Message):
    TYPE: ClassVar[str] = "play"
    pos: int
    key: bytes


@dataclass(frozen=True, slots=True)
class RevealMsg(Message):
    TYPE: ClassVar[str] = "reveal"
    seed: bytes


@dataclass(frozen=True, slots=True)
class DealEndMsg(Message):
    """The sender holds every envelope of the deal (its view says which); at a table
    of flow 2, ``c`` is its commitment to its seed for the next deal id (absent at
    flow 1, where a commit phase opens every deal)."""

    TYPE: ClassVar[str] = "deal_end"
    c: bytes | None = None

    def to_wire(self) -> dict[str, object]:
        return {} if self.c is None else {"c": self.c}


EGGS = ("plus4", "title")
"""The choices a ``choice`` carries (SPEC.md section 3); any other is malformed."""


@dataclass(frozen=True, slots=True)
class ChoiceMsg(Message):
    """The winners' eggs choice (``plus4`` or ``title``), where the rules ask for one."""

    TYPE: ClassVar[str] = "choice"
    eggs: str


@dataclass(frozen=True, slots=True)
class CloseMsg(Message):
    """Flow 3, once the rules say the game is won: the sender's last envelope of the
    game, whose view covers every envelope of it (the final ``deal_end``s included)."""

    TYPE: ClassVar[str] = "close"


@dataclass(frozen=True, slots=True)
class EvidenceMsg(Message):
    """Proof of equivocation: two different envelopes one seat signed for one place in
    its chain (same game, same sequence number), as received (raw bytes)."""

    TYPE: ClassVar[str] = "evidence"
    first: bytes
    second: bytes


@dataclass(frozen=True, slots=True)
class DisputeMsg(Message):
    """The sender ends the game naming ``seats`` for ``why``, without a proof the
    transcript could carry (a seat gone silent, a view nobody could back)."""

    TYPE: ClassVar[str] = "dispute"
    seats: tuple[int, ...]
    why: str


def deck_digest(deck: Sequence[bytes]) -> bytes:
    """What a pass names as its input: SHA-256 over the input deck's points in order."""
    return hashlib.sha256(b"".join(deck)).digest()


# --- Belot's messages (protocol/SPEC.md §6) ----------------------------------------

CALLS = ("play", "pass", "C", "D", "H", "S")
"""The calls a ``bid`` carries (SPEC.md section 8.1): round 1 ``play`` or ``pass``, round 2
a suit letter or ``pass``.  The wire's own words, checked before any game sees them (any
other is malformed, section 3); which one is legal now is the rules' business."""
MAX_DECLARED = 8


@dataclass(frozen=True, slots=True)
class TurnedMsg(Message):
    """Belot, before bidding: the sender's key share for the turned card's position (so
    the card opens to all), and whether its first six cards opened to distinct cards
    (``hand_ok`` false starts a dispute, as Belka's ``trump`` does)."""

    TYPE: ClassVar[str] = "turned"
    share: Opening
    hand_ok: bool


@dataclass(frozen=True, slots=True)
class BidMsg(Message):
    """Belot: one call in the bidding."""

    TYPE: ClassVar[str] = "bid"
    call: str


@dataclass(frozen=True, slots=True)
class DeclareMsg(Message):
    """Belot, at the sender's lead: one combination (or belle), its cards opened to all
    with the sender's key shares for their positions."""

    TYPE: ClassVar[str] = "declare"
    cards: tuple[Opening, ...]


@dataclass(frozen=True, slots=True)
class ClaimMsg(Message):
    """Belot: the sender claims 1001 (after taking a trick, before the next card)."""

    TYPE: ClassVar[str] = "claim"


@dataclass(frozen=True, slots=True)
class UnopenedMsg(Message):
    """Belot, at the sender's turn to play: its three more positions did not open to
    distinct cards, so it cannot play (a dispute: the deal goes to the reveal)."""

    TYPE: ClassVar[str] = "unopened"


def _parse_turned(body: dict[str, object]) -> TurnedMsg:
    if type(body["hand_ok"]) is not bool:
        raise ProtocolError("expected true or false", "hand_ok")
    return TurnedMsg(share=_opening(body["share"], "share"), hand_ok=body["hand_ok"])


def _parse_bid(body: dict[str, object]) -> BidMsg:
    if body["call"] not in CALLS:
        raise ProtocolError(f"expected one of {', '.join(CALLS)}", "call")
    return BidMsg(call=body["call"])


def _parse_declare(body: dict[str, object]) -> DeclareMsg:
    _list(body["cards"], "cards", 2, MAX_DECLARED)
    return DeclareMsg(cards=_openings(body["cards"], "cards"))


# --- parsing ------------------------------------------------------------------------


def _parse_table(body: dict[str, object]) -> TableMsg:
    seats_raw = _list(body["seats"], "seats", 2, MAX_SEATS)
    seats = []
    for i, pair in enumerate(seats_raw):
        pair = _list(pair, f"seats[{i}]", 2, 2)
        seats.append(
            SeatInfo(check_key(pair[0], f"seats[{i}][0]"), _text(pair[1], f"seats[{i}][1]"))
        )
    if len({s.key for s in seats}) != len(seats):
        raise ProtocolError("two seats have the same key", "seats")
    options = check_options(body["options"], "options")
    fairdeal = 1
    if "fairdeal" in body:
        fairdeal = _uint(body["fairdeal"], "fairdeal", 256)
        if fairdeal < 2:
            raise ProtocolError("version 1 is written by leaving the key out", "fairdeal")
    flow = 1
    if "flow" in body:
        flow = _uint(body["flow"], "flow", 256)
        if flow < 2:
            raise ProtocolError("flow 1 is written by leaving the key out", "flow")
    after = _parse_after(body["after"], len(seats)) if "after" in body else None
    return TableMsg(
        game=_text(body["game"], "game", 16),
        preset=_text(body["preset"], "preset", 16),
        options=dict(options),
        seats=tuple(seats),
        fairdeal=fairdeal,
        flow=flow,
        after=after,
        nonces=_parse_nonces(body, flow, len(seats)),
    )


def _parse_nonces(body: dict[str, object], flow: int, n_seats: int) -> tuple[bytes, ...]:
    """``nonces``: one per seat from flow 3 on, absent before (so a table has one
    encoding, and an old table cannot be passed off as one whose ids are derived)."""
    if flow < NONCES_FLOW:
        if "nonces" in body:
            raise ProtocolError(f"nonces come with flow {NONCES_FLOW} and later", "nonces")
        return ()
    if "nonces" not in body:
        raise ProtocolError(f"flow {flow} requires one nonce per seat", "nonces")
    items = _list(body["nonces"], "nonces", n_seats, n_seats)
    return tuple(_bin(item, f"nonces[{i}]", NONCE_SIZE) for i, item in enumerate(items))


_AFTER_KEYS = ["agreed", "deal", "dealer", "heads", "score", "seat", "segment"]


def _parse_after(value: object, n_seats: int) -> After:
    """A continuation's ``after`` map: its shape only; whether it continues the previous
    segment truly is the table's check (``table/carry.py``)."""
    if type(value) is not dict or list(value) != _AFTER_KEYS:
        raise ProtocolError(
            f"expected a map with exactly the keys {', '.join(_AFTER_KEYS)}", "after"
        )
    heads_raw = _list(value["heads"], "after.heads", n_seats, n_seats)
    heads = []
    for i, item in enumerate(heads_raw):
        pair = _list(item, f"after.heads[{i}]", 2, 2)
        heads.append(
            (_uint(pair[0], f"after.heads[{i}][0]"), _bin(pair[1], f"after.heads[{i}][1]", 32))
        )
    seat = _uint(value["seat"], "after.seat", n_seats)
    score_raw = _list(value["score"], "after.score", 1, MAX_SEATS)
    score = tuple(_uint(v, f"after.score[{i}]") for i, v in enumerate(score_raw))
    agreed_raw = _list(value["agreed"], "after.agreed", 0, MAX_SEATS)
    agreed = []
    for i, item in enumerate(agreed_raw):
        pair = _list(item, f"after.agreed[{i}]", 2, 2)
        agreed.append(
            (
                _uint(pair[0], f"after.agreed[{i}][0]", n_seats),
                _bin(pair[1], f"after.agreed[{i}][1]", 64),
            )
        )
    if [s for s, _ in agreed] != sorted({s for s, _ in agreed}):
        raise ProtocolError("seats must be listed once each, in ascending order", "after.agreed")
    return After(
        segment=_bin(value["segment"], "after.segment", 16),
        heads=tuple(heads),
        seat=seat,
        score=score,
        dealer=_uint(value["dealer"], "after.dealer", n_seats),
        deal=_uint(value["deal"], "after.deal"),
        agreed=tuple(agreed),
    )


def _parse_trump(body: dict[str, object]) -> TrumpMsg:
    jack = None if body["jack"] is None else _opening(body["jack"], "jack")
    if type(body["hand_ok"]) is not bool:
        raise ProtocolError("expected true or false", "hand_ok")
    return TrumpMsg(jack=jack, hand_ok=body["hand_ok"])


def _parse_dispute(body: dict[str, object]) -> DisputeMsg:
    seats = _list(body["seats"], "seats", 1, MAX_SEATS)
    return DisputeMsg(
        tuple(_uint(s, f"seats[{i}]", MAX_SEATS) for i, s in enumerate(seats)),
        _text(body["why"], "why", MAX_WHY),
    )


def _parse_choice(body: dict[str, object]) -> ChoiceMsg:
    if body["eggs"] not in EGGS:
        raise ProtocolError(f"expected one of {', '.join(EGGS)}", "eggs")
    return ChoiceMsg(eggs=body["eggs"])


_PARSERS: Mapping[str, tuple[frozenset[str], Callable[[dict[str, object]], Message]]] = {
    "table": (frozenset({"game", "preset", "options", "seats"}), _parse_table),
    "sit": (frozenset({"table"}), lambda b: SitMsg(_bin(b["table"], "table", 32))),
    "lot_commit": (frozenset({"c"}), lambda b: LotCommitMsg(_bin(b["c"], "c", 32))),
    "lot_reveal": (frozenset({"v"}), lambda b: LotRevealMsg(_bin(b["v"], "v", 32))),
    "commit": (frozenset({"c"}), lambda b: CommitMsg(_bin(b["c"], "c", 32))),
    "shuffle": (
        frozenset({"deck", "input"}),
        lambda b: ShuffleMsg(_points(b["deck"], "deck"), _bin(b["input"], "input", 32)),
    ),
    "lock": (
        frozenset({"deck", "input"}),
        lambda b: LockMsg(_points(b["deck"], "deck"), _bin(b["input"], "input", 32)),
    ),
    "shares": (frozenset({"shares"}), lambda b: SharesMsg(_openings(b["shares"], "shares"))),
    "trump": (frozenset({"jack", "hand_ok"}), _parse_trump),
    "ready": (frozenset(), lambda b: ReadyMsg()),
    "redeal": (frozenset({"hand"}), lambda b: RedealMsg(_openings(b["hand"], "hand"))),
    "play": (
        frozenset({"pos", "key"}),
        lambda b: PlayMsg(_uint(b["pos"], "pos", MAX_POSITIONS), _bin(b["key"], "key", 32)),
    ),
    "reveal": (frozenset({"seed"}), lambda b: RevealMsg(_bin(b["seed"], "seed", 32))),
    "deal_end": (
        frozenset(),
        lambda b: DealEndMsg(_bin(b["c"], "c", 32) if "c" in b else None),
    ),
    "evidence": (
        frozenset({"first", "second"}),
        lambda b: EvidenceMsg(
            _blob(b["first"], "first", MAX_EVIDENCE), _blob(b["second"], "second", MAX_EVIDENCE)
        ),
    ),
    "dispute": (frozenset({"seats", "why"}), _parse_dispute),
    "choice": (frozenset({"eggs"}), _parse_choice),
    "close": (frozenset(), lambda b: CloseMsg()),
    "turned": (frozenset({"share", "hand_ok"}), _parse_turned),
    "bid": (frozenset({"call"}), _parse_bid),
    "declare": (frozenset({"cards"}), _parse_declare),
    "claim": (frozenset(), lambda b: ClaimMsg()),
    "unopened": (frozenset(), lambda b: UnopenedMsg()),
}

_OPTIONAL: Mapping[str, frozenset[str]] = {
    "table": frozenset({"fairdeal", "flow", "after", "nonces"}),
    "deal_end": frozenset({"c"}),
}
"""Keys a body may leave out (the table's fair-deal version and flow: absent means 1;
``after``: absent in the first segment of a game; ``nonces``: absent before flow 3;
a deal end's commitment: absent at flow 1)."""

MESSAGE_TYPES = frozenset(_PARSERS)


def parse_body(msg_type: str, body: object) -> Message:
    """Validate an untrusted body of type ``msg_type``; raise ``ProtocolError`` if unfit."""
    if msg_type not in _PARSERS:
        raise ProtocolError(f"unknown message type {msg_type!r:.40}", "type")
    if type(body) is not dict:
        raise ProtocolError("expected a map", "body")
    expected, parser = _PARSERS[msg_type]
    keys = set(body)
    expected = expected | (keys & _OPTIONAL.get(msg_type, frozenset()))
    if keys != expected:
        extra, missing = sorted(keys - expected, key=str), sorted(expected - keys)
        detail = "; ".join(
            part
            for part in (
                f"unknown field(s) {', '.join(map(str, extra))}" if extra else "",
                f"missing field(s) {', '.join(missing)}" if missing else "",
            )
            if part
        )
        raise ProtocolError(detail, f"body of {msg_type}")
    if list(body) != sorted(body):
        raise ProtocolError("map keys are not in sorted order", f"body of {msg_type}")
    try:
        return parser(body)
    except ProtocolError as exc:
        raise ProtocolError(exc.reason, f"body of {msg_type}.{exc.where}") from None
