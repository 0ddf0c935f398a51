"""Fair-deal versions: which group, and which labels, a deal uses.

A game carries its version in its setup (every deal of a game uses the same),
so a saved transcript is replayed with the group it was dealt with.

* version 1: edwards25519's prime-order subgroup through libsodium (PyNaCl);
  32-byte points and little-endian scalars.
* version 2: secp256k1 through libsecp256k1 (``coincurve``); 33-byte compressed
  points, big-endian scalars, RFC 9380 card points.  About 2.5 times cheaper
  per multiplication (``p2pbelka bench deal`` measures it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import Final

from .errors import FairDealError
from .group import ED25519, Group
from .secp256k1 import SECP256K1

FAIRDEAL_VERSION: Final = 2
"""The version a new game should use."""

SUPPORTED_VERSIONS: Final = (1, 2)
"""Versions this implementation deals and verifies."""

_GROUPS: Final[Mapping[int, Group]] = {1: ED25519, 2: SECP256K1}

_CARD_DOMAINS: Final[Mapping[int, bytes]] = {
    1: b"p2pbelka/card",
    2: b"p2pbelka/fairdeal/v2/card_secp256k1_XMD:SHA-256_SSWU_RO_",
}


class UnsupportedVersion(FairDealError, ValueError):
    """A game asks for a fair-deal version this implementation does not know."""

    def __init__(self, version: object) -> None:
        super().__init__(
            f"fair-deal version {version!r} is not supported (known: {SUPPORTED_VERSIONS})"
        )
        self.version = version


def check_version(version: object) -> int:
    """``version`` if supported; else :class:`UnsupportedVersion` (blame who chose it)."""
    if type(version) is not int or version not in _GROUPS:
        raise UnsupportedVersion(version)
    return version


def group_for(version: int) -> Group:
    """The group of a fair-deal version."""
    return _GROUPS[check_version(version)]


@contextlib.contextmanager
def remembering() -> Iterator[None]:
    """Every version's group remembers its products, for the block (or joins the
    enclosing block's): ``SECP256K1.remembering`` and ``ED25519.remembering``, for a
    process that runs every seat of a table, whatever version its game deals with."""
    with SECP256K1.remembering(), ED25519.remembering():
        yield


def label(version: int, name: str) -> bytes:
    """``p2pbelka/fairdeal/v<version>/<name>``: every hash of a version is labelled so."""
    return f"p2pbelka/fairdeal/v{check_version(version)}/{name}".encode()


def card_domain(version: int) -> bytes:
    """The hash-to-group domain (for version 2 the RFC 9380 DST) of card points."""
    return _CARD_DOMAINS[check_version(version)]


__all__ = [
    "FAIRDEAL_VERSION",
    "SUPPORTED_VERSIONS",
    "UnsupportedVersion",
    "card_domain",
    "check_version",
    "group_for",
    "label",
    "remembering",
]
