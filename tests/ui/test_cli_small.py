"""Small things a newcomer meets first: one default name for every command, deals
counted from 1 in text mode as on the screen."""

from __future__ import annotations

from pathlib import Path

import pytest

from p2pbelka.cli.main import parse
from p2pbelka.cli.play_cmd import config_from
from p2pbelka.net.identity import DEFAULT_NAME
from p2pbelka.table import events as ev
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.englishlog import english_line
from tests.ui.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]


def test_join_without_a_login_name_is_the_same_player_as_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    no_login: dict[str, str | None] = {"USER": None, "USERNAME": None}
    done = run_cli(tmp_path, "join", "--connect", "x", "--text", env_changes=no_login, cwd=ROOT)
    assert done.stdout.startswith(f"you are {DEFAULT_NAME} ["), done.stdout
    monkeypatch.delenv("USER", raising=False)
    monkeypatch.delenv("USERNAME", raising=False)
    try:
        assert config_from(parse(["play", "--lang", "en"])).name == DEFAULT_NAME == "Player"
    finally:
        i18n.set_language("en")


def test_text_mode_counts_deals_from_1() -> None:
    line = english_line(ev.DealStarted(deal_id=1, number=0, dealer=2, score=(0, 0)), None)  # type: ignore[arg-type]
    assert line == "deal 1 (id 1): dealer seat 2"


def test_the_link_silence_and_the_coach_s_worlds_are_options_with_the_old_defaults() -> None:
    """``--link-silence S`` reaches the seat's network options, ``--coach-worlds N`` is
    read (tests shrink both; test_text_mode_person runs the coach with it); unset, they
    are 10 s and the coach's own number; fewer than 2 worlds is refused."""
    from p2pbelka.bots.common.coach import WORLDS
    from p2pbelka.cli import lan_args
    from p2pbelka.peer.mesh import LINK_SILENCE

    plain = parse(["join", "--connect", "127.0.0.1:7700"])
    assert lan_args.net_options(plain).link_silence == LINK_SILENCE == 10.0
    assert plain.coach_worlds is None and WORLDS == 80
    given = parse(["host", "--link-silence", "4", "--coach", "--coach-worlds", "6"])
    assert lan_args.net_options(given).link_silence == 4.0
    assert given.coach and given.coach_worlds == 6
    with pytest.raises(SystemExit):
        parse(["play", "--coach", "--coach-worlds", "1"])
