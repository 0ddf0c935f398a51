"""The tests' disk (``tests/quickdisk.py``): quick syncs by default, the real ones when
a test is marked ``real_disk``, and the processes a test starts get the same."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import quickdisk
from tests.lan.helpers import REPO


def test_a_quick_sync_still_fails_on_a_closed_descriptor(tmp_path: Path) -> None:
    assert quickdisk.in_use()
    fd = os.open(tmp_path / "file", os.O_WRONLY | os.O_CREAT)
    os.fdatasync(fd)
    os.fsync(fd)
    os.close(fd)
    with pytest.raises(OSError):
        os.fdatasync(fd)
    with pytest.raises(OSError):
        os.fsync(fd)


@pytest.mark.real_disk
def test_a_real_disk_test_has_the_real_calls() -> None:
    assert not quickdisk.in_use()
    assert all(getattr(os, name) is quickdisk.REAL[name] for name in quickdisk.NAMES)


def test_a_started_process_runs_its_module_on_the_quick_disk(tmp_path: Path) -> None:
    show = tmp_path / "show.py"
    show.write_text(
        "import os, sys\nfrom tests import quickdisk\n"
        "print(quickdisk.in_use(), sys.argv[1:], __name__)\nsys.exit(3)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(tmp_path)]))
    done = subprocess.run(
        [sys.executable, "-m", "tests.quickdisk", "show", "--flag", "x"],
        capture_output=True, text=True, env=env, check=False, timeout=60,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert done.stdout.split("\n")[0] == "True ['--flag', 'x'] __main__"
