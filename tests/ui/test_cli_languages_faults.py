"""What the rules engine refuses, what the table charges, what the operating system
reports and what is wrong with a command's set-up reach the player in the player's
language, through the program's ``main``: the refusal by its rule id, the fault by its kind,
the OS error with its errno's name beside our own sentence, the set-up error by its
form (``ui/words/faults.py``, ``ui/words/oserrors.py``, ``ui/words/setuperrors.py``)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from p2pbelka.cli.errors import EXIT_FAILED, EXIT_SETUP, EXIT_USAGE
from p2pbelka.rules.common import errors as rule_ids
from p2pbelka.table.verify import verify_bytes
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.faults import fault_words
from p2pbelka.ui.words.moverefusals import RULE_WORDS
from tests.rules.test_referee import record
from tests.ui.test_cli_languages import ROOT, run_in, run_program_in

VECTORS = ROOT / "protocol" / "vectors" / "paths"


def test_a_renege_in_a_transcript_is_named_in_russian(tmp_path: Path) -> None:
    done = run_in(tmp_path, "ru_RU.UTF-8", "verify", str(VECTORS / "ace-renege.p2pb"))
    assert (
        "нарушение: сдача 1: место 2: ренонс: сыграл(а) AD во взятке 1 (туза масти, которой"
        " ещё не ходили, сбрасывать нельзя); наказан(а) по правилам"
    ) in done.stdout
    assert "renege" not in done.stdout and "charged" not in done.stdout


def test_a_seat_named_as_cheating_is_named_in_kazakh(tmp_path: Path) -> None:
    done = run_in(
        tmp_path, "C.UTF-8", "verify", "--lang", "kk", str(VECTORS / "no-jack-claim.p2pb")
    )
    assert done.returncode == EXIT_FAILED
    last = done.stdout.splitlines()[-1]
    assert last.startswith("CHEATING PROVEN: ")  # the first word stays, for scripts
    assert "1-кон: 2-орын: В♣ қолында болып, жоқ деді" in last
    share = run_in(tmp_path, "kk_KZ.UTF-8", "verify", str(VECTORS / "wrong-share.p2pb"))
    assert "тексеру өтпеді: кілт үлесі, 29-позиция" in share.stdout
    assert "share differs" not in share.stdout


def test_the_referee_words_an_illegal_move_by_its_rule(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(["9S", "9C"])), encoding="utf-8")
    done = run_in(tmp_path, "ru_RU.UTF-8", "referee", str(path))
    assert done.returncode == EXIT_FAILED
    assert done.stderr.strip() == (
        "referee: ход не по правилам: сдача 0, взятка 1, место 2, карта 9C:"
        " надо было ходить в масть [follow_suit]"
    )
    kazakh = run_in(tmp_path, "C.UTF-8", "referee", "--lang", "kk", str(path))
    assert "ережеге қайшы әрекет: 0-кон, 1-взятка, 2-орын, карта 9C:" in kazakh.stderr


def test_os_errors_are_our_sentences_with_the_errno_s_name(tmp_path: Path) -> None:
    missing = run_in(tmp_path, "ru_RU.UTF-8", "verify", str(tmp_path / "none.transcript"))
    assert missing.returncode == EXIT_USAGE
    assert "none.transcript не существует: проверьте имя и каталог [ENOENT]" in missing.stderr
    folder = run_in(tmp_path, "C.UTF-8", "verify", "--lang", "kk", str(tmp_path))
    assert "— файл емес, каталог: файлдың жолын көрсетіңіз [EISDIR]" in folder.stderr
    assert "No such file" not in missing.stderr + folder.stderr


def test_a_port_in_use_is_said_in_russian(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_in(
            tmp_path, "ru_RU.UTF-8", "host", "--text", "--auto-approve", "--lobby-port", str(port)
        )
    assert done.returncode == EXIT_SETUP
    assert (
        f"запрошенный порт (--lobby-port {port}) уже занят другой программой: выберите другой"
        " порт или 0 — любой свободный [EADDRINUSE]"
    ) in done.stderr
    assert "Address already in use" not in done.stderr


def test_a_host_that_does_not_answer_is_said_in_kazakh(tmp_path: Path) -> None:
    with socket.socket() as closed:  # a port nothing listens on: bound, never listening
        closed.bind(("127.0.0.1", 0))
        where = f"127.0.0.1:{closed.getsockname()[1]}"
        done = run_in(
            tmp_path, "kk_KZ.UTF-8", "join", "--text", "--connect", where, "--connect-wait", "1"
        )
    assert done.returncode == EXIT_SETUP
    assert f"{where} мекенжайында ешкім тыңдамайды" in done.stdout  # each retry
    assert "үстелге жету мүмкін болмады: " in done.stderr and "[ECONNREFUSED]" in done.stderr
    assert "nothing listens" not in done.stdout + done.stderr


def test_every_rule_id_has_words_in_both_languages() -> None:
    ids = {v for k, v in vars(rule_ids).items() if k.isupper() and isinstance(v, str)}
    assert ids == set(RULE_WORDS)
    for lang in ("ru", "kk"):
        catalog = i18n.load_catalog(lang)
        assert [w for w in RULE_WORDS.values() if catalog.gettext(w) == w] == []


def test_every_fault_of_the_vectors_is_worded_anew() -> None:
    """Each kind of fault the table writes in the vectors has its words in Russian and
    in Kazakh (none left as the table wrote it).  One test for both languages: the
    vectors are verified once (parallel workers would each verify them again)."""
    faults = [
        f for path in sorted(VECTORS.glob("*.p2pb")) for f in verify_bytes(path.read_bytes()).faults
    ]
    assert len({f.what.split(":")[0] for f in faults}) >= 8
    left: dict[str, list[str]] = {}
    for lang in ("ru", "kk"):
        try:
            i18n.set_language(lang)
            left[lang] = [f.what for f in faults if fault_words(f.what) == f.what]
        finally:
            i18n.set_language("en")
    assert left == {"ru": [], "kk": []}


def test_a_wrong_set_up_is_said_in_the_language(tmp_path: Path) -> None:
    """The rules' and the saved games' own ``ValueError``/``LookupError``, worded anew."""
    seats = run_in(tmp_path, "ru_RU.UTF-8", "play", "--players", "5")
    assert seats.returncode == EXIT_USAGE
    assert "p2pbelka play: Белка: число игроков — 4, а не 5" in seats.stderr
    belot = run_in(tmp_path, "kk_KZ.UTF-8", "selfplay", "--game", "belot", "--players", "4")
    assert "Белот: ойыншы саны — 2 немесе 3, 4 емес" in belot.stderr
    rule = run_in(tmp_path, "kk_KZ.UTF-8", "host", "--text", "--option", "eggs=zz")
    assert "eggs ережесі: белгісіз 'zz' мәні (мүмкін мәндер: " in rule.stderr
    resume = run_in(tmp_path, "ru_RU.UTF-8", "resume", "zzzz")
    assert "p2pbelka resume: нет партии, которую можно продолжить, с номером zzzz…" in resume.stderr


def test_a_file_that_is_no_transcript_says_why_in_the_language(tmp_path: Path) -> None:
    (tmp_path / "noise.bin").write_bytes(b"\x13" * 64)
    noise = run_in(tmp_path, "ru_RU.UTF-8", "verify", str(tmp_path / "noise.bin"))
    assert noise.returncode == EXIT_USAGE
    assert "INVALID: байт 0: это не запись партии p2pbelka (начало не то)" in noise.stderr
    whole = (VECTORS / "game-ok.p2pb").read_bytes()
    (tmp_path / "cut.p2pb").write_bytes(whole[:200])
    cut = run_in(tmp_path, "C.UTF-8", "verify", "--lang", "kk", str(tmp_path / "cut.p2pb"))
    assert "INVALID: 16-байт (0-жазба): файл " in cut.stderr and "қысқартылған" in cut.stderr


def test_a_host_s_refusal_reaches_a_watcher_in_russian(tmp_path: Path) -> None:
    from tests.lan.helpers import PeerSet, bot_args

    with PeerSet(tmp_path) as peers:
        host = peers.spawn(
            "host", "host", "--auto-approve", "--watchers", "0", "--no-announce", *bot_args()
        )
        port = host.wait_for(r"lobby port (\d+)", 60).group(1)
        where = f"127.0.0.1:{port}"
        done = run_program_in(tmp_path, "ru_RU.UTF-8", "watch", "--connect", where, "--text")
    assert done.returncode == EXIT_SETUP, done.stderr
    assert "этот стол не принимает зрителей" in done.stdout + done.stderr
    assert "takes no watchers" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("sent", "russian"),
    [
        (
            "this table takes no more watchers: it has 8, as many as it takes",
            "зрителей больше не принимает: их уже 8",
        ),
        ("you hold 12 records; this host's transcript has 3", "у вас 12 записей"),
        (
            "the key that answered is not the host's you named: someone else is at"
            " 10.0.0.5:4000, or the address is wrong",
            "10.0.0.5:4000",
        ),
        ("no lobby at 10.0.0.5:4000: closed", "нет лобби на 10.0.0.5:4000: closed"),
        ("this table wants an invite code: ask the host for it", "код приглашения"),
    ],
)
def test_the_joiner_s_own_refusals_are_worded_by_form(sent: str, russian: str) -> None:
    from p2pbelka.ui.words.admission import lobby_reason

    i18n.set_language("ru")
    try:
        worded = lobby_reason(sent)
    finally:
        i18n.set_language("en")
    assert russian in worded and worded != sent


@pytest.mark.parametrize(
    ("vector", "russian"),
    [
        ("invalid-order", "не по порядку: ждали следующего сообщения места 2"),
        ("invalid-signature", "подпись не проходит проверку (запись выдаёт себя за место 1"),
        ("view-differs", "не принято: его вид называет 0707070707070707"),
        ("refused-id", "неизвестный отправитель, seq 0): идентификатор игры 0c0c"),
    ],
)
def test_why_a_record_is_out_of_place_is_said_in_russian(
    tmp_path: Path, vector: str, russian: str
) -> None:
    path = next((ROOT / "protocol" / "vectors").glob(f"*/{vector}.p2pb"))
    done = run_in(tmp_path, "ru_RU.UTF-8", "verify", str(path))
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("INVALID: ")  # the first word stays, for scripts
    assert russian in last, last
    for english in ("out of order", "bad signature", "not accepted", "unknown sender", "record "):
        assert english not in last, last
