"""The opening envelope: the table description, and what a table checks before it sits
down to one (the game is one this peer plays, by the seats and rules its spec allows;
the fair-deal version and flow are known, and a seat's table sits only at a flow
whose ids are derived; the envelope names the id its table derives; the host is
seated; a continuation continues the segment before it; a seat's table carries the
nonce the seat contributed)."""

from __future__ import annotations

from p2pbelka.fairdeal.versions import check_version
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope
from p2pbelka.protocol.ids import derived_id
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table import registry
from p2pbelka.table.carry import (
    Previous,
    agreement_problem,
    change_problem,
    check_continuation,
    link_problem,
)
from p2pbelka.table.flow import Schedule


def check_table(
    envelope: Envelope,
    previous: Previous | None,
    oldest_flow: int = 1,
    key: bytes | None = None,
    nonce: bytes | None = None,
) -> tuple[int, Schedule] | ev.Rejected:
    """The host's seat and the game's schedule, if ``envelope`` is a table description
    this peer plays (after ``previous``, for a continuation) at a flow of at least
    ``oldest_flow``, carrying ``nonce`` at the seat of ``key`` (not checked when
    either is None); else why it is rejected."""
    checked = _check_table(envelope, previous, oldest_flow)
    if isinstance(checked, ev.Rejected):
        return checked
    assert isinstance(envelope.msg, m.TableMsg)
    why = not_ours(envelope.msg, key, nonce)
    return ev.Rejected(why) if why else checked


def not_ours(setup: m.TableMsg, key: bytes | None, nonce: bytes | None) -> str:
    """Why a table description carrying no ``nonce`` at the seat of ``key`` is refused
    ("" if it carries it, or if there is no nonce to check): an id derived from other
    nonces could be one the seat signed under before."""
    if nonce is None or key is None:
        return ""
    seat = next((s for s, info in enumerate(setup.seats) if info.key == key), None)
    if seat is None:
        return "the table description does not seat this key"
    if seat >= len(setup.nonces) or setup.nonces[seat] != nonce:
        return (
            f"the table description does not carry this seat's nonce at seat {seat}:"
            " it was not made for this sitting (its id could be one we signed under)"
        )
    return ""


def _check_table(
    envelope: Envelope, previous: Previous | None, oldest_flow: int
) -> tuple[int, Schedule] | ev.Rejected:
    opened = _opening(envelope, oldest_flow)
    if isinstance(opened, ev.Rejected):
        return opened
    host, schedule = opened
    assert isinstance(envelope.msg, m.TableMsg)
    setup = envelope.msg
    if setup.after is not None or previous is not None:
        why = check_continuation(previous, host, envelope.game, setup)
        if why:
            return ev.Rejected(f"not a valid continuation: {why}", host)
        return host, schedule
    expected = derived_id(setup)
    if expected is not None and envelope.game != expected:
        return ev.Rejected(
            f"the game id {envelope.game.hex()} is not the one the seats' nonces give"
            f" ({expected.hex()}): no seat chooses the id of a game"
        )
    return host, schedule


def check_link(
    envelope: Envelope, before: Envelope, used: tuple[bytes, ...]
) -> tuple[int, Schedule] | ev.Rejected:
    """The host's seat and the schedule if ``envelope`` opens a continuation of the
    segment ``before`` opened, as far as the two ``table`` envelopes show it (a result
    certificate's chain, protocol/results.md): a table description this peer plays, a
    link to that segment under an id of its own (``used``: the game's ids so far), one
    seat changing hands, and every other seat's agreement.  What only the segment's
    envelopes show (its chains' heads at the cut, its audited score) is not checked."""
    assert isinstance(before.msg, m.TableMsg)
    opened = _opening(envelope, before.msg.flow)
    if isinstance(opened, ev.Rejected):
        return opened
    host, schedule = opened
    assert isinstance(envelope.msg, m.TableMsg)
    setup = envelope.msg
    why = link_problem(before.game, used, envelope.game, setup)
    why = why or change_problem(before.msg, before.game, host, setup)
    why = why or agreement_problem(before.msg, envelope.game, setup)
    if why:
        return ev.Rejected(f"not a valid continuation: {why}", host)
    return host, schedule


def _opening(envelope: Envelope, oldest_flow: int) -> tuple[int, Schedule] | ev.Rejected:
    """What every table description must be, first or continuation: the host's seat."""
    if not isinstance(envelope.msg, m.TableMsg):
        return ev.Rejected(f"expected the table description, got {envelope.type}")
    setup = envelope.msg
    if envelope.seq != 0 or envelope.prev != ZERO_HASH or envelope.deal != 0:
        return ev.Rejected("the table description must open its sender's chain")
    try:
        schedule = registry.schedule(setup.game)
        rules = spec(setup.game)
        rules.check_seats(len(setup.seats))
        rules.check_rules(setup.preset, setup.options)
        check_version(setup.fairdeal)
        if setup.flow not in m.FLOWS:
            raise ValueError(f"flow {setup.flow} is not one this peer knows")
    except ValueError as exc:
        return ev.Rejected(f"bad rules: {exc}")
    if setup.flow < oldest_flow:
        return ev.Rejected(
            f"a table of flow {setup.flow}, whose host chose its game id: a seat sits down"
            f" only at flow {oldest_flow} or later, where the id is derived from every"
            " seat's nonce (an older file is for verify)"
        )
    host = next((s for s, info in enumerate(setup.seats) if info.key == envelope.sender), None)
    if host is None:
        return ev.Rejected("the host is not one of the seats")
    return host, schedule
