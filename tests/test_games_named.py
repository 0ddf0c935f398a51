"""No module outside a game's own package and the registries names a game.

A module that names a game (a string constant equal to a registered game's name or
title), imports a game's package or module, or compares a value with a game's class
has branched on the game; such code asks :func:`p2pbelka.rules.registry.spec` (or a
layer's own registry) instead, so a new game touches no shared file.  A game's own
module is one in that game's folder of its layer (``rules/belot/``,
``bench/games/belka/rules.py``, ``ui/games/belot/screen.py``: ``tests/test_layers.py``
says where each layer keeps its games); a module named after a game elsewhere
(``bench/belka_rules.py``) is checked like any other.  ``p2pbelka`` itself contains
"belka": whole string constants and whole path parts are compared, never substrings.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import p2pbelka
from p2pbelka.rules import registry
from tests.test_layers import collector_paused, game_of

ALLOWED_FOLDERS: tuple[str, ...] = ()
"""Folders that may name games: none (the screens ask ``ui/registry.py`` too)."""

ROOT = Path(p2pbelka.__file__).parent

CHECKED: tuple[str, ...] = (
    "",
    *sorted(
        p.name
        for p in ROOT.iterdir()
        if (p / "__init__.py").exists() and p.name not in ALLOWED_FOLDERS
    ),
)
"""The folders checked, relative to the package ("": its root modules alone, such as
``cards.py``): every one but :data:`ALLOWED_FOLDERS`, a new one included."""

PENDING: Mapping[str, frozenset[str]] = {}
"""Work under way inside :data:`CHECKED`: a module ("*") or its functions and classes (by
qualified name) still being moved onto the registries.  Empty it as that work lands."""

REGISTRIES: frozenset[str] = frozenset(
    {
        "rules/registry.py",
        "table/registry.py",
        "bots/registry.py",
        "bench/registry.py",
        "ui/registry.py",
    }
)
"""The modules that list the games by name, one per layer."""


@dataclass(frozen=True)
class Finding:
    line: int
    scope: str  # the qualified name of the enclosing function or class; "" at module level
    what: str

    def __str__(self) -> str:
        return f"{self.line}: {self.scope + ': ' if self.scope else ''}{self.what}"


def is_game_part(part: str) -> bool:
    """``belka``, ``belot``, ``belot_app``...: a path part that is a game's own module."""
    return part.lower().startswith(tuple(registry.names()))


def is_allowed(relative: str) -> bool:
    parts = relative.removesuffix(".py").split("/")
    return (
        relative in REGISTRIES
        or parts[0] in ALLOWED_FOLDERS
        or game_of(parts, registry.names()) is not None
    )


def checked_modules() -> Iterator[tuple[str, Path]]:
    for folder in CHECKED:
        paths = sorted((ROOT / folder).rglob("*.py")) if folder else sorted(ROOT.glob("*.py"))
        for path in paths:
            relative = path.relative_to(ROOT).as_posix()
            if "*" not in PENDING.get(relative, ()) and not is_allowed(relative):
                yield relative, path


def game_words() -> frozenset[str]:
    """Every registered game's name and title, lower case."""
    return frozenset(w.lower() for n in registry.names() for w in (n, registry.spec(n).title))


def is_game_module(module: str) -> bool:
    parts = module.split(".")
    return parts[0] == "p2pbelka" and any(is_game_part(p) for p in parts[1:])


def is_game_class_name(name: str) -> bool:
    """``BelotGame``, ``BELOT_BOT_LEVELS``: a name made for one game."""
    return any(game in name.lower() for game in registry.names())


def names_in(node: ast.AST) -> Iterator[str]:
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            yield child.id
        elif isinstance(child, ast.Attribute):
            yield child.attr


