"""Every seat of a table in the test's process: each envelope opened once, each
signature checked once and each curve product computed once, for all of them.

Opening an envelope, checking a signature and multiplying a point are functions of
their bytes alone (``protocol.envelope.remembering``, ``edkeys.remembering``,
``fairdeal.versions.remembering``): the simulator and ``peer.sync.run_sync`` share
them the same way.  A test whose tables each open every envelope, then reads the files back,
did the same work four or five times for the same answers.  What fails to open is
never remembered, so a tampered envelope is refused by every table that gets it.

Not for a test that counts the work (a bench's figures: ``SECP256K1.ops``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import pytest

from p2pbelka import edkeys
from p2pbelka.fairdeal import versions
from p2pbelka.protocol import envelope


@contextmanager
def one_process() -> Iterator[None]:
    with ExitStack() as stack:
        stack.enter_context(envelope.remembering())
        stack.enter_context(edkeys.remembering())
        stack.enter_context(versions.remembering())
        yield


def share_the_work(request: pytest.FixtureRequest) -> Iterator[None]:
    """The body of a directory's autouse fixture: every test ``one_process`` unless
    marked ``counts_work`` (it measures what one peer's process does)."""
    if request.node.get_closest_marker("counts_work") is not None:
        yield
        return
    with one_process():
        yield
