"""The reporting and framing vectors (issue 41, items 14-17): each table refusal, bad
body, bad encoding and bad framing reaches the verdict, the record and the byte its
README row names, and the real ``verify`` command does what ``verify-cli.json`` says
(exit status, verdict, ``--json`` fields, ``--every-pass``, ``--record``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from p2pbelka.bench.reporting_vectors import AT, CLI_CASES, CLI_NAME, KEEP, OUT, cli_vector
from p2pbelka.protocol.transcript import MAGIC, iter_records

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "protocol" / "vectors"
PATHS = VECTORS / "paths"

REFUSED = r"record 0 \(byte 16, an unknown sender, seq 0\): "
MALFORMED = r"byte 20 \(record 0\): "
CLAIMS = r" \[claims to be seat 0, seq 1\]$"

# name: (verdict, records, what the error says: its place, and the thing at fault)
REPORTING: dict[str, tuple[str, int, str]] = {
    "table-game": ("INVALID", 1, REFUSED + r"bad rules: unknown game 'skat'"),
    "table-seats": ("INVALID", 1, REFUSED + r"bad rules: Belka is played by 4, not 3"),
    "table-preset": ("INVALID", 1, REFUSED + r"bad rules: unknown preset 'modern'"),
    "table-option": ("INVALID", 1, REFUSED + r"bad rules: unknown option 'jokers'"),
    "table-option-value": ("INVALID", 1, REFUSED + r"bad rules: option goli: unknown value"),
    "table-fairdeal": ("INVALID", 1, REFUSED + r"bad rules: fair-deal version 3"),
    "table-flow": ("INVALID", 1, REFUSED + r"bad rules: flow 4 is not"),
    "table-host": ("INVALID", 1, REFUSED + r"the host is not one of the seats$"),
    "table-chain": ("INVALID", 1, REFUSED + r"the table description must open"),
    "table-missing": ("INVALID", 1, REFUSED + r"expected the table description, got sit$"),
    "table-no-nonces": ("INVALID", 0, MALFORMED + r"body of table\.nonces: flow 3 requires"),
    "table-nonces-flow-2": ("INVALID", 0, MALFORMED + r"body of table\.nonces: nonces come"),
    "table-nonces-count": ("INVALID", 0, MALFORMED + r"body of table\.nonces: expected a list"),
    "table-fairdeal-1": ("INVALID", 0, MALFORMED + r"body of table\.fairdeal: version 1"),
    "table-flow-1": ("INVALID", 0, MALFORMED + r"body of table\.flow: flow 1"),
    "table-key-twice": ("INVALID", 0, MALFORMED + r"body of table\.seats: two seats"),
    "table-unsound-key": (
        "INVALID",
        0,
        MALFORMED + r"body of table\.seats\[3\]\[0\]: not a usable",
    ),
    "table-control": ("INVALID", 0, MALFORMED + r"body of table\.seats\[3\]\[1\]: control"),
    "table-long-preset": ("INVALID", 0, MALFORMED + r"body of table\.preset: expected a string"),
    "body-type": ("INVALID", 4, r"type: unknown message type 'hello'"),
    "body-missing-key": ("INVALID", 4, r"body of lot_commit: missing field\(s\) c"),
    "body-extra-key": ("INVALID", 4, r"body of lot_commit: unknown field\(s\) d"),
    "body-key-order": ("INVALID", 4, r"body of trump: map keys are not in sorted order"),
    "body-not-bool": ("INVALID", 4, r"body of trump\.hand_ok: expected true or false"),
    "body-jack": ("INVALID", 4, r"body of trump\.jack: "),
    "body-int-for-bytes": ("INVALID", 4, r"body of lot_commit\.c: expected 32 bytes, got int"),
    "body-bin-length": ("INVALID", 4, r"body of lot_commit\.c: expected 32 bytes, got 31"),
    "body-pos": ("INVALID", 4, r"body of play\.pos: expected an integer in 0\.\.63, got 64"),
    "body-deck-items": ("INVALID", 4, r"body of shuffle\.deck: expected a list of 2\.\.64"),
    "body-deck-point": ("INVALID", 4, r"body of shuffle\.deck\[31\]: expected a 32- or 33-byte"),
    "body-shares-twice": ("INVALID", 4, r"body of shares\.shares: a position appears twice"),
    "body-eggs": ("INVALID", 4, r"body of choice\.eggs: expected one of plus4, title"),
    "body-evidence-empty": ("INVALID", 4, r"body of evidence\.first: expected 1\.\.32000"),
    "body-evidence-long": ("INVALID", 4, r"body of evidence\.second: expected 1\.\.32000"),
    "body-dispute-seat": ("INVALID", 4, r"body of dispute\.seats\[0\]: .* got 4"),
    "body-dispute-empty": ("INVALID", 4, r"body of dispute\.seats: expected a list of 1\.\.4"),
    "body-dispute-long": ("INVALID", 4, r"body of dispute\.why: expected a string of 1\.\.200"),
    "body-dispute-control": ("INVALID", 4, r"body of dispute\.why: control characters"),
    "encoding-not-shortest": ("INVALID", 4, r"envelope\.inner: not in canonical msgpack"),
    "encoding-float": ("INVALID", 4, r"envelope\.deal: expected an integer"),
    "encoding-ext": ("INVALID", 4, r"envelope\.inner: not valid msgpack"),
    "encoding-nil": ("INVALID", 4, r"body of lot_commit\.c: expected 32 bytes, got NoneType"),
    "envelope-version": ("INVALID", 4, r"envelope\.version: unsupported protocol version 3"),
    "envelope-sender": ("INVALID", 4, r"envelope\.sender: not a usable Ed25519 key"),
    "envelope-trailing": ("INVALID", 4, r"envelope: 1 bytes of trailing data"),
    "unseated-sender": ("INVALID", 5, r"record 4 \(byte 1552, an unknown sender, seq 0\): "),
    "frame-magic": ("INVALID", 0, r"byte 0: not a p2pbelka transcript"),
    "frame-protocol-1": ("INVALID", 0, r"byte 0: a transcript of protocol version 1"),
    "frame-length-zero": ("INVALID", 4, r"byte 1552 \(record 4\): record length 0 out of range$"),
    "frame-length-over": ("INVALID", 4, r"byte 1552 \(record 4\): record length 65537 out of"),
    "frame-cut-length": ("INCOMPLETE", 7, ""),
    "frame-cut-record": ("INCOMPLETE", 7, ""),
    "frame-cut-first": ("INVALID", 0, r"byte 16 \(record 0\): truncated record \(\d+ bytes"),
    "frame-cut-first-length": ("INVALID", 0, r"byte 16 \(record 0\): truncated record length$"),
    "frame-last-unreadable": ("INVALID", 7, r"byte 2627 \(record 7\): envelope\.sig: "),
    "passes-cancel": ("OK", 680, ""),
}
"""The verdict, ``records`` and error of each reporting vector (SPEC 3.2, 3.3, 5.1)."""


def _described(name: str) -> dict[str, Any]:
    description: dict[str, Any] = json.loads((PATHS / f"{name}.json").read_text(encoding="utf-8"))
    return description


def _offsets(data: bytes) -> list[int]:
    """Where each record of ``data`` starts (its length), the damaged one included."""
    out, at = [], len(MAGIC)
    while at < len(data):
        out.append(at)
        size = int.from_bytes(data[at : at + 4], "big") if at + 4 <= len(data) else 0
        if not 0 < size <= 65536:
            break
        at += 4 + size
    return out


@pytest.mark.parametrize("name", REPORTING)
def test_each_reporting_vector_reaches_its_path(name: str) -> None:
    verdict, records, error = REPORTING[name]
    described = _described(name)["verify"]
    assert (described["verdict"], described["records"]) == (verdict, records)
    assert re.search(error, described["error"] or "") if error else described["error"] is None
    data = (PATHS / f"{name}.p2pb").read_bytes()
    if name.startswith(("body-", "encoding-", "envelope-")):
        # the bad record is record AT, at the offset the report names (its envelope's,
        # 4 bytes past its length), the records after it all there and never read
        offset = _offsets(data)[AT] + 4
        assert described["error"].startswith(f"byte {offset} (record {AT}): ")
        claims = CLAIMS.replace("seat 0", "an unknown sender") if "sender" in name else CLAIMS
        assert re.search(claims, described["error"]), described["error"]
        assert len(_described(name)["records"]) == KEEP
    if name.startswith("table-") and records == 1:
        assert described["error"].startswith("record 0 (byte 16, an unknown sender, seq 0): ")


def test_a_table_refused_reads_and_a_malformed_one_does_not() -> None:
    """SPEC 3.2 / 3.3: a refused table opens (a signed envelope whose values this
    version refuses); a malformed one does not open at all."""
    for name, (_verdict, records, _error) in REPORTING.items():
        if not name.startswith("table-") or name == "table-missing":
            continue
        data = (PATHS / f"{name}.p2pb").read_bytes()
        opens = True
        try:
            first = next(iter_records(data))
        except ValueError:
            opens = False
        assert opens == (records == 1), name
        if opens:
            assert first.envelope.type == "table" and first.envelope.seq == 0


def test_the_unseated_sender_is_named_as_no_seat() -> None:
    """SPEC 5.1 (item 15): a record that opens but whose key no seat holds in its
    segment: ``an unknown sender`` in the report, ``seat`` null in the record's row."""
    described = _described("unseated-sender")
    last = described["records"][-1]
    assert (last["type"], last["seat"], last["seq"]) == ("lot_commit", None, 0)
    assert last["hash"] and "an unknown sender" in described["verify"]["error"]


