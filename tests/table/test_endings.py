"""Endings in the chain: disputes and evidence offered to the intake like any envelope,
their views compared, relayed to every seat; proofs taken after the end; the closing
exchange after the last deal end; a lie about a seat's own chain; every stated proof
in the file.  A cheater with real keys signs two envelopes for one place (or lies in a
view) and sends each peer what suits it: every honest peer that the equivocation
reached proves it, no honest seat is ever proven (nor, once proven, named at all), and
``verify`` of every honest transcript says what its table says."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from p2pbelka.bots import Bot, make_bot
from p2pbelka.cards import CARDS
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import Fork, resign, run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope, seal_envelope
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Phase, Table
from p2pbelka.table.state import TableState
from p2pbelka.table.verify import VerifyReport
from tests.audit import verify_bytes
from tests.table.helpers import play_sync, short_seed

CHEATER = 1
VICTIM = 2
GAMES = [("belka", 4), ("belot", 3), ("belot", 2)]
TWO_HONEST = [("belka", 4), ("belot", 3)]
"""Games where an equivocation can reach two honest peers (Belot for two has one)."""

Verdict = tuple[str, frozenset[tuple[int, bool, bool]]]


def ids(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}"


def _signer(seed: int, game: str, players: int) -> Signer:
    return LocalGame.seeded(seed, game=game, players=players).signers[CHEATER]


def _named(faults: list[ev.Fault] | tuple[ev.Fault, ...]) -> frozenset[tuple[int, bool, bool]]:
    """Who a verdict names, and how: the fatal faults and the unproven notes (not the
    reneges the rules charge, which the audit reports as it goes)."""
    return frozenset((f.seat, f.proven, f.fatal) for f in faults if f.fatal or not f.proven)


def live_verdict(table: Table) -> Verdict:
    kind = (
        "PROVEN"
        if table.view.proven
        else "DISPUTED"
        if table.state.aborted
        else "OK"
        if table.state.over
        else "INCOMPLETE"
    )
    return kind, _named(table.view.faults)


def report_of(table: Table) -> VerifyReport:
    report = verify_bytes(dump_transcript(table.view.transcript))
    assert report.error is None, report.error
    return report


def file_verdict(table: Table) -> Verdict:
    report = report_of(table)
    kind = report.verdict.split(":", 1)[0].replace("CHEATING ", "")
    return kind, _named(report.faults)


def honest(tables: list[Table], cheater: int = CHEATER) -> list[Table]:
    return [t for s, t in enumerate(tables) if s != cheater]


def assert_agree(tables: list[Table], cheater: int = CHEATER) -> None:
    """Every honest table and ``verify`` of its transcript reach the same verdict, and
    no honest seat is proven by any of them."""
    for table in honest(tables, cheater):
        live = live_verdict(table)
        assert live == file_verdict(table), (table.state.me, live, file_verdict(table))
        assert all(seat == cheater for seat, proven, _ in live[1] if proven), live


def assert_cheater_proven(tables: list[Table], cheater: int = CHEATER) -> None:
    """Every honest table proves the cheater, names nobody else, and its file says so."""
    for table in honest(tables, cheater):
        assert table.view.proven, (table.state.me, table.state.phase, table.view.faults)
        assert {f.seat for f in table.view.faults if f.fatal} == {cheater}, table.view.faults
        report = report_of(table)
        assert report.proven, report.verdict
        assert {f.seat for f in report.faults if f.fatal} == {cheater}, report.verdict
    assert_agree(tables, cheater)


def first_deal_over(tables: list[Table]) -> bool:
    """The next deal began everywhere (a game that ends in the first deal plays on
    until nothing moves: what the tables pass on after their end is delivered too)."""
    return all(t.state.deal_id > 1 for t in tables)


def play(
    seed: int,
    game: str,
    players: int,
    *,
    tamper: Callable[[int, bytes], list[bytes]] | None = None,
    deliver: Callable[[int, int, bytes], bytes | None] | None = None,
    states: dict[int, type[TableState]] | None = None,
    whole: bool = False,
) -> list[Table]:
    tables, _ = play_sync(
        seed,
        game_name=game,
        players=players,
        tamper=tamper,
        deliver=deliver,
        states=states,
        give_up=True,
        until=None if whole else first_deal_over,
    )
    return tables


def _opened(raw: bytes) -> Envelope | None:
    try:
        return open_envelope(raw)
    except ProtocolError:
        return None


# -- a dispute for one peer, shares for the others -------------------------------------


@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_a_dispute_for_one_peer_and_shares_for_the_others(case: tuple[str, int]) -> None:
    """The cheater sends the victim a ``dispute`` naming an honest seat for the place
    where the others get its shares.  The victim takes the dispute (it is the
    cheater's next envelope) and passes it on; the others then hold two envelopes for
    one place, and the proof reaches the victim after its end: every honest table
    proves the cheater, and nobody honest stays named."""
    game, players = case
    signer = _signer(60, game, players)
    twins: dict[int, bytes] = {}

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        envelope = _opened(raw)
        if source != CHEATER or dest != VICTIM or envelope is None:
            return raw
        if envelope.sender != signer.public_key or not isinstance(envelope.msg, m.SharesMsg):
            return raw
        if not twins or envelope.seq in twins:
            why = "made up: seat 0 sent nothing"
            twins.setdefault(envelope.seq, resign(signer, envelope, msg=m.DisputeMsg((0,), why)))
            return twins[envelope.seq]
        return raw

    tables = play(60, game, players, deliver=deliver)
    assert twins, "the attack did not happen"
    assert_cheater_proven(tables)


# -- endings off the chain, or at a place held --------------------------------------------


@pytest.mark.parametrize("kind", ["dispute", "evidence"])
@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_an_ending_for_a_place_held_is_proof(case: tuple[str, int], kind: str) -> None:
    """An ending signed for a place of the cheater's chain that holds another of its
    envelopes is two signatures for one place (a dispute naming an honest seat, or
    evidence that proves nothing, changes nothing): the cheater is proven."""
    game, players = case
    signer = _signer(61, game, players)
    sent: list[Envelope] = []

    def tamper(seat: int, raw: bytes) -> list[bytes]:
        if seat != CHEATER or open_envelope(raw).sender != signer.public_key:
            return [raw]
        sent.append(open_envelope(raw))
        if len(sent) != 8:
            return [raw]
        old = sent[3]
        msg: m.Message = (
            m.DisputeMsg((0,), "made up")
            if kind == "dispute"
            else m.EvidenceMsg(sent[4].raw, sent[4].raw)
        )
        return [raw, resign(signer, old, msg=msg)]

    tables = play(61, game, players, tamper=tamper)
    assert len(sent) >= 8
    assert_cheater_proven(tables)


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_an_ending_off_its_senders_chain_is_refused(case: tuple[str, int]) -> None:
    """A dispute that does not follow its sender's last envelope is refused like any
    envelope that breaks its chain: nobody is named.  It is kept at its place, so the
    cheater's next envelope, another for that place, proves it (everywhere: the proof
    is passed on)."""
    tables, bots, _, broken = _a_made_up_dispute(case, skip=1)
    table = tables[0]
    table.receive(broken)
    table.take_outgoing()
    table.proceed()
    assert not table.finished and not table.view.faults
    refused = [e for e in table.take_events() if isinstance(e, ev.Rejected)]
    assert any("broken hash chain" in e.reason and e.seat == CHEATER for e in refused)
    run_sync(tables, bots)
    assert_cheater_proven(tables)


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_give_up_while_an_ending_waits_records_only_its_own_dispute(
    case: tuple[str, int],
) -> None:
    """A dispute past a gap in its sender's chain waits for the envelopes before it
    (the table waits for its sender and asks for them).  If they never come, the
    driver's give-up records the table's own dispute, naming the sender; the one that
    waited is not recorded (it was never taken), so the file replays in order."""
    tables, _, head, ahead = _a_made_up_dispute(case, skip=2)
    table = tables[0]
    table.receive(ahead)
    table.take_outgoing()
    table.proceed()
    assert not table.finished and CHEATER in table.view.missing()
    assert CHEATER in [s for s, seq in enumerate(table.view.wants()) if seq <= head.seq + 1]
    table.abandon([s for s in table.view.missing() if s != table.state.me], "went silent")
    assert table.state.aborted and not table.view.proven
    assert CHEATER in {f.seat for f in table.view.faults}
    last = table.view.transcript[-1]
    assert isinstance(last.msg, m.DisputeMsg) and last.sender == table.state.setup.seats[0].key
    assert all(e.raw != ahead for e in table.view.transcript)
    assert live_verdict(table) == file_verdict(table)


# -- a dispute whose view differs -----------------------------------------------------------


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_dispute_whose_view_differs_is_not_taken_on_trust(case: tuple[str, int]) -> None:
    """The cheater's next envelope is a dispute naming seat 0, whose view gives seat 0's
    last envelope a hash seat 0 never signed.  No table ends on it as it says: its
    view is compared first, the differing place is asked for, nothing backs it, and
    seat 0 (which knows its own chain) names only the cheater.  Nobody is proven."""
    game, players = case
    signer = _signer(63, game, players)
    lie: dict[str, Envelope] = {}

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        """From its envelope number 5 on (one whose view counts seat 0's), the cheater's
        next envelope is the dispute, to everyone, and nothing follows it."""
        envelope = _opened(raw)
        if source != CHEATER or envelope is None or envelope.sender != signer.public_key:
            return raw
        if "at" in lie:
            at = lie["at"]
            return at.raw if envelope.seq == at.seq else None if envelope.seq > at.seq else raw
        if envelope.seq < 5 or envelope.view[0][0] == 0:
            return raw
        view = list(envelope.view)
        view[0] = (view[0][0], bytes(32 * [5]))
        lie["at"] = open_envelope(
            resign(signer, envelope, view=tuple(view), msg=m.DisputeMsg((0,), "made up"))
        )
        return lie["at"].raw

    tables = play(63, game, players, deliver=deliver)
    assert lie, "the attack did not happen"
    for table in honest(tables):
        assert table.state.aborted and not table.view.proven, table.view.faults
    assert {f.seat for f in tables[0].view.faults} == {CHEATER}, "seat 0 knows its own chain"
    assert_agree(tables)


# -- a lie about the receiver's own chain --------------------------------------------------


class LieAboutTheVictim:
    """A ``deliver`` hook: at the cheater's envelope number ``at`` or the first after it
    whose view counts some of the victim's envelopes, the victim gets a twin whose view
    gives the victim's own last envelope a forged hash; the others (and the cheater's
    own table, which answers with the twin too) keep the honest one.  Then the
    cheater goes silent (a liar gives nothing else away)."""

    def __init__(self, signer: Signer, cheater: int, victim: int, at: int) -> None:
        self.signer, self.cheater, self.victim, self.at = signer, cheater, victim, at
        self.fork_seq: int | None = None
        self.twins: dict[int, Envelope] = {}

    def __call__(self, source: int, dest: int, raw: bytes) -> bytes | None:
        envelope = _opened(raw)
        if source != self.cheater or envelope is None:
            return raw
        if envelope.sender != self.signer.public_key:
            return raw
        if self.fork_seq is not None and envelope.seq > self.fork_seq:
            return None
        if dest != self.victim:
            return raw
        if envelope.seq in self.twins:
            return self.twins[envelope.seq].raw
        view = list(envelope.view)
        prev = envelope.prev
        if self.fork_seq is None:
            ending = isinstance(envelope.msg, m.EvidenceMsg | m.DisputeMsg)
            if envelope.seq < self.at or ending or not view or view[self.victim][0] == 0:
                return raw
            self.fork_seq = envelope.seq
            view[self.victim] = (view[self.victim][0], bytes(32 * [5]))
        elif envelope.seq < self.fork_seq:
            return raw
        else:
            return None
        twin = seal_envelope(
            self.signer, envelope.game, envelope.deal, envelope.seq, prev, envelope.msg, tuple(view)
        )
        self.twins[envelope.seq] = twin
        return twin.raw


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_lie_about_the_receivers_own_chain(case: tuple[str, int]) -> None:
    """The victim knows its own chain: a view that gives its envelope a hash it never
    signed is the reporter's lie.  It asks every peer for the reporter's envelope at
    that place; where another peer holds the honest copy (Belka, Belot for three)
    the liar is proven by every honest table; with nobody else to ask (Belot for
    two) the victim names only the liar, never itself."""
    game, players = case
    fork = LieAboutTheVictim(_signer(64, game, players), CHEATER, VICTIM % players, 6)
    tables = play(64, game, players, deliver=fork)
    assert fork.fork_seq is not None, "the attack did not happen"
    victim = tables[VICTIM % players]
    if players > 2:
        assert_cheater_proven(tables)
        return
    assert victim.state.aborted and not victim.view.proven
    assert {f.seat for f in victim.view.faults} == {CHEATER}, victim.view.faults
    assert_agree(tables)


# -- a fork that changes whose turn it is ----------------------------------------------------


class TurnFork:
    """A ``deliver`` hook: at the last card of a trick, the cheater signs another card
    it holds (a legal one) that gives the trick to another seat, and sends it to the
    honest seats that then wait for a seat that will not sign (the others get the card
    it played, and wait for another such seat); then it goes silent.  So no honest
    seat signs again: each waits, and gives up."""

    def __init__(self, signer: Signer, holder: list[TableState]) -> None:
        self.signer, self.holder = signer, holder
        self.fork_seq: int | None = None
        self.twin = b""
        self.twin_to: set[int] = set()

    def __call__(self, source: int, dest: int, raw: bytes) -> bytes | None:
        envelope = _opened(raw)
        if source != CHEATER or envelope is None or envelope.sender != self.signer.public_key:
            return raw
        if self.fork_seq is None and not self._fork(envelope):
            return raw
        assert self.fork_seq is not None
        if envelope.seq > self.fork_seq:
            return None  # silent from the fork on
        if envelope.seq == self.fork_seq and dest in self.twin_to:
            return self.twin
        return raw

    def _fork(self, envelope: Envelope) -> bool:
        cheater = self.holder[0]
        before = getattr(cheater, "before", None)
        if not isinstance(envelope.msg, m.PlayMsg) or before is None:
            return False
        if len(before.trick_so_far().cards) != cheater.n_seats - 1:
            return False
        played = CARDS[cheater.round.my_hand[envelope.msg.pos]]
        real = copy.deepcopy(before)
        if real.play(CHEATER, played) is None or real.turn is None:
            return False
        honest_seats = {s for s in range(cheater.n_seats) if s != CHEATER}
        for card in before.legal_cards(CHEATER):
            other = copy.deepcopy(before)
            if card == played or other.play(CHEATER, card) is None:
                continue
            if other.turn is None or other.turn == real.turn:
                continue
            # Who gets which: each side waits for a seat of the other side (or the
            # cheater), never for one of its own.
            if real.turn == CHEATER:
                twin_to = honest_seats - {other.turn}
            else:
                twin_to = {real.turn}
            pos = cheater.round.position_of(card.index)
            assert pos is not None
            key = cheater.round.deck.my_opening(pos).key
            self.twin = resign(self.signer, envelope, msg=m.PlayMsg(pos, key))
            self.fork_seq, self.twin_to = envelope.seq, twin_to
            return True
        return False


class KeepsItsTrack(TableState):
    """An honest table that keeps the rules' state from before each of its own cards."""

    def handle(self, seat: int, msg: m.Message) -> None:
        if isinstance(msg, m.PlayMsg) and seat == self.me:
            self.before = copy.deepcopy(self.track)
        super().handle(seat, msg)


