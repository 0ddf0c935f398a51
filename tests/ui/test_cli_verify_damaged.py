"""``p2pbelka verify`` of a damaged file, run by the program's ``main`` (the entry point
exits with its status and words: test_cli_errors): the last record cut short (a peer
killed while writing it) is INCOMPLETE, naming the byte, with the verdict of the
records before it; damage before the last record is INVALID (SPEC section 5.1; both
exit 1, as ``verify`` documents)."""

from __future__ import annotations

import json
from pathlib import Path

from p2pbelka.protocol.transcript import iter_records
from tests.ui.cli import run_main, selfplayed


def test_a_cut_last_record_is_incomplete_and_damage_before_it_invalid(tmp_path: Path) -> None:
    path = tmp_path / "game.transcript"
    selfplayed(path, seed=4)
    data = path.read_bytes()
    records = list(iter_records(data))
    last, before = records[-1], records[-2]

    cut = tmp_path / "cut.transcript"
    cut.write_bytes(data[:-7])
    done = run_main(tmp_path, "verify", str(cut), "--lang", "en")
    assert done.returncode == 1, done.stderr
    verdict = done.stdout.splitlines()[-1]
    assert verdict.startswith(
        f"INCOMPLETE: the last record damaged at byte {last.offset} (the file ends inside it)"
    ), done.stdout
    assert "every record before it checks out, and the game is over in them" in verdict
    shown = json.loads(run_main(tmp_path, "verify", str(cut), "--json").stdout)
    assert shown["damaged_at"] == last.offset and not shown["ok"]
    assert shown["verdict"].startswith("INCOMPLETE") and shown["records"] == len(records) - 1

    middle = bytearray(data[:-7])
    middle[before.offset + 4 + len(before.envelope.raw) // 2] ^= 0x40
    damaged = tmp_path / "damaged.transcript"
    damaged.write_bytes(bytes(middle))
    done = run_main(tmp_path, "verify", str(damaged), "--lang", "en")
    assert done.returncode == 1 and done.stdout.splitlines()[-1].startswith("INVALID: "), done
