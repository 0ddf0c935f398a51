"""``host`` and ``join`` on screen: the lobby, then the same table as ``play``.

The LAN layer (``p2pbelka.peer.lan``) runs the lobby and the game; this module
shows its lobby events, turns keys into lobby actions (choose a table, take a
seat, say ready, fill the free seats with bots, change the rules) and plays
seat ``me`` with the game's table screen.  Entry points: :func:`host_on_screen`,
:func:`join_on_screen`.

The lobby works for every game.  Its state and actions are a :class:`LanSession`'s;
its drawing and keys are the lobby panel's (``ui/lobbypanel.py``), a part of the one
table screen, in front of the table until the game starts.  A host's screen has its
game from the start; a joiner's opens on the lobby with none, and gets the game's
view, drawing and keys once the lobby names the game (:meth:`LanSession.use_game`):
the same screen, nothing swapped (see docs/architecture-ui.md, "The LAN screens").
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

import trio
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from p2pbelka.bots import bot_name, make_bot
from p2pbelka.net.connection import parse_host_port
from p2pbelka.net.directory import TableInfo
from p2pbelka.net.errors import NetError
from p2pbelka.net.identity import Identity
from p2pbelka.peer import lan
from p2pbelka.peer.driver import BotFrontEnd, FrontEnd
from p2pbelka.peer.lan.events import WatchersChanged
from p2pbelka.peer.loopback import DEFAULT_BOT
from p2pbelka.peer.store import GameStore, games_dir
from p2pbelka.rules.registry import DEFAULT
from p2pbelka.ui import registry
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.front import ScreenFrontEnd
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.lobbypanel import LobbyPanel
from p2pbelka.ui.lobbyview import LobbyView
from p2pbelka.ui.words.admission import lobby_reason
from p2pbelka.ui.words.i18n import _, set_language
from p2pbelka.ui.words.lobbylog import event_line
from p2pbelka.ui.words.oserrors import listen_words, os_error_words

QUIET_AFTER = 15.0
"""Seconds of listening with no table heard before the list says what else to do."""

Target = tuple[str, int, bytes | None]  # host, lobby port, host key when known
Flow = Callable[["LanSession", FrontEnd], Awaitable[lan.GameResult | None]]
Extra = Callable[[TableScreen], Awaitable[None]]


class LanSession:
    """One person's side of a LAN table on screen: the lobby as seen, the host's door,
    the bots the host seats, and the screen that draws them.

    A host knows the game from the start; a joiner learns it in the lobby, while the
    screen already runs, and :meth:`use_game` then gives the screen the game's view,
    drawing and keys.  The tasks the keys start (a seat taken, a bot sat down) run in
    the nursery :meth:`play` opens, and in no other."""

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
        self.game = game  # a joiner's is known once the lobby names it
        self.bridge: Bridge | None = None
        self._nursery: trio.Nursery | None = None
        self.bots_home: Path | None = None
        self.front: ScreenFrontEnd | None = None
        self.game_id: bytes | None = None  # once the game has begun
        self._choose: Callable[[Target], None] | None = None
        self._wanted: Callable[[TableInfo], bool] | None = None
        self.own_bots: set[bytes] = set()  # our 'b' bots: let in without asking
        self._decisions: dict[bytes, tuple[trio.Event, list[bool]]] = {}
        self._code: tuple[trio.Event, list[str | None]] | None = None  # a code asked again
        self._reaching: trio.CancelScope | None = None  # a host chosen on the list
        self._rated: tuple[str, tuple[bytes, ...]] | None = None  # the seats last rated
        self.panel = panel = LobbyPanel(self)
        if game is None:
            self.screen = TableScreen(None, lobby=panel, input=input, output=output)
        else:
            ui, view = registry.new_view(game, players)
            self.screen = TableScreen(ui, view, lobby=panel, input=input, output=output)
        self.screen.decide_watcher = self.decide_watcher

    def invalidate(self) -> None:
        self.screen.app.invalidate()

    # -- lobby events (in trio) ------------------------------------------------------------

    async def on_lobby(self, event: lan.LobbyEvent) -> None:
        self.lobby.apply(event)
        if isinstance(event, (WatchersChanged, lan.JoinersAsking)):
            self._show_watchers()
        if isinstance(event, lan.WatchersCatchingUp):  # the host's program waits for them
            self.screen.view.say(event_line(event) or "")
        if isinstance(event, lan.TableRules) and not event.changed:
            self.use_game(event.state.variant, len(event.state.seats))
        if isinstance(event, lan.TablesHeard) and self.lobby.tables and self._wanted:
            self._pick_wanted()
        if isinstance(event, lan.ResultsShared):  # shared in the lobby: said, and rated again
            self.screen.view.say(event_line(event) or "")
            self._rated = None if event.counted else self._rated
        if isinstance(event, (lan.SeatsChanged, lan.TableRules, lan.ResultsShared)):
            self._rate_seats()
        if isinstance(event, lan.GameStarting):
            self.game_id = event.game_id
            view = self.screen.view
            view.me, view.game_id = event.seat, event.game_id
            store = GameStore(games_dir(self.net.home) / event.game_id.hex())
            view.transcript_path = str(store.transcript_path)
            self.screen.overlay = None
        self.invalidate()

    def _rate_seats(self) -> None:
        """Read the seated players' ratings beside the lobby, once for each change of who
        sits (saying ready changes nothing), the lobby drawn meanwhile without them."""
        state = self.lobby.state
        if state is None:
            return
        asked = (state.variant, tuple(s.key for s in state.seats if s is not None))
        if asked != self._rated:
            self._rated = asked
            self.start_soon(self._read_ratings, *asked)

    async def _read_ratings(self, game: str, keys: tuple[bytes, ...]) -> None:
        from p2pbelka.ui.ladder import lobby_ratings

        found = await lobby_ratings(self.net.home, game, keys)
        if self._rated == (game, keys):  # else a read of the newer seats is under way
            self.lobby.ratings = found
            self.invalidate()

    def use_game(self, game: str, seats: int) -> None:
        """The table's game is known (before the game starts): from now on the screen
        draws and plays that game, on a view of ``seats`` seats.  A host's screen already
        does; a joiner's gets the game here, still in the lobby."""
        self.game = game
        screen = self.screen
        if screen.game is not None and screen.game.name == game:
            if screen.view.players == seats:
                return
        ui, view = registry.new_view(game, seats)
        screen.use_game(ui, view)

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

    async def choose_table(self, wanted: Callable[[TableInfo], bool] | None = None) -> Target:
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
            nursery.start_soon(self._quiet)
            await done.wait()
            nursery.cancel_scope.cancel()
        self.lobby.listening = False
        self.lobby.from_list = True
        self._choose = None
        return chosen[0]

    async def _quiet(self) -> None:
        """No table heard for a while: the screen says what to do (the address)."""
        await trio.sleep(QUIET_AFTER)
        if not self.lobby.tables:
            self.lobby.quiet = True
            self.invalidate()

    async def reach(
        self, join: Callable[[], Awaitable[lan.GameResult]]
    ) -> tuple[lan.GameResult | None, bool]:
        """``join()``, which q stops while the host chosen on the list has not answered
        yet; its result, and whether the player went back to the list."""
        with trio.CancelScope() as scope:
            self._reaching = scope
            try:
                return await join(), False
            finally:
                self._reaching = None
        self.back_on_list("")
        return None, True

    def back_to_list(self) -> None:
        """q while the host chosen on the list does not answer: back to the list."""
        scope = self._reaching
        if scope is not None:
            self._in_trio(scope.cancel)

    def back_on_list(self, why: str) -> None:
        """The list again, after a host that did not answer (``why``, if it gave up)."""
        lobby = self.lobby
        lobby.trying = lobby.trying_why = lobby.host_fingerprint = ""
        lobby.from_list, lobby.host_pinned, lobby.state = False, False, None
        lobby.notes = [_("The host did not answer: {why}").format(why=why)] if why else []
        self.invalidate()

    async def ask_code(self, why: str) -> str | None:
        """The host did not take our invite code (``why``): the player types it again;
        the code typed ("" for none), or None if the player leaves instead."""
        self.lobby.code_asked, self.lobby.trying = why, ""
        self._code = trio.Event(), []
        self.screen.app.layout.focus(self.panel.code)
        self.invalidate()
        try:
            await self._code[0].wait()
            return self._code[1][0]
        finally:
            self._code = None
            self.lobby.code_asked = ""
            self.invalidate()

    def give_code(self, code: str | None) -> None:
        """The code typed again (None: the player leaves)."""
        if self._code is not None and not self._code[1]:
            self._code[1].append(code)
            self._in_trio(self._code[0].set)

    async def _listen(self) -> None:
        try:
            await lan.discover_tables(math.inf, net=self.net, on_lobby=self.on_lobby, dnssd=True)
        except OSError as exc:
            # no multicast route: the ways on (--interface, --connect); else press a
            note = _("Cannot listen for tables ({why}): press a.").format(why=os_error_words(exc))
            self.lobby.notes.append(listen_words(exc) if hasattr(exc, "addresses") else note)
            self.invalidate()

    # -- actions from keys (prompt_toolkit side) -----------------------------------------

    def _in_trio(self, fn: Callable[..., object], *args: object) -> None:
        if self.bridge is not None:
            self.bridge.call_soon(fn, *args)

    def _spawn(self, fn: Callable[..., Awaitable[object]], *args: object) -> None:
        self._in_trio(self.start_soon, fn, *args)

    def start_soon(self, fn: Callable[..., Awaitable[object]], *args: object) -> None:
        """Run ``fn(*args)`` beside the game, in this session's nursery (in trio; once
        :meth:`play` runs, else nothing)."""
        if self._nursery is not None:
            self._nursery.start_soon(fn, *args)

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
        # called after its level as a joiner's bot is ("Heuristic bot"); the lobby tells
        # two of one level apart ("Heuristic bot 2")
        identity = Identity.generate(bot_name(self.bot_level))
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
                dial_address(self.net),
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
        self._show_watchers()
        self.invalidate()
        try:
            await decided.wait()
        finally:
            del self._decisions[request.key]
            self._show_watchers()
        return answer == [True]

    def _show_watchers(self) -> None:
        """Who watches, and who asks to, on the host's table during the game (the lobby
        shows both itself)."""
        view = self.screen.view
        view.watchers = tuple(name for name, _key in self.lobby.watchers)
        asking = [r for r in self.lobby.asking if r.watcher and r.key in self._decisions]
        view.watch_asking = (asking[0].name, asking[0].fingerprint) if asking else ()

    def decide_watcher(self, admit: bool) -> None:
        """Answer the oldest person asking to watch (y or n at the table)."""
        for request in self.lobby.asking:
            pending = self._decisions.get(request.key)
            if request.watcher and pending is not None and not pending[0].is_set():
                pending[1].append(admit)
                self._in_trio(pending[0].set)
                return

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

    def new_code(self) -> None:
        """The host draws a new invite code (the screen hears it as ``InviteChanged``)."""
        control = self.lobby.host_control
        if control is not None:
            self._in_trio(control.new_code)

    def shut_out(self, n: int) -> None:
        """Shut out the ``n``-th address listed as guessing (or let it try again)."""
        control = self.lobby.host_control
        if control is not None and 0 < n <= len(self.lobby.guessers):
            address = self.lobby.guessers[n - 1].address
            self._in_trio(lambda: self._shut(control, address))

    def _shut(self, control: lan.HostControl, address: str) -> None:
        self.lobby.guessers = control.shut_out(address)
        self.invalidate()

    def remove_seat(self, seat: int) -> None:
        control = self.lobby.host_control
        if control is not None and self.lobby.role == "host":
            self._spawn(control.remove, seat)

    # -- the game ----------------------------------------------------------------------

    async def play(
        self, bridge: Bridge, flow: Flow, pace: float, extra: Extra | None
    ) -> lan.GameResult | None:
        """Run ``flow`` (hosting or joining) on the screen, ``extra`` beside it; the tasks
        the lobby's keys start run in the nursery opened here."""
        self.bridge = bridge
        self.front = ScreenFrontEnd(self.screen, bridge, pace=pace, auto_approve=self.auto_approve)
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            try:
                if extra is not None:
                    nursery.start_soon(extra, self.screen)
                return await flow(self, self.front)
            finally:
                self._nursery = None


