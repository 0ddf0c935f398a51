"""Set-up and input errors end as one line in a player's words and a documented
exit status, never a traceback.  The command runs in this process (``main(argv)``);
the real program, as a subprocess, shows its entry point ends the same way, and
says what is wrong while it keeps trying to reach a host."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import pytest

from p2pbelka.cli.errors import EXIT_BUG, EXIT_INTERRUPTED, EXIT_SETUP, EXIT_USAGE, classify
from tests.ui.cli import Ran, first_line_matching, run_cli, run_main


def run(home: Path, *argv: str) -> Ran:
    return run_main(home, *argv, check=False)


def one_line(done: Ran) -> str:
    """The error line; fails on a traceback or a Python repr."""
    assert "Traceback" not in done.stderr
    assert "Errno" not in done.stderr and "OSError(" not in done.stderr
    return done.stderr.strip().splitlines()[-1]


def test_a_missing_file_is_named_with_what_to_do(tmp_path: Path) -> None:
    done = run(tmp_path, "referee", "missing.json")
    assert done.returncode == EXIT_USAGE
    expected = "referee: missing.json does not exist: check the name and the directory [ENOENT]"
    assert one_line(done) == expected


def test_random_bytes_name_the_file_and_the_byte(tmp_path: Path) -> None:
    (tmp_path / "noise.bin").write_bytes(b"\xf9\x01\x02garbage")
    done = run(tmp_path, "referee", "noise.bin")
    assert done.returncode == EXIT_USAGE
    line = one_line(done)
    assert "noise.bin" in line and "byte 0xf9 at offset 0" in line


@pytest.mark.parametrize("argv", [["referee", "missing.json"], ["play", "--bogus"]])
def test_the_program_ends_with_the_status_and_the_words_of_main(
    tmp_path: Path, argv: list[str]
) -> None:
    """The entry point (``python -m p2pbelka.cli.main``) exits with the status ``main``
    returns, or argparse's, and writes what it writes: the tests above may call it."""
    real = run_cli(tmp_path, *argv)
    assert real.returncode == EXIT_USAGE and "Traceback" not in real.stderr
    called = run(tmp_path, *argv)
    assert (called.returncode, called.stdout, called.stderr) == (
        real.returncode,
        real.stdout,
        real.stderr,
    )


def test_nothing_listening_says_so_and_how_to_check(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # The host may not have opened its table yet: the joiner keeps trying, and says
    # in words what is wrong and what to check.
    line, everything = first_line_matching(
        tmp_path, "trying again", "join", "--text", "--connect", f"127.0.0.1:{port}"
    )
    assert f"nothing listens at 127.0.0.1:{port}" in line
    assert "check the address and port" in line
    assert "Traceback" not in everything and "OSError(" not in everything


def test_a_taken_port_is_a_set_up_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run(tmp_path, "host", "--text", "--auto-approve", "--lobby-port", str(port))
    assert done.returncode == EXIT_SETUP
    line = one_line(done)
    assert f"--lobby-port {port}" in line and "already in use" in line


def test_an_address_not_on_this_machine_is_a_set_up_error(tmp_path: Path) -> None:
    done = run(tmp_path, "host", "--text", "--auto-approve", "--listen", "192.0.2.77")
    assert done.returncode == EXIT_SETUP
    assert "192.0.2.77) is not an address of this machine" in one_line(done)


def test_a_wrong_option_shows_the_commands_own_usage(tmp_path: Path) -> None:
    done = run(tmp_path, "play", "--bogus")
    assert done.returncode == EXIT_USAGE
    assert done.stderr.startswith("usage: p2pbelka play")
    assert "p2pbelka play: error: unrecognized arguments: --bogus" in done.stderr


@pytest.mark.parametrize("argv", [["--seed", "7"], ["--lang", "ru"]])
def test_the_bare_command_takes_plays_options(tmp_path: Path, argv: list[str]) -> None:
    done = run(tmp_path, *argv)
    # no terminal here: play itself answers, so the options were play's
    assert done.returncode == EXIT_USAGE
    assert "invalid choice" not in done.stderr
    # in the language asked for (--lang ru), as every line of the command
    assert one_line(done).startswith(("p2pbelka play: needs a terminal", "p2pbelka play: нужен"))


def test_help_documents_the_exit_statuses(tmp_path: Path) -> None:
    done = run(tmp_path, "--help")
    assert done.returncode == 0
    assert "exit status:" in done.stdout
    for code in ("0", "1", "2", "3", "4", "5", "130"):
        assert f"\n  {code} " in done.stdout
    assert "\n  5   cut off: no other seat could be reached" in done.stdout


def test_a_group_of_interrupts_is_an_interruption() -> None:
    group = BaseExceptionGroup("nursery", [KeyboardInterrupt(), KeyboardInterrupt()])
    assert classify(group, argparse.Namespace())[0] == EXIT_INTERRUPTED


def test_an_os_error_deep_in_groups_is_found_and_worded() -> None:
    inner = OSError(98, "Address already in use")
    group = ExceptionGroup("outer", [ExceptionGroup("inner", [inner])])
    status, line = classify(group, argparse.Namespace(port=4000, lobby_port=0, listen="0.0.0.0"))
    assert status == EXIT_SETUP
    assert line.startswith("the port asked for (--port 4000) is already in use")


def test_an_unexpected_error_is_one_line_asking_for_a_report() -> None:
    status, line = classify(ZeroDivisionError("oops"), argparse.Namespace())
    assert status == EXIT_BUG
    assert "ZeroDivisionError: oops" in line and "please report" in line


def test_an_unusable_data_directory_is_a_set_up_error(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where the data directory should be")
    done = run(tmp_path, "games")
    assert done.returncode == EXIT_SETUP
    assert "a part of the path is not a directory" in one_line(done)


def test_an_unreadable_identity_is_named_with_what_to_do(tmp_path: Path) -> None:
    folder = tmp_path / "config" / "p2pbelka"
    folder.mkdir(parents=True)
    (folder / "identity.pem").write_bytes(b"\x8f not a key")
    done = run(tmp_path, "join", "--text", "--connect", "127.0.0.1:9")
    assert done.returncode != 0
    line = one_line(done)
    assert "identity.pem is not a private key" in line and "move it away" in line


def test_no_table_heard_says_so_and_how_to_join_by_address(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = run(tmp_path, "join", "--list", "--wait", "0.5", "--beacon-port", str(port))
    assert "Traceback" not in done.stderr
    assert "no tables heard on this network in 0.5 s" in done.stdout
    assert "--connect HOST:PORT" in done.stdout