def _keeping_in(holder: list[TableState]) -> type[TableState]:
    """A ``KeepsItsTrack`` that puts itself in ``holder`` (the hook needs the table)."""

    class Cheater(KeepsItsTrack):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            holder.append(self)

    return Cheater


@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_a_fork_that_changes_whose_turn_it_is(case: tuple[str, int]) -> None:
    """The cheater signs two versions of the card that ends a trick, each giving the
    trick (and the next lead) to another seat, and sends each honest seat the one that
    makes it wait for a seat that will not sign; then it goes silent.  Nobody honest
    signs again: every honest table gives up with a dispute, and the views and the
    last envelopes they pass on bring the two versions together, so every honest
    table proves the cheater."""
    game, players = case
    for seed in range(65, 85):
        holder: list[TableState] = []
        cheater = _keeping_in(holder)
        fork = TurnFork(_signer(seed, game, players), holder)
        tables = play(seed, game, players, deliver=fork, states={CHEATER: cheater})
        if fork.fork_seq is not None:
            break
    else:
        pytest.fail("no seed gave a trick the fork could change")
    assert_cheater_proven(tables)


# -- the closing exchange --------------------------------------------------------------------


@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_two_final_deal_ends_are_proven(case: tuple[str, int]) -> None:
    """The cheater signs two different final ``deal_end``s (the game is won: nothing of
    the game follows them but the closing exchange), one for the victim, one for the
    others.  The views of the ``close``s cover them, so every honest table holds one
    and sees a view of the other: the cheater is proven."""
    game, players = case
    holder: list[TableState] = []

    class Cheater(TableState):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            holder.append(self)

    def change(envelope: Envelope) -> m.Message | None:
        if isinstance(envelope.msg, m.DealEndMsg) and holder[0].track.finished:
            return m.DealEndMsg(bytes(32 * [3]))
        return None

    seed = short_seed(case)
    fork = Fork(_signer(seed, game, players), CHEATER, VICTIM, change)
    tables = play(seed, game, players, deliver=fork, states={CHEATER: Cheater}, whole=True)
    assert fork.fork_seq is not None, "the game did not end"
    assert_cheater_proven(tables)


