"""A result certificate in the player's words (``p2pbelka verify CERT``)."""

from __future__ import annotations

import time

from p2pbelka.ladder.certificate import Certificate
from p2pbelka.net.identity import fingerprint
from p2pbelka.protocol import messages as m
from p2pbelka.rules.registry import spec
from p2pbelka.ui.words.i18n import _


def side_names(certificate: Certificate, side: int) -> str:
    """The players of one side of the game, by name: ``Asel & Saule``."""
    setup = certificate.setup
    seats = spec(setup.game).teams(len(setup.seats))[side]
    return " & ".join(certificate.names[s] for s in seats)


def day(at: int) -> str:
    """A date as the ladder prints it (UTC, so every machine prints the same)."""
    return time.strftime("%Y-%m-%d", time.gmtime(at))


def outcome_line(certificate: Certificate) -> str:
    outcome = certificate.outcome
    if outcome.winner is not None:
        score = ":".join(str(s) for s in outcome.score)
        return _("won by {names} ({score})").format(
            names=side_names(certificate, outcome.winner), score=score
        )
    named = ", ".join(f"{s} ({certificate.names[s]})" for s in outcome.proven)
    return _("seat {seats} proven cheating: that side loses").format(seats=named)


def certificate_lines(certificate: Certificate) -> list[str]:
    setup = certificate.setup
    lines = [
        _("result certificate of game {id} ({game})").format(
            id=certificate.game_id.hex(), game=spec(setup.game).title
        )
    ]
    for seat, info in enumerate(setup.seats):
        lines.append(
            _("seat {seat}: {name} (key {key})").format(
                seat=seat, name=info.name, key=fingerprint(info.key)
            )
        )
    lines += change_lines(certificate)
    lines.append(outcome_line(certificate))
    if certificate.unclosed:
        seats = ", ".join(str(s) for s in certificate.unclosed)
        lines.append(_("did not close (named, not proven): seat {seats}").format(seats=seats))
    maker = certificate.maker_seat
    who = (
        _("seat {seat}").format(seat=maker)
        if maker is not None
        else _("a key that sat at no seat ({key})").format(key=fingerprint(certificate.by))
    )
    lines.append(_("made by {who}, the game ended {day}").format(who=who, day=day(certificate.at)))
    return lines


def change_lines(certificate: Certificate) -> list[str]:
    """Each seat change of a chained certificate, and whose result it is."""
    lines = []
    before = certificate.setup
    held: list[set[bytes]] = [{key} for key in certificate.keys]
    for segment in certificate.segments:
        setup = segment.msg
        assert isinstance(setup, m.TableMsg) and setup.after is not None
        seat = setup.after.seat
        info = setup.seats[seat]
        agreed = ", ".join(str(s) for s, _sig in setup.after.agreed)
        if info.key in held[seat]:
            line = _(
                "seat {seat} handed back to {name} (key {key}) from deal {deal},"
                " agreed by seats {agreed}"
            )
        else:
            line = _(
                "seat {seat} ({was}) left: {name} (key {key}) played on from deal {deal},"
                " agreed by seats {agreed}"
            )
        lines.append(
            line.format(
                seat=seat,
                was=before.seats[seat].name,
                name=info.name,
                key=fingerprint(info.key),
                deal=setup.after.deal,
                agreed=agreed,
            )
        )
        held[seat].add(info.key)
        before = setup
    if lines:
        lines.append(_("the result counts for the players who sat down at the start"))
    return lines
