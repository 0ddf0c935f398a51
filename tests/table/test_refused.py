"""An envelope refused when it is due is kept at its place (protocol/SPEC.md section 2).

The cheater sends the victim, just before its true envelope, another one for the
same place that the victim's table refuses when it is due: it names another deal,
breaks the hash chain, or is out of turn.  Before, the refused one was forgotten and
the true one then taken, so the cheater, which signed two envelopes for one place,
went unproven.  Now the refused one is kept and recorded: the true one is proof, for
the victim, for every honest seat the proof is passed on to, and for ``verify`` of
every honest file, which says what its table says.  An identical copy (the cheater's
resend, an honest peer's relay) is no second version, and an envelope whose signature
does not verify is no evidence of anything: the game goes on.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from p2pbelka.bots import make_bot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign, run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, open_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.intake import Equivocation, Intake
from p2pbelka.table.session import Table
from tests.audit import verify_bytes

CHEATER = 1
GAMES = [("belka", 4), ("belot", 3), ("belot", 2)]
AT = 6
"""Which of the cheater's envelopes is attacked (one in the first deal)."""
FAKE = bytes(32 * [0x5A])


def ids(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}"


def victim_of(players: int) -> int:
    return 0 if players == 2 else 2


def _opened(raw: bytes) -> Envelope | None:
    try:
        return open_envelope(raw)
    except ProtocolError:
        return None


def refused_version(local: LocalGame, envelope: Envelope, how: str) -> bytes:
    """Another envelope the cheater signs for ``envelope``'s place, one a table refuses
    when it is due (``deal``: it names the next deal; ``chain``: it does not follow the
    cheater's previous envelope; ``turn``: a message the phase does not take)."""
    signer = local.signers[CHEATER]
    if how == "deal":
        return resign(signer, envelope, deal=envelope.deal + 1)
    if how == "chain":
        return resign(signer, envelope, prev=FAKE)
    other: m.Message = m.CommitMsg(FAKE) if isinstance(envelope.msg, m.SitMsg) else m.SitMsg(FAKE)
    return resign(signer, envelope, msg=other)


class Attack:
    """The cheater's ``AT``-th envelope goes to the victim after ``first`` (its refused
    version, or a copy with a broken signature); ``withhold``: the true one never
    reaches the victim from the cheater (only another peer can hand it over)."""

    def __init__(self, local: LocalGame, victim: int, make: Callable[[Envelope], bytes]) -> None:
        self.key = local.signers[CHEATER].public_key
        self.victim = victim
        self.make = make
        self.count = 0
        self.first: bytes = b""
        self.true: Envelope | None = None
        self.withhold = False
        self.everyone = False
        """Every honest seat gets the refused version, and none the true one."""

    def tamper(self, seat: int, raw: bytes) -> list[bytes]:
        envelope = _opened(raw)
        if seat != CHEATER or envelope is None or envelope.sender != self.key:
            return [raw]
        self.count += 1
        if self.count != AT:
            return [raw]
        self.true = envelope
        self.first = self.make(envelope)
        return [self.first, raw]

    def deliver(self, source: int, dest: int, raw: bytes) -> bytes | None:
        if raw == self.first:
            return raw if dest == self.victim or self.everyone else None
        if self.withhold and source == CHEATER and self._is_true(raw):
            return raw if self.everyone or dest != self.victim else None
        if self.everyone and self._is_true(raw):
            return None  # every honest seat sees only the refused one
        return raw

    def _is_true(self, raw: bytes) -> bool:
        envelope = _opened(raw)
        return self.true is not None and envelope is not None and envelope == self.true


def play(
    case: tuple[str, int],
    make: Callable[[LocalGame, Envelope], bytes],
    withhold: bool = False,
    everyone: bool = False,
) -> tuple[list[Table], list[list[ev.Event]], Attack]:
    game, players = case
    local = LocalGame.seeded(70, game=game, players=players)
    tables = local.make_tables()
    bots = [make_bot("random", s) for s in range(players)]
    attack = Attack(local, victim_of(players), lambda e: make(local, e))
    attack.withhold, attack.everyone = withhold, everyone
    events = run_sync(
        tables,
        bots,
        tamper=attack.tamper,
        deliver=attack.deliver,
        give_up=True,
        until=lambda _: all(t.state.deal_id > 1 or t.finished for t in tables),
    )
    assert attack.first, "the attack did not happen"
    return tables, events, attack