def _node_findings(node: ast.AST, words: frozenset[str]) -> Iterator[str]:
    """What ``node`` itself (not its children) does to name a game."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if node.value.lower() in words:
            yield f"names the game {node.value!r}"
    elif isinstance(node, ast.Import):
        yield from (f"imports {a.name}" for a in node.names if is_game_module(a.name))
    elif isinstance(node, ast.ImportFrom) and node.module:
        if is_game_module(node.module):
            yield f"imports {node.module}"
        if node.module.startswith("p2pbelka"):
            for alias in node.names:
                if is_game_part(alias.name) or is_game_class_name(alias.name):
                    yield f"imports {node.module}.{alias.name}"
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id in ("isinstance", "issubclass") and len(node.args) == 2:
            for name in names_in(node.args[1]):
                if is_game_class_name(name):
                    yield f"compares with the class {name}"
    elif isinstance(node, ast.Compare):
        for name in names_in(node):
            if is_game_class_name(name):
                yield f"compares with {name}"


NAMING = (ast.Constant, ast.Import, ast.ImportFrom, ast.Call, ast.Compare)
"""The nodes ``_node_findings`` looks at (the package's other nodes, most of them,
are only walked through)."""


def findings(path: Path) -> list[Finding]:
    words = game_words()
    found: list[Finding] = []

    def visit(node: ast.AST, scope: str) -> None:
        if isinstance(node, NAMING):
            line = getattr(node, "lineno", 0)
            found.extend(Finding(line, scope, what) for what in _node_findings(node, words))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scope = f"{scope}.{node.name}" if scope else node.name
        for child in ast.iter_child_nodes(node):
            visit(child, scope)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def in_scope(finding: Finding, scope: str) -> bool:
    """``scope`` ("*": the whole module) holds ``finding``."""
    return scope in ("*", finding.scope) or finding.scope.startswith(f"{scope}.")


def is_pending(relative: str, finding: Finding) -> bool:
    return any(in_scope(finding, scope) for scope in PENDING.get(relative, ()))


def test_the_scope_names_existing_modules() -> None:
    for folder in CHECKED:
        assert (ROOT / folder).is_dir(), folder
    for relative in PENDING:
        assert (ROOT / relative).is_file(), relative


def test_no_module_outside_the_games_names_a_game() -> None:
    with collector_paused():
        wrong = [
            f"p2pbelka/{relative}:{finding}"
            for relative, path in checked_modules()
            for finding in findings(path)
            if not is_pending(relative, finding)
        ]
    assert not wrong, "\n".join(wrong)


def test_every_pending_scope_still_names_a_game() -> None:
    """A scope that no longer names a game leaves :data:`PENDING`."""
    stale = [
        f"{relative}: {scope}"
        for relative, scopes in PENDING.items()
        for scope in sorted(scopes)
        if not any(in_scope(f, scope) for f in findings(ROOT / relative))
    ]
    assert not stale, "no longer naming a game: " + ", ".join(stale)


def test_the_check_sees_each_kind_of_naming(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from p2pbelka.rules.belot.game import BelotGame\n"
        "import p2pbelka.rules.belka.core\n"
        "from p2pbelka.ui import belot_replay\n"
        "from p2pbelka.bots.base import BELOT_BOT_LEVELS\n"
        "def pick(g, level):\n"
        "    if level in BELOT_BOT_LEVELS:\n"
        "        return 'Belka'\n"
        "    return 'belot' if isinstance(g, BelotGame) else 'p2pbelka'\n",
        encoding="utf-8",
    )
    found = [str(f) for f in findings(source)]
    assert "1: imports p2pbelka.rules.belot.game" in found
    assert "1: imports p2pbelka.rules.belot.game.BelotGame" in found
    assert "2: imports p2pbelka.rules.belka.core" in found
    assert "3: imports p2pbelka.ui.belot_replay" in found
    assert "4: imports p2pbelka.bots.base.BELOT_BOT_LEVELS" in found
    assert "6: pick: compares with BELOT_BOT_LEVELS" in found
    assert "7: pick: names the game 'Belka'" in found
    assert "8: pick: names the game 'belot'" in found
    assert "8: pick: compares with the class BelotGame" in found
    assert not any("p2pbelka'" in f for f in found)


def test_a_game_of_its_own_and_the_registries_may_name_games() -> None:
    assert is_allowed("bench/games/belot/rules.py") and is_allowed("rules/belka/spec.py")
    assert is_allowed("ui/games/belot/screen.py") and is_allowed("rules/registry.py")
    assert is_allowed("ui/registry.py") and is_allowed("bench/registry.py")
    assert is_allowed("table/games/belka/track.py") and not is_allowed("table/games/__init__.py")
    assert not is_allowed("bench/rules.py") and not is_allowed("cli/play_cmd.py")
    assert not is_allowed("bench/belot_rules.py") and not is_allowed("table/belka.py")
    assert not is_allowed("rules/spec.py") and not is_allowed("bots/common/seat.py")
    assert not is_allowed("ui/app.py") and not is_allowed("ui/lan.py")
