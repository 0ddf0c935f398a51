"""What a host's game keeps of its lobby, so that a resumed host reopens it to watchers.

At the start the host writes into the game's meta (``game.json``) the lobby's port
and table id, how many watchers it takes and whether they may write, whether it
announced the table and let everyone in, and the invite code in force; then, while
it plays, every key it let in to watch and any new invite code.  ``rehost.py``
reads it all back.  A meta that cannot be written is logged and the game goes on:
a watcher is worth no seat's game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from p2pbelka.net.guesses import InviteGuard
from p2pbelka.peer.lan.watchers import Feed
from p2pbelka.peer.seat import NetOptions
from p2pbelka.peer.store import GameMeta, GameStore

log = logging.getLogger(__name__)


def remember_lobby(
    store: GameStore,
    table_id: bytes,
    lobby_port: int,
    net: NetOptions,
    approve_all: bool,
    guard: InviteGuard | None,
    feed: Feed,
) -> None:
    """Write the lobby into the new game's meta, and keep it up to date from now on:
    the keys ``feed`` lets in, the codes ``guard`` changes to."""

    def lobby(meta: GameMeta) -> None:
        meta.lobby_port, meta.table_id = lobby_port, table_id.hex()
        meta.watchers, meta.watcher_chat = feed.limit, feed.chat_mode
        meta.announce, meta.watch_approve = net.announce, approve_all
        meta.invite = guard.code if guard is not None else ""
        meta.watcher_keys = [key.hex() for key in feed.admitted]

    # on the disk at once (once a game): a host back from a power cut that forgot its
    # lobby would take no watchers again, and its seats would show those it had
    update(store, lobby, durable=True)
    keep_lobby(store, guard, feed)


def keep_lobby(store: GameStore, guard: InviteGuard | None, feed: Feed) -> None:
    """From now on, each key ``feed`` lets in and each code ``guard`` changes to go
    into ``store``'s meta too."""

    def admitted(key: bytes) -> None:
        update(store, lambda meta: meta.watcher_keys.append(key.hex()))

    feed.on_admit = admitted
    if guard is None:
        return
    told = guard.on_change

    def changed(code: str, failures: int) -> None:
        update(store, lambda meta: setattr(meta, "invite", code))
        if told is not None:
            told(code, failures)

    guard.on_change = changed


def update(store: GameStore, change: Callable[[GameMeta], None], *, durable: bool = False) -> None:
    """Read the meta, ``change`` it, write it back (whole, in place of the old;
    ``durable``: on the disk before this returns)."""
    try:
        meta = store.load_meta()
        change(meta)
        store.save_meta(meta, durable=durable)
    except (OSError, ValueError) as exc:
        log.warning("could not keep the lobby in %s: %s", store.meta_path, exc)
