"""Run ``p2pbelka referee`` on a record through the real command line entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pbelka.cli.main import main


def referee(tmp_path: Path, data: object, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Write ``data`` (a string as is, else JSON) to a file, referee it: (exit code, output)."""
    path = tmp_path / "game.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    code = main(["referee", str(path)])
    out, err = capsys.readouterr()
    return code, out + err
