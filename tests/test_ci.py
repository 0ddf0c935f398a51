"""CI runs exactly the test command the README gives a user, read from the README."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CI = REPO / ".ci" / "run"


def readme_commands() -> list[str]:
    """The lines of the README's first fenced block: install-and-play, then test."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    match = re.search(r"^```[^\n]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert match, "README.md has no fenced block"
    return match.group(1).splitlines()


def test_the_readme_gives_the_test_command_second() -> None:
    assert readme_commands()[1] == "pip install -e '.[test]' && pytest"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_ci_runs_the_readme_test_command_and_nothing_in_its_place() -> None:
    printed = subprocess.run(
        ["bash", str(CI), "--print-test-command"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert printed == readme_commands()[1]
    script = CI.read_text(encoding="utf-8")
    assert 'bash -c "$test_command"' in script
    # no second way of running the tests that could drift from the README's
    assert "python -m pytest" not in script
