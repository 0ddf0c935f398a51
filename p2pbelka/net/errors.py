"""Exceptions raised by the transport layer.

Everything a remote peer can provoke is a subclass of :class:`NetError`, so the
peer driver can catch that one class around any connection, log the reason and
drop the peer without crashing.
"""

from __future__ import annotations


class NetError(Exception):
    """Base class for every transport failure caused by the network or a peer."""


# --- framing -----------------------------------------------------------------


class FrameError(NetError):
    """The byte stream does not hold well-formed frames."""


class FrameTooLarge(FrameError):
    """A frame's declared length exceeds the configured maximum."""


class TruncatedFrame(FrameError):
    """The stream ended in the middle of a frame."""


# --- handshake ----------------------------------------------------------------


class HandshakeError(NetError):
    """The peer handshake failed; no channel was established."""


class MalformedHandshake(HandshakeError):
    """A handshake message has the wrong type, length or layout."""


class VersionMismatch(HandshakeError):
    """The peer speaks a different transport protocol version (``peer_version``; 0 if
    unknown): version 1 has no invite code, version 2 has one (transport.md 3.5)."""

    def __init__(self, message: str, peer_version: int = 0, our_version: int = 0) -> None:
        super().__init__(message)
        self.peer_version = peer_version
        self.our_version = our_version


class ContextMismatch(HandshakeError):
    """The peer is connecting for a different table (game id / context)."""


class TamperedHandshake(HandshakeError):
    """An encrypted handshake field failed authentication (modified in transit)."""


class WrongInviteCode(TamperedHandshake):
    """The peer's part of the invite-code exchange does not match ours: its code is
    another (or, all the same to us, the message was tampered with)."""


class BadSignature(HandshakeError):
    """The peer's transcript signature does not verify under its identity key."""


class UnexpectedPeerKey(HandshakeError):
    """The peer authenticated, but as a key we did not pin or do not accept."""


class WeakPeerKey(HandshakeError):
    """The peer names an identity key of small order or in a non-canonical encoding."""


class HandshakeTimeout(HandshakeError):
    """The peer did not complete the handshake in time."""


class HandshakeAborted(HandshakeError):
    """The peer closed the connection before the handshake completed."""


class GuessRefused(HandshakeError):
    """A host under an invite code did not test this guess (transport.md 3.5):
    ``reason`` "spent" (the code's guesses are used up: ask the host for a new code),
    "wait" (``seconds`` more, after wrong codes from this address) or "shut" (the
    host shut the address out; it never hears this, only a closed connection)."""

    def __init__(self, message: str, reason: str, seconds: float = 0.0) -> None:
        super().__init__(message)
        self.reason = reason
        self.seconds = seconds


# --- established channel --------------------------------------------------------


class ChannelError(NetError):
    """An established secure channel failed; it is closed afterwards."""


class DecryptError(ChannelError):
    """A frame failed authentication: tampered, replayed, reordered or forged."""


class NonceExhausted(ChannelError):
    """The per-direction nonce counter reached its limit; reconnect for new keys."""


class ChannelClosed(ChannelError):
    """The channel is closed (by us, by the peer, or after an earlier error)."""


class ConnectError(NetError):
    """Dialling a peer failed after all retries."""


# --- discovery ------------------------------------------------------------------


class BeaconError(NetError):
    """A discovery datagram is malformed, mis-signed or of another version."""
