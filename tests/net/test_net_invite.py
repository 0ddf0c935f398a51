"""Invite codes through SPAKE2 (the version-2 handshake), in memory and over loopback."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import pytest
import trio

from p2pbelka.net.connection import SecureChannel, dial, serve_secure
from p2pbelka.net.errors import (
    BadSignature,
    GuessRefused,
    HandshakeError,
    MalformedHandshake,
    TamperedHandshake,
    UnexpectedPeerKey,
    VersionMismatch,
    WrongInviteCode,
)
from p2pbelka.net.guesses import InviteGuard, Refusal, Reservation
from p2pbelka.net.handshake import MSG_VERSION, PAKE_VERSION, PROTOCOL_VERSION, Handshake, Role
from p2pbelka.net.identity import Identity
from p2pbelka.net.pake import (
    code_in_words,
    new_invite_code,
    normal_code,
    shown_code,
)
from tests.net.test_net_handshake import play, run

ALICE = Identity.generate("alice")
BOB = Identity.generate("bob")
CAROL = Identity.generate("carol")
CODE = normal_code("482 913")


def joiner(code: bytes | None = CODE, who: Identity = ALICE, **kw: object) -> Handshake:
    return Handshake(who, Role.INITIATOR, context=b"lobby", code=code, **kw)  # type: ignore[arg-type]


def host(code: bytes | None = CODE, who: Identity = BOB, **kw: object) -> Handshake:
    return Handshake(who, Role.RESPONDER, context=b"lobby", code=code, **kw)  # type: ignore[arg-type]


# --- codes as people type and say them ------------------------------------------------


def test_a_default_code_is_six_digits_in_two_groups_said_in_words() -> None:
    code = new_invite_code()
    assert len(code) == 7 and code[3] == " " and code.replace(" ", "").isdigit()
    assert code_in_words("482 913") == "four eight two, nine one three"
    assert code_in_words("kitchen-7") == "K I T C H E N, seven"
    assert shown_code("482913") == "482 913" and shown_code("Kitchen 7") == "Kitchen 7"
    assert normal_code("482-913") == normal_code(" 482913 ") == normal_code("482 913")
    assert normal_code("abcd efgh") == normal_code("ABCD-EFGH")  # the old 80-bit spelling
    with pytest.raises(ValueError, match="at least 4"):
        normal_code("1 2-3")


# --- the handshake with a code ----------------------------------------------------------


def test_the_right_code_finishes_and_both_sides_hold_one_session() -> None:
    a, b = run(joiner(normal_code("482-913")), host())
    assert a.transcript_hash == b.transcript_hash
    assert b.session.open(a.session.seal(b"hi")) == b"hi"
    assert a.peer_key == BOB.public_key and b.peer_key == ALICE.public_key


def test_a_wrong_code_fails_at_the_joiner_and_spends_a_guess_at_the_host() -> None:
    i, r = joiner(normal_code("482 914")), host()
    reply = r.receive(i.start())
    assert reply is not None and r.guess_spent
    with pytest.raises(WrongInviteCode, match="invite code"):
        i.receive(reply)
    assert i.peer_key is None  # the host's identity stays hidden from a wrong guess
    # A right code proves itself: its failure later on is no guess spent.
    i, r = joiner(), host(authorize=lambda key: False)
    with pytest.raises(UnexpectedPeerKey):
        r.receive(play(i, r, 3))
    assert r.code_proven and not r.guess_spent


@pytest.mark.parametrize(
    ("joiner_code", "host_code", "words"),
    [(None, CODE, r"version 1 \(without an invite code\)"), (CODE, None, "with an invite code")],
)
def test_a_version_the_host_does_not_speak_is_refused_in_words_both_ways(
    joiner_code: bytes | None, host_code: bytes | None, words: str
) -> None:
    i, r = joiner(joiner_code), host(host_code)
    with pytest.raises(VersionMismatch, match=words):
        r.receive(i.start())
    assert r.refusal == bytes([MSG_VERSION, r.version])
    with pytest.raises(VersionMismatch) as told:
        i.receive(r.refusal)
    assert told.value.peer_version == (PAKE_VERSION if host_code else PROTOCOL_VERSION)


def test_a_recorded_wrong_guess_tests_no_second_guess_offline() -> None:
    """An attacker connects once with guess g1 and keeps all it saw and all its own
    secrets (identity, ephemeral and SPAKE2 randomness).  Its best computation for a
    candidate code c redoes its side under c with those secrets and tries the host's
    REPLY: it must say the same for every candidate, the host's real code included,
    so the recording tells no code from another."""

    def entropy(seed: int) -> partial[bytes]:
        return partial(lambda s, n: bytes([s]) * n, seed)

    eph = bytes([0x33]) * 32
    attacker = joiner(normal_code("111111"), ephemeral_seed=eph, pake_entropy=entropy(7))
    hello = attacker.start()
    reply = host(normal_code("482913")).receive(hello)
    assert reply is not None

    def consistent(candidate: str) -> bool:
        replay = joiner(normal_code(candidate), ephemeral_seed=eph, pake_entropy=entropy(7))
        replay.start()
        try:
            replay.receive(reply)
        except WrongInviteCode:
            return False
        return True

    verdicts = {c: consistent(c) for c in ("111111", "222222", "482913", "000000")}
    assert set(verdicts.values()) == {False}, verdicts
    # A second connection is a second online guess: the host sees it, and it is right.
    assert run(joiner(normal_code("482913")), host(normal_code("482913")))


# --- the handshake's properties, under a code ------------------------------------------


def test_a_replayed_hello_and_auth_finish_nothing() -> None:
    i, r = joiner(), host()
    hello = i.start()
    reply = r.receive(hello)
    assert reply is not None
    auth = i.receive(reply)
    assert auth is not None
    again = host()
    assert again.receive(hello) is not None  # a fresh ephemeral and SPAKE2 message
    with pytest.raises(TamperedHandshake):
        again.receive(auth)


def test_a_hello_reflected_to_its_sender_is_refused() -> None:
    i = joiner()
    hello = i.start()
    # Its own ephemeral and SPAKE2 message back, in REPLY's shape.
    reflected = b"\x02" + hello[2:34] + hello[66:98] + bytes(48)
    with pytest.raises(MalformedHandshake, match="invite-code message"):
        i.receive(reflected)


def test_a_code_holder_cannot_splice_two_sessions_into_one_misbound() -> None:
    """Carol knows the code (every guest does): she sits between Alice and Bob as two
    honest handshakes.  Alice, pinning Bob, refuses her; Bob sees Carol, never Alice;
    and Alice's AUTH forwarded into Carol's session with Bob fails."""
    to_alice = host(who=CAROL)
    alice = joiner(expected_peer_key=BOB.public_key)
    with pytest.raises(UnexpectedPeerKey):
        alice.receive(play(alice, to_alice, 2))

    alice, bob = joiner(), host()
    carol_i, carol_r = joiner(who=CAROL), host(who=CAROL)
    m2_to_alice = carol_r.receive(alice.start())
    assert m2_to_alice is not None
    alice_auth = alice.receive(m2_to_alice)
    m2_from_bob = bob.receive(carol_i.start())
    assert alice_auth is not None and m2_from_bob is not None
    carol_i.receive(m2_from_bob)
    with pytest.raises(HandshakeError):
        bob.receive(alice_auth)
    assert bob.peer_key is None


@dataclass(frozen=True)
class _Thief(Identity):
    """Has the code and Alice's stolen private key, and claims to be Bob."""

    claimed: bytes = BOB.public_key

    @property
    def public_key(self) -> bytes:  # type: ignore[override]
        return self.claimed


