"""The ladder as ``p2pbelka ladder`` prints it: columns as wide as their words (in every
language), each line within 80 columns, the whole within 24 lines unless ``--all``."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from p2pbelka.ladder.ratings import Record, Row
from p2pbelka.net.identity import fingerprint
from p2pbelka.rules.registry import spec
from p2pbelka.ui.words.i18n import _, ngettext

WIDTH = 80
NAME_WIDTH = 24


def day(at: int) -> str:
    """A date as the ladder prints it (UTC, so every machine prints the same)."""
    return time.strftime("%Y-%m-%d", time.gmtime(at)) if at else "-"


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
