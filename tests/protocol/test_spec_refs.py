"""Mechanical checks of the wire spec's references: every vector it (or docs/) names exists
and every vector is listed in the vectors' README; every section number it cites is a
heading of the document it cites, and every point it cites ("section 10.7, 3") an item
of that section's list; every verdict (and record, byte, seats, `records`) the README or
the text gives a vector is its JSON's.  A second implementation reads these words alone."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL = ROOT / "protocol"
VECTORS = PROTOCOL / "vectors"
README = VECTORS / "README.md"
SPEC_FILES = sorted(PROTOCOL.glob("*.md"))
TEXTS = [*SPEC_FILES, README]
DOCS = sorted((ROOT / "docs").glob("*.md"))
VERDICTS = ("CHEATING PROVEN", "INCOMPLETE", "DISPUTED", "INVALID", "OK")
DIRS = ("", "paths/", "scenarios/", "exchanges/")
# A file name in backquotes (`paths/proof-pair.json`), or a path after `vectors/`.
VECTOR_FILE = re.compile(
    r"`(?:vectors/)?((?:paths/|scenarios/|exchanges/)?[\w.-]+\.(?:json|p2pb))`"
)
VECTOR_PATH = re.compile(r"vectors/((?:[\w-]+/)*[\w.-]+\.(?:json|p2pb))")
# "section 4.7", "sections 9.2 to 9.4", "sections 2, 5 and 10.7", "§10.7"; after a single
# section, ", 3" or ", 4 and 5" are points of its numbered list ("section 10.7, 3").
NUMBER = r"\d+[a-z]?(?:\.\d+[a-z]?)*"
SECTION_REF = re.compile(
    rf"(?:\bsections (?P<many>{NUMBER}(?:(?:, | and | to |, and ){NUMBER})*)"
    rf"|(?:\bsection|§) ?(?P<one>{NUMBER})(?P<points>(?:(?:, | and )\d+\b(?!\.\d))*))"
)
DOC_NAME = re.compile(r"(fairdeal\.md|transport\.md|SPEC\.md|\bSPEC\b)")


def vector_files() -> set[str]:
    return {p.relative_to(VECTORS).as_posix() for p in VECTORS.rglob("*") if p.is_file()}


def line_of(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


@functools.cache
def headings(path: Path) -> frozenset[str]:
    """The section numbers a document's headings give ("4.7", "5a", "8.1a"): read once a
    run (the spec is cited hundreds of times, and its files do not change under it)."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#{2,4} (\d+[a-z]?(?:\.\d+[a-z]?)*)\.? ", line)
        if match:
            found.add(match.group(1))
    return frozenset(found)


@functools.cache
def section_text(path: Path, number: str) -> str:
    """The text under the heading numbered ``number`` (to the next heading)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(
        i for i, line in enumerate(lines) if re.match(rf"#{{2,4}} {re.escape(number)}\.? ", line)
    )
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    return "\n".join(lines[start:end])


def is_placeholder(name: str) -> bool:
    return "NAME" in name or "-N." in name


@pytest.mark.parametrize("path", [*TEXTS, *DOCS], ids=lambda p: p.name)
def test_every_vector_named_exists(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    files = vector_files()
    missing = []
    # docs/ name other files (a game's `game.json`): there, only paths under `vectors/`.
    patterns = (VECTOR_PATH,) if path in DOCS else (VECTOR_FILE, VECTOR_PATH)
    for pattern in patterns:
        for match in pattern.finditer(text):
            name = match.group(1)
            if is_placeholder(name):
                continue
            if not any(d + name in files for d in DIRS):
                missing.append(f"{path.name}:{line_of(text, match.start())}: {name}")
    assert not missing, missing


def stems() -> set[str]:
    return {Path(f).with_suffix("").as_posix() for f in vector_files()}


def readme_rows() -> list[tuple[int, str, list[str], str]]:
    """(line, directory, names, last cell) of each README table row that names vectors."""
    rows = []
    directory = ""
    in_files = False
    for number, line in enumerate(README.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("## "):
            match = re.search(r"\(`(\w+)/`", line)
            directory = match.group(1) + "/" if match else ""
            continue
        if line.startswith("| ") and not line.startswith("| `"):
            in_files = line.startswith("| file ")  # a table's header: of files, or of paths
        if not line.startswith("| `") or not in_files:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        names = re.findall(r"`([\w./-]+)`", cells[0])
        if not names or not re.fullmatch(r"`[\w./-]+`(, `[\w./-]+`)*", cells[0]):
            continue
        first = names[0]
        expanded = []
        for name in names:
            if name.startswith("-"):  # `-chosen-id` after `continuation-other-segment`
                name = first.split("-", 1)[0] + name
            expanded.append(name)
        rows.append((number, directory, expanded, cells[-1]))
    return rows


def test_every_readme_row_names_a_vector() -> None:
    known = stems() | vector_files()
    missing = []
    for number, directory, names, _ in readme_rows():
        for name in names:
            if not ({d + name for d in (directory, *DIRS)} & known):
                missing.append(f"README.md:{number}: {name}")
    assert not missing, missing


def verdict_of(cell: str) -> str | None:
    for word in VERDICTS:
        if cell.startswith(word):
            return word
    return None


def test_every_readme_verdict_is_its_json_s() -> None:
    """The verdict column, and the record or seats it names, against each JSON's `verify`."""
    wrong = []
    checked = 0
    previous = None
    for number, directory, names, cell in readme_rows():
        word = verdict_of(cell)
        if word is None and cell.startswith("the same"):
            cell, word = previous if previous else (cell, None)
        if word is None:
            continue
        previous = (cell, word)
        cell = cell.split("; with `--every-pass`")[0]  # the other reading: verify-cli.json
        for name in names:
            path = next(
                (
                    VECTORS / (d + name + ".json")
                    for d in (directory, *DIRS)
                    if (VECTORS / (d + name + ".json")).exists()
                ),
                VECTORS / (name + ".json"),
            )
            if not path.exists() or "verify" not in (data := json.loads(path.read_text())):
                continue
            report = data["verify"]
            checked += 1
            where = f"README.md:{number}: {name}"
            if report["verdict"] != word:
                wrong.append(f"{where}: README {word}, JSON {report['verdict']}")
            record = re.search(r"record (\d+)\b", cell)
            if record and word == "INVALID":
                at = re.search(r"record (\d+)", report["error"] or "")
                if not at or at.group(1) != record.group(1):
                    wrong.append(
                        f"{where}: README record {record.group(1)}, JSON {report['error']}"
                    )
            byte = re.search(r"byte (\d[\d,]*)", cell)
            if byte and word == "INVALID":
                offset = byte.group(1).replace(",", "")
                if f"byte {offset}" not in (report["error"] or ""):
                    wrong.append(f"{where}: README byte {offset}, JSON {report['error']}")
            named = re.search(r"\(seats? ([\d, and]+)[:,)]", cell) or re.search(
                r"seats? ([\d, and]+) not closing", cell
            )
            if named:
                seats = {int(s) for s in re.findall(r"\d+", named.group(1))}
                at_fault = {f["seat"] for f in report["faults"]}
                if not seats <= at_fault:
                    wrong.append(
                        f"{where}: README seats {sorted(seats)}, JSON faults {sorted(at_fault)}"
                    )
            count = re.search(r", (\d+)(?: \(exit status \d\))?$", cell)
            if count and "records" in report and report["records"] != int(count.group(1)):
                wrong.append(f"{where}: README records {count.group(1)}, JSON {report['records']}")
    assert checked > 100
    assert not wrong, wrong


