"""A watcher's wait for a host that went away: when it dials again, and where.

The feed broke (the host's program stopped, a cable): the watcher dials the host
again after ``FIRST_BACK`` seconds, doubling to ``LAST_BACK``, until ``AWAY_FOR``
seconds (``watch --host-away``) have passed with no record fed; a host resumed after
a crash reopens its lobby in a few seconds (``lan/rehost.py``).  Between dials it
listens for the host's beacons, in case the host came back on another lobby port.
"""

from __future__ import annotations

import trio

from p2pbelka.peer.lan.finding import Find

AWAY_FOR = 120.0
"""Seconds a watcher waits for a host whose feed broke to come back (``watch
--host-away``): a host's program resumed after a crash is back in seconds, one
whose machine is restarted in a minute or two."""
FIRST_BACK, LAST_BACK = 1.0, 4.0
"""Seconds before dialling again: doubling from the first to the last (a host resumed
at once is back in a few seconds: a longer step would leave its watchers behind)."""


class Away:
    """When to dial again a host whose feed broke, sans-IO (times from the caller's
    clock): from the first loss, ``FIRST_BACK`` seconds doubling to ``LAST_BACK``, the
    last dial at the end of the ``wait``; a record fed (``fed``) ends the absence, and
    the next loss opens a whole new wait."""

    def __init__(self, wait: float = AWAY_FOR) -> None:
        self.wait = max(0.0, wait)
        self.since: float | None = None
        """When the host went away (None: it is here)."""
        self.back = FIRST_BACK

    def lost(self, now: float) -> float | None:
        """The feed broke, or a dial failed, at ``now``: seconds until the next dial, or
        None if the wait is over (the watcher stops)."""
        if self.since is None:
            self.since, self.back = now, FIRST_BACK
        left = self.since + self.wait - now
        if left <= 0:
            return None
        delay = min(self.back, left)
        self.back = min(self.back * 2, LAST_BACK)
        return delay

    def left(self, now: float) -> float:
        """Seconds of the wait left at ``now``."""
        return 0.0 if self.since is None else max(0.0, self.since + self.wait - now)

    def fed(self) -> None:
        """A record came: the host is back."""
        self.since = None


async def look(
    find: Find | None, host_key: bytes | None, table_id: bytes | None, delay: float
) -> tuple[str, int] | None:
    """Wait ``delay`` seconds before the next dial, listening meanwhile for where the
    host with ``host_key`` announces the table ``table_id`` (``find``): where, once
    heard (the dial need not wait any longer), or None after ``delay``."""
    start = trio.current_time()
    if find is not None and host_key is not None and table_id is not None:
        found = await find(host_key, table_id, delay)
        if found is not None:
            return found
    await trio.sleep_until(start + delay)
    return None
