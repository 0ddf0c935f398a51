"""prompt_toolkit and trio in one thread: asyncio hosts, trio runs as its guest.

prompt_toolkit 3 runs only on asyncio; our logic is trio.  trio's guest mode
(``trio.lowlevel.start_guest_run``) runs a trio program inside another event
loop: trio's tasks run on the host loop's thread, between its callbacks, so
the screen and the game share state without locks.  This module is the only
asyncio code in the package; see docs/architecture-ui.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import outcome
import trio
from prompt_toolkit.application import Application

from p2pbelka.ui.screenlog import Note, logs_off_terminal

T = TypeVar("T")


class Bridge:
    """How a prompt_toolkit callback (a key, a click) gets something done in trio."""

    def __init__(self) -> None:
        self._token: trio.lowlevel.TrioToken | None = None

    def call_soon(self, fn: Callable[..., object], *args: object) -> None:
        """Run ``fn(*args)`` in trio's context (it may use trio's synchronous APIs)."""
        if self._token is not None:
            try:
                self._token.run_sync_soon(fn, *args)
            except trio.RunFinishedError:
                pass  # the game is over; the screen may still be open


def run_with_app(
    app: Application[Any],
    trio_main: Callable[[Bridge], Awaitable[T]],
    note: Note | None = None,
) -> T | None:
    """Run ``app`` and ``trio_main`` together until the app exits.

    Meanwhile nothing is written to the terminal under the screen (``screenlog``):
    ``note`` shows the screen's line about a warning that went to the log file.

    The app may outlive ``trio_main`` (the final screen stays up after the game
    ends); if the app exits first, ``trio_main`` is cancelled and the result is
    None.  If ``trio_main`` raises, the app is closed and the error re-raised here.
    """
    return asyncio.run(_logged_host(app, trio_main, note))


async def _logged_host(
    app: Application[Any], trio_main: Callable[[Bridge], Awaitable[T]], note: Note | None
) -> T | None:
    loop = asyncio.get_running_loop()
    with logs_off_terminal(note, loop.call_soon_threadsafe):
        return await _host(app, trio_main)


async def _host(app: Application[Any], trio_main: Callable[[Bridge], Awaitable[T]]) -> T | None:
    loop = asyncio.get_running_loop()
    bridge = Bridge()
    started: asyncio.Future[None] = loop.create_future()
    done: asyncio.Future[outcome.Outcome[T | None]] = loop.create_future()
    scope = trio.CancelScope()

    async def guest() -> T | None:
        with scope:
            bridge._token = trio.lowlevel.current_trio_token()
            # guest tasks run on the host loop's thread, so an asyncio future is safe here
            started.set_result(None)
            return await trio_main(bridge)
        return None  # cancelled: the app exited first

    trio.lowlevel.start_guest_run(
        guest,
        run_sync_soon_threadsafe=loop.call_soon_threadsafe,
        done_callback=done.set_result,
        # prompt_toolkit (through asyncio) owns the signal wakeup fd for SIGWINCH
        host_uses_signal_set_wakeup_fd=True,
    )
    await asyncio.wait([started, done], return_when=asyncio.FIRST_COMPLETED)  # type: ignore[type-var]
    if done.done():
        return done.result().unwrap()
    app_task = asyncio.ensure_future(app.run_async())
    await asyncio.wait([app_task, done], return_when=asyncio.FIRST_COMPLETED)
    if not done.done():
        bridge.call_soon(scope.cancel)
        result = await done
        app_task.result()
        return result.unwrap()
    result = await done
    if isinstance(result, outcome.Error):
        if app.is_running:
            app.exit()
        await app_task
        return result.unwrap()
    await app_task
    return result.unwrap()
