"""Two ledgers share results: each side says which games it holds, asks for the ones it
lacks, and sends what it was asked for (protocol/results.md section 6).

A sans-IO machine, one a side (h11's shape): ``start`` and ``receive`` return the
messages to send, ``received`` collects the certificates that came (each still to be
checked by the ledger before it counts).  Everything is bounded: the ids a side names,
the certificates it may ask for and the bytes they come to; a message that breaks the
format, or a certificate nobody asked for, or too many of them, ends the exchange with
``ShareError`` naming what the other side did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2pbelka.ladder.certificate import MAGIC
from p2pbelka.protocol.codec import ProtocolError, decode, encode

MAX_IDS = 3000
"""Game ids one ``have`` names at most (48 KiB of ids)."""
MAX_RESULTS = 1000
"""Certificates one side asks for at most in one exchange."""
MAX_BYTES = 10 * 1024 * 1024
"""Bytes of certificates one side takes at most in one exchange."""
BATCH = 48 * 1024
"""Bytes of certificates one ``certs`` message carries at most (under a frame's 64 KiB)."""
BATCH_COUNT = 256
"""Certificates one ``certs`` message carries at most (the codec's longest array)."""
ID_SIZE = 16


WRAPPED = "ladder"
"""At a table, each message of the exchange travels on the game's link inside a
control message ``{m: bin, t: "ladder"}`` (protocol/SPEC.md 7.3)."""
MAX_WRAPPED = 60 * 1024
"""Bytes of one wrapped message at most (a ``certs`` message of 48 KiB and its framing)."""


class ShareError(ValueError):
    """The other side broke the exchange: what it did."""


@dataclass
class Sharing:
    """One side of an exchange.  ``held``: this ledger's certificates by game id (only
    those small enough for one message are offered).  ``also``: games asked for even
    when held, if the other side offers them (at a table, the game just played: each
    side then keeps the same certificate of it, results.md section 4)."""

    held: dict[bytes, bytes]
    also: frozenset[bytes] = frozenset()
    ask_most: int = MAX_RESULTS
    """Certificates this side asks for at most (a lobby's strangers draw on a budget)."""
    take_most: int = MAX_BYTES
    """Bytes of certificates this side takes at most."""
    give_most: int = MAX_BYTES
    """Bytes of certificates this side sends at most."""
    wanted: set[bytes] = field(default_factory=set)
    received: list[bytes] = field(default_factory=list)
    bytes_in: int = 0
    bytes_out: int = 0
    sent_all: bool = False
    got_all: bool = False
    heard_have: bool = False
    heard_want: bool = False

    @property
    def done(self) -> bool:
        """Both sides sent all they will: each ``done`` is its sender's last message."""
        return self.sent_all and self.got_all

    def start(self) -> list[bytes]:
        """The first message: the ids this side holds (at most ``MAX_IDS``)."""
        offered = sorted(k for k, v in self.held.items() if len(v) <= BATCH)[:MAX_IDS]
        return [encode({"have": b"".join(offered), "t": "have"})]

    def receive(self, raw: bytes) -> list[bytes]:
        """One message from the other side; the messages to send in answer."""
        try:
            message = decode(raw, "share")
        except ProtocolError as exc:
            raise ShareError(f"sent a message that does not decode ({exc})") from None
        kind = message.get("t") if type(message) is dict else None
        self._in_turn(kind)
        if kind == "have" and tuple(message) == ("have", "t"):
            answer = self._have(message["have"])
            self.heard_have = True
            return answer
        if kind == "want" and tuple(message) == ("t", "want"):
            answer = self._want(message["want"])
            self.heard_want = True
            return answer
        if kind == "certs" and tuple(message) == ("certs", "t"):
            self._certs(message["certs"])
            return []
        if kind == "done" and tuple(message) == ("t",):
            self.got_all = True
            return []
        raise ShareError(f"sent a message this exchange does not know ({kind!r:.20})")

    def _in_turn(self, kind: object) -> None:
        """The other side's messages come in their order: its ``have`` first, its
        ``want`` once, nothing after its ``done`` (a second ``want`` would be answered
        with every certificate again: up to 10 MiB for a few bytes)."""
        if self.got_all:
            raise ShareError(f"sent a message after its done ({kind!r:.20})")
        if (kind == "have") == self.heard_have:
            raise ShareError(f"sent a message out of turn ({kind!r:.20})")
        if kind == "want" and self.heard_want:
            raise ShareError("sent a second want")

    def _have(self, ids: object) -> list[bytes]:
        checked = _ids(ids, MAX_IDS, "have")
        offered = set(checked)
        lacking = sorted((offered - set(self.held)) | (offered & self.also))
        lacking = lacking[: min(MAX_RESULTS, self.ask_most)]
        self.wanted = set(lacking)
        return [encode({"t": "want", "want": b"".join(lacking)})]

    def _want(self, ids: object) -> list[bytes]:
        asked = [i for i in _ids(ids, MAX_RESULTS, "want") if i in self.held]
        out: list[bytes] = []
        batch: list[bytes] = []
        size = total = 0
        for game_id in asked:
            cert = self.held[game_id]
            if len(cert) > BATCH:
                continue
            total += len(cert)
            if total > min(MAX_BYTES, self.give_most):  # the other side would take no more
                break
            if size + len(cert) > BATCH or len(batch) == BATCH_COUNT:
                out.append(encode({"certs": batch, "t": "certs"}))
                batch, size = [], 0
            batch.append(cert)
            size += len(cert)
            self.bytes_out = total
        if batch:
            out.append(encode({"certs": batch, "t": "certs"}))
        self.sent_all = True
        return [*out, encode({"t": "done"})]

    def _certs(self, certs: object) -> None:
        if type(certs) is not list or any(type(c) is not bytes for c in certs):
            raise ShareError("sent certificates that are not a list of byte strings")
        if not certs:  # it would be a message that costs and moves nothing
            raise ShareError("sent a certs message with no certificate")
        most = min(MAX_BYTES, self.take_most)
        for cert in certs:
            self.bytes_in += len(cert)
            if self.bytes_in > most:
                raise ShareError(f"sent more than {most} bytes of certificates")
            if len(self.received) >= len(self.wanted) or not cert.startswith(MAGIC):
                raise ShareError("sent a certificate that was not asked for, or junk")
            self.received.append(cert)


def _ids(value: object, most: int, where: str) -> list[bytes]:
    """Game ids sent as one byte string, 16 bytes each, ascending, each once."""
    if type(value) is not bytes or len(value) % ID_SIZE or len(value) > most * ID_SIZE:
        raise ShareError(f"{where}: expected at most {most} game ids of {ID_SIZE} bytes")
    ids = [value[i : i + ID_SIZE] for i in range(0, len(value), ID_SIZE)]
    if ids != sorted(set(ids)):
        raise ShareError(f"{where}: the game ids are not in ascending order, each once")
    return ids


def wrap(message: bytes) -> bytes:
    """One message of the exchange as the control message that carries it at a table."""
    return encode({"m": message, "t": WRAPPED})


def is_wrapped(payload: bytes) -> bool:
    """The payload is meant as a wrapped message (its first keys say so: a map of two,
    ``m`` first); ``unwrap`` checks the rest."""
    return payload.startswith(b"\x82\xa1m")


def unwrap(payload: bytes) -> bytes:
    """The message a ``ladder`` control message carries; ``ShareError`` if it is not one."""
    if len(payload) > MAX_WRAPPED:
        raise ShareError(f"sent a message over {MAX_WRAPPED} bytes")
    try:
        body = decode(payload, "ladder", limit=MAX_WRAPPED)
    except ProtocolError as exc:
        raise ShareError(f"sent a message that does not decode ({exc})") from None
    if type(body) is not dict or tuple(body) != ("m", "t") or body["t"] != WRAPPED:
        raise ShareError("sent a control message that is not a wrapped one")
    if type(body["m"]) is not bytes:
        raise ShareError("sent a wrapped message that is not a byte string")
    return body["m"]
