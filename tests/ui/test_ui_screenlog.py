"""While a screen is up nothing reaches the terminal behind it (``ui/screenlog.py``):
the layers' log records and stray lines go to the log file, the screen is told once
where; after it, the terminal's handlers and streams are back.  And once the screen is
gone, the terminal keeps how the game ended (``TableView.ending_line``)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from p2pbelka.cli import lan_args
from p2pbelka.table import events as ev
from p2pbelka.ui.screenlog import log_path, logs_off_terminal
from p2pbelka.ui.view import TableView
from p2pbelka.ui.words import i18n


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


def test_records_and_stray_lines_go_to_the_file_while_a_screen_is_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.delenv("P2PBELKA_HOME", raising=False)
    logger = logging.getLogger("p2pbelka.tests.screenlog")
    on_terminal = logging.StreamHandler(sys.stderr)  # as basicConfig's, at the terminal
    logger.addHandler(on_terminal)
    notes: list[str] = []
    try:
        with logs_off_terminal(notes.append) as path:
            logger.warning("refused %d connection(s)", 3)
            logger.warning("seat 2: no answer for 10 s, the link is dead")
            print("a stray line", file=sys.stderr)
            print("another", end="")  # a partial line is kept until the screen closes
        assert capsys.readouterr() == ("", "")
        written = path.read_text(encoding="utf-8")
        assert path == tmp_path / "p2pbelka" / "p2pbelka.log"
        for line in ("refused 3 connection(s)", "the link is dead", "a stray line", "another"):
            assert line in written
        assert notes == [f"A warning for the developers went to the log file {path}."]
        assert logger.handlers == [on_terminal]
        logger.warning("after the screen")
        assert "after the screen" in capsys.readouterr().err
        print("plain again", file=sys.stderr)
        assert capsys.readouterr().err == "plain again\n"
    finally:
        logger.removeHandler(on_terminal)


def test_a_file_that_cannot_be_written_loses_the_line_not_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "p2pbelka").write_text("a file where the directory should be")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with logs_off_terminal():
        logging.getLogger("p2pbelka.tests.screenlog").error("nowhere to go")
    assert capsys.readouterr() == ("", "")


def test_the_terminal_keeps_who_won_after_the_screen(capsys: pytest.CaptureFixture[str]) -> None:
    view = TableView(me=0)
    score = ev.Score((0, 0))
    view.apply(ev.GameStarted("belot", ("Asel", "Bolat"), (b"", b""), 1, 0, {}, score))
    assert view.ending_line() is None  # not over: nothing to keep
    view.apply(ev.GameOver(1, (640, 1012)))
    assert view.ending_line() == "Bolat wins the game with 1012."
    lan_args.screen_result(None, ending=view.ending_line())
    assert capsys.readouterr().out.splitlines()[0] == "Bolat wins the game with 1012."


def test_a_home_keeps_its_own_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two programs with two homes on one account keep their logs apart, as their games."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("P2PBELKA_HOME", str(tmp_path / "home"))
    assert log_path() == tmp_path / "home" / "p2pbelka.log"
