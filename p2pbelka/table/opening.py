"""The opening envelope: the table description, and what a table checks before it sits
down to one (the game is one this peer plays, by the seats and rules its spec allows;
the fair-deal version and flow are known; the host is seated; a continuation
continues the segment before it)."""

from __future__ import annotations

from p2pbelka.fairdeal.versions import check_version
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table import registry
from p2pbelka.table.carry import Previous, check_continuation
from p2pbelka.table.flow import Schedule


def check_table(
    envelope: Envelope, previous: Previous | None
) -> tuple[int, Schedule] | ev.Rejected:
    """The host's seat and the game's schedule, if ``envelope`` is a table description
    this peer plays (after ``previous``, for a continuation); else why it is rejected."""
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
    host = next((s for s, info in enumerate(setup.seats) if info.key == envelope.sender), None)
    if host is None:
        return ev.Rejected("the host is not one of the seats")
    if setup.after is not None or previous is not None:
        why = check_continuation(previous, host, envelope.game, setup)
        if why:
            return ev.Rejected(f"not a valid continuation: {why}", host)
    return host, schedule
