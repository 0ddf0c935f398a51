"""The real program speaks the player's language everywhere: the locale (LANG) or
``--lang`` decide every line a command prints, its errors and ``verify``'s report
included, and counts take the language's plural forms (gettext's rules)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from p2pbelka.cli.errors import EXIT_USAGE
from p2pbelka.cli.games_cmd import SavedGame
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.ui.lobbyview import LobbyView, lobby_lines
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.lobbylog import LobbyPrinter
from tests.ui.cli import Ran, run_cli, run_main, selfplayed

ROOT = Path(__file__).resolve().parents[2]


def run_in(home: Path, locale: str, *argv: str) -> Ran:
    """``p2pbelka ARGV`` with ``LANG=locale`` and no other language variable set, run by
    its ``main`` in this process (what it prints is the point here, not the interpreter
    it starts in: ``test_text_mode_languages`` runs the programs under a locale)."""
    return run_main(home, *argv, env_changes=locale_only(locale))


def run_program_in(home: Path, locale: str, *argv: str) -> subprocess.CompletedProcess[str]:
    """``run_in`` as the real program, for a command that needs its own terminal streams."""
    return run_cli(home, *argv, env_changes=locale_only(locale), cwd=ROOT)


def locale_only(locale: str) -> dict[str, str | None]:
    """``LANG=locale`` and no other language variable."""
    return {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": locale}


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("saved")
    path = home / "game.transcript"
    return selfplayed(path)


def test_verify_reports_in_the_locale_s_language(tmp_path: Path, saved: Path) -> None:
    done = run_in(tmp_path, "ru_RU.UTF-8", "verify", str(saved))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("игроки: 0=")
    assert lines[1].startswith("сдача 1: ")
    # 1, 2-4 and 5+ take their own forms; the verdict's first word stays for scripts
    assert lines[-2].startswith("проверено ") and lines[-2].endswith(("конверта", "конвертов"))
    assert lines[-1] == "OK: каждая сдача роздана честно и сыграна по правилам"


def test_verify_takes_lang(tmp_path: Path, saved: Path) -> None:
    done = run_in(tmp_path, "C.UTF-8", "verify", "--lang", "kk", str(saved))
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "OK: әр кон адал таратылып, ереже бойынша ойналды"
    assert "1-кон: " in done.stdout and "конверт тексерілді" in done.stdout


def test_errors_of_the_command_line_follow_the_locale(tmp_path: Path) -> None:
    port = run_in(tmp_path, "ru_RU.UTF-8", "host", "--lobby-port", "99999")
    assert port.returncode == EXIT_USAGE
    assert "99999 — не порт: порты бывают от 0 до 65535" in port.stderr
    connect = run_in(tmp_path, "kk_KZ.UTF-8", "join", "--connect", "nowhere", "--text")
    assert connect.returncode == EXIT_USAGE
    assert "--connect: ХОСТ:ПОРТ немесе [IPV6]:ПОРТ керек" in connect.stderr
    assert "сіз — tester [" in connect.stdout  # the line that says who you are, too


def test_a_file_that_is_no_transcript_is_named_in_russian(tmp_path: Path) -> None:
    (tmp_path / "noise.bin").write_bytes(b"\x00" * 64)
    done = run_in(tmp_path, "ru_RU.UTF-8", "replay", str(tmp_path / "noise.bin"))
    assert done.returncode == EXIT_USAGE and "noise.bin" in done.stderr
    assert "показывать нечего" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("n", "ru", "kk"),
    [
        (1, "сыграна 1 сдача", "1 кон ойналды"),
        (3, "сыграны 3 сдачи", "3 кон ойналды"),
        (11, "сыграно 11 сдач", "11 кон ойналды"),
        (21, "сыграна 21 сдача", "21 кон ойналды"),
    ],
)
def test_counts_take_the_language_s_plural_forms(n: int, ru: str, kk: str) -> None:
    game = SavedGame("game.transcript", 0.0, ["A", "B"], deals=n)
    try:
        i18n.set_language("en")
        singular = "not finished (1 deal played)"
        assert game.state(2) == (singular if n == 1 else f"not finished ({n} deals played)")
        i18n.set_language("ru")
        assert game.state(2) == f"не закончена ({ru})"
        i18n.set_language("kk")
        assert game.state(2) == f"аяқталмаған ({kk})"
    finally:
        i18n.set_language("en")


def test_the_po_reader_uses_each_catalog_s_own_plural_rule() -> None:
    """Without a compiled .mo the .po is read: its Plural-Forms header is the rule."""
    for lang, n, expected in (("ru", 2, "сыграны 2 сдачи"), ("kk", 5, "5 кон ойналды")):
        text = (i18n.LOCALE_DIR / lang / "LC_MESSAGES/p2pbelka.po").read_text("utf-8")
        po = i18n._PoTranslations(i18n.parse_po(text), i18n.plural_rule(text))
        assert po.ngettext("{n} deal played", "{n} deals played", n).format(n=n) == expected
    english = i18n._PoTranslations({}, None)
    assert english.ngettext("{n} table", "{n} tables", 5) == "{n} tables"


def _state(options: dict[str, str], names: list[str | None]) -> LobbyState:
    keys = [bytes([i + 1]) * 32 for i in range(len(names))]
    seats = tuple(None if n is None else SeatView(keys[i], n, False) for i, n in enumerate(names))
    return LobbyState(bytes(16), "Kitchen", "classic", options, seats, "belka")


def test_the_lobby_in_russian_names_the_game_seats_and_rules_in_words() -> None:
    try:
        i18n.set_language("ru")
        view = LobbyView("join", state=_state({}, ["Asel", None, "Saule", None]), me=2)
        text = "".join(text for _style, text, *_ in lobby_lines(view))
        assert "Белка, 4 игрока; правила:" in text and "Belka" not in text
        assert "Asel и вы; соперники: место 1 (свободно) и место 3 (свободно)" in text
        assert "60:60 (яйца)" in text and "+4 или звание" in text
        assert "preset" not in text and "plus4" not in text
    finally:
        i18n.set_language("en")


def test_a_change_of_the_rules_names_the_rule_and_both_values() -> None:
    i18n.set_language("en")
    view = LobbyView("join", state=_state({}, ["Asel", "Bolat", None, None]), me=1)
    from p2pbelka.peer.lan import TableRules

    view.apply(TableRules(_state({"eggs": "double"}, ["Asel", "Bolat", None, None]), True))
    assert view.notes[-1] == (
        "The host changed the rules (60:60 (eggs): +4 or the title → doubled):"
        " read them, then press r."
    )


async def test_text_mode_names_the_changed_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from p2pbelka.peer.lan import TableRules

    i18n.set_language("en")
    printer = LobbyPrinter()
    await printer(TableRules(_state({}, ["Asel", None, None, None])))
    await printer(TableRules(_state({"goli": "off"}, ["Asel", None, None, None]), True))
    first, changed = capsys.readouterr().out.splitlines()
    assert first.startswith("table: Belka for 4; rules: classic; scoring: classic count;")
    assert changed.startswith(
        "the host changed the rules (120 (goli): wins the game → an ordinary win): table:"
    )


def test_the_eggs_title_is_spelt_as_the_language_spells_it() -> None:
    from p2pbelka.ui.games.belka.words import eggs_title

    try:
        assert [(i18n.set_language(lang), eggs_title())[1] for lang in ("ru", "kk")] == [
            "Жумыртка",
            "Жұмыртқа",
        ]
    finally:
        i18n.set_language("en")


def test_the_notes_of_belka_s_rules_are_shown_in_the_player_s_language() -> None:
    from p2pbelka.ui.games.belka.words import note_words

    names = ["Alma", "Bolat", "Saule", "Nurlan"]
    try:
        i18n.set_language("ru")
        assert note_words("60:60, eggs", names) == "60:60, яйца"
        assert note_words("seat 1 asked for a re-deal", names) == "Bolat потребовал(а) пересдачу"
        assert note_words("team 0 wins a game; a new one starts at 0:0", names) == (
            "пара Alma и Saule выигрывает партию; новая начинается с 0:0"
        )
        # a note this version does not know keeps its words, seats by name
        assert note_words("seat 3 did something new", names) == "Nurlan did something new"
    finally:
        i18n.set_language("en")


def test_argparse_s_own_lines_follow_the_locale_and_lang(tmp_path: Path) -> None:
    missing = run_in(tmp_path, "ru_RU.UTF-8", "verify")
    assert missing.returncode == EXIT_USAGE
    assert missing.stderr.startswith("использование: p2pbelka verify")
    assert "p2pbelka verify: ошибка: нужны аргументы: file" in missing.stderr
    choice = run_in(tmp_path, "C.UTF-8", "play", "--lang", "kk", "--game", "x")
    assert "қате: --game аргументі: қате таңдау: 'x' (мыналардан таңдаңыз: 'belka'" in (
        choice.stderr
    )
    number = run_in(tmp_path, "kk_KZ.UTF-8", "play", "--lang=ru", "--seed", "x")
    assert "ошибка: аргумент --seed: неверное значение int: 'x'" in number.stderr
    no_value = run_in(tmp_path, "ru_RU.UTF-8", "play", "--seed")
    assert "аргумент --seed: нужен один аргумент" in no_value.stderr
    extra = run_in(tmp_path, "kk_KZ.UTF-8", "verify", "some.transcript", "--bogus")
    assert extra.returncode == EXIT_USAGE
    assert "p2pbelka verify: қате: түсініксіз аргументтер: --bogus" in extra.stderr
    assert extra.stderr.startswith("қолданылуы: p2pbelka verify")


def test_the_help_pages_are_in_the_locale_s_language(tmp_path: Path) -> None:
    top = run_in(tmp_path, "ru_RU.UTF-8", "--help")
    assert top.returncode == 0
    for line in ("параметры:", "показать эту справку и выйти", "код выхода:", "прервано"):
        assert line in top.stdout
    assert "Белка и Белот по локальной сети" in top.stdout and "open a table" not in top.stdout
    host = run_in(tmp_path, "C.UTF-8", "host", "--help", "--lang", "kk")
    assert "лобби порты; 0 — кез келген" in host.stdout and "желі:" in host.stdout
    assert "орындар: Белка 4; Белот 2 немесе 3 (әдепкі 3)" in host.stdout
    verify = run_in(tmp_path, "ru_RU.UTF-8", "verify", "--help")
    assert "позиционные аргументы:" in verify.stdout
    assert "запись партии, сохранённая участником" in verify.stdout


def _help_texts() -> list[str]:
    """Every description and help text of every command, as the language words them."""
    import argparse

    from p2pbelka.cli.main import build_parser
    from p2pbelka.ui.words.argparselines import speak_argparse

    speak_argparse()  # as main() does before it builds the parser
    parser, commands = build_parser()
    texts = [parser.description or "", parser.epilog or ""]
    for each in [parser, *commands.values()]:
        texts.append(each.description or "")
        for action in each._actions:
            if action.help not in (None, argparse.SUPPRESS):
                texts.append(str(action.help))
        texts += [group.title or "" for group in each._action_groups]
    return texts


@pytest.mark.parametrize("lang", ["ru", "kk"])
def test_every_help_text_of_every_command_is_translated(lang: str) -> None:
    try:
        i18n.set_language("en")
        english = _help_texts()
        i18n.set_language(lang)
        translated = _help_texts()
    finally:
        i18n.set_language("en")
    assert len(english) == len(translated)
    left = [en for en, words in zip(english, translated, strict=True) if en and en == words]
    assert left == []


def test_argparse_s_msgids_are_the_installed_argparse_s_own() -> None:
    """The catalogue's entries for argparse match only if its msgids are argparse's."""
    import argparse
    import ast

    from p2pbelka.ui.words.argparselines import ARGPARSE_MSGIDS

    tree = ast.parse(Path(argparse.__file__).read_text("utf-8"))
    asked = {
        arg.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("_", "ngettext")
        for arg in node.args
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
    }
    assert sorted(set(ARGPARSE_MSGIDS) - asked) == []
    for lang in ("ru", "kk"):
        catalog = i18n.load_catalog(lang)
        assert all(catalog.gettext(m) != m for m in ARGPARSE_MSGIDS)
