"""The LAN lobby as the screen shows it: tables heard, the game and its rules, who sits
where, who is ready; the host changes the rules here."""

from __future__ import annotations

import time
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
from p2pbelka.ui.lobbyfit import Line, Part, fit, line
from p2pbelka.ui.words import rulenames
from p2pbelka.ui.words.admission import lobby_reason
from p2pbelka.ui.words.i18n import _, ngettext
from p2pbelka.ui.words.lobbylog import rating_word
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
    rules_open: bool = False  # a joiner's: the whole list of rules shown (o)
    code_asked: str = ""  # a joiner's: why the host did not take the code, asked again
    quiet: bool = False  # a joiner's: listening a while and no table heard
    from_list: bool = False  # a joiner's: the host was chosen on the list (q goes back)
    ratings: dict[bytes, float] = field(default_factory=dict)  # by key, from our ledger

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
            if self.from_list:  # q, or giving up, brings the list back
                text = _(
                    "The host does not answer ({why}); trying again in {s:.0f} s,"
                    " back to the list in {left:.0f} s (q goes back now)."
                )
            else:
                text = _(
                    "The host does not answer ({why}); trying again in {s:.0f} s,"
                    " giving up in {left:.0f} s (q stops now)."
                )
            self.trying = text.format(why=self.trying_why, s=event.retry_in, left=event.gives_up_in)
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
            self.notes.append(_new_code_note(self.invite, event.failures))

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


def _new_code_note(code: str, failures: int) -> str:
    """When the host drew a new code and what became of the old: only the host draws
    one (wrong codes use a code up, they never change it)."""
    at = time.strftime("%H:%M")
    if failures:
        why = ngettext(
            "At {at} you drew a new invite code, {code}: the old one had {n} wrong code"
            " tried at it and takes none now. Tell the new one to your friends.",
            "At {at} you drew a new invite code, {code}: the old one had {n} wrong codes"
            " tried at it and takes none now. Tell the new one to your friends.",
            failures,
        )
        return why.format(at=at, code=code, n=failures)
    return _(
        "At {at} you drew a new invite code, {code}; the old one takes none now."
        " Tell the new one to your friends."
    ).format(at=at, code=code)


def _awaiting() -> str:
    return _("The host is deciding whether to let you in…")


def lobby_lines(
    view: LobbyView, width: int | None = None, rows: int | None = None
) -> StyleAndTextTuples:
    """The lobby as drawn in ``width``×``rows`` (None: no limit): who sits and who asks
    first, then the notes, the keys to compare, the invite code, the addresses and the
    rules, said shorter where the screen is small (``ui/lobbyfit.py``)."""
    return fit(lobby_parts(view), width, rows)


def lobby_parts(view: LobbyView) -> list[Part]:
    if view.closed:
        # nothing else: the seats and keys of a lobby one is no longer in would mislead
        why = _("The lobby closed: {why}").format(why=view.closed)
        return [Part([line("class:verdict.bad", why), [], line("", _("Press q to leave."))])]
    if view.code_asked:
        return [Part(_code_asked(view))]
    if view.listening and not view.seated:
        return [Part(_table_list(view))]
    if view.state is None:
        if view.role == "host":
            return [Part([line("class:hint", _("Opening the table…"))])]
        return [Part([line("class:hint", view.trying or _("Reaching the host's lobby…"))])]
    title = _("Table “{name}”").format(name=view.name or view.state.name)
    if view.role == "host":
        title += " — " + _("you host it")
    elif view.role == "watch":
        title += " — " + _("you watch it")
    notes = [line("class:hint", note) for note in view.notes[-3:]]
    rules = _rules(view)
    rules_open = view.editing or view.rules_open
    starts = _("The game starts when every seat is taken and ready.")
    addresses, watchers = _addresses(view), watcher_lines(view.watchers)
    # Most needed first (what is left off at the bottom matters least).  Said shorter,
    # in this order, until the lobby fits: the rules in a line (0), the invite code in
    # a line (10), no blank line (20), no "the game starts" (30), the port without the
    # addresses (40), the watchers counted (50), the last note only (60), no port (70).
    return [
        Part([line("class:heading", title)]),
        Part(_seats(view)),
        Part(_requests(view)),
        Part(notes, [(60, notes[-1:])]),
        Part([[]], [(20, [])]),
        Part(rules if rules_open else []),
        *_keys_to_compare(view),
        Part(addresses, [(40, addresses[:1]), (70, [])]),
        Part([]) if rules_open else Part([[], *rules], [(0, [_rules_short(view)])]),
        Part(watchers, [(50, watchers[:1])]),
        Part([] if view.asking else [line("class:hint", starts)], [(30, [])]),
    ]


