"""``host`` and ``join`` on screen: the lobby, then the same table as ``play``.

The LAN layer (``p2pbelka.peer.lan``) runs the lobby and the game; this module
shows its lobby events, turns keys into lobby actions (choose a table, take a
seat, say ready, fill the free seats with bots, change the rules) and plays
seat ``me`` with the game's table screen.  Entry points: :func:`host_on_screen`,
:func:`join_on_screen`.

The lobby works for every game (Belka's four seats, Belot's two or three).  Its
state and actions are a :class:`LanSession`'s; its drawing and keys are
:class:`LanScreen`'s, which is Belka's table screen with the lobby in front, and
:class:`BelotLanScreen` adds the lobby to Belot's screen the same way.  A joiner
learns the game only in the lobby: :meth:`LanSession.use_game` then swaps the
screen (see docs/architecture-ui.md, "The LAN screens").
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import trio
from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition, has_focus
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import (
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.layout import ConditionalContainer, FormattedTextControl, HSplit, Window
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.output import Output
from prompt_toolkit.widgets import TextArea

from p2pbelka.bots import make_bot
from p2pbelka.net.connection import parse_host_port
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.peer.driver import BotFrontEnd, FrontEnd
from p2pbelka.peer.loopback import DEFAULT_BOT
from p2pbelka.peer.store import GameStore, games_dir
from p2pbelka.rules import registry
from p2pbelka.rules.belka.game import GAME
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.belot_app import BelotScreen
from p2pbelka.ui.belot_view import BelotView
from p2pbelka.ui.front import ScreenFrontEnd
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.i18n import _, set_language
from p2pbelka.ui.lobby import LobbyView, lobby_keys, lobby_lines
from p2pbelka.ui.view import TableView

Target = tuple[str, int, bytes | None]  # host, lobby port, host key when known
Flow = Callable[["LanSession", FrontEnd], Awaitable[lan.GameResult | None]]
Extra = Callable[["LanScreen"], Awaitable[None]]


def seats_of(game: str, players: int | None) -> int:
    return players or registry.spec(game).default_seats


class LanSession:
    """One person's side of a LAN table on screen: the lobby as seen, the host's door,
    the bots the host seats, and the screen that draws them.

    The screen depends on the game (Belka's ``LanScreen``, Belot's ``BelotLanScreen``).
    A host knows the game from the start; a joiner learns it in the lobby, while the
    screen already runs, and :meth:`use_game` then puts the game's own screen in the
    place of the first one (the same prompt_toolkit application, taken over).  The
    lobby's state and the callbacks the LAN layer holds (``on_lobby``, ``approve``)
    are this object's, so they outlive that change."""

    def __init__(
        self,
        role: str,
        identity: Identity,
        net: lan.NetOptions,
        *,
        game: str | None = None,
        players: int | None = None,
        bot_level: str = DEFAULT_BOT,
        auto_approve: bool = False,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.lobby = LobbyView(role)
        self.lobby.my_fingerprint = identity.fingerprint
        self.identity = identity
        self.net = net
        self.bot_level = bot_level
        # --auto-approve: the host lets every joiner sit without asking, and every seat
        # says yes to a bot for a lost seat
        self.auto_approve = auto_approve
        self.game = game or GAME  # a joiner's table shows Belka's until it knows better
        self.bridge: Bridge | None = None
        self.nursery: trio.Nursery | None = None
        self.bots_home: Path | None = None
        self.front: ScreenFrontEnd | None = None
        self.game_id: bytes | None = None  # once the game has begun
        self._choose: Callable[[Target], None] | None = None
        self._wanted: Callable[[Any], bool] | None = None
        self.own_bots: set[bytes] = set()  # our 'b' bots: let in without asking
        self._decisions: dict[bytes, tuple[trio.Event, list[bool]]] = {}
        self.screen: LanScreen = screen_for(
            self, self.game, seats_of(self.game, players), input=input, output=output
        )

    def invalidate(self) -> None:
        self.screen.app.invalidate()

    # -- lobby events (in trio) ------------------------------------------------------------

    async def on_lobby(self, event: lan.LobbyEvent) -> None:
        self.lobby.apply(event)
        if isinstance(event, lan.TableRules) and not event.changed:
            self.use_game(event.state.variant, len(event.state.seats))
        if isinstance(event, lan.TablesHeard) and self.lobby.tables and self._wanted:
            self._pick_wanted()
        if isinstance(event, lan.GameStarting):
            self.game_id = event.game_id
            view = self.screen.view
            view.me = event.seat
            store = GameStore(games_dir(self.net.home) / event.game_id.hex())
            view.transcript_path = str(store.transcript_path)
            self.screen.overlay = None
        self.invalidate()

    def use_game(self, game: str, seats: int) -> None:
        """The table's game is known (before the game starts): from now on the screen is
        that game's own, with its drawing and keys.  A host's screen already is; a
        joiner's is replaced, still in the lobby, and the game's events go to the new
        one (``ScreenFrontEnd.attach``)."""
        self.game = game
        old = self.screen
        if fits(old, game, seats):
            return
        new = screen_for(self, game, seats, app=old.app)
        new.overlay, new.quit_requested = old.overlay, old.quit_requested
        self.screen = new
        if self.front is not None:
            self.front.attach(new)

    def _pick_wanted(self) -> None:
        """Join the table asked for by name, unless two hosts answer to that name."""
        assert self._wanted is not None
        matches = [t for t in self.lobby.tables if self._wanted(t)]
        if len({t.host_key for t in matches}) > 1:
            note = _("Tables of several hosts have that name: choose by the host key.")
            if note not in self.lobby.notes:
                self.lobby.notes.append(note)
        elif matches and self._choose is not None:
            table = matches[0]
            key = table.host_key if table.via == "beacon" else None  # DNS-SD: unsigned
            self._choose((table.host, table.port, key))

    async def choose_table(self, wanted: Callable[[Any], bool] | None = None) -> Target:
        """Listen for tables until the player picks one (or ``wanted`` is heard)."""
        chosen: list[Target] = []
        done = trio.Event()

        def choose(target: Target) -> None:
            if not done.is_set():
                chosen.append(target)
                done.set()

        self._choose, self._wanted = choose, wanted
        self.lobby.listening = True
        self.invalidate()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._listen)
            await done.wait()
            nursery.cancel_scope.cancel()
        self.lobby.listening = False
        self._choose = None
        return chosen[0]

    async def _listen(self) -> None:
        try:
            await lan.discover_tables(math.inf, net=self.net, on_lobby=self.on_lobby, dnssd=True)
        except OSError as exc:
            self.lobby.notes.append(_("Cannot listen for tables ({why}): press a.").format(why=exc))
            self.invalidate()

    # -- actions from keys (prompt_toolkit side) -----------------------------------------

    def _in_trio(self, fn: Callable[..., object], *args: object) -> None:
        if self.bridge is not None:
            self.bridge.call_soon(fn, *args)

    def _spawn(self, fn: Callable[..., Awaitable[object]], *args: object) -> None:
        if self.nursery is not None:
            self._in_trio(self.nursery.start_soon, fn, *args)

    def pick(self, index: int) -> None:
        tables = self.lobby.tables
        if self._choose is not None and 0 <= index < len(tables):
            table = tables[index]
            key = table.host_key if table.via == "beacon" else None  # DNS-SD: unsigned
            self._in_trio(self._choose, (table.host, table.port, key))

    def dial(self, text: str) -> bool:
        """The player typed a lobby's address: join there (False if it is no address)."""
        parsed = parse_host_port(text)
        if parsed is None or self._choose is None:
            return False
        self._in_trio(self._choose, (parsed[0], parsed[1], None))
        return True

    def toggle_ready(self) -> None:
        control = self.lobby.control
        if control is not None:
            self._spawn(control.ready, not self.lobby.my_ready)

    def take_seat(self, seat: int) -> None:
        control = self.lobby.control
        if control is not None and seat in self.lobby.free_seats:
            self._spawn(control.take_seat, seat)

    def fill_with_bots(self) -> None:
        if self.lobby.role != "host" or self.lobby.lobby_port is None or self.lobby.bots_asked:
            return
        self.lobby.bots_asked = True
        for n, _seat in enumerate(self.lobby.free_seats, 1):
            self._spawn(self._bot_joins, n)

    async def _bot_joins(self, n: int) -> None:
        """A bot peer of our own sits down through the lobby, like any joiner."""
        assert self.lobby.lobby_port is not None and self.bots_home is not None
        identity = Identity.generate(f"Bot {n}")
        self.own_bots.add(identity.public_key)
        net = replace(
            self.net,
            announce=False,
            listen_port=0,
            lobby_port=0,
            advertise_port=None,
            home=self.bots_home / f"bot{n}",
        )
        try:
            await lan.join_game(
                identity,
                dial_address(self.net.listen_host),
                self.lobby.lobby_port,
                BotFrontEnd(make_bot(self.bot_level)),
                host_key=self.identity.public_key,
                net=net,
                bot=self.bot_level,
                invite=self.lobby.invite or None,
            )
        except (lan.LobbyRefused, NetError, OSError) as exc:
            self.lobby.notes.append(_("A bot could not sit down: {why}").format(why=exc))
            self.invalidate()

    async def approve(self, request: lan.JoinRequest) -> bool:
        """The host's door: our own bots walk in (everyone, with ``auto_approve``);
        anyone else waits for ``y`` or ``n``."""
        if request.key in self.own_bots or self.auto_approve:
            return True
        decided = trio.Event()
        answer: list[bool] = []
        self._decisions[request.key] = (decided, answer)
        try:
            await decided.wait()
        finally:
            del self._decisions[request.key]
        return answer == [True]

    def decide(self, admit: bool) -> None:
        """Answer the oldest joiner asking to sit down."""
        for request in self.lobby.asking:
            pending = self._decisions.get(request.key)
            if pending is not None and not pending[0].is_set():
                pending[1].append(admit)
                self._in_trio(pending[0].set)
                return

    def move_rule(self, step: int) -> None:
        lines = len(self.lobby.rule_lines())
        if lines:
            self.lobby.rule = (self.lobby.rule + step) % lines

    def change_rule(self, step: int) -> None:
        """The host moves the value on its line; every joiner must say ready again."""
        control = self.lobby.host_control
        rules = self.lobby.changed_rules(step)
        if control is not None and rules is not None:
            self._spawn(self._set_rules, control, *rules)

    async def _set_rules(
        self, control: lan.HostControl, preset: str, options: dict[str, str]
    ) -> None:
        try:
            await control.set_rules(preset, options)
        except ValueError as exc:
            self.lobby.notes.append(str(exc))
            self.invalidate()

    def remove_seat(self, seat: int) -> None:
        control = self.lobby.host_control
        if control is not None and self.lobby.role == "host":
            self._spawn(control.remove, seat)


