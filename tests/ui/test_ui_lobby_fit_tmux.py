"""The lobby through the real program in two 80×24 terminals (tmux): a host of Belka
for four with an invite code; a joiner who gives a wrong code is asked for it again,
and the right one gets it to the host's door, where the host sees the seats and who
asks (name and key) on the small screen, lets it in, and changes a rule, which the
joiner sees named.  A joiner who typed an address nothing answers at goes back to the
list with q (or once it stops trying), not out of the program."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

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


def _head(msgid: str) -> str:
    """A message's words up to its first placeholder, in the language set."""
    return _(msgid).split("{")[0].strip()


@pytest.mark.parametrize("lang", ["en", "kk"])
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
        assert "q back to the list" in trying
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
