"""The LAN lobby as the screen shows it: tables heard, the game and its rules, who sits
where, who is ready; the host changes the rules here."""

from __future__ import annotations

from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.net.connection import format_host_port
from p2pbelka.net.directory import TableInfo, look_alikes
from p2pbelka.net.guesses import Guesser
from p2pbelka.net.identity import fingerprint
from p2pbelka.net.pake import code_in_words, shown_code
from p2pbelka.peer import lan
from p2pbelka.peer.lan.events import WatchersChanged
from p2pbelka.protocol.lobby import LobbyState
from p2pbelka.rules import registry, rulebook
from p2pbelka.ui.bigcode import big_code, digit_words
from p2pbelka.ui.words import rulenames
from p2pbelka.ui.words.admission import lobby_reason
from p2pbelka.ui.words.i18n import _, ngettext
from p2pbelka.ui.words.oserrors import trying_why


def game_title(name: str) -> str:
    """A game by its name on the wire, as players of the screen's language call it; a
    game this version does not know, by its wire name."""
    return rulenames.game_word(name)


@dataclass
class LobbyView:
    role: str  # "host", "join", or "watch" (a watcher's, before the game starts)
    name: str = ""  # the table's
    tables: tuple[TableInfo, ...] = ()
    chosen: int = 0
    listening: bool = False  # a joiner still choosing a table
    lobby_port: int | None = None
    table_id: bytes = b""  # the lobby's (the game id is derived at the start)
    state: LobbyState | None = None
    me: int | None = None
    control: lan.LobbyControl | None = None
    host_control: lan.HostControl | None = None
    closed: str | None = None
    bots_asked: bool = False
    notes: list[str] = field(default_factory=list)
    my_fingerprint: str = ""
    invite: str = ""  # the host's invite code, shown to read out to the joiners
    wrong_codes: tuple[int, int] = (0, 0)  # wrong codes tried at it, of the limit
    guessers: tuple[Guesser, ...] = ()  # the host's: addresses that tried wrong codes
    host_fingerprint: str = ""  # the key that answered at the host's lobby (joiner)
    host_pinned: bool = False
    asking: tuple[lan.JoinRequest, ...] = ()  # joiners the host has not decided on yet
    addresses: tuple[str, ...] = ()  # the host's: this machine's on the LAN, beacons' first
    trying: str = ""  # a joiner's: the host's lobby has not answered yet, and why
    trying_why: str = ""  # that reason alone, for the terminal when the joiner leaves
    editing: bool = False  # the host has the rules open to change them
    rule: int = 0  # the line of the rules the host is on: 0 the preset, then the options
    watchers: tuple[tuple[str, str], ...] = ()  # the host's: who watches (name, fingerprint)

    def apply(self, event: lan.LobbyEvent) -> None:
        if isinstance(event, lan.TablesHeard):
            self.tables = event.tables
            self.chosen = min(self.chosen, max(0, len(self.tables) - 1))
        elif isinstance(event, lan.TableOpen):
            self.lobby_port, self.table_id = event.lobby_port, event.table_id
            self.addresses = event.addresses
        elif isinstance(event, lan.TableRules):
            before = self.rule_lines()
            self.state = self.state or event.state  # a joiner sees the rules before its seat
            if event.changed and self.role != "host":
                self.notes.append(self._rules_changed(before, event.state))
        elif isinstance(event, lan.SeatsChanged):
            if event.me is not None and self.me is None:
                # let in: the wait for the host's answer is over
                self.notes = [n for n in self.notes if n != _awaiting()]
            self.state, self.me = event.state, event.me
            self.control = event.control or self.control
            self.host_control = event.host_control or self.host_control
            self.name = event.state.name
        elif isinstance(event, lan.LobbyClosed):
            self.closed = lobby_reason(event.why)
        elif isinstance(event, lan.HostReached):
            self.host_fingerprint, self.host_pinned = event.fingerprint, event.pinned
            self.trying = ""
        elif isinstance(event, lan.StillTrying):
            # one line, replaced at each attempt: the reason and how long we go on
            self.trying_why = trying_why(event.why, event.error, event.where)
            self.trying = _(
                "The host does not answer ({why}); trying again in {s:.0f} s,"
                " giving up in {left:.0f} s (q stops now)."
            ).format(why=self.trying_why, s=event.retry_in, left=event.gives_up_in)
        elif isinstance(event, lan.AwaitingApproval):
            self.notes.append(_awaiting())
        elif isinstance(event, lan.JoinersAsking):
            self.asking = event.requests
        elif isinstance(event, WatchersChanged):
            self.watchers = tuple((w.name, w.fingerprint) for w in event.watchers)
        elif isinstance(event, lan.WrongCodeTried):
            self.wrong_codes = event.failures, event.limit
            self.guessers = event.guessers
        elif isinstance(event, lan.InviteChanged):
            self.wrong_codes = 0, self.wrong_codes[1]
            self.invite = shown_code(event.code)
            self.notes.append(
                _("You drew a new invite code: {code}. Tell it to your friends.").format(
                    code=self.invite
                )
            )

    def _rules_changed(self, before: list[tuple[str, str]], state: LobbyState) -> str:
        """The note of a change of the rules, naming each rule and its new value."""
        after = rulenames.rule_values(state.variant, state.preset, state.options)
        changed = rulenames.changes(state.variant, before, after)
        if not changed:
            return _("The host changed the rules: read them, then press r.")
        return _("The host changed the rules ({changes}): read them, then press r.").format(
            changes="; ".join(changed)
        )

    @property
    def seated(self) -> bool:
        return self.state is not None

    @property
    def variant(self) -> str:
        return self.state.variant if self.state is not None else registry.DEFAULT

    def rule_lines(self) -> list[tuple[str, str]]:
        """The rules as (name, value) lines: the preset first, then every option."""
        if self.state is None:
            return []
        state = self.state
        return rulenames.rule_values(state.variant, state.preset, state.options)

    def changed_rules(self, step: int) -> tuple[str, dict[str, str]] | None:
        """The preset and options after moving the value on the host's line by ``step``."""
        if self.state is None:
            return None
        game, state = self.variant, self.state
        lines = self.rule_lines()
        name, value = lines[min(self.rule, len(lines) - 1)]
        if name == "preset":
            menu = list(rulebook.presets(game))
            at = menu.index(value) if value in menu else 0
            return menu[(at + step) % len(menu)], {}
        values = dict(lines[1:])
        values[name] = rulebook.next_value(game, name, value, step)
        return state.preset, rulebook.overrides_for(game, state.preset, values)

    @property
    def free_seats(self) -> list[int]:
        if self.state is None:
            return []
        return [i for i, seat in enumerate(self.state.seats) if seat is None]

    @property
    def my_ready(self) -> bool:
        if self.state is None or self.me is None:
            return False
        seat = self.state.seats[self.me]
        return seat is not None and seat.ready


