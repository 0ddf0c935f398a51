"""``p2pbelka bench bots --game belot``: a quick run prints the figures and the yardstick."""

from __future__ import annotations

import json

import pytest

from p2pbelka.cli.main import main


def test_belot_bot_bench_quick(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "bots", "--game", "belot", "--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["yardstick_us"] > 0
    assert figures["belot_strong_turns"] > 0
    assert figures["belot_strong_ms_median"] <= figures["belot_strong_ms_p99"]
    assert figures["belot_strong_ms_p99"] <= figures["belot_strong_ms_max"]


def test_a_topic_without_belot_figures_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "rules", "--game", "belot", "--quick"]) == 2
    assert "no belot figures" in capsys.readouterr().err
