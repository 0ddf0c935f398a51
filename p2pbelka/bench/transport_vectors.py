"""The transport's vectors beyond the honest handshake: ``protocol/vectors/transport.json``.

transport.md section 8 prints the honest handshakes; this file gives what a second
implementation could otherwise only guess: how a typed invite code becomes ``code'``
(section 3.5), every intermediate value of the SPAKE2 exchange and the confirmation
keys of the section 8.1 vector, and each handshake refusal as the messages that make
it, fed to a fresh side built from section 8's seeds.  ``python -m
p2pbelka.bench.transport_vectors`` rewrites the file; the suite regenerates it byte
for byte and replays every refusal (``tests/net/test_net_refusal_vectors.py``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl import bindings as nb

from p2pbelka.net.errors import GuessRefused, HandshakeError
from p2pbelka.net.handshake import Handshake, Role
from p2pbelka.net.identity import Identity
from p2pbelka.net.pake import CONFIRM_INFO, ID_INITIATOR, ID_RESPONDER, NEUTRAL, normal_code

VECTOR = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "transport.json"

ORDER = 2**252 + 27742317777372353535851937790883648493
CTX = b"table-vector"
CODE = "482 913"
SEEDS = {"initiator": 0x01, "responder": 0x02}
EPHEMERALS = {"initiator": 0x11, "responder": 0x22}
ENTROPY = {"initiator": 0x33, "responder": 0x44}
OTHER_KEY_SEED = 0x03

# transport.md section 3.3's word for each refusal (the reference's error classes).
WORDS = {
    "MalformedHandshake": "malformed",
    "VersionMismatch": "version mismatch",
    "ContextMismatch": "context mismatch",
    "GuessRefused": "guess not tested",
    "TamperedHandshake": "tampered",
    "WrongInviteCode": "wrong invite code",
    "BadSignature": "bad signature",
    "WeakPeerKey": "weak key",
    "UnexpectedPeerKey": "unexpected key",
}

# What a typed code becomes (section 3.5, "Code"): None where it is refused.
TYPED_CODES = [
    "482 913",
    "482-913",
    "\uff14\uff18\uff12\uff19\uff11\uff13",  # full-width digits: NFKC makes them ASCII
    "\u0664\u0668\u0662\u0669\u0661\u0663",  # Arabic-Indic digits: kept as they are
    "abcd-efgh",
    "\u043a\u043e\u0434-12",  # Cyrillic letters, upper-cased
    "stra\u00dfe",  # full upper-casing: one ß is two S
    "\u00df1",  # three code points once upper-cased: refused
    "\u00df\u00df",  # four: kept
    "\ufb01x 42",  # the ligature fi: NFKC makes it two letters
    "\u00bd ab",  # ½: NFKC gives 1, the fraction slash (not a letter or digit), 2
    "\u2460\u2461\u2462\u2463",  # circled digits: NFKC makes them ASCII
    "12 3",
    "a.b.c",
]


@dataclass(frozen=True)
class _Liar(Identity):
    """An identity that claims another key or signs garbage: the refusals of a
    dishonest peer, which an honest ``Identity`` never makes."""

    claimed: bytes = b""
    garbage: bool = False

    @cached_property
    def public_key(self) -> bytes:
        return self.claimed or self.private_key.public_key().public_bytes_raw()

    def sign(self, data: bytes) -> bytes:
        return bytes(64) if self.garbage else self.private_key.sign(data)


class _WrongConfirmation(Handshake):
    """A side that holds the code's key but sends a confirmation of 32 zero bytes: the
    one refusal of a wrong ``c_I`` or ``c_R`` whose message still opens."""

    def _confirmation(self, *, initiator: bool) -> bytes:
        mine = initiator == (self.role is Role.INITIATOR)
        return bytes(32) if mine else super()._confirmation(initiator=initiator)


def side(role: str, *, version: int = 1, ctx: bytes = CTX, code: str | None = None,
         pinned: bytes | None = None, guard: str | None = None,
         identity: Identity | None = None, kind: type[Handshake] = Handshake,
         ) -> Handshake:  # fmt: skip
    """A side of transport.md section 8: its seeds, ``ctx``, and (version 2) a code."""
    who = Identity.from_seed(bytes([SEEDS[role]]) * 32)
    coded = normal_code(code or CODE) if version == 2 else None
    ask: bytes | Callable[[], bytes] | None = coded
    if guard is not None:
        ask = _guard(guard)
    entropy = ENTROPY[role]
    return kind(
        identity or who,
        Role.INITIATOR if role == "initiator" else Role.RESPONDER,
        context=ctx,
        ephemeral_seed=bytes([EPHEMERALS[role]]) * 32,
        version=version,
        code=ask,
        pake_entropy=lambda n: bytes([entropy]) * n,
        expected_peer_key=pinned,
    )


def _guard(guard: str) -> Callable[[], bytes]:
    def refuse() -> bytes:
        if guard == "spent":
            raise GuessRefused("the code's guesses are used up", "spent")
        if guard == "shut":
            raise GuessRefused("this address is shut out", "shut")
        seconds = float(guard.split(":")[1])
        raise GuessRefused(f"this address waits {seconds:.0f} s", "wait", seconds)

    return refuse


def run(i: Handshake, r: Handshake, *, checked: bool = True) -> dict[str, bytes]:
    """The four messages of a handshake between ``i`` and ``r`` (``checked``: the
    initiator takes the CONFIRM too)."""
    hello = i.start()
    reply = r.receive(hello)
    assert reply is not None
    auth = i.receive(reply)
    assert auth is not None
    confirm = r.receive(auth)
    assert confirm is not None and (not checked or i.receive(confirm) is None)
    return {"HELLO": hello, "REPLY": reply, "AUTH": auth, "CONFIRM": confirm}


def _honest(version: int) -> dict[str, bytes]:
    """The four honest messages of section 8 (version 1) or 8.1 (version 2)."""
    return run(side("initiator", version=version), side("responder", version=version))


def _flip_last(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


def _zero_ephemeral(data: bytes, at: int) -> bytes:
    """The message with its X25519 ephemeral (at byte ``at``) the low-order zero point."""
    return data[:at] + bytes(32) + data[at + 32 :]


def _retyped(data: bytes, kind: int) -> bytes:
    """The message of the right size under another type byte."""
    return bytes([kind]) + data[1:]


def _points(v2: dict[str, bytes]) -> dict[str, bytes]:
    """32-byte strings that are no usable SPAKE2 message, by the check that refuses them."""
    x = v2["HELLO"][66:]
    order8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
    return {
        "not-canonical-y": bytes([0xEE]) + bytes([0xFF]) * 30 + bytes([0x7F]),  # p + 1
        "not-on-curve": (2).to_bytes(32, "little"),
        "not-canonical-sign": NEUTRAL[:31] + bytes([0x80]),  # x = 0, sign bit set
        "neutral": NEUTRAL,
        "small-order": order8,
        "torsion-component": nb.crypto_core_ed25519_add(x, order8),
    }


def _cases() -> list[dict[str, Any]]:
    v1, v2 = _honest(1), _honest(2)
    other = side("initiator", ctx=b"another-table").start()
    wrong_reply = side("responder", version=2, code="482 914").receive(v2["HELLO"])
    assert wrong_reply is not None
    bad = _points(v2)
    key_3 = Identity.from_seed(bytes([OTHER_KEY_SEED]) * 32).public_key
    seed_1 = Identity.from_seed(bytes([SEEDS["initiator"]]) * 32)
    seed_2 = Identity.from_seed(bytes([SEEDS["responder"]]) * 32)

    def liar_auth(liar: Identity) -> bytes:
        """The AUTH of an initiator that lies (the responder refuses it: it stops there)."""
        i, r = side("initiator", identity=liar), side("responder")
        reply = r.receive(i.start())
        assert reply is not None
        auth = i.receive(reply)
        assert auth is not None
        return auth

    liar_r = side("responder", identity=_Liar(seed_2.private_key, "bot", garbage=True))
    forged = run(side("initiator"), liar_r, checked=False)
    weak_r = side("responder", identity=_Liar(seed_2.private_key, "bot", claimed=NEUTRAL))
    weak_reply = weak_r.receive(side("initiator").start())
    assert weak_reply is not None
    lying_i = side("initiator", version=2, kind=_WrongConfirmation)
    lying_auth = lying_i.receive(side("responder", version=2).receive(lying_i.start()) or b"")
    assert lying_auth is not None
    lying_r = side("responder", version=2, kind=_WrongConfirmation)
    lying_confirm = run(side("initiator", version=2), lying_r, checked=False)
    cases: list[tuple[str, str, dict[str, Any], list[bytes]]] = [
        ("hello-not-a-hello", "responder", {}, [bytes([2, 1])]),
        ("version-2-hello-to-1", "responder", {}, [v2["HELLO"]]),
        ("version-1-hello-to-2", "responder", {"version": 2}, [v1["HELLO"]]),
        ("version-3-hello", "responder", {}, [v1["HELLO"][:1] + bytes([3]) + v1["HELLO"][2:]]),
        ("hello-size", "responder", {}, [v1["HELLO"] + bytes(1)]),
        ("context-mismatch", "responder", {}, [other]),
        ("untested-spent", "responder", {"version": 2, "guard": "spent"}, [v2["HELLO"]]),
        ("untested-wait", "responder", {"version": 2, "guard": "wait:10"}, [v2["HELLO"]]),
        ("shut-out", "responder", {"version": 2, "guard": "shut"}, [v2["HELLO"]]),
        ("low-order-ephemeral", "responder", {}, [_zero_ephemeral(v1["HELLO"], 2)]),
        *(
            (f"x-{name}", "responder", {"version": 2}, [v2["HELLO"][:66] + point])
            for name, point in bad.items()
        ),
        ("x-reflected", "responder", {"version": 2}, [v2["HELLO"][:66] + v2["REPLY"][33:65]]),
        ("auth-size", "responder", {}, [v1["HELLO"], v1["AUTH"][:-1]]),
        ("auth-type", "responder", {}, [v1["HELLO"], _retyped(v1["AUTH"], 4)]),
        ("auth-tampered", "responder", {}, [v1["HELLO"], _flip_last(v1["AUTH"])]),
        (
            "auth-tampered-with-code",
            "responder",
            {"version": 2},
            [v2["HELLO"], _flip_last(v2["AUTH"])],
        ),
        (
            "auth-bad-signature",
            "responder",
            {},
            [v1["HELLO"], liar_auth(_Liar(seed_1.private_key, "bot", garbage=True))],
        ),
        (
            "auth-weak-key",
            "responder",
            {},
            [v1["HELLO"], liar_auth(_Liar(seed_1.private_key, "bot", claimed=NEUTRAL))],
        ),
        ("auth-wrong-confirmation", "responder", {"version": 2}, [v2["HELLO"], lying_auth]),
        ("auth-unexpected-key", "responder", {"pinned": key_3.hex()}, [v1["HELLO"], v1["AUTH"]]),
        ("reply-version", "initiator", {"version": 2}, [bytes([5, 1])]),
        ("reply-untested-spent", "initiator", {"version": 2}, [bytes([6, 1, 0, 0])]),
        ("reply-untested-wait", "initiator", {"version": 2}, [bytes([6, 2, 0, 10])]),
        ("reply-untested-other", "initiator", {"version": 2}, [bytes([6, 3, 0, 0])]),
        ("reply-untested-to-version-1", "initiator", {}, [bytes([6, 1, 0, 0])]),
        ("reply-type", "initiator", {}, [_retyped(v1["REPLY"], 4)]),
        ("reply-low-order-ephemeral", "initiator", {}, [_zero_ephemeral(v1["REPLY"], 1)]),
        ("reply-weak-key", "initiator", {}, [weak_reply]),
        ("reply-size", "initiator", {}, [v1["REPLY"][:-1]]),
        ("reply-tampered", "initiator", {}, [_flip_last(v1["REPLY"])]),
        ("wrong-invite-code", "initiator", {"version": 2}, [wrong_reply]),
        ("unexpected-peer-key", "initiator", {"pinned": key_3.hex()}, [v1["REPLY"]]),
        *(
            (
                f"y-{name}",
                "initiator",
                {"version": 2},
                [v2["REPLY"][:33] + point + v2["REPLY"][65:]],
            )
            for name, point in bad.items()
        ),
        (
            "y-reflected",
            "initiator",
            {"version": 2},
            [v2["REPLY"][:33] + v2["HELLO"][66:] + v2["REPLY"][65:]],
        ),
        ("confirm-size", "initiator", {}, [v1["REPLY"], v1["CONFIRM"][:-1]]),
        ("confirm-type", "initiator", {}, [v1["REPLY"], _retyped(v1["CONFIRM"], 2)]),
        ("confirm-tampered", "initiator", {}, [v1["REPLY"], _flip_last(v1["CONFIRM"])]),
        (
            "confirm-tampered-with-code",
            "initiator",
            {"version": 2},
            [v2["REPLY"], _flip_last(v2["CONFIRM"])],
        ),
        (
            "confirm-wrong-confirmation",
            "initiator",
            {"version": 2},
            [lying_confirm["REPLY"], lying_confirm["CONFIRM"]],
        ),
        ("confirm-bad-signature", "initiator", {}, [forged["REPLY"], forged["CONFIRM"]]),
    ]
    return [_case(name, role, setup, messages) for name, role, setup, messages in cases]


def receiver(role: str, setup: dict[str, Any]) -> Handshake:
    """A fresh side of ``role`` as a case's ``setup`` describes it."""
    pinned = setup.get("pinned")
    hs = side(
        role,
        version=setup.get("version", 1),
        pinned=bytes.fromhex(pinned) if pinned else None,
        guard=setup.get("guard"),
    )
    if role == "initiator":
        hs.start()
    return hs


