"""Why a certificate is refused, and what the ledger set aside, in the player's language:
every reason the reader gives for a flipped byte of a certificate is worded in ru and
kk (the format's field names stay), and ``verify`` and ``ladder`` print them so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2pbelka.ladder import certificate as cert
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.certificates import note_words, refusal_words
from tests.ui.cli import run_main

RESULTS = Path(__file__).parents[2] / "protocol" / "vectors" / "results"
GOOD = RESULTS / "game-ok.cert"
CHAINED = RESULTS / "continuation-to-the-end.cert"
"""A game a bot finished for a player gone: its links and the seat's last word too."""
LEFT_IN_ENGLISH = ("nonces come with flow 3",)
"""A reason of the table's own checks, worded where the rules' refusals are not yet."""


@pytest.fixture
def russian() -> Iterator[None]:
    before = i18n.language()
    i18n.set_language("ru")
    yield
    i18n.set_language(before)


def _refusals() -> dict[str, cert.CertificateError]:
    """One refusal of every form a flipped byte of a certificate brings."""
    found: dict[str, cert.CertificateError] = {}
    for raw in (GOOD.read_bytes(), CHAINED.read_bytes()):
        for i in range(0, len(raw), 3):
            try:
                cert.read(raw[:i] + bytes([raw[i] ^ 1]) + raw[i + 1 :])
            except cert.CertificateError as exc:
                found.setdefault(re.sub(r"'.*'|\(.*\)|\d+", "", exc.reason), exc)
    return found


@pytest.mark.parametrize("lang", ["ru", "kk"])
def test_every_reason_a_damaged_certificate_gives_is_worded(lang: str) -> None:
    before = i18n.language()
    i18n.set_language(lang)
    try:
        for exc in _refusals().values():
            worded = refusal_words(exc.where, exc.reason)
            if any(s in exc.reason for s in LEFT_IN_ENGLISH):
                continue
            # what is left in Latin letters is the format's own: field names (a list of
            # them too: ``after``'s keys), values
            said = re.sub(r"\b[a-z]+(?:, [a-z]+)+", "", worded.split(": ", 1)[-1])
            words = set(re.findall(r"[a-z]+", said))
            assert not words & ENGLISH, (exc.where, exc.reason, worded)
    finally:
        i18n.set_language(before)


ENGLISH = {"expected", "valid", "unknown", "missing", "trailing", "signature", "usable"}
ENGLISH |= {"does", "check", "close", "head", "names", "proves", "bytes", "data", "limit"}
ENGLISH |= {"order", "ascending", "whole", "numbers", "program", "read", "segment", "every"}
ENGLISH |= {"certified", "finished", "shown", "list", "follow", "bad", "magic", "supported"}
"""Words of the reasons the reader writes that are no field name of the format."""


def test_english_is_shown_as_the_reader_wrote_it() -> None:
    for exc in _refusals().values():
        assert refusal_words(exc.where, exc.reason) == str(exc)


def test_the_ledger_s_notes_are_worded(tmp_path: Path, russian: None) -> None:
    bad = bytearray(GOOD.read_bytes())
    bad[-20] ^= 1
    with Ledger(tmp_path / "ladder.sqlite") as ledger:
        ledger.add(bytes(bad), "given")
        ledger.add(GOOD.read_bytes(), "given")  # its maker sat at no seat: the vector's
        notes = [note_words(n) for n in ledger.notes]
    assert notes[0].startswith("отклонён: байт 1441, table: envelope.sig: подпись не проходит")
    assert "сохранён как" in notes[0]
    assert notes[1].startswith("отклонён: его составил ключ, не сидевший")


def test_verify_and_ladder_print_them_in_the_player_s_language(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cert"
    made = cert.read(GOOD.read_bytes())
    raw = bytearray(made.raw)
    raw[made.raw.find(made.ends[3].raw) + 100] ^= 1
    bad.write_bytes(bytes(raw))
    ran = run_main(tmp_path, "verify", "--lang", "kk", str(bad))
    assert ran.returncode == 1 and "INVALID: " in ran.stdout
    assert "ends[3], 3 орны (Nurlan)" in ran.stdout, ran.stdout
    ran = run_main(tmp_path, "ladder", "--lang", "ru", "--add", str(bad))
    assert "рейтинг: отклонён: байт" in ran.stderr and "сохранён как" in ran.stderr, ran.stderr


def test_why_an_exchange_stopped_is_worded(russian: None) -> None:
    from p2pbelka.ladder import share as sh
    from p2pbelka.protocol.codec import encode
    from p2pbelka.ui.words.certificates import share_error_words

    said = []
    for payload in [
        b"\xc1",
        encode({"have": b"\x01" * 17, "t": "have"}),
        encode({"have": b"\x02" * 16 + b"\x01" * 16, "t": "have"}),
        encode({"t": "nope"}),
    ]:
        try:
            sh.Sharing({}).receive(payload)
        except sh.ShareError as exc:
            said.append(share_error_words(f"the peer {exc}"))
    have, done = encode({"have": b"", "t": "have"}), encode({"t": "done"})
    want = encode({"t": "want", "want": b""})
    for script in ([have, have], [have, want, want], [have, done, done]):
        side = sh.Sharing({})
        try:
            for payload in script:
                side.receive(payload)
        except sh.ShareError as exc:
            said.append(share_error_words(f"the peer {exc}"))
    said.append(share_error_words("the exchange stopped: too slow"))
    assert len(said) == 8
    for line in said:
        assert not set(re.findall(r"[a-z]+", line)) & ENGLISH, line


def test_verify_shows_each_seat_change_of_a_chained_certificate(tmp_path: Path) -> None:
    ran = run_main(tmp_path, "verify", str(CHAINED))
    assert ran.returncode == 0, ran.stdout
    assert "seat 3 (Nurlan) left: Bot (key 67af 7a08 47fc 1721) played on from deal 1" in (
        ran.stdout
    )
    assert "the result counts for the players who sat down at the start" in ran.stdout
    for lang, words in (("ru", "место 3 (Nurlan) ушло"), ("kk", "3-орын (Nurlan) кетті")):
        ran = run_main(tmp_path, "verify", "--lang", lang, str(CHAINED))
        assert ran.returncode == 0 and words in ran.stdout, ran.stdout