def verdict_of_file(table: Table) -> tuple[bool, bool, frozenset[tuple[int, bool]]]:
    report = verify_bytes(dump_transcript(table.view.transcript))
    assert report.error is None, report.error
    named = frozenset((f.seat, f.proven) for f in report.faults if f.fatal)
    return report.aborted, report.proven, named


def verdict_of_table(table: Table) -> tuple[bool, bool, frozenset[tuple[int, bool]]]:
    named = frozenset((f.seat, f.proven) for f in table.view.faults if f.fatal)
    return table.state.aborted, table.view.proven, named


def assert_proven_everywhere(tables: list[Table]) -> None:
    """Every honest table proves the cheater and names nobody else; its file says so."""
    for seat, table in enumerate(tables):
        if seat == CHEATER:
            continue
        assert table.view.proven, (seat, table.state.phase, table.view.faults)
        assert {f.seat for f in table.view.faults if f.fatal} == {CHEATER}, table.view.faults
        assert verdict_of_file(table) == verdict_of_table(table), seat


def refusals(events: list[ev.Event]) -> list[str]:
    return [e.reason for e in events if isinstance(e, ev.Rejected) and e.seat == CHEATER]


# -- a refused envelope, then the other version of its place ----------------------------------


@pytest.mark.parametrize("how", ["deal", "chain", "turn"])
@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_refused_envelope_then_another_for_its_place_is_proof(
    case: tuple[str, int], how: str
) -> None:
    """The victim refuses the first envelope when it is due, keeps it, and proves the
    cheater when the true one comes: every honest table proves it (the proof is passed
    on), and ``verify`` of every honest file says the same."""
    tables, events, attack = play(case, lambda local, e: refused_version(local, e, how))
    victim = attack.victim
    assert refusals(events[victim]), "the first version was not refused"
    assert any(e.raw == attack.first for e in tables[victim].view.transcript), "not recorded"
    assert_proven_everywhere(tables)


@pytest.mark.parametrize("case", GAMES[:2], ids=ids)
def test_the_other_version_handed_over_by_a_resend_is_proof(case: tuple[str, int]) -> None:
    """The true envelope never comes to the victim from the cheater: the victim, stuck
    at the refused place, asks for it, and another peer's copy proves the cheater."""
    tables, _, _ = play(case, lambda local, e: refused_version(local, e, "deal"), withhold=True)
    assert_proven_everywhere(tables)


def test_a_refused_envelope_alone_proves_nothing() -> None:
    """Belot for two: the true envelope never reaches the victim (the cheater withholds
    it, resends too).  The victim holds one envelope for the place: it waits for the
    cheater, gives up and names it, unproven; ``verify`` of its file says the same."""
    tables, _, attack = play(
        ("belot", 2), lambda local, e: refused_version(local, e, "deal"), withhold=True
    )
    victim = tables[attack.victim]
    assert victim.state.aborted and not victim.view.proven, victim.view.faults
    assert {(f.seat, f.proven) for f in victim.view.faults if f.fatal} == {(CHEATER, False)}
    assert verdict_of_file(victim) == verdict_of_table(victim)


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_resumed_table_keeps_the_refused_envelope(case: tuple[str, int]) -> None:
    """The refused envelope is in the victim's file: a table resumed from it (after a
    crash) holds it at its place again, so the other version proves the cheater."""
    game, players = case
    local = LocalGame.seeded(70, game=game, players=players)
    victim = victim_of(players)
    tables, _, attack = play(case, lambda lg, e: refused_version(lg, e, "deal"))
    upto = next(i for i, e in enumerate(tables[victim].view.transcript) if e.raw == attack.first)
    saved = list(tables[victim].view.transcript[: upto + 1])
    assert local.seed_sources is not None
    resumed = Table.resume(local.signers[victim], saved, seed_source=local.seed_sources[victim])
    assert attack.true is not None
    resumed.receive(attack.true.raw)
    assert resumed.view.proven and {f.seat for f in resumed.view.faults if f.fatal} == {CHEATER}