class LanScreen(TableScreen):
    """Belka's table screen with the lobby in front until the game starts.  The lobby's
    drawing and keys are here; what they do is the session's (:class:`LanSession`)."""

    def __init__(
        self,
        session: LanSession,
        view: TableView | None = None,
        *,
        input: Input | None = None,
        output: Output | None = None,
        app: Application[None] | None = None,
    ) -> None:
        self.lan = session
        self.address = TextArea(
            height=1,
            multiline=False,
            prompt=_("address (host:port)> "),
            accept_handler=self._address_entered,
        )
        view = view if view is not None else TableView()
        super().__init__(view, lambda action: None, input=input, output=output, app=app)
        self.overlay = "lobby"

    @property
    def lobby(self) -> LobbyView:
        return self.lan.lobby

    def _address_entered(self, buffer: Any) -> bool:
        if self.lan.dial(self.address.text):
            self.app.layout.focus(self._home)
        else:
            self.lobby.notes.append(_("An address looks like 192.168.1.5:40123."))
        self.app.invalidate()
        return True

    # -- layout and keys -------------------------------------------------------------------

    def _middle(self) -> AnyContainer:
        if self.overlay != "lobby":
            return super()._middle()
        asking = Condition(lambda: self.app.layout.has_focus(self.address))
        return HSplit(
            [
                Window(FormattedTextControl(lambda: lobby_lines(self.lobby)), wrap_lines=True),
                ConditionalContainer(self.address, asking),
            ]
        )

    def _hints(self) -> StyleAndTextTuples:
        if self.overlay == "lobby":
            return [("", " " + lobby_keys(self.lobby))]
        return super()._hints()

    def _keys(self) -> KeyBindingsBase:
        kb = KeyBindings()
        session = self.lan
        lobby = Condition(lambda: self.overlay == "lobby") & ~has_focus(self.address)
        choosing = lobby & Condition(lambda: self.lobby.listening and not self.lobby.seated)
        seated = lobby & Condition(lambda: self.lobby.seated)

        @kb.add("up", filter=choosing)
        def _up(event: KeyPressEvent) -> None:
            self.lobby.chosen = max(0, self.lobby.chosen - 1)

        @kb.add("down", filter=choosing)
        def _down(event: KeyPressEvent) -> None:
            self.lobby.chosen = min(max(0, len(self.lobby.tables) - 1), self.lobby.chosen + 1)

        @kb.add("enter", filter=choosing)
        def _join(event: KeyPressEvent) -> None:
            session.pick(self.lobby.chosen)

        @kb.add("a", filter=choosing)
        def _address(event: KeyPressEvent) -> None:
            event.app.layout.focus(self.address)

        @kb.add("escape", filter=has_focus(self.address), eager=True)
        def _leave_address(event: KeyPressEvent) -> None:
            event.app.layout.focus(self._home)

        for digit in "123456789":

            @kb.add(digit, filter=lobby)
            def _digit(event: KeyPressEvent) -> None:
                n = int(event.data)
                if self.lobby.seated:
                    session.take_seat(n)  # seats as the list numbers them (0 is the host's)
                else:
                    self.lobby.chosen = n - 1
                    session.pick(n - 1)

        @kb.add("r", filter=seated)
        def _ready(event: KeyPressEvent) -> None:
            session.toggle_ready()

        @kb.add("b", filter=seated)
        def _bots(event: KeyPressEvent) -> None:
            session.fill_with_bots()

        hosting = seated & Condition(lambda: self.lobby.role == "host")
        asking = hosting & Condition(lambda: bool(self.lobby.asking))
        editing = hosting & Condition(lambda: self.lobby.editing)

        @kb.add("o", filter=hosting)
        def _rules(event: KeyPressEvent) -> None:
            self.lobby.editing = not self.lobby.editing

        @kb.add("escape", filter=editing, eager=True)
        def _rules_done(event: KeyPressEvent) -> None:
            self.lobby.editing = False

        @kb.add("up", filter=editing)
        def _rule_up(event: KeyPressEvent) -> None:
            session.move_rule(-1)

        @kb.add("down", filter=editing)
        def _rule_down(event: KeyPressEvent) -> None:
            session.move_rule(1)

        @kb.add("left", filter=editing)
        def _value_back(event: KeyPressEvent) -> None:
            session.change_rule(-1)

        @kb.add("right", filter=editing)
        @kb.add("enter", filter=editing)
        @kb.add("space", filter=editing)
        def _value_on(event: KeyPressEvent) -> None:
            session.change_rule(1)

        @kb.add("y", filter=asking)
        def _let_in(event: KeyPressEvent) -> None:
            session.decide(True)

        @kb.add("n", filter=asking)
        def _turn_away(event: KeyPressEvent) -> None:
            session.decide(False)

        for digit in "123":

            @kb.add("x", digit, filter=hosting)
            def _remove(event: KeyPressEvent) -> None:
                session.remove_seat(int(event.key_sequence[-1].data))

        return merge_key_bindings([super()._keys(), kb])


