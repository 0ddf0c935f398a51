"""The host's invite code on screen: large, in words of the screen's language, and the
new code the host draws, and who guessed wrong codes."""

from __future__ import annotations

import re

from p2pbelka.net.guesses import Guesser
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.protocol.lobby import LobbyState, SeatView
from p2pbelka.ui.bigcode import big_code
from p2pbelka.ui.lobbyview import LobbyView, lobby_lines
from p2pbelka.ui.words.i18n import set_language


def _host_view(invite: str) -> LobbyView:
    key = Identity.generate().public_key
    seats = (SeatView(key, "Asel", True), None, None, None)
    state = LobbyState(bytes(16), "Kitchen", "classic", {}, seats, "belka")
    return LobbyView("host", state=state, me=0, invite=invite, my_fingerprint="ab12")


def _text(view: LobbyView) -> str:
    return "".join(text for _style, text in lobby_lines(view))


def test_the_default_code_is_drawn_large_and_said_in_words() -> None:
    set_language("en")
    text = _text(_host_view("482913"))
    assert "Invite code: 482 913" in text
    assert "(four eight two, nine one three)" in text
    for row in big_code("482 913"):
        assert row in text
    assert len(big_code("482 913")) == 5 and big_code("Kitchen") == []
    set_language("ru")
    assert "(четыре восемь два, девять один три)" in _text(_host_view("482 913"))
    set_language("en")


def test_wrong_codes_show_who_tried_them_and_a_new_code_replaces_the_old() -> None:
    set_language("en")
    view = _host_view("482 913")
    guessers = (Guesser("10.0.0.7", failures=7), Guesser("10.0.0.8", failures=2, shut=True))
    view.apply(lan.WrongCodeTried(9, 10, guessers))
    text = _text(view)
    assert "Wrong codes tried: 9 of 10; then none is tried until you press c." in text
    assert " s1  10.0.0.7" in text and "7 wrong codes" in text
    assert " s2  10.0.0.8" in text and "2 wrong codes  shut out" in text
    view.apply(lan.WrongCodeTried(10, 10, guessers))
    assert "The code is used up: 10 wrong codes were tried. Press c for a new one." in _text(view)
    view.apply(lan.InviteChanged("105 220", 10))
    text = _text(view)
    assert "Wrong codes tried" not in text and "used up" not in text
    assert "Invite code: 105 220" in text and "482 913" not in text
    # when and why: the host's own redraw, after the wrong codes used the old one up
    note = view.notes[-1]
    assert re.search(r"^At \d\d:\d\d you drew a new invite code, 105 220: the old one had 10", note)
    assert note in text


def test_text_mode_says_the_code_in_words_and_each_wrong_one() -> None:
    from p2pbelka.ui.words.lobbylog import event_line, invite_lines

    set_language("en")
    assert invite_lines("482 913") == (
        "invite code: 482 913  (four eight two, nine one three)\n"
        "joiners: p2pbelka join --invite 482913"
    )
    tried = event_line(lan.WrongCodeTried(3, 10, (Guesser("10.0.0.7", failures=3),)))
    assert tried == "a wrong invite code was tried (3 of 10 before it is used up) [10.0.0.7 ×3]"
    spent = event_line(lan.WrongCodeTried(10, 10))
    assert spent == "10 wrong invite codes were tried: the code is used up; type 'code'"
    changed = event_line(lan.InviteChanged("105220", 10))
    assert changed is not None and changed.startswith("NEW invite code")
    assert "NEW invite code: 105 220  (one zero five, two two zero)" in changed
    set_language("kk")
    assert "(төрт сегіз екі, тоғыз бір үш)" in invite_lines("482 913")
    set_language("en")