# -- what is no second version ---------------------------------------------------------------


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_copy_of_the_refused_envelope_is_ignored(case: tuple[str, int]) -> None:
    """The refused envelope again, from its sender or relayed by another peer, is the
    same envelope: nothing is proven by it, and one envelope is kept for the place."""
    tables, _, attack = play(case, lambda local, e: refused_version(local, e, "deal"))
    victim = tables[attack.victim]
    refused = _opened(attack.first)
    assert refused is not None
    # Replay the victim's file up to the refused record, then offer that record again.
    observer = Table(victim.game_id)
    upto = next(i for i, e in enumerate(victim.view.transcript) if e.raw == attack.first)
    for envelope in victim.view.transcript[: upto + 1]:
        observer.receive(envelope.raw)
    assert not observer.finished
    for _ in range(3):
        observer.receive(attack.first)
    assert not observer.finished and not observer.view.faults
    chain = observer._chains.intake.chains[CHEATER]  # the bound: one kept per place
    assert list(chain.refused) == [refused.seq]
    assert sum(e.raw == attack.first for e in observer.view.transcript) == 1


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_refused_envelope_relayed_by_every_honest_seat_proves_nothing(
    case: tuple[str, int],
) -> None:
    """Every honest seat gets only the refused version (each refuses and keeps it) and
    they relay it to each other (resend answers, the last envelopes passed on with a
    dispute): one envelope, however often it comes, is no pair.  Every honest table
    gives up on the cheater, unproven, and its file says the same."""
    tables, events, _ = play(
        case, lambda local, e: refused_version(local, e, "deal"), everyone=True
    )
    for seat, table in enumerate(tables):
        if seat == CHEATER:
            continue
        assert refusals(events[seat]), seat
        assert table.state.aborted and not table.view.proven, (seat, table.view.faults)
        assert {(f.seat, f.proven) for f in table.view.faults if f.fatal} == {(CHEATER, False)}
        assert verdict_of_file(table) == verdict_of_table(table), seat


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_forged_signature_is_no_evidence(case: tuple[str, int]) -> None:
    """A version whose signature does not verify is refused as malformed and kept
    nowhere: the true envelope after it is taken, and the game goes on to its end
    with nobody named."""

    def forged(local: LocalGame, envelope: Envelope) -> bytes:
        raw = bytearray(resign(local.signers[CHEATER], envelope, deal=envelope.deal + 1))
        raw[-1] ^= 1  # the signature's last byte
        return bytes(raw)

    tables, events, attack = play(case, forged)
    victim = attack.victim
    assert any(isinstance(e, ev.Rejected) and "signature" in e.reason for e in events[victim]), (
        "the forged version was not refused"
    )
    for seat, table in enumerate(tables):
        assert not table.finished or table.state.over, (seat, table.view.faults)
        assert not [f for f in table.view.faults if f.fatal], (seat, table.view.faults)


def test_the_intake_keeps_one_envelope_per_refused_place() -> None:
    """At the intake: a refused envelope stays at its place; the same one again is a
    harmless duplicate, another one there is an equivocation naming the kept one."""
    local = LocalGame.seeded(71)
    host = local.make_tables()[0]
    table_envelope = host.view.transcript[0]
    signer = local.signers[0]
    first = open_envelope(resign(signer, table_envelope, seq=1, msg=m.SitMsg(FAKE)))
    second = open_envelope(resign(signer, table_envelope, seq=1, msg=m.SitMsg(bytes(32))))
    intake = Intake(4)
    intake.offer(0, table_envelope)
    intake.accept(0)
    assert intake.offer(0, first)
    assert intake.refuse(0) == first
    assert intake.peek(0) is None and intake.refused(0, 1) == first
    assert not intake.offer(0, first)
    with pytest.raises(Equivocation) as caught:
        intake.offer(0, second)
    assert caught.value.known == first
    assert intake.chains[0].refused == {1: first}