def _awaiting() -> str:
    return _("The host is deciding whether to let you in…")


def lobby_lines(view: LobbyView) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    if view.closed:
        # nothing else: the seats and keys of a lobby one is no longer in would mislead
        out.append(("class:verdict.bad", _("The lobby closed: {why}").format(why=view.closed)))
        out.append(("", "\n\n" + _("Press q to leave.") + "\n"))
        return out
    if view.listening and not view.seated:
        return out + _table_list(view)
    if view.state is None:
        if view.role == "host":
            out.append(("class:hint", _("Opening the table…")))
        elif not view.closed:
            out.append(("class:hint", view.trying or _("Reaching the host's lobby…")))
        return out
    title = _("Table “{name}”").format(name=view.name or view.state.name)
    if view.role == "host":
        title += " — " + _("you host it")
    elif view.role == "watch":
        title += " — " + _("you watch it")
    out.append(("class:heading", title + "\n"))
    out += _keys_to_compare(view)
    if view.lobby_port is not None:
        out.append(
            (
                "class:hint",
                _("Lobby port {port}; players join with: p2pbelka join").format(
                    port=view.lobby_port
                )
                + "\n",
            )
        )
        for address in view.addresses:  # each: which one reaches a joiner is theirs
            where = format_host_port(address, view.lobby_port)
            line = _("This machine is {address}: or p2pbelka join --connect {where}").format(
                address=address, where=where
            )
            out.append(("class:hint", line + "\n"))
    out += _rules(view)
    out.append(("", "\n" + _("Seats in play order: {sides}").format(sides=sides(view)) + "\n"))
    for seat, info in enumerate(view.state.seats):
        you = " " + _("(you)") if seat == view.me else ""
        if info is None:
            out.append(("class:hint", f" {seat}  " + _("free") + "\n"))
            continue
        ready = _("ready") if info.ready else _("not ready")
        style = "class:verdict.ok" if info.ready else "class:hint"
        out.append(("class:seat.me" if seat == view.me else "", f" {seat}  {info.name:<16} "))
        out.append(("class:hint", f"{fingerprint(info.key)}  "))
        out.append((style, ready))
        out.append(("", you + "\n"))
    out.append(("", "\n"))
    out += watcher_lines(view.watchers)
    out += _requests(view)
    out.append(("class:hint", _("The game starts when every seat is taken and ready.") + "\n"))
    for note in view.notes[-3:]:
        out.append(("class:hint", note + "\n"))
    return out


