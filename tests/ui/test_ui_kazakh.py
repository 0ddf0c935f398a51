"""Kazakh beside English and Russian: every string, chosen by LANG or --lang kk."""

from __future__ import annotations

import re
from pathlib import Path

from p2pbelka.cards import Card, Suit
from p2pbelka.ui.canvas import plain_text
from p2pbelka.ui.games.belka import reports
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.cardnames import card_label, suit_name
from tests.ui.cli import run_main
from tests.ui.summaries import summary

PLACEHOLDER = re.compile(r"\{\w*\}")


def catalog(lang: str) -> dict[str, str]:
    return i18n.parse_po((i18n.LOCALE_DIR / lang / "LC_MESSAGES/p2pbelka.po").read_text("utf-8"))


def test_every_screen_string_has_a_kazakh_translation_with_the_same_placeholders() -> None:
    pot = (i18n.LOCALE_DIR / "p2pbelka.pot").read_text("utf-8")
    ids = i18n.parse_po(pot.replace('msgstr ""', 'msgstr "-"'))
    kk = catalog("kk")
    assert len(ids) > 50 and set(ids) - set(kk) == set()
    for msgid in ids:
        assert sorted(PLACEHOLDER.findall(kk[msgid])) == sorted(PLACEHOLDER.findall(msgid))


def test_kazakh_is_chosen_by_the_locale() -> None:
    assert i18n.default_language({"LANG": "kk_KZ.UTF-8"}) == "kk"
    assert i18n.default_language({"LANGUAGE": "kk:ru"}) == "kk"


def test_the_end_of_a_deal_in_kazakh() -> None:
    try:
        i18n.set_language("kk")
        text = plain_text(reports.deal_end_lines(BelkaView(names=["A", "B", "C", "D"]), summary()))
        assert "1-кон" in text and "көзір" in text and "Кон адал" in text
        assert suit_name(Suit.CLUBS) == "♣ крести"
        assert card_label(Card.parse("JH")) == "В♥"
    finally:
        i18n.set_language("en")


def test_the_bare_command_takes_lang_kk(tmp_path: Path) -> None:
    done = run_main(tmp_path, "--lang", "kk")
    assert "invalid choice" not in done.stderr
    assert "терминал керек" in done.stderr  # the command's own line follows --lang too
