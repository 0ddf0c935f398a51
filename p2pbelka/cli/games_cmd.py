"""``p2pbelka games``: the saved games, newest first, with the commands to resume,
verify or replay each.

Games live in the user's data directory (``$XDG_DATA_HOME/p2pbelka/games``; under
``$P2PBELKA_HOME/games`` when that is set):
a local table's transcript as ``belka-<time>.transcript`` (``belot-…`` for
Belot; and, until a Belka game ends, its seats' files in ``local-<game id>/``),
a LAN game as a directory with its seat's files (what ``resume`` needs).
Reading a game's score means verifying it (about a second a game), so what was
read is kept in the cache directory and read again only when the file changes.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from p2pbelka.ui.words.i18n import LANGUAGES, _, language, ngettext


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dir", type=Path, default=None, help=_("list the games in this directory instead")
    )
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None, help=_("en, ru or kk (default: locale)")
    )
    # what a shell's completion asks for at each Tab: quick, nothing verified
    only = parser.add_mutually_exclusive_group()
    only.add_argument(
        "--ids",
        action="store_true",
        help=_("print only the ids of the games that can be resumed, one a line"),
    )
    only.add_argument(
        "--files",
        action="store_true",
        help=_("print only the paths of the saved transcripts, one a line"),
    )


@dataclass
class SavedGame:
    path: str  # the transcript
    started: float
    names: list[str] = field(default_factory=list)
    score: list[int] | None = None
    deals: int = 0
    finished: bool = False  # ended: played to its end, or stopped (``aborted``)
    aborted: bool = False
    winner: int | None = None
    verdict: str = ""
    game_id: str | None = None  # a LAN game, or a local one left: ``resume`` continues it
    ended: str = ""  # why this seat's game stopped, as the seat saved it (a LAN game)
    teams: list[list[int]] | None = None  # the sides, by seat, as the game's rules say
    watched: bool = False  # followed as a watcher (``p2pbelka watch``), not played

    def commands(self) -> list[tuple[str, str]]:
        path = shlex.quote(self.path)
        out = []
        if self.game_id is not None and not self.finished:
            out.append((_("resume"), f"p2pbelka resume {self.game_id[:12]}"))
        out.append((_("verify"), f"p2pbelka verify {path}"))
        out.append((_("replay"), f"p2pbelka replay {path}"))
        return out

    def _side(self, team: int) -> str:
        """The players of side ``team`` (``Ann & Cleo``; a player alone, in a game played
        each for oneself)."""
        seats = self.teams[team] if self.teams is not None else [team]
        return " & ".join(self.names[seat] for seat in seats if seat < len(self.names))

    @property
    def _pairs(self) -> bool:
        """Two sides of partners (``Ann & Cleo 12:9 Bob & Dan``)."""
        teams = self.teams or []
        return len(teams) == 2 and any(len(team) > 1 for team in teams)

    def lines(self) -> list[str]:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.started))
        sides = len(self.teams) if self.teams is not None else len(self.names)
        if self.score is not None and self._pairs and len(self.score) == 2:
            a, b = self.score
            head = f"{when}  {self._side(0)} {a}:{b} {self._side(1)}"
        elif self.score is not None and len(self.score) == sides == len(self.names):
            scores = zip(self.names, self.score, strict=True)
            head = f"{when}  " + ", ".join(f"{name} {points}" for name, points in scores)
        else:
            head = f"{when}  " + (", ".join(self.names) or _("(no players recorded)"))
        out = [head, f"  {self.state(sides)}"]
        if self.ended:
            from p2pbelka.ui.words.faults import ended_words

            # What the seat knew when it stopped (a link lost, a seat never back), which
            # the transcript alone may not say.
            out.append("  " + _("ended: {why}").format(why=ended_words(self.ended)))
        # the commands in one column for every game, a space at least after the longest
        # word ("тексеру:")
        width = max(8, *(len(word) + 2 for word in (_("resume"), _("verify"), _("replay"))))
        out += [f"  {word + ':':<{width}}{command}" for word, command in self.commands()]
        return out

    def state(self, sides: int) -> str:
        """How the game ended (won by whom, stopped, left) and after how many deals."""
        deals = ngettext("{n} deal played", "{n} deals played", self.deals).format(n=self.deals)
        won = self.winner is not None and 0 <= self.winner < sides
        if self.aborted:
            state = _("stopped ({deals})").format(deals=deals)
        elif self.finished and won:
            assert self.winner is not None
            state = _("finished ({deals}): {side} won").format(
                deals=deals, side=self._side(self.winner)
            )
        elif self.finished:
            state = _("finished ({deals})").format(deals=deals)
        elif self.game_id is not None:
            state = _("not finished ({deals}): left, it can go on").format(deals=deals)
        else:
            state = _("not finished ({deals})").format(deals=deals)
        if self.verdict and not self.verdict.startswith(("OK", "INCOMPLETE")):
            state += f"; {self.verdict}"
        if self.watched:
            state = _("watched, not played: {state}").format(state=state)
        return state


def cache_path() -> Path:
    """``$P2PBELKA_HOME/cache/games.json`` under a home of its own (everything of a home
    stays in it), else the user's cache directory's."""
    home = os.environ.get("P2PBELKA_HOME")
    if home:
        return Path(home) / "cache" / "games.json"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "p2pbelka" / "games.json"


def load_cache() -> dict[str, Any]:
    try:
        data = json.loads(cache_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_cache(cache: dict[str, Any]) -> None:
    """Best effort: a cache that cannot be written only makes the next listing slower."""
    path = cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(cache), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass


def read_game(
    transcript: Path, started: float, game_id: str | None, cache: dict[str, Any]
) -> SavedGame:
    """What the transcript says, verified (or from the cache if the file is unchanged)."""
    stat = transcript.stat()
    stamp = [stat.st_size, stat.st_mtime_ns]
    known = cache.get(str(transcript))
    known = known if isinstance(known, dict) else {}
    saved = known.get("game")
    # An entry without the sides or the stop was written before the listing asked for them.
    fresh = known.get("stamp") == stamp and known.get("lang") == language()  # verdict's words
    if isinstance(saved, dict) and fresh and "aborted" in saved:
        try:
            return SavedGame(**saved)
        except TypeError:
            pass
    from p2pbelka.table.verify import verify_bytes
    from p2pbelka.ui.words.verdicts import verdict_words

    report = verify_bytes(transcript.read_bytes())
    game = SavedGame(
        path=str(transcript),
        started=started,
        names=list(report.names),
        score=list(report.score) if report.score is not None else None,
        deals=len(report.deals),
        finished=report.finished or report.aborted,
        aborted=report.aborted,
        winner=report.winner,
        verdict=verdict_words(report),
        game_id=game_id,
        teams=_teams(report.game_name, len(report.names)),
    )
    cache[str(transcript)] = {"stamp": stamp, "lang": language(), "game": asdict(game)}
    return game


def _teams(game: str | None, seats: int) -> list[list[int]] | None:
    """The sides of a table of ``game`` with ``seats`` (None for a game this version
    does not know, or no seat at all)."""
    from p2pbelka.rules import registry

    if game not in registry.names() or not seats:
        return None
    try:
        return [list(team) for team in registry.spec(game).teams(seats)]
    except ValueError:
        return None


def started_of(path: Path) -> float:
    """``<game>-20261201-045058.transcript`` (a local game's: ``ui/play.py`` names it) started
    then; otherwise the file's time."""
    from p2pbelka.rules import registry

    game, _sep, stamp = path.stem.partition("-")
    stem = (stamp if game in registry.names() else path.stem)[:15]
    try:
        return time.mktime(time.strptime(stem, "%Y%m%d-%H%M%S"))
    except ValueError:
        return path.stat().st_mtime


def local_games(directories: list[Path]) -> dict[Path, tuple[str, float]]:
    """The player's transcript of each local game that can go on: its game id and
    when it started."""
    from p2pbelka.peer.local_save import LocalSave

    found = {}
    for directory in directories:
        LocalSave.tidy(directory)
        for save in LocalSave.in_directory(directory):
            try:
                plan = save.load_plan()
            except (OSError, ValueError, TypeError, KeyError):
                continue
            if plan.transcript and save.resumable():
                found[Path(plan.transcript).resolve()] = (plan.game_id, plan.started)
    return found


def saved_games(directories: list[Path]) -> list[SavedGame]:
    from p2pbelka.peer.store import GameStore
    from p2pbelka.peer.watchsave import WATCH_META
    from p2pbelka.protocol.transcript import holds_records

    cache = load_cache()
    games: list[SavedGame] = []
    seen: set[Path] = set()
    # A local game left before its end: its transcript, where it is, with the resume command.
    resumable = local_games(directories)
    for path, (local_id, started) in resumable.items():
        if path.parent.resolve() not in {d.resolve() for d in directories} and path.is_file():
            game = read_game(path, started, None, cache)
            game.game_id = local_id
            games.append(game)
    for directory in directories:
        if not directory.is_dir() or directory.resolve() in seen:
            continue
        seen.add(directory.resolve())
        for entry in sorted(directory.iterdir()):
            if entry.is_file() and entry.suffix == ".transcript":
                game = read_game(entry, started_of(entry), None, cache)
                # not cached: a game can be resumed only until it ends
                game.game_id = resumable.get(entry.resolve(), (None, 0.0))[0]
                games.append(game)
            elif entry.is_dir() and (entry / WATCH_META).exists():
                watched = _watched_game(entry, cache)
                if watched is not None:
                    games.append(watched)
            elif entry.is_dir() and (entry / "game.json").exists():
                store = GameStore(entry)
                try:
                    meta = store.load_meta()
                except (OSError, ValueError, TypeError, KeyError):
                    continue
                if holds_records(store.transcript_path):
                    game = read_game(store.transcript_path, meta.started, meta.game_id, cache)
                    game.finished = game.finished or meta.finished
                    game.ended = meta.ended
                    games.append(game)
    save_cache(cache)
    return sorted(games, key=lambda g: g.started, reverse=True)


def _watched_game(directory: Path, cache: dict[str, Any]) -> SavedGame | None:
    """A game this machine watched (``peer/watchsave.py``): never resumed, only read."""
    from p2pbelka.peer.watchsave import load_watch_meta
    from p2pbelka.protocol.transcript import holds_records

    try:
        meta = load_watch_meta(directory)
    except (OSError, ValueError, TypeError):
        return None
    transcript = directory / "transcript.p2pb"
    if not holds_records(transcript):
        return None
    game = read_game(transcript, meta.started, None, cache)
    game.watched = True
    game.ended = meta.ended
    return game


def run(args: argparse.Namespace) -> int:
    from p2pbelka.peer.store import games_dir

    # One directory: the home's (``$P2PBELKA_HOME/games``) or the data directory's, never
    # both, so two homes' games stay apart
    directories = [args.dir] if args.dir is not None else [games_dir()]
    if args.ids or args.files:
        from p2pbelka.cli.saved_names import resumable_ids, saved_transcripts

        names = resumable_ids(directories[-1]) if args.ids else saved_transcripts(directories)
        print("\n".join(str(name) for name in names), end="\n" if names else "")
        return 0
    games = saved_games(directories)
    where = directories[0]
    if not games:
        print(
            _("No saved games in {where}. `p2pbelka` opens a table; every game is saved.").format(
                where=where
            )
        )
        return 0
    print(_("Saved games in {where}, newest first:").format(where=where))
    for game in games:
        print()
        print("\n".join(game.lines()))
    return 0