def test_framing_errors_name_the_record_offset_and_a_cut_last_record_is_incomplete() -> None:
    for name in ("frame-length-zero", "frame-length-over"):
        data = (PATHS / f"{name}.p2pb").read_bytes()
        assert _described(name)["verify"]["error"].startswith(f"byte {_offsets(data)[AT]} ")
        assert len(data) > _offsets(data)[AT] + 8  # the records after it are all there
    for name in ("frame-cut-length", "frame-cut-record"):
        data = (PATHS / f"{name}.p2pb").read_bytes()
        damaged = _offsets(data)[-1]
        assert _described(name)["verify"]["damaged_at"] == damaged == _offsets(data)[KEEP - 1]
    last = (PATHS / "frame-last-unreadable.p2pb").read_bytes()
    start = _offsets(last)[-1]
    assert start + 4 + int.from_bytes(last[start : start + 4], "big") == len(last)
    assert (PATHS / "frame-protocol-1.p2pb").read_bytes().startswith(b"P2PBELKA-TRN-v1\n")


def test_the_verify_vector_regenerates() -> None:
    text = json.dumps(cli_vector(VECTORS), indent=1, ensure_ascii=False) + "\n"
    assert (VECTORS / f"{CLI_NAME}.json").read_text(encoding="utf-8") == text