def replay(role: str, setup: dict[str, Any], messages: list[bytes]) -> dict[str, Any]:
    """Feed ``messages`` to a fresh receiver: its answers, then the refusal of the last."""
    hs = receiver(role, setup)
    answers: list[str] = []
    for n, message in enumerate(messages):
        try:
            answer = hs.receive(message)
        except HandshakeError as exc:
            if n != len(messages) - 1:
                raise AssertionError(f"refused early, at message {n}: {exc}") from exc
            return {
                "answers": answers,
                "refusal": WORDS[type(exc).__name__],
                "error": type(exc).__name__,
                "reason": str(exc),
                "last_word": hs.refusal.hex() if hs.refusal else None,
            }
        answers.append(answer.hex() if answer else "")
    raise AssertionError("the last message was not refused")


def _case(name: str, role: str, setup: dict[str, Any], messages: list[bytes]) -> dict[str, Any]:
    return {
        "name": name,
        "receiver": role,
        "setup": setup,
        "messages": [m.hex() for m in messages],
        **replay(role, setup, messages),
    }


def spake2_steps() -> dict[str, str]:
    """Every value of section 3.5 for the section 8.1 vector, computed from the text
    with libsodium's edwards25519 (never the ``spake2`` package)."""

    def le(n: int) -> bytes:
        return n.to_bytes(32, "little")

    def h(data: bytes) -> bytes:
        return hashlib.sha256(data).digest()

    def hkdf(ikm: bytes, info: bytes, length: int) -> bytes:
        return HKDF(algorithm=hashes.SHA256(), length=length, salt=b"", info=info).derive(ikm)

    code = normal_code(CODE)
    stretched = hkdf(code, b"SPAKE2 pw", 48)
    w = int.from_bytes(stretched, "big") % ORDER
    x = int.from_bytes(bytes([ENTROPY["initiator"]]) * 64, "big") % ORDER
    y = int.from_bytes(bytes([ENTROPY["responder"]]) * 64, "big") % ORDER
    m, n = _hashed_point(b"M"), _hashed_point(b"N")
    mul, base, add = (
        nb.crypto_scalarmult_ed25519_noclamp,
        nb.crypto_scalarmult_ed25519_base_noclamp,
        nb.crypto_core_ed25519_add,
    )
    big_x, big_y = add(base(le(x)), mul(le(w), m)), add(base(le(y)), mul(le(w), n))
    k = mul(le(x), nb.crypto_core_ed25519_sub(big_y, mul(le(w), n)))
    prologue = b"p2pbelka/transport/v1" + bytes([2]) + len(CTX).to_bytes(4, "big") + CTX
    id_a, id_b = ID_INITIATOR + prologue, ID_RESPONDER + prologue
    k_pake = h(h(code) + h(id_a) + h(id_b) + big_x + big_y + k)
    kc_i, kc_r = hkdf(k_pake, CONFIRM_INFO[True], 32), hkdf(k_pake, CONFIRM_INFO[False], 32)
    th = h(prologue + _X25519_PUBLIC["initiator"] + _X25519_PUBLIC["responder"] + big_x + big_y
           + _identity("initiator") + _identity("responder"))  # fmt: skip
    return {
        "code'": code.hex(),
        'HKDF(code\', "SPAKE2 pw", 48)': stretched.hex(),
        "w": le(w).hex(),
        "M": m.hex(),
        "N": n.hex(),
        "x": le(x).hex(),
        "y": le(y).hex(),
        "X": big_x.hex(),
        "Y": big_y.hex(),
        "K": k.hex(),
        "idA": id_a.hex(),
        "idB": id_b.hex(),
        "K_pake": k_pake.hex(),
        "kc_I": kc_i.hex(),
        "kc_R": kc_r.hex(),
        "TH": th.hex(),
        "c_I": hmac.new(kc_i, th, hashlib.sha256).hexdigest(),
        "c_R": hmac.new(kc_r, th, hashlib.sha256).hexdigest(),
    }


