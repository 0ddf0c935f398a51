"""The host's door in text mode: ``y``/``n`` for each joiner, ``b`` to fill the free
seats with bots, ``x N`` to free seat N, ``rules``, ``preset NAME`` and ``set
NAME=VALUE`` to see and change the rules, ``code`` to draw a new invite code,
``shut ADDRESS`` to shut out an address that guessed wrong codes (or let it try
again), and ``help`` (or any other line) for the list of keys.

Lines are read from stdin by trio itself (no thread), and only until the game
starts, so nothing is left reading that could take a line meant for play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import trio

from p2pbelka.cli.text_bots import TextBots
from p2pbelka.peer.lan import (
    GameStarting,
    HostControl,
    JoinRequest,
    LobbyEvent,
    OnLobby,
    SeatsChanged,
)
from p2pbelka.peer.text import read_line
from p2pbelka.protocol.lobby import LobbyState
from p2pbelka.rules import registry
from p2pbelka.rules.rulebook import choices, overrides_for, presets, resolved
from p2pbelka.ui.words.i18n import _
from p2pbelka.ui.words.setuperrors import error_words


def help_line() -> str:
    """What the host may type in the lobby (shown for ``help`` and anything unknown)."""
    return _(
        "keys: y lets a joiner in, n turns one away; b fills the free seats with bots;"
        " x N frees seat N before the start; rules shows the rules, preset NAME and"
        " set NAME=VALUE change them; code draws a new invite code, shut ADDRESS shuts"
        " out an address that guessed; help shows this"
    )


@dataclass
class _Asking:
    request: JoinRequest
    decided: trio.Event = field(default_factory=trio.Event)
    admit: bool = False


class TerminalDoor:
    """Pass ``approve`` and ``on_lobby`` to ``host_game`` and run ``serve`` beside it."""

    def __init__(
        self, print_lobby: OnLobby, bots: TextBots | None = None, auto_approve: bool = False
    ) -> None:
        self._print_lobby = print_lobby
        self._bots = bots
        self._auto_approve = auto_approve
        self._asking: list[_Asking] = []
        self._control: HostControl | None = None
        self._state: LobbyState | None = None
        self._open = trio.CancelScope()

    async def approve(self, request: JoinRequest) -> bool:
        if self._auto_approve or (self._bots is not None and request.key in self._bots.own):
            return True  # (a bot of ours, or everyone with --auto-approve)
        if self._open.cancel_called:  # the game has the terminal: nobody is here to ask
            if request.watcher:
                print(_turned_away(request), flush=True)
            return False
        asking = _Asking(request)
        self._asking.append(asking)
        if len(self._asking) == 1:
            _ask(request)
        try:
            await asking.decided.wait()
        finally:
            self._asking.remove(asking)
            if self._asking:
                _ask(self._asking[0].request)
        return asking.admit

    async def on_lobby(self, event: LobbyEvent) -> None:
        if isinstance(event, SeatsChanged) and event.host_control is not None:
            self._control = event.host_control
        if isinstance(event, SeatsChanged):
            self._state = event.state
        if self._bots is not None:
            self._bots.on_lobby(event)
        if isinstance(event, GameStarting):
            self._open.cancel()  # the terminal belongs to the game from here on
        await self._print_lobby(event)

    async def serve(self) -> None:
        """Read commands until the game starts (or stdin ends)."""
        with self._open:
            while True:
                try:
                    line = await read_line()
                except (OSError, ValueError):  # stdin is no file (closed, or a stand-in)
                    return  # no keys then; the game goes on without them
                if not line:
                    return
                await self.command(line)

    async def command(self, typed: str) -> None:
        """One line the host typed."""
        words = typed.split()
        if words:
            words[0] = words[0].lower()  # values keep their case: trump_order=HSD
        line = " ".join(words)
        if words and words[0] in ("rules", "preset", "set", "option"):
            await self._rules(words)
            return
        if line in ("y", "yes", "n", "no") and self._asking:
            first = self._asking[0]
            if not first.decided.is_set():
                first.admit = line.startswith("y")
                first.decided.set()
            return
        if line in ("b", "bots"):
            self._fill()
            return
        if len(words) == 2 and words[0] in ("x", "remove") and words[1].isdigit():
            seat = int(words[1])
            if self._control is None or not await self._control.remove(seat):
                print(
                    _("seat {seat} cannot be freed (the host's own, empty, or started)").format(
                        seat=seat
                    ),
                    flush=True,
                )
            return
        if words and words[0] in ("code", "shut") and self._control is not None:
            self._invite(words, self._control)
            return
        if line:
            print(help_line(), flush=True)

    def close(self) -> None:
        """The lobby is over (the game ended, or never began): stop reading lines."""
        self._open.cancel()

    def _fill(self) -> None:
        if self._bots is None:
            print(_("this host seats no bots"), flush=True)
            return
        free = (
            [] if self._state is None else [i for i, s in enumerate(self._state.seats) if s is None]
        )
        print(self._bots.fill(free), flush=True)

    def _invite(self, words: list[str], control: HostControl) -> None:
        """A new invite code (printed as the lobby's news), or an address shut out."""
        if words[0] == "code":
            if control.new_code() is None:
                print(_("this table has no invite code"), flush=True)
            return
        if len(words) != 2:
            print(help_line(), flush=True)
            return
        guessers = control.shut_out(words[1])
        shut = any(g.shut for g in guessers if g.address == words[1])
        said = _("{address} is shut out") if shut else _("{address} may try a code again")
        print(said.format(address=words[1]), flush=True)

    async def _rules(self, words: list[str]) -> None:
        """Show the rules, or change the preset or one option (every joiner then has
        to say ready again)."""
        control = self._control
        if control is None:
            print(_("the lobby is not open yet"), flush=True)
            return
        preset, options = control.rules
        if words[0] == "rules" or len(words) != 2:
            print(_rule_menu(self._variant, preset, options), flush=True)
            return
        if words[0] == "preset":
            preset, options = words[1], {}
        else:
            name, sep, value = words[1].partition("=")
            if not sep or not name or not value:
                print(
                    _("say set NAME=VALUE, e.g. {example}").format(example=_example(self._variant)),
                    flush=True,
                )
                return
            options = overrides_for(self._variant, preset, {**options, name: value})
        try:
            changed = await control.set_rules(preset, options)
        except ValueError as exc:
            print(_("not changed: {why}").format(why=error_words(exc)), flush=True)
            return
        if not changed:
            print(_("the rules stay as they are (unchanged, or the game has started)"), flush=True)

    @property
    def _variant(self) -> str:
        return self._state.variant if self._state is not None else registry.DEFAULT


def _example(variant: str) -> str:
    """A ``set`` line the host could type: the game's first rule at another value."""
    for name, allowed in choices(variant).items():
        if len(allowed) > 1:
            return f"set {name}={allowed[-1]}"
    return "set NAME=VALUE"


def _rule_menu(variant: str, preset: str, options: dict[str, str]) -> str:
    lines = [
        _("preset {preset} (presets: {presets})").format(
            preset=preset, presets=", ".join(presets(variant))
        )
    ]
    values = resolved(variant, preset, options)
    for name, allowed in choices(variant).items():
        lines.append(f"  {name}={values[name]}  ({', '.join(allowed)})")
    return "\n".join(lines)


def _ask(request: JoinRequest) -> None:
    if request.watcher:
        line = _(
            "{name} [{key}] from {address} wants to watch;"
            " compare the key with their screen. Let in? [y/n]"
        )
    else:
        line = _(
            "{name} [{key}] from {address} asks to sit down;"
            " compare the key with their screen. Let in? [y/n]"
        )
    print(
        line.format(name=request.name, key=request.fingerprint, address=request.address),
        flush=True,
    )


def _turned_away(request: JoinRequest) -> str:
    return _(
        "{name} [{key}] from {address} wanted to watch and was turned away: once the game"
        " has started this terminal is the game's (host --auto-approve lets watchers in)"
    ).format(name=request.name, key=request.fingerprint, address=request.address)
