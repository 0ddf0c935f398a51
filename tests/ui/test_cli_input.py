"""Bad input is never quietly accepted by the program's ``main`` (which the entry point
runs as it is: test_cli_errors): a port out of range is a usage error (not a number
wrapped around), and a file that is no transcript at all is malformed input (status 2),
not a game that failed its checks (status 1)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from p2pbelka.cli.errors import EXIT_USAGE
from tests.ui.cli import run_main


@pytest.mark.parametrize(
    "argv",
    [
        ["host", "--lobby-port", "99999"],
        ["host", "--port", "65536"],
        ["join", "--port", "-1"],
        ["join", "--beacon-port", "70000"],
        ["resume", "--advertise-port", "123456"],
    ],
)
def test_a_port_out_of_range_is_a_usage_error(tmp_path: Path, argv: list[str]) -> None:
    done = run_main(tmp_path, *argv)
    assert done.returncode == EXIT_USAGE, done.stderr
    assert "ports go from 0 to 65535" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_port_that_is_no_number_says_so(tmp_path: Path) -> None:
    done = run_main(tmp_path, "join", "--port", "http")
    assert done.returncode == EXIT_USAGE
    assert "'http' is not a port number" in done.stderr


def noise(tmp_path: Path) -> Path:
    path = tmp_path / "noise.bin"
    path.write_bytes(random.Random(25).randbytes(4096))
    return path


def test_verify_of_a_random_file_is_malformed_input(tmp_path: Path) -> None:
    done = run_main(tmp_path, "verify", str(noise(tmp_path)))
    assert done.returncode == EXIT_USAGE
    assert "envelopes checked" not in done.stdout + done.stderr
    assert "noise.bin" in done.stderr and "not a p2pbelka transcript" in done.stderr


def test_verify_of_an_empty_file_is_malformed_input(tmp_path: Path) -> None:
    (tmp_path / "empty").write_bytes(b"")
    assert run_main(tmp_path, "verify", "empty").returncode == EXIT_USAGE


def test_replay_of_a_random_file_is_malformed_input_and_says_only_that(tmp_path: Path) -> None:
    done = run_main(tmp_path, "replay", str(noise(tmp_path)))
    assert done.returncode == EXIT_USAGE
    assert "not a p2pbelka transcript" in done.stderr
    assert "no deal was finished" not in done.stdout + done.stderr