class BelotLanScreen(LanScreen, BelotScreen):
    """Belot's table screen (two or three seats) with the lobby in front."""

    view: BelotView

    def __init__(
        self,
        session: LanSession,
        players: int,
        *,
        input: Input | None = None,
        output: Output | None = None,
        app: Application[None] | None = None,
    ) -> None:
        view = BelotView(players=players)
        super().__init__(session, view, input=input, output=output, app=app)


def screen_for(
    session: LanSession,
    game: str,
    seats: int,
    *,
    input: Input | None = None,
    output: Output | None = None,
    app: Application[None] | None = None,
) -> LanScreen:
    """The screen that plays ``game`` with ``seats`` seats, behind the lobby."""
    if game == "belot":
        return BelotLanScreen(session, seats, input=input, output=output, app=app)
    return LanScreen(session, input=input, output=output, app=app)


def fits(screen: LanScreen, game: str, seats: int) -> bool:
    """Whether ``screen`` already is the one ``game`` with ``seats`` seats needs."""
    if game == "belot":
        return isinstance(screen, BelotLanScreen) and screen.view.players == seats
    return not isinstance(screen, BelotLanScreen)


dial_address = lan.lan_address
"""Where our own bots reach our lobby: the address the other players use too."""


def _run(
    session: LanSession, flow: Flow, pace: float, extra: Extra | None
) -> tuple[LanScreen, lan.GameResult | None]:
    """Run the session's screen and ``flow``; the screen at the end (a joiner's may be
    another than the first) and the result."""
    result: list[lan.GameResult | None] = []
    first = session.screen

    async def main(bridge: Bridge) -> None:
        session.bridge = bridge
        session.front = ScreenFrontEnd(
            session.screen, bridge, pace=pace, auto_approve=session.auto_approve
        )
        async with trio.open_nursery() as outer:
            session.nursery = outer
            if extra is not None:
                outer.start_soon(extra, session.screen)
            result.append(await flow(session, session.front))

    with tempfile.TemporaryDirectory(prefix="p2pbelka-bots-") as home:
        session.bots_home = Path(home)
        run_with_app(first.app, main)
    return session.screen, result[0] if result else None