def _identity(role: str) -> bytes:
    return Identity.from_seed(bytes([SEEDS[role]]) * 32).public_key


_X25519_PUBLIC = {
    role: X25519PrivateKey.from_private_bytes(bytes([seed]) * 32).public_key().public_bytes_raw()
    for role, seed in EPHEMERALS.items()
}


def _hashed_point(seed: bytes) -> bytes:
    """``M`` or ``N`` (section 3.5): HKDF of the seed to 48 bytes, big-endian mod p,
    the first y from there up that has an x (the even one), times 8."""
    p = 2**255 - 19
    d = -121665 * pow(121666, p - 2, p) % p
    y = int.from_bytes(HKDF(
        algorithm=hashes.SHA256(), length=48, salt=b"", info=b"SPAKE2 arbitrary element"
    ).derive(seed), "big") % p  # fmt: skip
    while True:
        xx = (y * y - 1) * pow(d * y * y + 1, p - 2, p) % p
        x = pow(xx, (p + 3) // 8, p)
        if (x * x - xx) % p:
            x = x * pow(2, (p - 1) // 4, p) % p
        if (x * x - xx) % p == 0:
            if x % 2:
                x = p - x
            point = y.to_bytes(32, "little")  # x even: the sign bit is clear
            eight = point
            for _ in range(3):  # doubled by addition: libsodium multiplies subgroup points only
                eight = nb.crypto_core_ed25519_add(eight, eight)
            if eight != NEUTRAL:
                return eight
        y = (y + 1) % p


def generate() -> dict[str, Any]:
    return {
        "about": "transport.md sections 3.3 and 3.5; the sides are section 8's (seeds, "
        "ephemerals, ctx, the code 482 913, the SPAKE2 randomness); bytes in hex, "
        "scalars as 32 bytes little-endian",
        "codes": [{"typed": typed, "code'": _code_or_none(typed)} for typed in TYPED_CODES],
        "spake2": spake2_steps(),
        "refusals": _cases(),
    }


def _code_or_none(typed: str) -> str | None:
    try:
        return normal_code(typed).hex()
    except ValueError:
        return None


def text() -> str:
    return json.dumps(generate(), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    VECTOR.write_text(text(), encoding="utf-8")
    print(f"wrote {VECTOR.name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
