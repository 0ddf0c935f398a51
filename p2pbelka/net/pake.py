"""Invite codes and the password-authenticated key exchange they enter through.  Sans-IO.

A host that wants only its friends at the table gives them a short code (six
digits by default).  The code never enters a key directly: it is the password
of a SPAKE2 exchange (the ``spake2`` package, the one Magic Wormhole uses) whose
two messages ride in HELLO and REPLY (protocol/transport.md section 3.5).  An
attacker who talks to the host learns only whether its one guess was right, and
the host sees the failure; an eavesdropper learns nothing.  What a short code
still needs is a limit on guesses: that is :mod:`p2pbelka.net.guesses`.
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Callable, Mapping
from typing import ClassVar

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl import bindings as _nacl

from .errors import MalformedHandshake

# The ``spake2`` package is imported where a code is used: it computes its group's
# constants as it loads (a hundredth of a CPU-second), which every peer that starts
# without an invite code would pay for nothing.

__all__ = [
    "CONFIRM_SIZE",
    "DEFAULT_GUESSES",
    "DIGIT_WORDS",
    "MIN_CODE_LENGTH",
    "PAKE_MESSAGE_SIZE",
    "InvitePake",
    "code_in_words",
    "new_invite_code",
    "normal_code",
    "point_refusal",
    "shown_code",
]

PAKE_MESSAGE_SIZE = 32
CONFIRM_SIZE = 32
MIN_CODE_LENGTH = 4
DEFAULT_DIGITS = 6
DEFAULT_GUESSES = 10
"""Guesses the host tests against one code; then it tests none until it draws another."""

ID_INITIATOR = b"p2pbelka/v2 invite initiator"
ID_RESPONDER = b"p2pbelka/v2 invite responder"
CONFIRM_INFO: Mapping[bool, bytes] = {
    True: b"p2pbelka/v2 invite confirm I",
    False: b"p2pbelka/v2 invite confirm R",
}

FIELD_PRIME = 2**255 - 19
NEUTRAL = bytes([1]) + bytes(31)


def point_refusal(message: bytes, own: bytes) -> str | None:
    """Why a peer's SPAKE2 message ``X`` or ``Y`` is refused, or None (transport.md
    section 3.5, "Checks of X and Y", in its order).  The ``spake2`` package alone
    accepts two encodings that are not canonical (y at or above the field prime, and
    x = 0 with its sign bit set), among them the neutral element's: each is refused
    here first, so one point has one encoding on the wire and in the transcript."""
    if len(message) != PAKE_MESSAGE_SIZE:
        return f"not {PAKE_MESSAGE_SIZE} bytes"
    if int.from_bytes(message, "little") & ((1 << 255) - 1) >= FIELD_PRIME:
        return "not canonical: its y is not below 2^255 - 19"
    from spake2.ed25519_basic import (  # type: ignore[import-untyped]
        ElementOfUnknownGroup,
        NotOnCurve,
        decodepoint,
        is_extended_zero,
        xform_affine_to_extended,
    )

    try:
        x, y = decodepoint(message)
    except NotOnCurve:
        return "not a point of the curve"
    if x % FIELD_PRIME == 0 and message[31] & 0x80:
        return "not canonical: x is 0 and its sign bit is set"
    if message == NEUTRAL:
        return "the neutral element"
    eight = ElementOfUnknownGroup(xform_affine_to_extended((x, y))).scalarmult(8)
    if is_extended_zero(eight.XYTZ):
        return "a point of small order"
    if not _nacl.crypto_core_ed25519_is_valid_point(message):
        return "not in the prime-order subgroup (it has a small-order component)"
    if message == own:
        return "our own message reflected"
    return None


DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def normal_code(code: str) -> bytes:
    """The bytes a code stands for (``code'``, transport.md section 3.5): NFKC, then
    upper-cased, then only letters and numbers kept, as UTF-8, so ``482 913``,
    ``482-913`` and ``482913`` are one code.  ``ValueError`` if fewer than
    :data:`MIN_CODE_LENGTH` code points remain."""
    # Letters and digits are the general categories L* and N* (str.isalnum says the
    # same of every code point, Unicode 14.0); upper() is the full, locale-free mapping.
    upper = unicodedata.normalize("NFKC", code).upper()
    kept = "".join(ch for ch in upper if unicodedata.category(ch)[0] in "LN")
    if len(kept) < MIN_CODE_LENGTH:
        raise ValueError(
            f"an invite code needs at least {MIN_CODE_LENGTH} letters or digits, got {code!r}"
        )
    return kept.encode()


def new_invite_code() -> str:
    """A fresh default code: six random digits, shown as two groups of three."""
    return shown_code(f"{secrets.randbelow(10**DEFAULT_DIGITS):0{DEFAULT_DIGITS}d}")


def shown_code(code: str) -> str:
    """A code as the host's screen shows it: digits-only codes in groups of three."""
    kept = "".join(ch for ch in code if ch.isalnum())
    if kept.isdigit() and len(kept) > 4:
        return " ".join(kept[i : i + 3] for i in range(0, len(kept), 3))
    return code.strip()


def code_in_words(code: str, digits: tuple[str, ...] = DIGIT_WORDS) -> str:
    """A code read out: ``482 913`` is "four eight two, nine one three" (``digits``: the
    words for 0 to 9 in the reader's language); letters are spelled one by one, groups
    are separated by commas."""
    groups = shown_code(code).replace("-", " ").split()
    return ", ".join(
        " ".join(digits[int(ch)] if ch in "0123456789" else ch.upper() for ch in g if ch.isalnum())
        for g in groups
    )


class InvitePake:
    """One side's SPAKE2 over the edwards25519 group, with the code as the password.

    ``message`` goes to the peer (32 bytes, the group element without the library's
    side byte: the message's place in the handshake says the side); ``finish`` takes
    the peer's and gives the shared key.  ``entropy`` (n -> n random bytes) is for
    the test vectors only."""

    starts: ClassVar[collections.Counter[str]] = collections.Counter()
    """SPAKE2 starts computed in this process, by role ("initiator", "responder"): a
    scalar multiplication each.  The tests and the benchmark read it to see that a
    host spent none on a connection that sent no HELLO, or one it did not test."""

    def __init__(
        self,
        code: bytes,
        initiator: bool,
        prologue: bytes,
        entropy: Callable[[int], bytes] | None = None,
    ) -> None:
        # The SPAKE2 identities name the roles and the prologue (version and
        # context); the identity keys are not known yet when these messages fly,
        # and are bound later through the transcript hash and the confirmations.
        InvitePake.starts["initiator" if initiator else "responder"] += 1
        from spake2 import SPAKE2_A, SPAKE2_B  # type: ignore[import-untyped]

        kind = SPAKE2_A if initiator else SPAKE2_B
        extra = {} if entropy is None else {"entropy_f": entropy}
        self._spake = kind(code, idA=ID_INITIATOR + prologue, idB=ID_RESPONDER + prologue, **extra)
        self.initiator = initiator
        self.message: bytes = self._spake.start()[1:]
        self.key = b""

    def finish(self, peer_message: bytes) -> bytes:
        why = point_refusal(peer_message, self.message)
        if why is not None:
            which = "Y" if self.initiator else "X"
            raise MalformedHandshake(f"unusable invite-code message {which} from peer: {why}")
        from spake2 import SPAKEError
        from spake2.ed25519_basic import NotOnCurve

        side = b"B" if self.initiator else b"A"
        try:
            self.key = self._spake.finish(side + peer_message)
        except (SPAKEError, NotOnCurve, ValueError, AssertionError) as exc:
            # point_refusal has refused all of these already: a second net, never reached.
            raise MalformedHandshake(f"unusable invite-code message from peer: {exc}") from None
        return self.key

    def confirmation(self, initiator: bool, transcript_hash: bytes) -> bytes:
        """The key confirmation of one role (RFC 9382's shape): an HMAC of the
        transcript hash, which names both identity keys, under a key of the PAKE's."""
        if not self.key:
            raise ValueError("finish() first")
        kc = HKDF(
            algorithm=hashes.SHA256(), length=32, salt=b"", info=CONFIRM_INFO[initiator]
        ).derive(self.key)
        return hmac.new(kc, transcript_hash, hashlib.sha256).digest()
