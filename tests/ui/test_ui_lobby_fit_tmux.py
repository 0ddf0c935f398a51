"""The lobby through the real program in two 80×24 terminals (tmux): a host of Belka
for four with an invite code; a joiner who gives a wrong code is asked for it again,
and the right one gets it to the host's door, where the host sees the seats and who
asks (name and key) on the small screen, lets it in, and changes a rule, which the
joiner sees named.  Ten wrong codes use the code up: the joiner is asked again, the
host's screen says so, and when and why it changed once the host draws another.  A
joiner who typed an address nothing answers at goes back to the list with q (or once
it stops trying), not out of the program.  The first is played in Kazakh by default, in
English and Russian too under ``-m slow`` (the lobby's states are drawn in-process, in
each language, by test_ui_lobby_fit)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from p2pbelka.ui.words.admission import lobby_reason
from p2pbelka.ui.words.i18n import _, ngettext, set_language
from tests.ui.test_ui_lan_belot_tmux import screen_matching
from tests.ui.test_ui_tmux import Tmux, wait_for
from tests.ui.test_ui_tmux_resume import P2PBELKA, exited, run, shell

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"
)

RULES = "{game} for {n}; the rules:"
PORT = "Lobby port {port}; players join with: p2pbelka join"
CHANGED = "The host changed the rules ({changes}): read them, then press r."
TEN_TIMES = f"{shlex.quote(sys.executable)} -c " + shlex.quote(
    "import sys; from p2pbelka.cli.main import main; [main(sys.argv[1:]) for _ in range(10)]"
)
"""``p2pbelka`` run ten times over by one interpreter (its ``main``, one start-up)."""
KEY = r"[0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}"


def _terminals(tmp_path: Path, test: str, *who: str) -> list[Tmux]:
    """A shell per name, each in an 80×24 terminal of its own."""
    out = []
    for name in who:
        tmux = Tmux(f"p2pbelka-{test}-{name}-{os.getpid()}")
        (tmp_path / name).mkdir()
        shell(tmux, tmp_path / name)
        tmux("resize-window", "-t", "play", "-x", "80", "-y", "24")
        out.append(tmux)
    return out


WRONG_CODE = (
    "the invite code is wrong: the host's table wants another one (ask the host"
    " to read it out again)"
)


def _no_lone_bracket(screen: str) -> None:
    """No row of ``screen`` is a bracket alone or ends with an opening one."""
    for row in screen.splitlines():
        assert row.strip() not in ("(", ")") and not row.rstrip().endswith("("), screen


def _head(msgid: str) -> str:
    """A message's words up to its first placeholder, in the language set."""
    return _(msgid).split("{")[0].strip()


@pytest.mark.parametrize(  # Kazakh's longer words by default; the same steps in the others
    "lang",
    [pytest.param("en", marks=pytest.mark.slow), pytest.param("ru", marks=pytest.mark.slow), "kk"],
)
def test_a_wrong_code_asked_again_then_the_host_lets_in_and_changes_a_rule(
    tmp_path: Path, lang: str
) -> None:
    set_language(lang)
    host, joiner = _terminals(tmp_path, f"fit{lang}", "host", "joiner")
    try:
        run(
            host,
            f"{P2PBELKA} host --game belka --no-announce --listen 127.0.0.1 --player Asel"
            f" --lang {lang} --no-seat-bot --invite 482913",
        )
        port = screen_matching(host, _head(PORT) + r" (\d+)").group(1)
        run(
            joiner,
            f"{P2PBELKA} join --connect 127.0.0.1:{port} --player Bolat --lang {lang}"
            " --invite 111-111",
        )
        asked = wait_for(joiner, _("Type the invite code the host's screen shows, then Enter."))
        assert "EXIT=" not in asked
        assert _flat(lobby_reason(WRONG_CODE)) in _flat(asked), asked  # its words whole
        _no_lone_bracket(asked)
        joiner.keys("482 913", "Enter")
        asking = wait_for(host, _("Asking to sit down:"))
        assert re.search(rf"^ Bolat\s+{KEY}", asking, re.M), asking
        assert re.search(rf"^ 0  Asel\s+{KEY}", asking, re.M), asking
        for seat in (1, 2, 3):
            assert f" {seat}  {_('free')}" in asking, asking
        assert len(asking.rstrip("\n").splitlines()) <= 24
        host.keys("y")
        seated = wait_for(joiner, _("(you)"))
        assert re.search(rf"^ 1  Bolat\s+{KEY}", seated, re.M), seated
        assert _("r ready") in seated and _("o rules") in seated
        assert _("invite code> ").strip() not in seated  # the box is gone with the code
        assert _flat(_("seat {n} (free)").format(n=3)) in _flat(seated), seated
        _no_lone_bracket(seated)
        host.keys("o", "Down", "Right", "o")
        changed = wait_for(joiner, _head(CHANGED))
        assert "→" in changed and re.search(rf"^ 0  Asel\s+{KEY}", changed, re.M)
        joiner.keys("o")  # the rules, one key away
        wait_for(joiner, ngettext(RULES, RULES, 4).split("}")[-1])
        joiner.keys("q")
        assert "EXIT=0" in exited(joiner)
        host.keys("q")
        exited(host)
    finally:
        host("kill-server")
        joiner("kill-server")