def _verify(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(ROOT), "LANG": "C.UTF-8", "LANGUAGE": "en", "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [sys.executable, "-m", "p2pbelka.cli.main", "verify", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        timeout=600,
        check=False,
    )


CASES = json.loads((VECTORS / f"{CLI_NAME}.json").read_text(encoding="utf-8"))["cases"]


def _check_case(case: dict[str, Any], status: int, stdout: str, stderr: str, out: Path) -> None:
    """What ``verify`` did on ``case``, against the vector."""
    assert status == case["exit_status"], (stdout[-500:], stderr[-500:])
    if case["stream"] == "stderr":
        assert stdout == "" and stderr.startswith(f"p2pbelka verify: {case['file']}")
        if case["verdict"] is not None:
            assert f": {case['verdict']}: " in stderr
    elif "json" in case:
        report = json.loads(stdout)
        assert report["verdict"].split(":", 1)[0] == case["verdict"]
        for key, value in case["json"].items():
            got = report[key]
            if key == "faults":  # the normative fields of each (what: the reference's words)
                got = [{k: f[k] for k in ("seat", "deal", "proven", "fatal")} for f in got]
            assert got == value, key
    else:
        assert stdout.splitlines()[-1].split(":", 1)[0] == case["verdict"]
    if "record" in case:
        written = json.loads(out.read_text(encoding="utf-8")) if out.exists() else None
        assert written == case["record"]