def sides(view: LobbyView) -> str:
    """Who plays with whom, in names, as the game's teams go: "you and Saule against
    Bolat and Nurlan" (two pairs), or everyone for themselves."""
    assert view.state is not None
    names = []
    for seat, info in enumerate(view.state.seats):
        if seat == view.me:
            names.append(_("you"))
        elif info is None:
            names.append(_("seat {n} (free)").format(n=seat))
        else:
            names.append(info.name)
    teams = _teams(view.variant, len(names))
    if len(teams) != 2 or any(len(team) != 2 for team in teams):
        return _("each for themselves: {names}").format(names=", ".join(names))
    mine, other = teams if (view.me or 0) in teams[0] else teams[::-1]
    return _("{a} and {b} against {c} and {d}").format(
        a=names[mine[0]], b=names[mine[1]], c=names[other[0]], d=names[other[1]]
    )


def _teams(game: str, seats: int) -> tuple[tuple[int, ...], ...]:
    """The game's sides at a table of ``seats`` (one seat each for a game not known)."""
    try:
        return registry.spec(game).teams(seats)
    except ValueError:
        return tuple((seat,) for seat in range(seats))


def _rules(view: LobbyView) -> StyleAndTextTuples:
    """The game and every rule; the host's line marked while it changes them."""
    assert view.state is not None
    game = game_title(view.variant)
    seats = len(view.state.seats)
    head = ngettext("{game} for {n}; the rules:", "{game} for {n}; the rules:", seats)
    out: StyleAndTextTuples = [("", "\n" + head.format(game=game, n=seats) + "\n")]
    lines = view.rule_lines()
    for n, (name, value) in enumerate(lines):
        on = view.editing and n == view.rule
        mark = "▶" if on else " "
        words = (
            rulenames.rule_word(view.variant, name),
            rulenames.value_word(view.variant, name, value),
        )
        out.append(("class:seat.turn" if on else "", f" {mark} {words[0]:<22} {words[1]}\n"))
    if view.role == "host":
        if view.editing:
            hint = _("↑↓ choose a rule, ←→ change it; every joiner must say ready again")
        else:
            hint = _("o changes the rules until the game starts")
        out.append(("class:hint", "   " + hint + "\n"))
    return out


def _keys_to_compare(view: LobbyView) -> StyleAndTextTuples:
    """Which fingerprint a person should compare, and with whom."""
    if view.role == "host":
        line = _("Your key: {key}. Joiners compare it with what their screen shows.").format(
            key=view.my_fingerprint
        )
        out: StyleAndTextTuples = [("class:hint", line + "\n")]
        if view.invite:
            out += _invite(view.invite)
        out += _wrong_codes(view)
        return out
    if not view.host_fingerprint:
        return []
    if view.host_pinned:
        line = _("Host key {key}: checked.").format(key=view.host_fingerprint)
    else:
        line = _("Host key {key}: ask the host whether its screen shows the same.").format(
            key=view.host_fingerprint
        )
    return [("class:hint", line + "\n")]


def _wrong_codes(view: LobbyView) -> StyleAndTextTuples:
    """How many wrong codes this code has taken, and from where: the host may shut an
    address out, and draws a new code when it chooses (the guessers never make it)."""
    tried, limit = view.wrong_codes
    out: StyleAndTextTuples = []
    if tried >= limit > 0:
        line = _("The code is used up: {n} wrong codes were tried. Press c for a new one.")
        out.append(("class:verdict.bad", line.format(n=tried) + "\n"))
    elif tried:
        line = _("Wrong codes tried: {n} of {limit}; then none is tried until you press c.")
        out.append(("class:verdict.bad", line.format(n=tried, limit=limit) + "\n"))
    for n, guesser in enumerate(view.guessers[:MAX_GUESSERS_SHOWN], 1):
        wrong = ngettext("{n} wrong code", "{n} wrong codes", guesser.failures).format(
            n=guesser.failures
        )
        shut = "  " + _("shut out") if guesser.shut else ""
        out.append(("class:hint", f" s{n}  {guesser.address:<24} {wrong}{shut}\n"))
    return out