def _seats(view: LobbyView) -> list[Line]:
    """Who plays with whom, then a row for each seat: name, key, ready."""
    assert view.state is not None
    out = [line("", _("Seats in play order: {sides}").format(sides=sides(view)))]
    for seat, info in enumerate(view.state.seats):
        you = " " + _("(you)") if seat == view.me else ""
        if info is None:
            out.append(line("class:hint", f" {seat}  " + _("free")))
            continue
        ready = _("ready") if info.ready else _("not ready")
        style = "class:verdict.ok" if info.ready else "class:hint"
        rating = view.ratings.get(info.key)
        out.append(
            [
                ("class:seat.me" if seat == view.me else "", f" {seat}  {info.name:<16} "),
                ("class:hint", f"{fingerprint(info.key)}  "),
                ("", "" if rating is None else rating_word(rating) + "  "),
                (style, ready),
                ("", you),
            ]
        )
    return out


def _addresses(view: LobbyView) -> list[Line]:
    """Where joiners reach the host's lobby (each address: which reaches a joiner is
    theirs to find)."""
    if view.lobby_port is None:
        return []
    head = _("Lobby port {port}; players join with: p2pbelka join").format(port=view.lobby_port)
    out = [line("class:hint", head)]
    for address in view.addresses:
        where = format_host_port(address, view.lobby_port)
        text = _("This machine is {address}: or p2pbelka join --connect {where}").format(
            address=address, where=where
        )
        out.append(line("class:hint", text))
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


def _rules(view: LobbyView) -> list[Line]:
    """The game and every rule; the host's line marked while it changes them."""
    assert view.state is not None
    game = game_title(view.variant)
    seats = len(view.state.seats)
    head = ngettext("{game} for {n}; the rules:", "{game} for {n}; the rules:", seats)
    out = [line("", head.format(game=game, n=seats))]
    for n, (name, value) in enumerate(view.rule_lines()):
        on = view.editing and n == view.rule
        mark = "▶" if on else " "
        words = (
            rulenames.rule_word(view.variant, name),
            rulenames.value_word(view.variant, name, value),
        )
        out.append(line("class:seat.turn" if on else "", f" {mark} {words[0]:<22} {words[1]}"))
    if view.role == "host":
        if view.editing:
            hint = _("↑↓ choose a rule, ←→ change it; every joiner must say ready again")
        else:
            hint = _("o changes the rules until the game starts")
    else:
        hint = _("o hides the rules") if view.rules_open else ""
    if hint:
        out.append(line("class:hint", "   " + hint))
    return out


def _rules_short(view: LobbyView) -> Line:
    """The game and its rules in one line, the whole list one key away."""
    assert view.state is not None
    preset = rulenames.value_word(view.variant, "preset", view.state.preset)
    seats = len(view.state.seats)
    text = ngettext(
        "{game} for {n}, rules: {preset}", "{game} for {n}, rules: {preset}", seats
    ).format(game=game_title(view.variant), n=seats, preset=preset)
    if view.role == "host":
        keys = _("o shows and changes them")
    else:
        keys = _("o shows them")
    return [("", text + "  "), ("class:hint", keys)]


def _keys_to_compare(view: LobbyView) -> list[Part]:
    """Which fingerprint a person should compare, and with whom; the host's invite code
    and the wrong codes tried at it."""
    if view.role == "host":
        text = _("Your key: {key}. Joiners compare it with what their screen shows.").format(
            key=view.my_fingerprint
        )
        parts = [Part([line("class:hint", text)])]
        if view.invite:
            big = _invite(view.invite)
            parts.append(Part(big, [(10, big[:1])]))
        parts.append(Part(_wrong_codes(view)))
        return parts
    if not view.host_fingerprint:
        return []
    if view.host_pinned:
        text = _("Host key {key}: checked.").format(key=view.host_fingerprint)
    else:
        text = _("Host key {key}: ask the host whether its screen shows the same.").format(
            key=view.host_fingerprint
        )
    return [Part([line("class:hint", text)])]


def _wrong_codes(view: LobbyView) -> list[Line]:
    """How many wrong codes this code has taken, and from where: the host may shut an
    address out, and draws a new code when it chooses (the guessers never make it)."""
    tried, limit = view.wrong_codes
    out: list[Line] = []
    if tried >= limit > 0:
        text = _("The code is used up: {n} wrong codes were tried. Press c for a new one.")
        out.append(line("class:verdict.bad", text.format(n=tried)))
    elif tried:
        text = _("Wrong codes tried: {n} of {limit}; then none is tried until you press c.")
        out.append(line("class:verdict.bad", text.format(n=tried, limit=limit)))
    for n, guesser in enumerate(view.guessers[:MAX_GUESSERS_SHOWN], 1):
        wrong = ngettext("{n} wrong code", "{n} wrong codes", guesser.failures).format(
            n=guesser.failures
        )
        shut = "  " + _("shut out") if guesser.shut else ""
        out.append(line("class:hint", f" s{n}  {guesser.address:<24} {wrong}{shut}"))
    return out


MAX_GUESSERS_SHOWN = 4


def _invite(code: str) -> list[Line]:
    """The host's invite code, large (digits) and in words, to read out to the room."""
    shown = shown_code(code)
    out: list[Line] = [
        [
            ("class:heading", _("Invite code: {code}").format(code=shown)),
            ("class:hint", f"  ({code_in_words(shown, digit_words())})"),
        ]
    ]
    out += [line("class:heading", "   " + row) for row in big_code(shown)]
    return out