def test_a_stolen_joiner_key_and_the_code_do_not_impersonate_the_host_to_her() -> None:
    """Key compromise impersonation: with Alice's private key and the code, Mallory
    still cannot be Bob to Alice (she cannot sign as Bob)."""
    alice = joiner(expected_peer_key=BOB.public_key)
    mallory = host(who=_Thief(ALICE.private_key, "bob"))
    with pytest.raises(BadSignature):
        alice.receive(play(alice, mallory, 4))


# --- the host's count of failed guesses ------------------------------------------------


def test_ten_failed_guesses_use_up_the_code_until_the_host_draws_another() -> None:
    heard: list[tuple[str, int]] = []
    counted: list[tuple[int, int]] = []
    guard = InviteGuard(
        "482 913",
        on_change=lambda code, n: heard.append((code, n)),
        on_failure=lambda n, limit: counted.append((n, limit)),
        new_code=lambda: "777 777",
    )
    held = [guard.reserve("127.0.0.1", 0.0) for _ in range(10)]
    assert all(isinstance(r, Reservation) for r in held)
    assert guard.reserve("127.0.0.1", 0.0) == Refusal("spent")  # ten held: none more tested
    for r in held[:9]:
        assert isinstance(r, Reservation)
        guard.settle(r, False, 1.0)
    last = held[9]
    assert isinstance(last, Reservation)
    guard.settle(last, True, 1.0)  # proven: given back
    assert counted == [(n, 10) for n in range(1, 10)] and not guard.spent
    again = guard.reserve("127.0.0.1", 2.0)
    assert isinstance(again, Reservation)
    guard.settle(again, False, 2.0)
    assert guard.spent and guard.code == "482 913" and not heard  # never redrawn by guessing
    assert guard.reserve("127.0.0.1", 3.0) == Refusal("spent")
    assert guard.redraw(3.0) == "777 777" and heard == [("777 777", 10)]
    assert not guard.spent and not guard.current(again)
    assert guard.total_failures == 10
    with pytest.raises(ValueError):
        InviteGuard("12")


async def test_a_script_of_ten_wrong_codes_uses_up_the_hosts_code() -> None:
    """Over loopback: ten wrong codes are ten failures at the host, which then tests no
    code, not even the right one, until it draws a new one; that one lets a joiner in."""
    spent = trio.Event()

    def on_failure(failures: int, limit: int) -> None:
        if failures == limit:
            spent.set()

    guard = InviteGuard("482 913", on_failure=on_failure, new_code=lambda: "777 777")
    served = trio.Event()

    async def handler(channel: SecureChannel) -> None:
        served.set()

    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            partial(serve_secure, handler, BOB, host="127.0.0.1", context=b"lobby", invite=guard)
        )

        async def attempt(code: str) -> None:
            channel = await dial(
                "127.0.0.1", port, ALICE, context=b"lobby", code=normal_code(code), attempts=1
            )
            await channel.aclose()

        for n in range(10):
            with pytest.raises(WrongInviteCode):
                await attempt(f"{100000 + n}")
        await spent.wait()  # the host counts when it sees each connection end
        with pytest.raises(GuessRefused) as refused:
            await attempt("482 913")
        assert refused.value.reason == "spent" and guard.changes == 0
        guard.redraw(trio.current_time())
        with pytest.raises(WrongInviteCode):
            await attempt("482 913")
        await attempt("777 777")
        await served.wait()
        nursery.cancel_scope.cancel()