class NeverCloses(TableState):
    def compose(self) -> m.Message | Question | None:
        return None if self.phase is Phase.CLOSE else super().compose()


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_seat_that_never_closes_cannot_deny_the_result(case: tuple[str, int]) -> None:
    """The rules say the game is won; one seat never signs its ``close``.  Once the others
    give up waiting, the game is over with its result standing, and that seat named
    as not closing (not proven); ``verify`` of every honest file says the same."""
    game, players = case
    tables = play(short_seed(case), game, players, states={CHEATER: NeverCloses}, whole=True)
    for table in honest(tables):
        assert table.state.over, (table.state.me, table.state.phase, table.view.faults)
        assert table.state.track.winner is not None or table.state.track.final_score
        (note,) = table.view.faults
        assert note.seat == CHEATER and not note.proven and not note.fatal
        assert "did not close" in note.what
        report = report_of(table)
        assert report.ok and "did not close" in report.verdict, report.verdict
        assert report.winner == table.state.track.winner
    assert_agree(tables)


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_an_honest_game_ends_with_every_close(case: tuple[str, int]) -> None:
    game, players = case
    tables = play(short_seed(case), game, players, whole=True)
    for table in tables:
        assert table.state.over and not table.view.faults
        closes = [e for e in table.view.transcript[-players:] if isinstance(e.msg, m.CloseMsg)]
        assert len(closes) == players
        assert report_of(table).verdict.startswith("OK")
    assert_agree(tables, cheater=-1)


