"""A pass with a point that is not a valid group element: every honest table proves its
author at that very record, and so does ``verify`` of every honest file.

Before, only the next seat to multiply the deck found the point (its multiplication
failed): it stopped without signing, and the others, still waiting for its pass,
named that honest seat as silent.  Now every table validates every point of every
``shuffle`` and ``lock`` when it handles the pass (fairdeal.md section 8), so the
honest tables end together, their transcripts the same bytes, on a proven fault of
the author alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nacl import bindings as nacl

from p2pbelka.fairdeal import SUPPORTED_VERSIONS
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.table import events as ev
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Table
from p2pbelka.table.state import TableState
from tests.audit import verify_bytes
from tests.table.helpers import faults_of, play_sync

_P25519 = 2**255 - 19
_ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
_SOME_POINT = nacl.crypto_core_ed25519_from_uniform(hashlib.sha256(b"a point").digest())
_P256K1 = 2**256 - 2**32 - 977

INVALID: dict[int, dict[str, bytes]] = {
    1: {
        "off the curve": (2).to_bytes(32, "little"),  # y = 2: x^2 is no square
        "the identity": (1).to_bytes(32, "little"),
        "small order": _ORDER_8,
        "mixed order": nacl.crypto_core_ed25519_add(_SOME_POINT, _ORDER_8),
        "not canonical": (_P25519 + 3).to_bytes(32, "little"),
        "wrong length": b"\x02" + bytes(31) + b"\x01",  # 33 bytes: version 2's size
    },
    2: {
        "off the curve": b"\x02" + (5).to_bytes(32, "big"),
        "the point at infinity": bytes(33),
        "x not below p": b"\x02" + (_P256K1 + 1).to_bytes(32, "big"),
        "bad prefix": b"\x05" + (1).to_bytes(32, "big"),
        "wrong length": bytes(31) + b"\x01",  # 32 bytes: version 1's size
    },
}
"""Per fair-deal version, points a cheater may sign into a pass (each fits the wire's
32 or 33 bytes, so the envelope is well-formed and the sender is at fault)."""

GAMES = [("belka", 4), ("belot", 3), ("belot", 2)]


def bad_pass(
    kind: type[m.ShuffleMsg] | type[m.LockMsg], position: int, point: bytes, last: bool = False
) -> type:
    """A table that signs its first ``kind`` pass with ``point`` at ``position`` (``last``:
    its first pass that is the deal's last lock, which no seat multiplies)."""

    class InvalidPoint(TableState):
        def compose(self) -> m.Message | Question | None:
            msg = super().compose()
            final = len(self.round.deck.locks) == self.n_seats - 1 if self.deals.round else False
            if isinstance(msg, kind) and (final if last else self.deal_id == 1):
                deck = list(msg.deck)
                deck[position] = point
                return kind(tuple(deck), msg.input)
            return msg

    return InvalidPoint


def assert_proven_at_the_pass(
    tables: list[Table], events: list[list[ev.Event]], cheater: int
) -> None:
    """Every honest table ended on the cheater's pass, proven against it alone; the
    honest files are the same bytes and ``verify`` of each says the same."""
    honest = [s for s in range(len(tables)) if s != cheater]
    files = {dump_transcript(tables[s].view.transcript) for s in honest}
    assert len(files) == 1, "the honest transcripts differ"
    for seat in honest:
        table = tables[seat]
        assert table.state.aborted, f"seat {seat} did not end the game"
        last = table.view.transcript[-1]
        assert table.view.seat_of(last.sender) == cheater
        assert isinstance(last.msg, m.ShuffleMsg | m.LockMsg)
        faults = faults_of(events[seat])
        assert faults and all(f.seat == cheater for f in faults), faults
        assert any(f.proven and f.fatal and last.digest.hex() in f.evidence for f in faults)
    report = verify_bytes(files.pop())
    assert report.error is None and report.proven, report.verdict
    assert {f.seat for f in report.faults} == {cheater}, report.verdict


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
@pytest.mark.parametrize(("game", "players"), GAMES)
@pytest.mark.parametrize("kind", [m.ShuffleMsg, m.LockMsg])
def test_every_kind_of_invalid_point_is_proven_by_every_table(
    game: str, players: int, version: int, kind: type[m.ShuffleMsg] | type[m.LockMsg]
) -> None:
    cheater = 1
    for name, point in INVALID[version].items():
        cheat = bad_pass(kind, 7, point)
        tables, events = play_sync(
            60,
            game_name=game,
            players=players,
            states={cheater: cheat},
            fairdeal=version,
            give_up=True,
        )
        try:
            assert_proven_at_the_pass(tables, events, cheater)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {exc}") from exc


@pytest.mark.parametrize("version", SUPPORTED_VERSIONS)
@pytest.mark.parametrize(("game", "players"), GAMES)
def test_an_invalid_point_in_the_last_lock(game: str, players: int, version: int) -> None:
    """The final deck: nobody multiplies it as a pass, every seat opens it.  Before, each
    seat's hand then failed to open (a dispute, the audit); now every table proves the
    last locker at its lock."""
    cheater = 1
    for point in INVALID[version].values():
        tables, events = play_sync(
            62,
            game_name=game,
            players=players,
            states={cheater: bad_pass(m.LockMsg, 3, point, last=True)},
            fairdeal=version,
            give_up=True,
        )
        assert_proven_at_the_pass(tables, events, cheater)
        assert tables[0].state.track.dealer == cheater  # the dealer locks last


def _anywhere(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        game=st.sampled_from(GAMES),
        version=st.sampled_from(SUPPORTED_VERSIONS),
        cheater=st.integers(0, 3),
        kind=st.sampled_from([m.ShuffleMsg, m.LockMsg]),
        position=st.integers(0, 31),
        which=st.integers(0, 5),
        seed=st.integers(0, 10_000),
    )
    def anywhere(
        game: tuple[str, int],
        version: int,
        cheater: int,
        kind: type[m.ShuffleMsg] | type[m.LockMsg],
        position: int,
        which: int,
        seed: int,
    ) -> None:
        """Whichever seat signs it (the first shuffler, the last locker with no seat to
        multiply after it, any seat between), whichever point and position."""
        name, players = game
        cheater %= players
        points = list(INVALID[version].values())
        cheat = bad_pass(kind, position, points[which % len(points)])
        tables, events = play_sync(
            seed,
            game_name=name,
            players=players,
            states={cheater: cheat},
            fairdeal=version,
            give_up=True,
        )
        assert_proven_at_the_pass(tables, events, cheater)

    return anywhere


# a short run by default (the cases above are the named ones), a long one under -m slow
test_an_invalid_point_anywhere_in_any_pass = _anywhere(10)
test_an_invalid_point_anywhere_in_any_pass_long = pytest.mark.slow(_anywhere(100))
