"""The result-certificate vectors (protocol/results.md section 5).

``python -m p2pbelka.bench.result_vectors DIR`` writes ``DIR/results/NAME.cert`` for
each path vector named in ``SOURCES`` (made from ``DIR/paths/NAME.p2pb`` by a fixed
maker at a fixed date: Ed25519 signatures are deterministic, so the bytes are too) and
``DIR/results/README.md``, what each one is and what ``verify`` says of it.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from p2pbelka.ladder.certificate import Certificate
from p2pbelka.ladder.make import certify
from p2pbelka.protocol.envelope import Signer

MAKER_SEED = hashlib.sha256(b"p2pbelka/result-vector/maker").digest()
AT = 1767225600
"""2026-01-01T00:00:00Z."""
SOURCES = {
    "game-ok": "a whole Belka game to OK, every seat closed (kind closed)",
    "wrong-share": "a Belka game in which seat 2 is proven cheating (kind proven)",
    "continuation-to-the-end": "a Belka game whose seat 3 a bot took over, played to OK"
    " (kind chained)",
}


def make_vectors(directory: Path) -> dict[str, Certificate]:
    """Each vector's certificate, from its path vector in ``directory/paths``."""
    maker = Signer.from_seed(MAKER_SEED)
    out = {}
    for name in SOURCES:
        made = certify((directory / "paths" / f"{name}.p2pb").read_bytes(), maker, AT)
        if isinstance(made, str):
            raise ValueError(f"{name}: {made}")
        out[name] = made
    return out


def readme(certificates: dict[str, Certificate]) -> str:
    lines = [
        "# Result-certificate vectors",
        "",
        "Made by `python -m p2pbelka.bench.result_vectors protocol/vectors` from the path",
        "vectors of the same names (protocol/results.md section 5): the maker's Ed25519 seed",
        "is SHA-256 of `p2pbelka/result-vector/maker`, `at` is 1767225600.",
        "",
        "| file | what | bytes | outcome |",
        "|---|---|---|---|",
    ]
    for name, cert in certificates.items():
        lines.append(
            f"| `{name}.cert` | {SOURCES[name]} | {len(cert.raw)} | `{cert.outcome.to_wire()}` |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    directory = Path(argv[0] if argv else "protocol/vectors")
    certificates = make_vectors(directory)
    (directory / "results").mkdir(exist_ok=True)
    for name, cert in certificates.items():
        (directory / "results" / f"{name}.cert").write_bytes(cert.raw)
    (directory / "results" / "README.md").write_text(readme(certificates), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
