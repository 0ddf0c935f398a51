"""The strong bot decides as it did when the fingerprint was recorded (speed work guard).

If a change is meant to alter the strong bot's play, record the new value with
``python -m tests.bots.strong_guard`` and say so in the commit; a change meant
only to make it faster must leave it as is.
"""

from __future__ import annotations

from tests.bots.strong_guard import decisions, fingerprint

RECORDED = "c19ce01b3a9ea9539972e77a4eaf2c6d29457b3840c6530a3486a6313e962cce"


def test_strong_bot_decides_as_recorded() -> None:
    lines = decisions()
    assert fingerprint(lines) == RECORDED, "\n".join(lines)
