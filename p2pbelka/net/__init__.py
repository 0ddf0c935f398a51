"""Transport layer: identities, secure peer connections and LAN discovery.

The handshake and framing are sans-IO state machines (``handshake``,
``frames``); ``connection`` and ``discovery`` are the trio edges. See
protocol/transport.md for the wire format and docs/network.md for notes.
"""

from .connection import SecureChannel, dial, open_secure_channel, serve_secure
from .discovery import (
    DEFAULT_GROUP,
    DEFAULT_PORT,
    TableAd,
    TableDirectory,
    TableInfo,
    announce_table,
    listen_for_tables,
    new_table_id,
)
from .errors import (
    BadSignature,
    BeaconError,
    ChannelClosed,
    ChannelError,
    ConnectError,
    ContextMismatch,
    DecryptError,
    FrameError,
    FrameTooLarge,
    HandshakeAborted,
    HandshakeError,
    HandshakeTimeout,
    MalformedHandshake,
    NetError,
    NonceExhausted,
    TamperedHandshake,
    TruncatedFrame,
    UnexpectedPeerKey,
    VersionMismatch,
    WeakPeerKey,
    WrongInviteCode,
)
from .handshake import PROTOCOL_VERSION, Role
from .identity import Identity, IdentityError, fingerprint

__all__ = [
    "DEFAULT_GROUP",
    "DEFAULT_PORT",
    "PROTOCOL_VERSION",
    "BadSignature",
    "BeaconError",
    "ChannelClosed",
    "ChannelError",
    "ConnectError",
    "ContextMismatch",
    "DecryptError",
    "FrameError",
    "FrameTooLarge",
    "HandshakeAborted",
    "HandshakeError",
    "HandshakeTimeout",
    "Identity",
    "IdentityError",
    "MalformedHandshake",
    "NetError",
    "NonceExhausted",
    "Role",
    "SecureChannel",
    "TableAd",
    "TableDirectory",
    "TableInfo",
    "TamperedHandshake",
    "TruncatedFrame",
    "UnexpectedPeerKey",
    "VersionMismatch",
    "WeakPeerKey",
    "WrongInviteCode",
    "announce_table",
    "dial",
    "fingerprint",
    "listen_for_tables",
    "new_table_id",
    "open_secure_channel",
    "serve_secure",
]