def host_on_screen(
    identity: Identity,
    table_name: str,
    *,
    game: str = "belka",
    players: int | None = None,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    net: lan.NetOptions | None = None,
    lang: str = "en",
    pace: float = 0.0,
    bot_level: str = DEFAULT_BOT,
    input: Input | None = None,
    output: Output | None = None,
    extra: Extra | None = None,
    invite: str | None = None,
    auto_approve: bool = False,
) -> tuple[LanScreen, lan.GameResult | None]:
    """Open a table of ``game`` (``players`` seats) on the LAN and play seat 0 on screen
    (``auto_approve``: every joiner sits without asking, and a bot for a lost seat is
    agreed to); the screen at the end, and the result, None if the player left first."""
    set_language(lang)
    net = net or lan.NetOptions()
    session = LanSession(
        "host",
        identity,
        net,
        game=game,
        players=players,
        bot_level=bot_level,
        auto_approve=auto_approve,
        input=input,
        output=output,
    )
    session.lobby.invite = invite or ""

    async def flow(session: LanSession, front: FrontEnd) -> lan.GameResult | None:
        return await lan.host_game(
            identity,
            table_name,
            front,
            preset=preset,
            options=options,
            net=net,
            on_lobby=session.on_lobby,
            approve=session.approve,
            invite=invite,
            game=game,
            players=players,
        )

    return _run(session, flow, pace, extra)


