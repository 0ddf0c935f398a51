"""Transport layer: identities, secure peer connections and LAN discovery.

The handshake and framing are sans-IO state machines (``handshake``,
``frames``), and so are the discovery beacon's format (``beacon``) and the list of
tables heard (``directory``); ``connection`` and ``discovery`` are the trio edges. See
protocol/transport.md for the wire format and docs/network.md for notes.
"""

from typing import TYPE_CHECKING

from p2pbelka import lazy_names

if TYPE_CHECKING:
    from .beacon import TableAd, new_table_id
    from .connection import SecureChannel, dial, open_secure_channel, serve_secure
    from .directory import TableDirectory, TableInfo
    from .discovery import DEFAULT_GROUP, DEFAULT_PORT, announce_table, listen_for_tables
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
        GuessRefused,
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

# each name loads its module when first asked for (PEP 562): see ``lazy_names``
__getattr__ = lazy_names(
    __name__,
    {
        "TableAd": ".beacon",
        "new_table_id": ".beacon",
        "SecureChannel": ".connection",
        "dial": ".connection",
        "open_secure_channel": ".connection",
        "serve_secure": ".connection",
        "TableDirectory": ".directory",
        "TableInfo": ".directory",
        "DEFAULT_GROUP": ".discovery",
        "DEFAULT_PORT": ".discovery",
        "announce_table": ".discovery",
        "listen_for_tables": ".discovery",
        "BadSignature": ".errors",
        "BeaconError": ".errors",
        "ChannelClosed": ".errors",
        "ChannelError": ".errors",
        "ConnectError": ".errors",
        "ContextMismatch": ".errors",
        "DecryptError": ".errors",
        "FrameError": ".errors",
        "FrameTooLarge": ".errors",
        "GuessRefused": ".errors",
        "HandshakeAborted": ".errors",
        "HandshakeError": ".errors",
        "HandshakeTimeout": ".errors",
        "MalformedHandshake": ".errors",
        "NetError": ".errors",
        "NonceExhausted": ".errors",
        "TamperedHandshake": ".errors",
        "TruncatedFrame": ".errors",
        "UnexpectedPeerKey": ".errors",
        "VersionMismatch": ".errors",
        "WeakPeerKey": ".errors",
        "WrongInviteCode": ".errors",
        "PROTOCOL_VERSION": ".handshake",
        "Role": ".handshake",
        "Identity": ".identity",
        "IdentityError": ".identity",
        "fingerprint": ".identity",
    },
)

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
    "GuessRefused",
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
