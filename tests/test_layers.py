"""The package's layers go one way, no module imports itself round a cycle, and the
table's core imports no game.

The order is written once, here: a subpackage may import from a lower rank
(and from itself), never from its own rank or above.  Imports inside ``if
TYPE_CHECKING:`` count like any other: an annotation is knowledge too.
"""

from __future__ import annotations

import ast
import functools
import gc
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import p2pbelka

LAYERS: Mapping[str, int] = {
    "cards": 0,
    "edkeys": 0,
    "rules": 1,
    "fairdeal": 2,
    "protocol": 2,
    "net": 2,
    "table": 3,
    "bots": 3,
    "ladder": 4,
    "peer": 5,
    "ui": 6,
    "bench": 6,
    "sim": 6,
    "cli": 7,
}

ROOT = Path(p2pbelka.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "p2pbelka" else None


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every p2pbelka module ``path`` imports (module level, in functions, or for
    annotations only).  ``from package import submodule`` counts as importing the
    submodule only."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("p2pbelka"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            if base.startswith("p2pbelka"):
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.add(sub if sub in modules else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection while the package is parsed: its trees are a few hundred
    thousand objects, made and dropped (freed as they go, no cycles), and each
    collection they set off walked every object of the test process (a worker that
    ran games holds many), two thirds of the parsing's time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@functools.cache
def package_modules() -> dict[str, set[str]]:
    """Each module's p2pbelka imports: parsed once a session (five tests read it, none
    changes it; parsing the whole package is most of this file's time)."""
    paths = sorted(ROOT.rglob("*.py"))
    names = {module_name(p) for p in paths}
    with collector_paused():
        return {module_name(p): {i for i in imports_of(p, names) if i in names} for p in paths}


def test_the_layer_order_names_every_subpackage() -> None:
    subpackages = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in ROOT.glob("*.py") if p.stem != "__init__"}
    assert subpackages | modules == set(LAYERS)


def test_no_module_imports_its_own_rank_or_above() -> None:
    wrong = []
    for module, imported in package_modules().items():
        mine = layer_of(module)
        if mine is None:
            continue
        for target in imported:
            theirs = layer_of(target)
            if theirs is None or theirs == mine:
                continue
            if LAYERS[theirs] >= LAYERS[mine]:
                wrong.append(f"{module} imports {target} ({mine} -> {theirs})")
    assert not wrong, "\n".join(sorted(wrong))


KNOWN_CYCLES: frozenset[tuple[str, str]] = frozenset()
"""Imports (importer -> imported) allowed to close a cycle for a while, each to go: none now.
A cycle is fixed by the lower module declaring what it needs (a protocol the upper
one provides: ``table.context.TableContext``; or a state both share:
``peer.seatchange.state.SeatState``), not here."""


def test_the_known_cycles_are_still_imports() -> None:
    """An entry that no longer names an import goes (the cycle was fixed)."""
    graph = package_modules()
    stale = [f"{a} -> {b}" for a, b in sorted(KNOWN_CYCLES) if b not in graph.get(a, set())]
    assert not stale, "\n".join(stale)


def test_no_import_cycle() -> None:
    graph = {
        module: {i for i in imported if (module, i) not in KNOWN_CYCLES}
        for module, imported in package_modules().items()
    }
    done: set[str] = set()
    path: list[str] = []

    def walk(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            cycle = walk(nxt)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        cycle = walk(start)
        assert cycle is None, " -> ".join(cycle)


GAMES = ("belka", "belot")
"""The games, as the names of their folders in every layer."""

GAME_FOLDERS: Mapping[str, tuple[str, ...]] = {
    "rules": (),
    "bots": (),
    "table": ("games",),
    "bench": ("games",),
    "ui": ("games",),
}
"""Where each layer that knows games keeps them, one folder a game: ``rules/<game>/``,
``bots/<game>/``, ``table/games/<game>/``, ``bench/games/<game>/``, ``ui/games/<game>/``."""


def game_of(parts: Sequence[str], games: Sequence[str] = GAMES) -> str | None:
    """The game (one of ``games``) whose folder holds the module of ``parts`` (below
    ``p2pbelka``: its layer, then its path), or None outside every game's folder."""
    if not parts or parts[0] not in GAME_FOLDERS:
        return None
    home = GAME_FOLDERS[parts[0]]
    rest = parts[1:]
    if tuple(rest[: len(home)]) != home or len(rest) <= len(home):
        return None
    game = rest[len(home)]
    return game if game in games else None


def is_game(module: str) -> bool:
    """A game's own module or package: ``rules/belka/``, ``table/games/belot/track.py``..."""
    parts = module.split(".")
    return parts[0] == "p2pbelka" and game_of(parts[1:]) is not None


def test_the_table_core_imports_no_game() -> None:
    """Games depend on the core, never the reverse: no module of ``table/`` but the games'
    own and the registry (which lists them) imports a game of any layer."""
    wrong = []
    for module, imported in package_modules().items():
        if layer_of(module) != "table" or is_game(module) or module == "p2pbelka.table.registry":
            continue
        wrong += [f"{module} imports {target}" for target in sorted(imported) if is_game(target)]
    assert not wrong, "\n".join(sorted(wrong))


def test_the_peer_layer_knows_no_game() -> None:
    """Networking, storage and seat changes serve any registered game: no module of
    ``peer/`` imports a game of any layer or names one (a game's behaviour belongs to
    its registrations below)."""
    wrong = []
    for module, imported in package_modules().items():
        if layer_of(module) == "peer":
            wrong += [
                f"{module} imports {target}" for target in sorted(imported) if is_game(target)
            ]
    named = re.compile(r"\b(" + "|".join(GAMES) + r")\b", re.IGNORECASE)
    for path in sorted((ROOT / "peer").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if named.search(line):
                wrong.append(f"{module_name(path)}:{number} names a game: {line.strip()}")
    assert not wrong, "\n".join(wrong)


def test_every_game_module_is_in_its_games_folder() -> None:
    """A newcomer who knows where one game's part of a layer is knows where its other
    parts are: a module or folder named after a game (``bench/belka_rules.py``,
    ``table/belot.py``) sits in that game's folder of its layer, nowhere else."""
    wrong = []
    for module in package_modules():
        parts = module.split(".")[1:]
        named = {game for part in parts for game in GAMES if part.startswith(game)}
        if named and named != {game_of(parts)}:
            wrong.append(module)
    assert not wrong, "outside its game's folder: " + ", ".join(sorted(wrong))


def test_the_game_folders_are_where_the_layout_says() -> None:
    assert is_game("p2pbelka.table.games.belka.track") and is_game("p2pbelka.rules.belot.game")
    assert is_game("p2pbelka.bench.games.belot.rules") and is_game("p2pbelka.bots.belka")
    assert is_game("p2pbelka.ui.games.belka.screen")
    assert not is_game("p2pbelka.table.belka") and not is_game("p2pbelka.bench.belka_rules")
    assert not is_game("p2pbelka.table.games") and not is_game("p2pbelka.rules.games.belka")
    assert not is_game("p2pbelka.peer.belka") and not is_game("p2pbelka.rules.spec")
    for layer, home in GAME_FOLDERS.items():
        assert (ROOT / layer / Path(*home)).is_dir(), layer
        for game in GAMES:
            assert (ROOT / layer / Path(*home) / game / "__init__.py").is_file(), (layer, game)
