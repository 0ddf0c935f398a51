"""The established channel's encryption: ChaCha20-Poly1305 with implicit counters."""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from .errors import DecryptError, NonceExhausted
from .frames import DEFAULT_MAX_FRAME_SIZE

__all__ = ["NONCE_LIMIT", "TAG_SIZE", "CipherState", "Session"]

TAG_SIZE = 16
# Counter values are 64-bit; the connection is refused further use before the
# last one, so a (key, nonce) pair can never repeat.
NONCE_LIMIT = 2**64 - 1


def _nonce(counter: int) -> bytes:
    return b"\x00\x00\x00\x00" + counter.to_bytes(8, "big")


class CipherState:
    """ChaCha20-Poly1305 in one direction with an implicit message counter.

    The counter is not sent: the receiver expects the next value, so a
    replayed, dropped or reordered frame fails authentication.
    """

    def __init__(self, key: bytes, nonce: int = 0) -> None:
        self._aead = ChaCha20Poly1305(key)
        self.nonce = nonce

    def encrypt(self, plaintext: bytes, associated_data: bytes = b"") -> bytes:
        if self.nonce >= NONCE_LIMIT:
            raise NonceExhausted("send counter exhausted; reconnect to get fresh keys")
        out = self._aead.encrypt(_nonce(self.nonce), plaintext, associated_data)
        self.nonce += 1
        return out

    def decrypt(self, ciphertext: bytes, associated_data: bytes = b"") -> bytes:
        if self.nonce >= NONCE_LIMIT:
            raise NonceExhausted("receive counter exhausted; reconnect to get fresh keys")
        if len(ciphertext) < TAG_SIZE:
            raise DecryptError(f"frame of {len(ciphertext)} bytes is shorter than a tag")
        try:
            out = self._aead.decrypt(_nonce(self.nonce), ciphertext, associated_data)
        except InvalidTag:
            raise DecryptError(
                f"frame {self.nonce} failed authentication (tampered, replayed or reordered)"
            ) from None
        self.nonce += 1
        return out


class Session:
    """The established channel's two cipher states, one per direction."""

    def __init__(
        self,
        send: CipherState,
        receive: CipherState,
        max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
    ) -> None:
        self._send = send
        self._receive = receive
        self.max_frame_size = max_frame_size

    @property
    def max_payload(self) -> int:
        return self.max_frame_size - TAG_SIZE

    def seal(self, payload: bytes) -> bytes:
        """Encrypt one payload into one frame body."""
        if len(payload) > self.max_payload:
            raise ValueError(f"payload of {len(payload)} bytes exceeds {self.max_payload}")
        return self._send.encrypt(payload)

    def open(self, body: bytes) -> bytes:
        """Decrypt one frame body; raises :class:`DecryptError` on any tampering."""
        return self._receive.decrypt(body)