def cited_document(text: str, at: int, own: Path) -> Path:
    """The document a section number at ``at`` cites: the nearest file name just before it
    in the same sentence, else the text's own document (the README cites SPEC.md)."""
    before = text[max(0, at - 40) : at]
    before = re.split(r"[.;:(]\s", before)[-1]
    names = DOC_NAME.findall(before)
    if names:
        name = names[-1]
        return PROTOCOL / ("SPEC.md" if name == "SPEC" else name)
    return PROTOCOL / "SPEC.md" if own == README else own  # docs/: skipped by the caller


@pytest.mark.parametrize("path", [*TEXTS, *DOCS], ids=lambda p: p.name)
def test_every_section_cited_exists(path: Path) -> None:
    """Every section number cited is a heading of the document cited, and every point
    cited ("section 10.7, 3") is an item of that section's numbered list."""
    text = path.read_text(encoding="utf-8")
    bad = []
    for match in SECTION_REF.finditer(text):
        if re.search(r"RFC \d+\D{0,30}$", text[max(0, match.start() - 40) : match.start()]):
            continue  # another standard's sections
        target = cited_document(text, match.start(), path)
        if target == path and path in DOCS:
            continue  # docs/ cite the spec by name; a bare "section" is their own
        known = headings(target)
        where = f"{path.name}:{line_of(text, match.start())}"
        numbers = re.findall(NUMBER, match.group("many") or match.group("one"))
        for number in numbers:
            if number not in known:
                bad.append(f"{where}: {target.name} has no section {number}")
        points = re.findall(r"\d+", match.group("points") or "")
        if points and match.group("one") in known:
            body = section_text(target, match.group("one"))
            for point in points:
                if not re.search(rf"^\s*{point}\. ", body, re.M):
                    bad.append(
                        f"{where}: {target.name} section {match.group('one')} has no point {point}"
                    )
    assert not bad, bad


def test_every_vector_is_listed_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    named = {name for row in readme_rows() for name in row[2]}
    unlisted = [
        stem
        for stem in sorted(stems())
        if Path(stem).name != "README"
        and not {stem, Path(stem).name} & named
        and f"`{Path(stem).name}" not in text
        and f"`{stem}" not in text
    ]
    assert not unlisted, unlisted


# "(`a`, `b`: INVALID)", "`flow-2-game-ok`: OK": a verdict the text gives vectors.
STATED = re.compile(
    r"((?:`[\w-]+`(?:,|\s+and|,\s+and)\s+)*`[\w-]+`):?\s+\(?(" + "|".join(VERDICTS) + r")\b"
)


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: p.name)
def test_every_verdict_the_text_gives_a_vector_is_its_json_s(path: Path) -> None:
    by_name = {Path(stem).name: stem for stem in stems()}
    text = path.read_text(encoding="utf-8")
    wrong = []
    for match in STATED.finditer(text):
        for name in re.findall(r"`([\w-]+)`", match.group(1)):
            if name in by_name:
                data = json.loads((VECTORS / (by_name[name] + ".json")).read_text())
                verdict = data.get("verify", {}).get("verdict")
                if verdict != match.group(2):
                    line = line_of(text, match.start())
                    wrong.append(f"{path.name}:{line}: {name}: {match.group(2)}, JSON {verdict}")
    assert not wrong, wrong
