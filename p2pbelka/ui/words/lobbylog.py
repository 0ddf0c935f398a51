"""The lobby in text mode: a line for each lobby event, in the player's language.

A :class:`LobbyPrinter` is made for each run of ``host`` or ``join``: it remembers
the rules last shown, so a change of them names each rule that changed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from p2pbelka.ui.words.i18n import _, ngettext
from p2pbelka.ui.words.oserrors import trying_why

if TYPE_CHECKING:
    from p2pbelka.peer.lan import LobbyEvent, WatcherView
    from p2pbelka.protocol.lobby import LobbyState

RATINGS_WAIT = 1.0
"""Seconds a seats line waits at most for the players' ratings (a busy ledger): then it
is printed without them, and the lobby goes on."""


def say(line: str) -> None:
    print(line, flush=True)


class LobbyPrinter:
    """``on_lobby`` of ``host_game`` and ``join_game`` (or of a door in front of it)."""

    def __init__(self, home: str | os.PathLike[str] | None = None) -> None:
        self._rules: list[tuple[str, str]] | None = None
        self._home = home
        self._ratings: dict[bytes, float] = {}
        self._rated: tuple[str, tuple[bytes, ...]] | None = None
        self.game_id: bytes | None = None
        """The game that started from this lobby (Ctrl-C then says how to go on with it)."""

    async def __call__(self, event: LobbyEvent) -> None:
        from p2pbelka.peer.lan import GameStarting, ResultsShared, SeatsChanged, TableRules

        if isinstance(event, GameStarting):
            self.game_id = event.game_id
        if isinstance(event, ResultsShared) and event.counted:
            self._rated = None  # the ledger changed: the next seats line reads it again
        if isinstance(event, SeatsChanged):
            await self._rate(event.state)
        if isinstance(event, TableRules):
            say(self.rules_line(event.state, event.changed))
        else:
            line = event_line(event, self._ratings)
            if line is not None:
                say(line)

    async def _rate(self, state: LobbyState) -> None:
        """The seated players' ratings from the ledger, read again only when who sits
        changed, and waited for a bounded time."""
        import trio

        from p2pbelka.ui.ladder import lobby_ratings

        asked = (state.variant, tuple(s.key for s in state.seats if s is not None))
        if asked == self._rated:
            return
        self._rated = asked
        with trio.move_on_after(RATINGS_WAIT):
            self._ratings = await lobby_ratings(self._home, *asked)

    def rules_line(self, state: LobbyState, changed: bool) -> str:
        from p2pbelka.ui.words import rulenames

        rules = rulenames.rule_values(state.variant, state.preset, state.options)
        before, self._rules = self._rules, rules
        if not changed:
            return describe_table(state)
        what = rulenames.changes(state.variant, before or [], rules) if before else []
        if what:
            return _("the host changed the rules ({changes}): {table}").format(
                changes="; ".join(what), table=describe_table(state)
            )
        return _("the host changed the rules: {table}").format(table=describe_table(state))


def describe_table(state: LobbyState) -> str:
    """The game, seats and every rule of a lobby, on one line."""
    from p2pbelka.ui.words import rulenames

    game = state.variant
    rules = "; ".join(
        f"{rulenames.rule_word(game, name)}: {rulenames.value_word(game, name, value)}"
        for name, value in rulenames.rule_values(game, state.preset, state.options)
    )
    seats = len(state.seats)
    head = ngettext("table: {game} for {n}", "table: {game} for {n}", seats)
    return head.format(game=rulenames.game_word(game), n=seats) + f"; {rules}"


def rating_word(rating: float) -> str:
    """A player's rating beside their name in a lobby (from this machine's ledger)."""
    return _("rating {rating}").format(rating=f"{rating:.1f}")


def event_line(event: LobbyEvent, ratings: Mapping[bytes, float] | None = None) -> str | None:
    """The line of a lobby event other than the rules; None for one not printed
    (``ratings``: the players' by key, said beside each seated one known)."""
    from p2pbelka.net.identity import fingerprint
    from p2pbelka.peer.lan import (
        AwaitingApproval,
        GameStarting,
        HostReached,
        InviteChanged,
        LobbyClosed,
        LobbyReopened,
        ResultsShared,
        SeatsChanged,
        StillTrying,
        TableOpen,
        TablesHeard,
        WatchersCatchingUp,
        WatchersChanged,
        WrongCodeTried,
    )

    if isinstance(event, TableOpen):
        line = _("table open: lobby port {lobby}, game port {game}, table id {id}").format(
            lobby=event.lobby_port, game=event.mesh_port, id=event.table_id.hex()
        )
        from p2pbelka.net.connection import format_host_port

        for address in event.addresses:  # each: which one reaches a joiner is theirs
            where = format_host_port(address, event.lobby_port)
            line += "\n" + _(
                "this machine is {address}: join with p2pbelka join --connect {where}"
            ).format(address=address, where=where)
        return line
    if isinstance(event, LobbyReopened):
        if event.lobby_port == event.old_port:
            return _("the lobby is open to watchers again on port {port}").format(
                port=event.lobby_port
            )
        return _(
            "the lobby is open to watchers again on port {port} (port {old} was taken:"
            " watchers find the table by its beacons, or dial the new port)"
        ).format(port=event.lobby_port, old=event.old_port)
    if isinstance(event, HostReached):
        if event.pinned:
            line = _("host at {address} answers with key {key}: checked")
        else:
            line = _(
                "host at {address} answers with key {key}: ask the host whether its screen"
                " shows the same, or pin it with --key"
            )
        return line.format(address=event.address, key=event.fingerprint)
    if isinstance(event, StillTrying):
        return _(
            "the host does not answer ({why}); trying again in {s:.1f} s, giving up in {left:.0f} s"
        ).format(
            why=trying_why(event.why, event.error, event.where),
            s=event.retry_in,
            left=event.gives_up_in,
        )
    if isinstance(event, AwaitingApproval):
        return _("the host is deciding whether to let you in")
    if isinstance(event, ResultsShared):  # the lobby's exchange (the words of a table's)
        line = _("ladder: {came} results came from the table, {counted} counted")
        return line.format(came=event.came, counted=event.counted)
    if isinstance(event, TablesHeard):
        n = len(event.tables)
        return ngettext("heard {n} table", "heard {n} tables", n).format(n=n)
    if isinstance(event, SeatsChanged):
        parts = []
        for seat, view in enumerate(event.state.seats):
            if view is None:
                parts.append(_("{seat}: free").format(seat=seat))
            else:
                mark = _("ready") if view.ready else _("not ready")
                rating = (ratings or {}).get(view.key)
                if rating is not None:
                    mark = rating_word(rating) + ", " + mark
                parts.append(f"{seat}: {view.name} [{fingerprint(view.key)}] {mark}")
        you = _(" (you: seat {n})").format(n=event.me) if event.me is not None else ""
        return _("seats: {seats}").format(seats="; ".join(parts)) + you
    if isinstance(event, WatchersChanged):
        who = named(event.watchers)
        places = ngettext("{n} more place", "{n} more places", event.places).format(n=event.places)
        if not event.watchers:
            return _("nobody is watching ({places})").format(places=places)
        return ngettext(
            "{n} watching: {who} ({places})", "{n} watching: {who} ({places})", len(event.watchers)
        ).format(n=len(event.watchers), who=who, places=places)
    if isinstance(event, WatchersCatchingUp):
        who = named(event.watchers)
        return ngettext(
            "the game is over; {n} watcher has not had all of it yet ({who}): this program"
            " waits while it takes the rest, {limit:.0f} s at most",
            "the game is over; {n} watchers have not had all of it yet ({who}): this program"
            " waits while they take the rest, {limit:.0f} s at most",
            len(event.watchers),
        ).format(n=len(event.watchers), who=who, limit=event.limit)
    if isinstance(event, GameStarting):
        return _("starting game {id} in seat {seat}").format(
            id=event.game_id.hex(), seat=event.seat
        )
    if isinstance(event, LobbyClosed):
        from p2pbelka.ui.words.admission import lobby_reason

        return _("lobby closed: {why}").format(why=lobby_reason(event.why))
    if isinstance(event, InviteChanged):
        from p2pbelka.net.pake import shown_code

        return invite_lines(shown_code(event.code), event.failures)
    if isinstance(event, WrongCodeTried):
        who = ", ".join(f"{g.address} ×{g.failures}" for g in event.guessers[:4])
        if event.failures >= event.limit:
            line = _("{n} wrong invite codes were tried: the code is used up; type 'code'")
        else:
            line = _("a wrong invite code was tried ({n} of {limit} before it is used up)")
        return line.format(n=event.failures, limit=event.limit) + (f" [{who}]" if who else "")
    return None


def invite_lines(code: str, changed_after: int | None = None) -> str:
    """The host's invite code, as shown and in words, and what joiners type; a new one
    (drawn after ``changed_after`` wrong codes) said to be new."""
    from p2pbelka.net.pake import code_in_words, normal_code
    from p2pbelka.ui.bigcode import digit_words

    line = _("invite code: {code}  ({words})").format(
        code=code, words=code_in_words(code, digit_words())
    )
    if changed_after is not None:
        line = _("NEW") + " " + line
    joiners = _("joiners: p2pbelka join --invite {typed}")
    return line + "\n" + joiners.format(typed=normal_code(code).decode())


def named(watchers: Sequence[WatcherView]) -> str:
    """Watchers as the host's lines name them: name and key's fingerprint."""
    return ", ".join(f"{w.name} [{w.fingerprint}]" for w in watchers)
