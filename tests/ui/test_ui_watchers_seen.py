"""Every player sees who watches: the host's seat says it in a signed chat line
(``/watching Dana, Ayan``, protocol/SPEC.md 7.5), and a screen shows the names under the
seats instead of the line; a line of another seat, or a saved one, changes nothing."""

from __future__ import annotations

from p2pbelka.peer.chat import WATCHING, ChatLine, watchers_named, watching_line
from p2pbelka.peer.watch import WatchNote
from p2pbelka.protocol.chat import MAX_CHAT_TEXT
from p2pbelka.ui.chatbox import ChatBox
from p2pbelka.ui.hostwatchers import watchers_line
from p2pbelka.ui.view import TableView
from p2pbelka.ui.words.i18n import set_language
from p2pbelka.ui.words.seatlog import SeatWords
from p2pbelka.ui.words.watchnotes import note_words


def test_the_line_names_the_watchers_and_reads_back() -> None:
    assert watching_line(["Dana", "Ayan"]) == "/watching Dana, Ayan"
    assert watchers_named(0, "/watching Dana, Ayan") == ("Dana", "Ayan")
    assert watchers_named(0, WATCHING) == ()  # nobody watches now
    assert watchers_named(2, "/watching Mallory") is None  # only the host's seat says it
    assert watchers_named(0, "/watchingX") is None
    many = [f"Watcher number {n:02d}" for n in range(16)]
    line = watching_line(many)
    assert len(line) <= MAX_CHAT_TEXT and line.endswith(("+7", "+8", "+9"))


def test_a_player_s_screen_shows_the_watchers_beside_the_seats() -> None:
    set_language("en")
    view = TableView(names=["Asel", "Bolat", "Saule", "Nurlan"])
    box = ChatBox(lambda: view, lambda: None, lambda: None)
    box.show(ChatLine(0, "Asel", "/watching Dana, Ayan"))
    assert view.watchers == ("Dana", "Ayan") and not box.lines
    assert "2 watching: Dana, Ayan" in "".join(f[1] for f in watchers_line(view, 31))
    box.show(ChatLine(1, "Bolat", "/watching nobody"))  # not the host: a chat line
    assert view.watchers == ("Dana", "Ayan") and len(box.lines) == 1
    box.show(ChatLine(0, "Asel", "/watching Erlan", earlier=True))  # saved: out of date
    assert view.watchers == ("Dana", "Ayan")
    box.show(ChatLine(0, "Asel", "/watching"))
    assert view.watchers == () and watchers_line(view, 31) == []


def test_text_mode_words_the_host_s_line_as_the_screen_does() -> None:
    set_language("ru")
    try:
        said = SeatWords().chat_line(ChatLine(0, "Asel", "/watching Dana, Ayan"))
    finally:
        set_language("en")
    assert "Dana, Ayan" in said and "/watching" not in said
    for lang, words in (("en", "nobody watches now"), ("kk", "қазір ешкім бақыламайды")):
        set_language(lang)
        try:  # the last watcher gone: said in words, not as a bare "/watching" chat line
            assert SeatWords().chat_line(ChatLine(0, "Asel", "/watching")) == words
        finally:
            set_language("en")


def test_a_watcher_reads_the_host_s_line_as_a_note_not_a_chat_line() -> None:
    said = note_words(WatchNote("watchers", {"names": ("Dana", "Ayan")}))
    assert said == "2 watching: Dana, Ayan"
