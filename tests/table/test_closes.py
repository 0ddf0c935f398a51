"""The closing exchange covered, and a proven table that goes on proving.

The closes are the last envelopes of a game: no view signed after them covers them,
so every peer passes each close on to every seat the first time it arrives, and a
second version of one seat's close meets the first at some honest peer: proof.  A
close must carry the view the exchange began with (one view for all); another is
refused, naming its seat.  A close lying in its view ends the live table as
``verify`` reads its file.  After one seat is proven, the table still takes what
comes and proves every further seat that signed two envelopes for one place, in its
file too."""

from __future__ import annotations

import pytest

from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, Signer, open_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from p2pbelka.table.state import TableState
from tests.table.helpers import play_sync, short_seed
from tests.table.test_endings import (
    CHEATER,
    GAMES,
    TWO_HONEST,
    VICTIM,
    _opened,
    assert_agree,
    assert_cheater_proven,
    file_verdict,
    ids,
    live_verdict,
    play,
    report_of,
)

FAKE = bytes(32 * [0x5A])


def _signers(seed: int, game: str, players: int) -> list[Signer]:
    return list(LocalGame.seeded(seed, game=game, players=players).signers)


def _older(envelope: Envelope) -> tuple[tuple[int, bytes], ...]:
    """``envelope``'s view with the first other chain seen as empty (a view that agrees
    with every chain it names, but not the one the closing exchange began with)."""
    other = next(s for s in range(len(envelope.view)) if s != CHEATER)
    return tuple((0, ZERO_HASH) if s == other else e for s, e in enumerate(envelope.view))


def _lying(envelope: Envelope, about: int) -> tuple[tuple[int, bytes], ...]:
    """``envelope``'s view with a hash nobody signed for ``about``'s chain."""
    return tuple((e[0], FAKE) if s == about else e for s, e in enumerate(envelope.view))


def _is_close_of(envelope: Envelope | None, signer: Signer) -> bool:
    return (
        envelope is not None
        and envelope.sender == signer.public_key
        and isinstance(envelope.msg, m.CloseMsg)
    )


# -- a second close --------------------------------------------------------------------------


@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_a_second_close_of_one_seat_is_proven_by_every_honest_table(
    case: tuple[str, int],
) -> None:
    """The cheater's close to the victim carries an older view, its true close goes to
    the others.  The victim refuses its version (not the exchange's view) and passes
    it on, as every peer passes on every close: the others hold two closes of one
    seat, and the proof reaches the victim.  Every honest table and its file prove
    the cheater."""
    game, players = case
    seed = short_seed(case)
    signer = _signers(seed, game, players)[CHEATER]
    twins: list[bytes] = []

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        envelope = _opened(raw)
        if source != CHEATER or dest != VICTIM or not _is_close_of(envelope, signer):
            return raw
        assert envelope is not None
        if not twins:
            twins.append(resign(signer, envelope, view=_older(envelope)))
        return twins[0]

    tables = play(seed, game, players, deliver=deliver, whole=True)
    assert twins, "the game did not reach its closing exchange"
    assert_cheater_proven(tables)


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_close_out_of_protocol_is_refused_naming_its_seat(case: tuple[str, int]) -> None:
    """The cheater's one close (to every seat) carries a view that agrees with every
    chain, but not the one the exchange began with: every honest table refuses it,
    naming the seat, and the game is won with that seat named as not closing (not
    proven); ``verify`` of every honest file says the same."""
    game, players = case
    seed = short_seed(case)
    signer = _signers(seed, game, players)[CHEATER]
    changed: list[bytes] = []

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        envelope = _opened(raw)
        if source == CHEATER and envelope is not None and isinstance(envelope.msg, m.EvidenceMsg):
            return None  # its own table proves it, holding both: a cheater keeps quiet
        if not _is_close_of(envelope, signer):
            return raw
        assert envelope is not None
        if not changed:  # the one close every seat ever gets of it
            changed.append(resign(signer, envelope, view=_older(envelope)))
        return changed[0]

    tables, events = play_sync(seed, game_name=game, players=players, deliver=deliver, give_up=True)
    assert changed, "the game did not reach its closing exchange"
    for seat, table in enumerate(tables):
        if seat == CHEATER:
            continue
        refused = [e for e in events[seat] if isinstance(e, ev.Rejected) and e.seat == CHEATER]
        assert any("close" in e.reason for e in refused), events[seat]
        assert table.state.over, (table.state.me, table.state.phase, table.view.faults)
        assert [(f.seat, f.proven, f.fatal) for f in table.view.faults] == [(CHEATER, False, False)]
        assert report_of(table).ok
    assert_agree(tables)


# -- a close lying in its view ------------------------------------------------------------


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_close_lying_in_its_view_ends_as_the_file_says(case: tuple[str, int]) -> None:
    """A coalition of every seat but the victim: the liar's close tells the victim a
    hash nobody signed (of a third seat's chain, or in Belot for two of the victim's
    own), and nothing of the liar's true close reaches the victim.  The victim gives
    up with the view unsettled: the game is won (the closes cover only the last
    deal's ``deal_end``s), the liar named as not closing (its close was not taken;
    not the seat it accuses), nobody proven; ``verify`` of the victim's file reads
    the same."""
    game, players = case
    seed = short_seed(case)
    liar = CHEATER
    victim = 0 if players == 2 else VICTIM
    about = victim if players == 2 else next(s for s in range(players) if s not in (liar, victim))
    signer = _signers(seed, game, players)[liar]
    twins: list[bytes] = []

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        if dest != victim:
            return raw
        envelope = _opened(raw)
        if envelope is None or isinstance(envelope.msg, m.EvidenceMsg):
            return None  # the coalition proves nothing to the victim
        if not _is_close_of(envelope, signer):
            return raw
        if not twins:
            twins.append(resign(signer, envelope, view=_lying(envelope, about)))
        return twins[0] if source == liar else None

    tables = play(seed, game, players, deliver=deliver, whole=True)
    assert twins, "the game did not reach its closing exchange"
    table = tables[victim]
    assert table.state.over and not table.view.proven, (table.state.phase, table.view.faults)
    assert {f.seat for f in table.view.faults} == {liar}, table.view.faults
    assert all(not f.proven and not f.fatal for f in table.view.faults), table.view.faults
    assert live_verdict(table) == file_verdict(table)
    assert report_of(table).ok


