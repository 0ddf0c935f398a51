"""The ladder as ``p2pbelka ladder`` prints it: columns as wide as their words (in every
language), each line within 80 columns, the whole within 24 lines unless ``--all``."""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import trio

from p2pbelka.ladder.ratings import Record, Row, ladder
from p2pbelka.ladder.results import Result, Seat
from p2pbelka.net.identity import config_dir, fingerprint
from p2pbelka.rules.registry import spec
from p2pbelka.ui.words.i18n import _, ngettext
from p2pbelka.ui.words.results import day as certificate_day

log = logging.getLogger(__name__)

WIDTH = 80
NAME_WIDTH = 24


def day(at: int) -> str:
    """A date as the ladder prints it (``-`` for none)."""
    return certificate_day(at) if at else "-"


def short_key(keys: Sequence[bytes]) -> str:
    """The first half of each key's fingerprint: enough to tell two Asels apart."""
    return "+".join(fingerprint(k)[:9] for k in keys)


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric: set[int]) -> list[str]:
    """Rows in columns as wide as their widest cell; ``numeric`` columns to the right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            c.rjust(w) if i in numeric else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return clip("  ".join(parts).rstrip(), WIDTH)

    return [line(header), *(line(r) for r in rows)]


def ladder_lines(
    game: str, rows: Sequence[Row], results: int, pairs: bool, limit: int
) -> list[str]:
    """One game's ladder: a title line, the header, the best ``limit`` rows, and how many
    more there are."""
    title = spec(game).title
    if pairs:
        head = ngettext(
            "{game}: {n} partnership, games counted: {games}",
            "{game}: {n} partnerships, games counted: {games}",
            len(rows),
        )
    else:
        head = ngettext(
            "{game}: {n} player, games counted: {games}",
            "{game}: {n} players, games counted: {games}",
            len(rows),
        )
    lines = [head.format(game=title, n=len(rows), games=results)]
    header = ["#", _("players") if pairs else _("player"), _("key"), _("rating")]
    header += [_("games"), _("wins"), _("last played")]
    shown = rows[:limit]
    cells = [
        [
            str(n),
            clip(" & ".join(r.names), NAME_WIDTH),
            short_key(r.keys),
            f"{r.rating:.1f}",
            str(r.games),
            str(r.wins),
            day(r.last),
        ]
        for n, r in enumerate(shown, 1)
    ]
    lines += table(header, cells, {0, 3, 4, 5})
    return lines + more_line(len(rows) - len(shown))


def history_lines(
    game: str, records: Sequence[Record], bots: Mapping[bytes, str], limit: int
) -> list[str]:
    """One's own record in ``game`` against each opponent; a bot of one's own by level."""
    lines = [_("{game}: your games against each opponent").format(game=spec(game).title)]
    if not records:
        return [*lines, _("no game of yours is in the ledger yet")]
    header = [_("opponent"), _("key"), _("games"), _("wins"), _("losses"), _("last played")]
    cells = []
    for r in records[:limit]:
        level = bots.get(r.key)
        name = _("bot {level}").format(level=level) if level else r.name
        numbers = [str(r.games), str(r.wins), str(r.losses)]
        cells.append([clip(name, NAME_WIDTH), short_key([r.key]), *numbers, day(r.last)])
    lines += table(header, cells, {2, 3, 4})
    return lines + more_line(len(records) - len(cells))


def more_line(more: int) -> list[str]:
    """The line that says how many rows were left out (none when none were)."""
    if more <= 0:
        return []
    words = ngettext(
        "… and {n} more (--all shows every one)", "… and {n} more (--all shows every one)", more
    )
    return [words.format(n=more)]


def game_rating_lines(
    game: str,
    keys: Sequence[bytes],
    names: Sequence[str],
    winner: int,
    results: Sequence[Result],
    at: int,
) -> list[str]:
    """Each side's ratings once the game just won counts (after ``results``, a ledger's),
    each with the change this game made: one line a side, within 80 columns."""
    teams = spec(game).teams(len(keys))
    side_of = {seat: side for side, members in enumerate(teams) for seat in members}
    seats = tuple(
        Seat(keys[s], names[s], side_of[s], 0 if side_of[s] == winner else 1)
        for s in range(len(keys))
    )
    last = max((r.at for r in results), default=at)
    this = Result(hashlib.sha256(b"".join(keys)).digest()[:16], game, max(at, last), seats)
    before = {r.keys[0]: r.rating for r in ladder(results)}
    after = {r.keys[0]: r.rating for r in ladder([*results, this])}
    lines = [_("Ratings, with this game:")]
    for members in teams:
        parts = [
            f"{names[s]} {after[keys[s]]:.1f} ({after[keys[s]] - before.get(keys[s], 0.0):+.1f})"
            for s in members
        ]
        lines.append(clip(" " + ", ".join(parts), WIDTH))
    return lines


def end_of_game_ratings(
    game: str, keys: Sequence[bytes], names: Sequence[str], winner: int
) -> list[str]:
    """``game_rating_lines`` from the player's own ledger, as the game-end page shows
    them; nothing when there is no ledger yet or it cannot be read now (a page never
    fails on it, and never makes one)."""
    from p2pbelka.peer.store import games_root

    if len(set(keys)) != len(keys):
        return []
    results = _results_of(games_root(), game)
    if results is None:
        return []
    return game_rating_lines(game, keys, names, winner, results, int(time.time()))


def _results_of(games: Path, game: str) -> list[Result] | None:
    """The results of ``game`` in the ledger beside ``games``; None when there is no
    ledger (none is made here) or it cannot be read now (busy, damaged: said elsewhere)."""
    from p2pbelka.ladder.ledger import Ledger, ledger_path

    path = ledger_path(games)
    if not path.is_file():
        return None
    try:
        with Ledger(path) as ledger:
            return ledger.results(game)
    except (OSError, sqlite3.Error):
        return None


def seat_ratings(games: Path, game: str, keys: Sequence[bytes]) -> dict[bytes, float]:
    """Each of ``keys``' rating in ``game`` by the ledger beside ``games``; a key in no
    counted result of it is left out (a lobby shows nothing for it).  Blocking: sqlite."""
    wanted = set(keys)
    rows = ladder(_results_of(games, game) or [])
    return {row.keys[0]: row.rating for row in rows if row.keys[0] in wanted}


async def lobby_ratings(
    home: str | os.PathLike[str] | None, game: str, keys: Sequence[bytes]
) -> dict[bytes, float]:
    """``seat_ratings`` of the player whose home is ``home`` (None: the usual one), read
    in a worker thread so that a busy ledger (a game being counted) never holds up a
    screen; nothing, said in the log, if it cannot be read."""
    from p2pbelka.peer.store import games_root

    games = config_dir(home) / "games" if home is not None else games_root()
    try:
        return await trio.to_thread.run_sync(
            seat_ratings, games, game, tuple(keys), abandon_on_cancel=True
        )
    except Exception as exc:  # a nicety of the lobby: never a reason for it to fail
        log.warning("lobby ratings not read: %s", exc)
        return {}