def join_on_screen(
    identity: Identity,
    *,
    connect: Target | None = None,
    wanted: Callable[[Any], bool] | None = None,
    host_pin: str | None = None,
    invite: str | None = None,
    net: lan.NetOptions | None = None,
    lang: str = "en",
    pace: float = 0.0,
    input: Input | None = None,
    output: Output | None = None,
    extra: Extra | None = None,
    auto_approve: bool = False,
) -> tuple[LanScreen, lan.GameResult | None]:
    """Find a table (``connect`` to skip the list; ``wanted`` picks one when heard), sit
    down, say ready with ``r``, and play on screen, on the screen of the table's game
    once the lobby tells it; the screen at the end, and the result, None if the player
    left first."""
    set_language(lang)
    net = net or lan.NetOptions()
    session = LanSession(
        "join", identity, net, auto_approve=auto_approve, input=input, output=output
    )

    async def flow(session: LanSession, front: FrontEnd) -> lan.GameResult | None:
        host, port, key = connect or await session.choose_table(wanted)
        try:
            return await lan.join_game(
                identity,
                host,
                port,
                front,
                host_key=key,
                host_pin=host_pin,
                invite=invite,
                net=net,
                on_lobby=session.on_lobby,
                ready=False,
            )
        except (lan.LobbyRefused, NetError, OSError) as exc:
            # stay on screen with the reason until the player leaves
            session.lobby.closed = session.lobby.closed or str(exc)
            session.invalidate()
            await trio.sleep_forever()
            return None

    return _run(session, flow, pace, extra)
