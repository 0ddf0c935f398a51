"""Chat at the table: the signed chat message, its codec and the text rule.  Sans-IO.

A chat message is not an envelope: it has no place in any seat's chain, no
view, and the table never sees it, so it cannot change the game, the fair-deal
transcript or anyone's blame (protocol/SPEC.md section 7.4 says why).  It is
still signed by the author's seat key, over bytes that name the segment it is
said in and a counter, so it cannot be forged, moved to another table or
segment, or replayed::

    chat  = msgpack ["chat", inner: bin, sig: bin(64)]        (first byte 0x93)
    inner = msgpack ["p2pbelka/v1 chat", game: bin(16), sender: bin(32),
                     counter: uint64, text: str]

``game`` is the id of the segment in play (the game id in a game's first
segment, a continuation's segment id after a seat changed hands): ids derived
from every seat's fresh randomness (``protocol/ids.py``), so no line said in
one game or segment names another.

The signature is Ed25519 by ``sender`` over the content of ``inner``; its first
element, a text label, keeps it apart from every other thing a key signs (an
envelope's ``inner`` starts with an integer, the handshake and beacon
signatures with their own labels).  Whether the sender is seated, whether the
counter is fresh and whether it talks too much is the receiver's business
(``p2pbelka.peer.chat``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from p2pbelka.edkeys import is_sound_key, verify
from p2pbelka.protocol.codec import ProtocolError, decode, encode

CHAT_TAG = "chat"
CHAT_LABEL = "p2pbelka/v1 chat"
CHAT_PREFIX = 0x93  # msgpack fixarray of three: ["chat", inner, sig]
MAX_CHAT_TEXT = 200
"""Characters (code points) of one message, after cleaning."""
MAX_CHAT = 1024
"""Bytes of one chat payload: 200 characters of four UTF-8 bytes, keys and signature fit."""
GAME_ID_SIZE = 16
MAX_COUNTER = 2**64


class ChatSigner(Protocol):
    """What signs a chat message: the seat's identity (an ``Identity`` or a ``Signer``)."""

    @property
    def public_key(self) -> bytes: ...

    def sign(self, data: bytes) -> bytes: ...


@dataclass(frozen=True, slots=True)
class ChatMsg:
    """A chat message whose signature checked out (or that we signed); ``game`` is the
    id of the segment it was said in."""

    game: bytes
    sender: bytes
    counter: int
    text: str
    raw: bytes


def clean_chat(text: str) -> str:
    """What a player typed, as it may travel: whitespace (tabs, line breaks, odd spaces)
    becomes one plain space, other unprintable characters are dropped, the ends are
    trimmed.  The length is not cut: a front end says the text is too long."""
    spaced = "".join(" " if ch.isspace() else ch for ch in text)
    return "".join(ch for ch in spaced if ch.isprintable()).strip()


def check_chat_text(value: Any, where: str = "chat.text") -> str:
    """The wire rule: 1..200 printable characters, no leading or trailing space, so a
    cleaned text is exactly what travels (``clean_chat(t) == t``)."""
    if type(value) is not str or not 0 < len(value) <= MAX_CHAT_TEXT:
        raise ProtocolError(f"expected a string of 1..{MAX_CHAT_TEXT} characters", where)
    if not value.isprintable():
        raise ProtocolError("only printable characters", where)
    if value != value.strip():
        raise ProtocolError("no space at either end", where)
    return value


def is_chat(payload: bytes) -> bool:
    return bool(payload) and payload[0] == CHAT_PREFIX


def seal_chat(signer: ChatSigner, game: bytes, counter: int, text: str) -> ChatMsg:
    """Sign ``text`` for ``game`` (the segment in play); ``ProtocolError`` if the text or
    counter breaks the rule."""
    check_chat_text(text)
    if len(game) != GAME_ID_SIZE:
        raise ProtocolError(f"expected {GAME_ID_SIZE} bytes", "chat.game")
    if not 0 <= counter < MAX_COUNTER:
        raise ProtocolError("expected an integer in 0..2**64-1", "chat.counter")
    inner = encode([CHAT_LABEL, game, signer.public_key, counter, text])
    raw = encode([CHAT_TAG, inner, signer.sign(inner)])
    return ChatMsg(game, signer.public_key, counter, text, raw)


def open_chat(raw: bytes, *, check_signature: bool = True) -> ChatMsg:
    """Decode and check one chat payload: format, fields, text rule and signature.
    Raises ``ProtocolError`` naming the part at fault; never anything else.

    ``check_signature=False`` makes only the cheap checks, for a receiver that
    wants to drop a flood before it spends a signature check on each message: the
    result is then not proof of anything until checked again with the signature."""
    if len(raw) > MAX_CHAT:
        raise ProtocolError(f"{len(raw)} bytes is over the limit of {MAX_CHAT}", "chat")
    outer = decode(raw, "chat")
    if type(outer) is not list or len(outer) != 3 or outer[0] != CHAT_TAG:
        raise ProtocolError('expected ["chat", inner, signature]', "chat")
    _tag, inner_raw, sig = outer
    if type(inner_raw) is not bytes:
        raise ProtocolError("expected bytes", "chat.inner")
    if type(sig) is not bytes or len(sig) != 64:
        raise ProtocolError("expected a 64-byte signature", "chat.sig")
    inner = decode(inner_raw, "chat.inner")
    if type(inner) is not list or len(inner) != 5 or inner[0] != CHAT_LABEL:
        raise ProtocolError(f'expected ["{CHAT_LABEL}", game, sender, counter, text]', "chat")
    _label, game, sender, counter, text = inner
    if type(game) is not bytes or len(game) != GAME_ID_SIZE:
        raise ProtocolError(f"expected {GAME_ID_SIZE} bytes", "chat.game")
    if type(sender) is not bytes or not is_sound_key(sender):
        raise ProtocolError("not a usable Ed25519 key", "chat.sender")
    if type(counter) is not int or not 0 <= counter < MAX_COUNTER:
        raise ProtocolError("expected an integer in 0..2**64-1", "chat.counter")
    check_chat_text(text)
    if check_signature and not verify(sender, sig, inner_raw):
        raise ProtocolError("bad signature", "chat.sig")
    return ChatMsg(game, sender, counter, text, raw)
