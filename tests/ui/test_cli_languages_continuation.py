"""Why ``verify`` refuses a transcript's continuation (a seat changed hands) reaches the
player in the player's language, as the same reasons in a result certificate's chain do:
the table's reason (``table/carry.py``) worded anew by its form
(``ui/words/continuation.py``), ids, counts and the spec's field names kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.verdicts import invalid_words
from tests.ui.test_cli_languages import ROOT, run_in

VECTORS = ROOT / "protocol" / "vectors" / "paths"
REFUSED = "not a valid continuation: "


def _refusals() -> list[str]:
    """Every continuation refusal the path vectors say ``verify`` gives."""
    errors = [
        json.loads(p.read_text())["verify"].get("error") for p in sorted(VECTORS.glob("*.json"))
    ]
    return [e for e in errors if e is not None and REFUSED in e]


@pytest.mark.parametrize(
    ("lang", "locale", "vector", "words"),
    [
        (
            "en",
            "C.UTF-8",
            "continuation-agreement-missing",
            "record 32 (byte 23819, seat 0, seq 0): not a valid continuation: seat 2 did not"
            " sign the change (signed by 0, 1)",
        ),
        (
            "ru",
            "ru_RU.UTF-8",
            "continuation-other-score",
            "запись 32 (байт 23819, место 0, seq 0): недопустимое продолжение партии:"
            " продолжение места 0 переносит счёт [1, 0], сдающего 2, следующую сдачу 1"
            " (after.score, after.dealer, after.deal), а проверенные сдачи сегмента"
            " c6f26a496a09d10e дают счёт [0, 0], сдающего 2, следующую сдачу 1",
        ),
        (
            "kk",
            "kk_KZ.UTF-8",
            "continuation-other-heads",
            "32-жазба (23819-байт, 0-орын, seq 0): ойынның жарамсыз жалғасы: ол 1-орынның"
            " тізбегін 7 конвертте кеседі (тізбек ұшы 2222222222222222, after.heads), ал"
            " c6f26a496a09d10e сегментінде олар 8 (тізбек ұшы 85820e73c60d6397)",
        ),
    ],
    ids=["en", "ru", "kk"],
)
def test_verify_says_why_a_continuation_is_refused_in_the_language(
    tmp_path: Path, lang: str, locale: str, vector: str, words: str
) -> None:
    done = run_in(tmp_path, locale, "verify", str(VECTORS / f"{vector}.p2pb"))
    last = done.stdout.strip().splitlines()[-1]
    assert last == f"INVALID: {words}"  # the first word stays, for scripts


def test_every_continuation_refusal_of_the_vectors_is_worded_anew() -> None:
    """Each reason the vectors record, in Russian and in Kazakh: none left in English."""
    refusals = _refusals()
    assert len(refusals) >= 15
    left: dict[str, list[str]] = {}
    for lang in ("ru", "kk"):
        try:
            i18n.set_language(lang)
            left[lang] = [
                e
                for e in refusals
                if e.split(REFUSED, 1)[1] in (worded := invalid_words(e)) or REFUSED in worded
            ]
        finally:
            i18n.set_language("en")
    assert left == {"ru": [], "kk": []}