def _args(case: dict[str, Any], out: Path) -> list[str]:
    return [case["file"], *(str(out) if a == OUT else a for a in case["args"])]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_the_verify_command_does_what_the_vector_says(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every case through the command's entry point, in this process (the program
    itself, started as a player starts it: the test below)."""
    from p2pbelka.cli.main import main

    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.chdir(VECTORS)
    out = tmp_path / "record.json"
    status = main(["verify", *_args(case, out)])
    stdout, stderr = capsys.readouterr()
    _check_case(case, status, stdout, stderr, out)


PROGRAM_CASES = ("record", "proven-audit", "malformed-record-0", "missing-file")
"""The cases also run as a program of their own: each exit status, each stream, a
``--json`` report and a ``--record`` file (every case runs in-process above)."""


@pytest.mark.parametrize("name", PROGRAM_CASES)
def test_the_verify_program_does_what_the_vector_says(name: str, tmp_path: Path) -> None:
    (case,) = [c for c in CASES if c["name"] == name]
    out = tmp_path / "record.json"
    ran = _verify(_args(case, out), VECTORS)
    _check_case(case, ran.returncode, ran.stdout, ran.stderr, out)
    statuses = {c["exit_status"] for c in CASES if c["name"] in PROGRAM_CASES}
    assert statuses == {c["exit_status"] for c in CASES}


def test_the_verify_vector_covers_every_exit_status_and_option() -> None:
    statuses = {c["exit_status"] for c in CASES}
    options = {a for c in CASES for a in c["args"]}
    assert statuses == {0, 1, 2} and {"--json", "--every-pass", "--record"} <= options
    by_name = {c["name"]: c for c in CASES}
    assert by_name["passes-cancel"]["exit_status"] == 0
    every = by_name["every-pass"]
    assert every["verdict"] == "CHEATING PROVEN" and every["json"]["records"] == 680
    assert {f["seat"] for f in every["json"]["faults"]} == {1, 3}
    assert by_name["record"]["record"] and by_name["record-none"]["record"] is None
    deals = {
        n: [f["deal"] for f in by_name[n]["json"]["faults"]]
        for n in ("reneges", "proven-before-deal-1")
    }
    assert deals == {"reneges": [1, 2], "proven-before-deal-1": [None]}
    assert {c.name for c in CLI_CASES} == set(by_name)


def test_the_readme_lists_each_reporting_vector() -> None:
    readme = (VECTORS / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Reporting and framing", 1)[1].split("\n## ", 1)[0]
    for name in [*REPORTING, CLI_NAME]:
        assert f"`{name}" in section, name


def test_a_key_seated_only_in_an_earlier_segment_is_an_unknown_sender() -> None:
    """SPEC 5.1 (item 15): after a continuation, a record signed by the key that held
    seat 3 in the first segment names no seat (the seat is the segment's), and the
    file regenerates byte for byte."""
    from p2pbelka.bench.games.belka.segments import SEGMENT_UNSEATED, generate

    scenarios = VECTORS / "scenarios"
    data = (scenarios / f"{SEGMENT_UNSEATED.name}.p2pb").read_bytes()
    text = (scenarios / f"{SEGMENT_UNSEATED.name}.json").read_text(encoding="utf-8")
    description = json.loads(text)
    assert (data, description) == generate(SEGMENT_UNSEATED)
    table, stray = description["records"][-2:]
    assert table["type"] == "table" and table["segment"] == stray["segment"]
    first_keys = description["seat_keys"]
    envelopes = [r.envelope for r in iter_records(data)]
    assert envelopes[-1].sender.hex() == first_keys[3]  # seat 3's key in the first segment
    assert (stray["type"], stray["seat"]) == ("sit", None)
    verify = description["verify"]
    assert verify["verdict"] == "INVALID" and verify["records"] == len(envelopes)
    index = len(envelopes) - 1
    assert (
        verify["error"].startswith(f"record {index} (byte ")
        and ", an unknown sender, seq 0)" in verify["error"]
    )


@pytest.mark.parametrize("name", REPORTING)
def test_each_reporting_vector_exits_as_its_path_says(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command's own entry point on each file: 2 where not one record reads (a
    malformed table, a bad magic, record 0 cut short), 0 for OK, else 1."""
    from p2pbelka.cli.main import main

    verdict, records, _error = REPORTING[name]
    expected = 2 if records == 0 else (0 if verdict == "OK" else 1)
    assert main(["verify", str(PATHS / f"{name}.p2pb")]) == expected
    out, err = capsys.readouterr()
    line = (err if expected == 2 else out).strip().splitlines()[-1]
    assert f"{verdict}:" in line
