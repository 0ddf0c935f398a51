from __future__ import annotations

from collections import Counter

import pytest

from p2pbelka.fairdeal import LotsOutcome, check_lot, commit_lot, new_lot_value, resolve_lots

GAME = bytes(range(16))


def lots(values: list[bytes], n: int = 4, purpose: bytes = b"first-dealer") -> LotsOutcome:
    commitments = [commit_lot(GAME, purpose, seat, v) for seat, v in enumerate(values)]
    return resolve_lots(GAME, purpose, commitments, values, n)


def test_all_honest() -> None:
    values = [new_lot_value() for _ in range(4)]
    outcome = lots(values)
    assert outcome.ok and outcome.choice in range(4)
    assert outcome.order is not None and sorted(outcome.order) == [0, 1, 2, 3]
    assert lots(values) == outcome  # deterministic from the values


def test_purpose_separates() -> None:
    values = [bytes([i]) * 32 for i in range(4)]
    assert lots(values, 1000, b"first-dealer") != lots(values, 1000, b"seat-order")


def test_reveal_mismatch_names_the_seat() -> None:
    values = [new_lot_value() for _ in range(3)]
    commitments = [commit_lot(GAME, b"x", seat, v) for seat, v in enumerate(values)]
    bad: list[object] = list(values)
    bad[1] = new_lot_value()
    outcome = resolve_lots(GAME, b"x", commitments, bad, 3)
    assert outcome.faults == (1,) and outcome.choice is None
    bad[1] = values[1]
    bad[2] = "junk"
    assert resolve_lots(GAME, b"x", commitments, bad, 3).faults == (2,)
    assert resolve_lots(GAME, b"x", commitments, values[:2], 3).faults == (2,)
    # A commitment of seat 0 replayed as seat 1's does not open.
    swapped = [commitments[0], commitments[0], commitments[2]]
    assert resolve_lots(GAME, b"x", swapped, [values[0], values[0], values[2]], 3).faults == (1,)


def test_uniform_ish() -> None:
    fixed = [b"\x01" * 32, b"\x02" * 32]
    counts: Counter[int] = Counter()
    trials = 2000
    for t in range(trials):
        outcome = lots([*fixed, t.to_bytes(32, "big")])
        assert outcome.choice is not None
        counts[outcome.choice] += 1
    expected = trials / 4
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in range(4))
    assert chi2 < 21.1  # 3 degrees of freedom, p ~ 1e-4


def test_caller_errors() -> None:
    with pytest.raises(ValueError):
        commit_lot(b"short", b"x", 0, bytes(32))
    with pytest.raises(ValueError):
        resolve_lots(GAME, b"x", [], [], 0)


def test_check_lot_never_raises_on_peer_data() -> None:
    value = new_lot_value()
    commitment = commit_lot(GAME, b"x", 2, value)
    assert check_lot(GAME, b"x", 2, value, commitment)
    assert not check_lot(GAME, b"x", 1, value, commitment)
    assert not check_lot(GAME, b"x", 2, value[:5], commitment)
    assert not check_lot(GAME, b"x", 2, None, commitment)
    assert not check_lot(GAME, b"x", 2, value, "junk")