def dial_address(net: lan.NetOptions) -> str:
    """Where our own bots reach our lobby: the address the other players use too (the
    one the beacons carry), so the mesh address the host sees for them works for all."""
    return lan.lan_addresses(net.listen_host, net.group, net.beacon_port)[0]


def _run(
    session: LanSession, flow: Flow, pace: float, extra: Extra | None
) -> tuple[TableScreen, lan.GameResult | None]:
    """Run the session's screen and ``flow``; the screen at the end and the result."""
    result: list[lan.GameResult | None] = []

    async def main(bridge: Bridge) -> None:
        result.append(await session.play(bridge, flow, pace, extra))

    with tempfile.TemporaryDirectory(prefix="p2pbelka-bots-") as home:
        session.bots_home = Path(home)
        run_with_app(session.screen.app, main, session.screen.log_note)
    return session.screen, result[0] if result else None


def host_on_screen(
    identity: Identity,
    table_name: str,
    *,
    game: str = DEFAULT,
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
    coach: bool = False,
    coach_worlds: int | None = None,
) -> tuple[TableScreen, lan.GameResult | None]:
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
    session.screen.coaching.on = coach
    session.screen.coaching.worlds = coach_worlds

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
            lets_all_in=session.auto_approve,
        )

    return _run(session, flow, pace, extra)