# -- a proven table proves a second liar -----------------------------------------------------


@pytest.mark.parametrize("case", TWO_HONEST, ids=ids)
def test_a_proven_table_proves_the_second_liar_too(case: tuple[str, int]) -> None:
    """Two seats of a coalition each sign two lot commitments; the honest tables prove
    the first whose pair completes, then take the second pair after the end: both
    liars are proven by every honest table and by ``verify`` of its file, and no
    honest seat is named."""
    game, players = case
    liars = {0, 1}
    signers = _signers(73, game, players)
    forked: set[int] = set()

    def tamper(seat: int, raw: bytes) -> list[bytes]:
        envelope = open_envelope(raw)
        if seat not in liars or envelope.sender != signers[seat].public_key:
            return [raw]
        if not isinstance(envelope.msg, m.LotCommitMsg) or seat in forked:
            return [raw]
        forked.add(seat)
        return [raw, resign(signers[seat], envelope, msg=m.LotCommitMsg(FAKE))]

    tables = play(73, game, players, tamper=tamper)
    assert forked == liars
    for seat in range(players):
        if seat in liars:
            continue
        table = tables[seat]
        assert table.view.proven
        assert {f.seat for f in table.view.faults if f.fatal and f.proven} == liars, (
            table.view.faults
        )
        assert {f.seat for f in table.view.faults} == liars, table.view.faults
        report = report_of(table)
        assert report.proven, report.verdict
        assert {f.seat for f in report.faults if f.fatal and f.proven} == liars, report.verdict
        assert live_verdict(table) == file_verdict(table)


# -- a withheld final deal end ----------------------------------------------------------------


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_withheld_final_deal_end_cannot_deny_the_result(case: tuple[str, int]) -> None:
    """A coalition of every seat but the victim keeps the liar's last ``deal_end`` from
    it (the game is won, its last audit passed).  The victim gives up waiting: the
    game is over with its result, the liar named as not closing (not proven), as a
    seat that never closes is; ``verify`` of the victim's file reads the same."""
    game, players = case
    seed = short_seed(case)
    liar = CHEATER
    victim = 0 if players == 2 else VICTIM
    holder: list[TableState] = []

    class Liar(TableState):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            holder.append(self)

    signer = _signers(seed, game, players)[liar]
    kept: list[Envelope] = []

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        envelope = _opened(raw)
        if dest != victim or envelope is None:
            return raw
        if isinstance(envelope.msg, m.EvidenceMsg):
            return None
        final = isinstance(envelope.msg, m.DealEndMsg) and holder[0].track.finished
        if envelope.sender == signer.public_key and final:
            kept.append(envelope)
            return None
        return raw

    tables = play(seed, game, players, deliver=deliver, states={liar: Liar}, whole=True)
    assert kept, "the game did not end"
    table = tables[victim]
    assert table.state.over, (table.state.phase, table.view.faults)
    assert [(f.seat, f.proven, f.fatal) for f in table.view.faults] == [(liar, False, False)]
    assert live_verdict(table) == file_verdict(table)
    report = report_of(table)
    assert report.ok and report.winner == table.state.track.winner, report.verdict


# -- a held seat gives up in the closing exchange ------------------------------------------


@pytest.mark.parametrize("case", GAMES, ids=ids)
def test_a_held_seat_giving_up_in_the_closing_exchange_ends_as_its_file_reads(
    case: tuple[str, int],
) -> None:
    """A seat resumed from a transcript that ends as the closing exchange begins (the
    game won, no close in it) gives up while it is held: it may sign nothing, so it
    records nothing, and ends the game over with its result, every seat whose close
    it does not hold named (not proven); ``verify`` of its file reads the same won
    game, naming the same seats (before, it said INCOMPLETE)."""
    game, players = case
    seed = short_seed(case)
    seat = 0 if players == 2 else VICTIM
    tables = play(seed, game, players, whole=True)
    full = tables[seat]
    assert full.state.over and isinstance(full.view.transcript[-1].msg, m.CloseMsg)
    cut = [e for e in full.view.transcript if not isinstance(e.msg, m.CloseMsg)]
    fresh = LocalGame.seeded(seed, game=game, players=players)
    assert fresh.seed_sources is not None
    table = Table.resume(fresh.signers[seat], cut, seed_source=fresh.seed_sources[seat])
    assert table.state.held and table.view.closing
    table.abandon(table.view.missing())
    assert table.state.over, (table.state.phase, table.view.faults)
    assert table.state.track.winner == full.state.track.winner
    assert {f.seat for f in table.view.faults} == set(range(players))
    assert all(not f.proven and not f.fatal for f in table.view.faults)
    assert live_verdict(table) == file_verdict(table)
    report = report_of(table)
    assert report.ok and report.winner == full.state.track.winner, report.verdict
