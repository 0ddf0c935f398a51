"""The names a shell completes after ``resume``, ``verify`` and ``replay``: the ids of
the games that can go on, and the paths of the saved transcripts.

``p2pbelka games --ids`` and ``--files`` print them, one a line, for the completion
scripts in the repository's ``cli/`` folder (and for any script).  A shell asks at
every Tab, so nothing here verifies a game or reads more than its small metadata
file: ``p2pbelka games`` (which verifies) stays the way to see what each one is.
"""

from __future__ import annotations

from pathlib import Path

# as ``p2pbelka games`` prints them in its resume commands: short enough to type,
# long enough that two games do not share one
ID_LENGTH = 12


def resumable_ids(games: Path) -> list[str]:
    """The ids of the games in the games directory ``games`` that ``p2pbelka resume``
    can continue: a LAN seat's unfinished store, a local table left before its end."""
    from p2pbelka.peer.local_save import LocalSave
    from p2pbelka.peer.store import GameStore

    ids = []
    for directory in sorted(games.iterdir()) if games.is_dir() else []:
        store = GameStore(directory)
        if not store.meta_path.is_file():
            continue
        try:
            if not store.load_meta().finished:
                ids.append(directory.name[:ID_LENGTH])
        except (OSError, ValueError, TypeError, KeyError):
            continue  # unreadable: ``resume`` says why when it is named
    for save in LocalSave.in_directory(games):
        try:
            if save.resumable():
                ids.append(save.load_plan().game_id[:ID_LENGTH])
        except (OSError, ValueError, TypeError, KeyError):
            continue
    return ids


def saved_transcripts(directories: list[Path]) -> list[Path]:
    """The transcripts of the games saved in ``directories`` (a local table's file, a
    LAN seat's or a watcher's in its game's directory), as ``verify`` and ``replay``
    take them."""
    from p2pbelka.peer.store import GameStore
    from p2pbelka.peer.watchsave import WATCH_META
    from p2pbelka.protocol.transcript import holds_records

    found: list[Path] = []
    for directory in dict.fromkeys(d.resolve() for d in directories if d.is_dir()):
        for entry in sorted(directory.iterdir()):
            if entry.is_file() and entry.suffix == ".transcript":
                found.append(entry)
            elif entry.is_dir() and (entry / WATCH_META).exists():
                found.append(entry / "transcript.p2pb")
            elif entry.is_dir() and (entry / "game.json").exists():
                found.append(GameStore(entry).transcript_path)
    return [path for path in found if path.is_file() and holds_records(path)]
