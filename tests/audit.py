"""``verify_bytes`` once per transcript: the audit replays every envelope (every signature
checked, every deal's shuffle re-derived), and a test that checks a table's verdict and
then what its file names, or every honest seat of an honest game (whose files are often
byte for byte the same), would replay the same bytes again for the same answer.

The audit is a function of the bytes and the flag alone, so the report of the first
call is the report of every later one; callers read reports and never change them.
Only tests that produce their transcripts by playing use it: a test that changes the
code the audit runs (a monkeypatched rule) must call ``verify_bytes`` itself.
"""

from __future__ import annotations

from functools import lru_cache

from p2pbelka.protocol.envelope import remembering
from p2pbelka.table.verify import VerifyReport
from p2pbelka.table.verify import verify_bytes as _verify_bytes


@lru_cache(maxsize=512)
def verify_bytes(data: bytes, every_pass: bool = False) -> VerifyReport:
    """The report of ``p2pbelka.table.verify.verify_bytes(data, every_pass)`` (the
    envelopes the game's tables opened, in this process, opened again from memory:
    ``remembering``)."""
    with remembering():
        return _verify_bytes(data, every_pass)