def watcher_lines(watchers: tuple[tuple[str, str], ...]) -> list[Line]:
    """Who watches the table, with their keys (the host's lobby)."""
    if not watchers:
        return []
    head = ngettext("{n} watches:", "{n} watch:", len(watchers)).format(n=len(watchers))
    out = [line("class:heading", head)]
    for name, key in watchers[:4]:
        out.append(line("class:hint", f" {name:<16} {key}"))
    if len(watchers) > 4:
        out.append(line("class:hint", " " + _("and {n} more").format(n=len(watchers) - 4)))
    return out


def _requests(view: LobbyView) -> list[Line]:
    """The host's queue of joiners to let in or turn away (and of people asking to
    watch, said so: a watcher takes no seat)."""
    if view.role != "host" or not view.asking:
        return []
    out = [line("class:heading", _("Asking to sit down:"))]
    for n, request in enumerate(view.asking[:MAX_ASKING_SHOWN]):
        row: Line = [("class:seat.turn", f" {request.name:<16} {request.fingerprint}")]
        if request.watcher:
            row.append(("class:hint", "  " + _("wants to watch")))
        if n == 0:
            row.append(("class:hint", "  " + _("y let in  n turn away")))
        out.append(row)
    more = len(view.asking) - MAX_ASKING_SHOWN
    if more > 0:
        out.append(line("class:hint", " " + _("and {n} more").format(n=more)))
    return out


MAX_ASKING_SHOWN = 3


def _code_asked(view: LobbyView) -> list[Line]:
    """A joiner whose invite code the host did not take: why, and the code asked again."""
    return [
        line("class:verdict.bad", view.code_asked),
        [],
        line("", _("Type the invite code the host's screen shows, then Enter.")),
        line("class:hint", _("An empty code joins a table that has none; Esc leaves.")),
    ]


def _table_list(view: LobbyView) -> list[Line]:
    out = [line("class:heading", _("Tables heard on the LAN:"))]
    if not view.tables:
        out.append(line("class:hint", " " + _("none yet: listening…")))
        if view.quiet:
            out.append(
                line(
                    "class:hint",
                    " "
                    + _(
                        "No table heard for a while: the host's network may not carry its"
                        " beacons. Press a and type the address the host's lobby shows"
                        " (host:port), or join with: p2pbelka join --connect HOST:PORT"
                    ),
                )
            )
    doubtful = look_alikes(list(view.tables))
    if doubtful:
        warning = _("Warning: several hosts use a name like this. Compare the host key.")
        out.append(line("class:verdict.bad", warning))
    for n, table in enumerate(view.tables):
        mark = "▶" if n == view.chosen else " "
        style = "class:seat.turn" if n == view.chosen else ""
        text = _(
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
            text += "  ⚠"
        if table.via == "dns-sd":
            text += "  " + _("(DNS-SD, unsigned)")
        if table.watch > 0:  # a full or playing table one can still watch
            places = ngettext("watch: {n} place", "watch: {n} places", table.watch)
            text += "  " + places.format(n=table.watch)
        out.append(line(style, f"{mark}{text}"))
    for note in view.notes[-2:]:
        out.append(line("class:hint", note))
    return out


def lobby_keys(view: LobbyView) -> str:
    return "  ".join(key_hints(view))


def key_hints(view: LobbyView) -> list[str]:
    """The keys that do something now, most needed first, q last."""
    if view.closed:
        return [_("q quit")]
    if view.code_asked:
        return [_("Enter try this code"), _("Esc leave")]
    if view.role == "watch":
        return [_("q stop watching")]
    if view.listening and not view.seated:
        return [_("↑↓ choose  Enter join  a address  q quit")]
    if view.state is None:  # still reaching the host: nothing to sit at yet
        return [_("q back to the list") if view.from_list else _("q quit")]
    last = len(view.state.seats) - 1
    if view.role == "host":
        asking = [_("y let in"), _("n turn away")] if view.asking else []
        if view.editing:
            return [_("↑↓ choose  ←→ change  o or Esc done"), *asking, _("q quit")]
        out = asking
        if view.invite:
            out.append(_("c new code"))
        shown = min(len(view.guessers), MAX_GUESSERS_SHOWN)
        if shown:
            out.append(_("s1-s{n} shut out").format(n=shown) if shown > 1 else _("s1 shut out"))
        if view.free_seats and not view.bots_asked:
            out.append(_("b bots fill the free seats"))
        if any(seat is not None for seat in view.state.seats[1:]):
            out.append(_("x1-x{last} remove a seat").format(last=last))
        # the rules' own line says o too, should this one be left off a narrow line
        return [*out, _("o rules"), _("q quit")]
    if view.me is None:  # waiting for the host's answer: no seat to say ready in yet
        return [_("o rules"), _("q quit")]
    out = [_("r take back ready") if view.my_ready else _("r ready")]
    if view.free_seats:
        out.append(_("1-{n} take a free seat").format(n=last))
    hide = _("o hide the rules") if view.rules_open else _("o rules")
    return [*out, hide, _("q quit")]