def test_q_after_a_mistyped_address_goes_back_to_the_list(tmp_path: Path) -> None:
    set_language("en")
    (joiner,) = _terminals(tmp_path, "back", "joiner")
    try:
        run(
            joiner,
            f"{P2PBELKA} join --player Bolat --lang en --listen 127.0.0.1 --connect-wait 3",
        )
        wait_for(joiner, "Tables heard on the LAN:")
        joiner.keys("a")
        wait_for(joiner, "address (host:port)>")
        joiner.keys("127.0.0.1:9", "Enter")  # nothing listens there
        trying = wait_for(joiner, "The host does not answer")
        assert "q back to the list" in trying and "q goes back now" in _flat(trying)
        joiner.keys("q")
        back = wait_for(joiner, "Tables heard on the LAN:")
        assert "EXIT=" not in back and "The host does not answer" not in back
        # the address typed is still in the box, to be put right; this time it is
        # left to run out: the list again, saying why
        joiner.keys("a")
        wait_for(joiner, "address (host:port)> 127.0.0.1:9")
        joiner.keys("Enter")
        given_up = wait_for(joiner, "The host did not answer: ")
        assert "Tables heard on the LAN:" in given_up and "EXIT=" not in given_up
        joiner.keys("q")
        assert "EXIT=0" in exited(joiner)
    finally:
        joiner("kill-server")


def test_ten_wrong_codes_then_the_host_s_new_code_lets_the_joiner_in(tmp_path: Path) -> None:
    """Ten wrong codes use the host's code up (no code is tried, not even the right
    one): the joiner on screen is told so and asked again; the host's screen says so,
    and once it presses c, when and why the code changed; the new code gets in."""
    set_language("en")
    host, joiner = _terminals(tmp_path, "spent", "host", "joiner")
    try:
        run(
            host,
            f"{P2PBELKA} host --game belot --players 3 --no-announce --listen 127.0.0.1"
            # (the door's log lines about refused connections go to stderr, which
            # would be drawn over the screen: kept in a file here)
            f" --player Asel --lang en --no-seat-bot --invite 482913 2>{tmp_path / 'door.log'}",
        )
        port = screen_matching(host, r"Lobby port (\d+)").group(1)
        dial = f"--connect 127.0.0.1:{port} --lang en"
        # ten joins, each its own connection with the wrong code, by one interpreter
        # (main() called ten times over: the same dial as ten programs, one start-up)
        guesses = f"{TEN_TIMES} join {dial} --text --player Guess --invite 000-000"
        run(joiner, f"{guesses} 2>/dev/null")
        assert "EXIT=" in exited(joiner, timeout=180)
        used_up = wait_for(host, "The code is used up: 10 wrong codes were tried.")
        assert "c new code" in used_up
        run(joiner, f"{P2PBELKA} join {dial} --player Bolat --invite 482913")
        asked = wait_for(joiner, "Type the invite code the host's screen shows, then Enter.")
        assert "used up by wrong guesses" in asked
        host.keys("c")
        note = screen_matching(host, r"At \d\d:\d\d you drew a new invite code, (\d{3} \d{3}): the")
        assert "the old one had 10 wrong codes" in _flat(host.screen())
        joiner.keys(note.group(1), "Enter")
        asking = wait_for(host, "Asking to sit down:")
        assert re.search(rf"^ Bolat\s+{KEY}", asking, re.M), asking
        assert re.search(rf"^ 0  Asel\s+{KEY}", asking, re.M), asking
        assert " 1  free" in asking and " 2  free" in asking
        host.keys("q")
        exited(host)
        joiner.keys("q")
        exited(joiner)
    finally:
        host("kill-server")
        joiner("kill-server")


def _flat(text: str) -> str:
    return " ".join(text.split())