# -- every stated proof is in the file -------------------------------------------------------


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_an_over_count_is_recorded_and_verify_proves_it(case: tuple[str, int]) -> None:
    """A view that claims more of a chain than the schedule gave proves its signer; the
    envelope goes into the transcript before the game ends, so ``verify`` of the file
    proves the same fault."""
    game, players = case
    signer = _signer(69, game, players)
    other = (CHEATER + 1) % players
    sent: list[bytes] = []

    def tamper(seat: int, raw: bytes) -> list[bytes]:
        if seat != CHEATER or open_envelope(raw).sender != signer.public_key:
            return [raw]
        sent.append(raw)
        if len(sent) != 6:
            return [raw]
        envelope = open_envelope(raw)
        view = list(envelope.view)
        view[other] = (view[other][0] + 5, view[other][1])
        return [resign(signer, envelope, view=tuple(view))]

    tables = play(69, game, players, tamper=tamper)
    for table in honest(tables):
        (fault,) = table.view.faults
        assert fault.seat == CHEATER and fault.proven and "its view claims" in fault.what
        assert table.view.transcript[-1].digest.hex() == fault.evidence[0]
        report = report_of(table)
        assert report.proven and [f.what for f in report.faults] == [fault.what]
    assert_agree(tables)


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_held_seat_records_the_proof_and_a_signing_seat_its_evidence(
    case: tuple[str, int],
) -> None:
    """A resumed seat, still held (it may not sign until the others gave back what it
    signed), proves an equivocation: it cannot sign evidence, so it records the
    second envelope itself, and ``verify`` of its file proves the sender.  A seat
    that may sign records the same proof record, then its evidence."""
    game, players = case
    local = LocalGame.seeded(70, game=game, players=players)
    tables = local.make_tables()
    bots = [make_bot("random", s) for s in range(players)]
    run_sync(tables, bots, until=lambda events: tables[0].state.deal_id >= 1)
    signer = local.signers[CHEATER]
    seat = 0
    old = next(e for e in reversed(tables[seat].view.transcript) if e.sender == signer.public_key)
    twin = open_envelope(resign(signer, old, msg=m.DisputeMsg((seat,), "made up")))
    fresh = LocalGame.seeded(70, game=game, players=players)
    assert fresh.seed_sources is not None
    held = Table.resume(
        local.signers[seat],
        list(tables[seat].view.transcript),
        seed_source=fresh.seed_sources[seat],
    )
    assert held.state.held
    live = tables[seat]
    for table in (held, live):
        table.receive(twin.raw)
        assert table.view.proven, table.view.faults
        (fault,) = table.view.faults
        assert fault.seat == CHEATER and fault.proven
        report = report_of(table)
        assert report.proven and {f.seat for f in report.faults} == {CHEATER}
        assert live_verdict(table) == file_verdict(table)
    assert held.view.transcript[-1] == twin, "the held seat records the proof itself"
    assert live.view.transcript[-2] == twin and isinstance(
        live.view.transcript[-1].msg, m.EvidenceMsg
    )


def _a_made_up_dispute(
    case: tuple[str, int], skip: int
) -> tuple[list[Table], list[Bot], Envelope, bytes]:
    """A game played into its first deal, the cheater's last envelope seat 0 holds, and
    a dispute the cheater signed ``skip`` places past it with a zero ``prev`` (1: a
    broken hash chain; 2: past a gap in its chain)."""
    game, players = case
    local = LocalGame.seeded(62, game=game, players=players)
    tables = local.make_tables()
    bots = [make_bot("random", s) for s in range(players)]
    run_sync(tables, bots, until=lambda events: tables[0].state.deal_id >= 1)
    key = local.signers[CHEATER].public_key
    head = next(e for e in reversed(tables[0].view.transcript) if e.sender == key)
    view = list(tables[0].view.accepted())
    view[CHEATER] = (head.seq + skip, bytes(32))
    forged = resign(
        local.signers[CHEATER],
        head,
        seq=head.seq + skip,
        prev=bytes(32),
        view=tuple(view),
        msg=m.DisputeMsg((0,), "made up"),
    )
    return tables, bots, head, forged