MAX_GUESSERS_SHOWN = 4


def _invite(code: str) -> StyleAndTextTuples:
    """The host's invite code, large (digits) and in words, to read out to the room."""
    shown = shown_code(code)
    out: StyleAndTextTuples = [("class:heading", _("Invite code: {code}").format(code=shown))]
    out.append(("class:hint", f"  ({code_in_words(shown, digit_words())})\n"))
    out += [("class:heading", "   " + row + "\n") for row in big_code(shown)]
    return out


def watcher_lines(watchers: tuple[tuple[str, str], ...]) -> StyleAndTextTuples:
    """Who watches the table, with their keys (the host's lobby and table)."""
    if not watchers:
        return []
    head = ngettext("{n} watches:", "{n} watch:", len(watchers)).format(n=len(watchers))
    out: StyleAndTextTuples = [("class:heading", head + "\n")]
    for name, key in watchers[:4]:
        out.append(("class:hint", f" {name:<16} {key}\n"))
    if len(watchers) > 4:
        out.append(("class:hint", " " + _("and {n} more").format(n=len(watchers) - 4) + "\n"))
    return out


def _requests(view: LobbyView) -> StyleAndTextTuples:
    """The host's queue of joiners to let in or turn away (and of people asking to
    watch, said so: a watcher takes no seat)."""
    if view.role != "host" or not view.asking:
        return []
    out: StyleAndTextTuples = [("class:heading", _("Asking to sit down:") + "\n")]
    for n, request in enumerate(view.asking[:5]):
        out.append(("class:seat.turn", f" {request.name:<16} {request.fingerprint}"))
        if request.watcher:
            out.append(("class:hint", "  " + _("wants to watch")))
        if n == 0:
            out.append(("class:hint", "  " + _("y let in  n turn away")))
        out.append(("", "\n"))
    out.append(("", "\n"))
    return out


def _table_list(view: LobbyView) -> StyleAndTextTuples:
    out: StyleAndTextTuples = [("class:heading", _("Tables heard on the LAN:") + "\n")]
    if not view.tables:
        out.append(("class:hint", " " + _("none yet: listening…") + "\n"))
    doubtful = look_alikes(list(view.tables))
    if doubtful:
        warning = _("Warning: several hosts use a name like this. Compare the host key.")
        out.append(("class:verdict.bad", warning + "\n"))
    for n, table in enumerate(view.tables):
        mark = "▶" if n == view.chosen else " "
        style = "class:seat.turn" if n == view.chosen else ""
        line = _(
            "{n}) {name}: {game} for {seats}, {free} free seat(s), {host}:{port}, host key {key}"
        ).format(
            n=n + 1,
            name=table.name,
            game=game_title(table.variant),
            seats=table.seats,
            host=table.host,
            port=table.port,
            free=table.free_seats,
            key=fingerprint(table.host_key),
        )
        if (table.table_id, table.host_key) in doubtful:
            line += "  ⚠"
        if table.via == "dns-sd":
            line += "  " + _("(DNS-SD, unsigned)")
        if table.watch > 0:  # a full or playing table one can still watch
            places = ngettext("watch: {n} place", "watch: {n} places", table.watch)
            line += "  " + places.format(n=table.watch)
        out.append((style, f"{mark}{line}\n"))
    for note in view.notes[-2:]:
        out.append(("class:hint", note + "\n"))
    return out


def lobby_keys(view: LobbyView) -> str:
    if view.closed:
        return _("q quit")
    if view.role == "watch":
        return _("q stop watching")
    if view.listening and not view.seated:
        return _("↑↓ choose  Enter join  a address  q quit")
    last = len(view.state.seats) - 1 if view.state is not None else 3
    if view.role == "host":
        if view.editing:
            return _("↑↓ choose  ←→ change  o or Esc done")
        if view.asking:
            return _("y let in  n turn away  b bots fill the free seats  q quit")
        if view.invite:
            return _(
                "b bots  x1-x{last} remove a seat  c new code  s1-s4 shut out  o rules  q quit"
            ).format(last=last)
        return _("b bots fill the free seats  x1-x{last} remove a seat  o rules  q quit").format(
            last=last
        )
    if view.state is None:  # still reaching the host: nothing to sit at yet
        return _("q quit")
    return _("r ready  1-{n} take a free seat  q quit").format(n=last)