def join_on_screen(
    identity: Identity,
    *,
    connect: Target | None = None,
    wanted: Callable[[TableInfo], bool] | None = None,
    host_pin: str | None = None,
    invite: str | None = None,
    net: lan.NetOptions | None = None,
    lang: str = "en",
    pace: float = 0.0,
    input: Input | None = None,
    output: Output | None = None,
    extra: Extra | None = None,
    auto_approve: bool = False,
    coach: bool = False,
    coach_worlds: int | None = None,
) -> tuple[TableScreen, lan.GameResult | None]:
    """Find a table (``connect`` to skip the list; ``wanted`` picks one when heard), sit
    down, say ready with ``r``, and play on screen, on the screen of the table's game
    once the lobby tells it; the screen at the end, and the result, None if the player
    left first.  ``lan.HostUnreachable`` if the host's lobby never answered: given up
    on, or the player left while it was being tried."""
    set_language(lang)
    net = net or lan.NetOptions()
    session = LanSession(
        "join", identity, net, auto_approve=auto_approve, input=input, output=output
    )
    session.screen.coaching.on = coach
    session.screen.coaching.worlds = coach_worlds
    unreached: list[lan.HostUnreachable] = []

    code = invite
    target = connect

    async def flow(session: LanSession, front: FrontEnd) -> lan.GameResult | None:
        nonlocal code, target
        while True:
            host, port, key = target = target or await session.choose_table(wanted)

            join = partial(
                lan.join_game,
                identity,
                host,
                port,
                front,
                host_key=key,
                host_pin=host_pin,
                invite=code,
                net=net,
                on_lobby=session.on_lobby,
                ready=False,
            )
            try:
                result, back = await session.reach(join)
            except lan.CodeRefused as exc:
                # a mistyped or old code: asked again, the same host tried with it
                why = lobby_reason(str(exc))
                typed = await session.ask_code(why)
                if typed is not None:
                    code = typed or None
                    continue
                session.lobby.closed = why
            except lan.HostUnreachable as exc:
                if connect is None:  # a host from the list (or typed after a): the list
                    session.back_on_list(exc.why)
                    target = None
                    continue
                # tried for as long as the screen said: the reason goes to the terminal
                unreached.append(exc)
                session.screen.quit()
                return None
            except (lan.LobbyRefused, NetError, OSError) as exc:
                session.lobby.closed = session.lobby.closed or lobby_reason(str(exc))
            else:
                if not back:
                    return result
                target = None
                continue
            # stay on screen with the reason until the player leaves
            session.invalidate()
            await trio.sleep_forever()
            return None

    screen, result = _run(session, flow, pace, extra)
    if unreached:
        raise unreached[0]
    if result is None and session.lobby.trying and not session.lobby.host_fingerprint:
        raise lan.HostUnreachable(
            _("{why} (left while trying)").format(why=session.lobby.trying_why)
        )
    return screen, result
