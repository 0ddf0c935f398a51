"""Joining a table: reach the host's lobby, sit, follow it until the start, check the
host's table description before signing anything under it, then play our seat."""

from __future__ import annotations

import logging
import os

import trio

from p2pbelka.bots import parse_level
from p2pbelka.ladder.share import is_wrapped
from p2pbelka.net.connection import SecureChannel, dial, format_host_port
from p2pbelka.net.errors import (
    ConnectError,
    GuessRefused,
    NetError,
    TamperedHandshake,
    UnexpectedPeerKey,
    VersionMismatch,
    WrongInviteCode,
)
from p2pbelka.net.handshake import PAKE_VERSION, PROTOCOL_VERSION
from p2pbelka.net.identity import Identity, matches_pin
from p2pbelka.net.network import jitter
from p2pbelka.net.oserrors import explain, first_os_error
from p2pbelka.net.pake import normal_code
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.driver import FrontEnd
from p2pbelka.peer.lan.addresses import rescoped
from p2pbelka.peer.lan.events import (
    AwaitingApproval,
    CodeRefused,
    GameStarting,
    HostReached,
    HostUnreachable,
    LobbyClosed,
    LobbyControl,
    LobbyRefused,
    OnLobby,
    SeatsChanged,
    StillTrying,
    TableRules,
    ignore,
)
from p2pbelka.peer.lan.host import lobby_news, lobby_shares, tell_changes
from p2pbelka.peer.lobbyshare import LobbyShares
from p2pbelka.peer.newgame import Seating, join_seat, play_new_seat
from p2pbelka.peer.seat import GameResult, MeshHolder, NetOptions, serve_mesh, signer_of
from p2pbelka.peer.store import id_used_reason, known_game
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import ProtocolError
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table

log = logging.getLogger(__name__)

FIRST_RETRY = 0.5
LAST_RETRY = 8.0
GUESS_WAIT = 30.0
"""Seconds a joiner waits on its own for a host that asks it to (after a wrong code)."""


async def join_game(
    identity: Identity,
    host: str,
    port: int,
    front_end: FrontEnd,
    *,
    host_key: bytes | None = None,
    host_pin: str | None = None,
    net: NetOptions | None = None,
    on_lobby: OnLobby = ignore,
    ready: bool = True,
    bot: str | None = None,
    invite: str | None = None,
) -> GameResult:
    """Sit at the table whose lobby listens at ``host:port`` (``host_key`` pinned when
    known from a beacon, or ``host_pin``, a fingerprint or key the user typed, see
    :func:`normal_pin`), wait for the start, then play until the game ends.  A host
    that does not answer, or is too busy, is tried again with backoff for
    ``net.reach_for`` seconds (``StillTrying`` says so), then given up on
    (``HostUnreachable``, the last reason).  With ``ready=False`` the front end
    says ready through ``SeatsChanged.control``.  A wrong ``invite`` code, or none where
    the table wants one, is ``LobbyRefused`` in words."""
    net = net or NetOptions()
    try:
        code = normal_code(invite) if invite else None
    except ValueError as exc:
        raise CodeRefused(str(exc)) from None
    lobby_channel = await reach_lobby(
        identity, (host, port), host_key, host_pin, code, on_lobby, net.reach_for
    )
    async with lobby_channel:
        first = await _first_look(lobby_channel, host, port, bot)
        await on_lobby(TableRules(first))
        # Fresh for this lobby connection: the table must carry it at our seat, so its
        # game id (derived from every seat's nonce) is one we never signed under.
        nonce = net.new_nonce()
        holder = MeshHolder()
        refused: LobbyRefused | None = None
        result: GameResult | None = None
        async with trio.open_nursery() as nursery:
            mesh_port = await nursery.start(serve_mesh, identity, net, holder)
            shares = await _lobby_shares(identity, net, on_lobby, nursery)
            try:
                start, setup, game_id = await _sit(
                    lobby_channel,
                    identity,
                    first,
                    net.advertise_port or mesh_port,
                    ready,
                    on_lobby,
                    nonce,
                    net.home,
                    shares,
                )
            except LobbyRefused as exc:
                refused = exc  # raised below, not inside the nursery's exception group
            else:
                peers = [
                    (host if i == 0 else rescoped(a, host), p)
                    for i, (a, p) in enumerate(start.peers)
                ]
                seating = Seating(game_id, setup, peers, mesh_port, bot, first.name)
                new = join_seat(identity, net, seating, nonce, start.table)
                await lobby_channel.aclose()
                await on_lobby(GameStarting.of(new, mesh_port))
                result = await play_new_seat(identity, new, front_end, net, holder)
            nursery.cancel_scope.cancel()
    if refused is not None:
        raise refused
    assert result is not None
    return result


async def _lobby_shares(
    identity: Identity, net: NetOptions, on_lobby: OnLobby, nursery: trio.Nursery
) -> LobbyShares | None:
    """The results' exchange with the host (results.md 6.2), its news told beside the
    lobby; None, and no task started, if the player turned sharing off."""
    if not (net.share_results and net.share_in_lobby):
        return None
    tell, told = lobby_news()
    nursery.start_soon(tell_changes, told, on_lobby)
    return await lobby_shares(identity, net, tell, nursery)


async def _first_look(
    channel: SecureChannel, host: str, port: int, bot: str | None
) -> lb.LobbyState:
    """The lobby as the host shows it first: a table this version plays, at which our
    bot (if one plays for us) has its level; ``LobbyRefused`` if not."""
    try:
        first = lb.decode_control(await channel.receive())
    except (lb.LobbyError, NetError) as exc:
        raise LobbyRefused(f"no lobby at {host}:{port}: {exc}") from None
    if isinstance(first, lb.Refuse):
        raise LobbyRefused(first.why)
    if not isinstance(first, lb.LobbyState):
        raise LobbyRefused(f"expected the lobby, got {type(first).__name__}")
    try:
        lb.check_table(first.variant, len(first.seats), first.preset, first.options)
    except ValueError as exc:
        raise LobbyRefused(f"this version cannot play that table: {exc}") from None
    if bot is not None:  # our bot sits down only where its game has its level
        try:
            parse_level(bot, first.variant)
        except ValueError as exc:
            raise LobbyRefused(f"no {bot} bot at this table: {exc}") from None
    return first


async def reach_lobby(
    identity: Identity,
    where: tuple[str, int],
    host_key: bytes | None,
    host_pin: str | None,
    code: bytes | None,
    on_lobby: OnLobby,
    patience: float,
) -> SecureChannel:
    """Dial the lobby until it answers, for ``patience`` seconds at most; a wrong key is
    final, a busy or silent host is not, until then."""
    host, port = where
    give_up_at = trio.current_time() + patience

    def pinned(key: bytes) -> bool:
        return host_pin is not None and matches_pin(key, host_pin)

    delay = FIRST_RETRY
    attempt = 0
    error: OSError | None = None
    while True:
        attempt += 1
        at_least = 0.0
        try:
            channel = await dial(
                host,
                port,
                identity,
                expected_peer_key=host_key,
                authorize=pinned if host_pin is not None else None,
                context=lb.LOBBY_CONTEXT,
                attempts=1,
                code=code,
            )
        except ConnectError as exc:
            # In words ("nothing listens at ...: check the address"), and tried again for
            # a while: the host may not have opened its table yet.
            cause = first_os_error(exc)
            why = explain(cause, format_host_port(host, port)) if cause else str(exc)
            error = cause
        except UnexpectedPeerKey:
            raise LobbyRefused(
                "the key that answered is not the host's you named: someone else is at"
                f" {format_host_port(host, port)}, or the address is wrong"
            ) from None
        except WrongInviteCode:
            raise CodeRefused(
                "the invite code is wrong: the host's table wants another one (ask the host"
                " to read it out again)"
            ) from None
        except GuessRefused as exc:
            if exc.reason != "wait" or exc.seconds > min(
                GUESS_WAIT, give_up_at - trio.current_time()
            ):
                raise _untested(exc) from None
            # A wrong code a moment ago from this address: the host tests the next one
            # after a short pause, so the joiner waits it out and tries again.
            why, error, at_least = "the host waits a moment after a wrong code", None, exc.seconds
        except TamperedHandshake:
            raise LobbyRefused(
                "the host's answer does not decrypt: tampered with on the way, or a host of"
                " an older version whose table wants an invite code"
            ) from None
        except VersionMismatch as exc:
            raise _version_refusal(exc, code is not None) from None
        else:
            address = format_host_port(host, port)
            await on_lobby(
                HostReached(
                    address,
                    channel.peer_fingerprint,
                    host_key is not None or pinned(channel.peer_key),
                )
            )
            return channel
        left = give_up_at - trio.current_time()
        if left <= 0:
            # A wrong address never starts answering: say so rather than try forever.
            raise HostUnreachable(
                f"{why} (no answer for {patience:.0f} s: given up)",
                error,
                format_host_port(host, port),
                patience,
                why,
            )
        # Jitter spreads the joiners a flood turned away, so they do not return together.
        wait = min(max(at_least, delay * jitter(0.75, 1.25)), left)
        await on_lobby(StillTrying(attempt, why, wait, left, error, format_host_port(host, port)))
        await trio.sleep(wait)
        delay = min(delay * 2, LAST_RETRY)


def _untested(exc: GuessRefused) -> LobbyRefused:
    """Why the host would not test our code, to a player (a used-up code: the host may
    draw another, so the code may be asked again)."""
    if exc.reason == "spent":
        return CodeRefused(
            "the host's invite code is used up by wrong guesses: ask the host for a new one"
        )
    return LobbyRefused(
        "the host tests no code from this address for a while after wrong codes:"
        " ask the host to let you try again"
    )


def _version_refusal(exc: VersionMismatch, have_code: bool) -> LobbyRefused:
    """What the host's version answer means to a player: a code missing, or one too many
    (both worth typing again), or another version."""
    if exc.peer_version == PAKE_VERSION and not have_code:
        return CodeRefused("this table wants an invite code: ask the host for it")
    if exc.peer_version == PROTOCOL_VERSION and have_code:
        return CodeRefused("this table has no invite code: join without one")
    return LobbyRefused(f"the host speaks another version of the handshake: {exc}")


async def _sit(
    channel: SecureChannel,
    identity: Identity,
    first: lb.LobbyState,
    port: int,
    ready: bool,
    on_lobby: OnLobby,
    nonce: bytes,
    home: str | os.PathLike[str] | None,
    shares: LobbyShares | None = None,
) -> tuple[lb.Start, m.TableMsg, bytes]:
    """Say hello (with our ``nonce``), wait for the start; ``LobbyRefused`` if it does
    not come, or does not pass ``checked_setup``.  With ``ready`` the seat says ready
    at once, and again after each change of the rules (a script or bot takes any
    rules the game allows).  ``shares``: results
    shared with the host once it seats us (results.md 6.2).  The start, its table and
    the game id."""
    control = LobbyControl(channel)
    control.rules = first.rules
    try:
        await channel.send(lb.encode_control(lb.Hello(identity.name, "", port, nonce)))
        if ready:
            await control.ready(True)
    except NetError as exc:
        raise LobbyRefused(f"the lobby connection failed: {exc}") from exc
    last = [first]
    start = await _wait_for_start(channel, identity, control, on_lobby, ready, last, shares)
    setup, game_id = checked_setup(identity, last[0], start, channel.peer_key, nonce, home)
    return start, setup, game_id


async def _wait_for_start(
    channel: SecureChannel,
    identity: Identity,
    control: LobbyControl,
    on_lobby: OnLobby,
    auto_ready: bool,
    last: list[lb.LobbyState],
    shares: LobbyShares | None = None,
) -> lb.Start:
    """Follow the lobby until ``start``; ``last[0]`` is the last lobby state seen."""
    try:
        async for payload in channel:
            if is_wrapped(payload):
                if shares is not None:
                    shares.heard(channel, payload)
                continue
            try:
                msg = lb.decode_control(payload)
            except lb.LobbyError as exc:
                log.warning("lobby: ignored a message from the host: %s", exc)
                continue
            if isinstance(msg, lb.LobbyState):
                if not _same_table(msg, last[0]):
                    log.warning("lobby: the host changed the game or seats; ignored")
                    continue
                changed = msg.rules != last[0].rules
                last[0] = msg
                control.rules = msg.rules
                if changed:
                    await on_lobby(TableRules(msg, changed=True))
                me = msg.seat_of(identity.public_key)
                if me is not None and shares is not None:
                    shares.begin(channel)  # once: the host answers a seated joiner
                await on_lobby(SeatsChanged(msg, me, control))
                seat = msg.seats[me] if me is not None else None
                if changed and auto_ready and seat is not None and not seat.ready:
                    await control.ready(True)
            elif isinstance(msg, lb.Wait):
                await on_lobby(AwaitingApproval())
            elif isinstance(msg, lb.Refuse):
                await on_lobby(LobbyClosed(msg.why))
                raise LobbyRefused(msg.why)
            elif isinstance(msg, lb.Start):
                if shares is not None:
                    shares.stop()
                return msg
    except NetError as exc:
        raise LobbyRefused(f"the lobby connection failed: {exc}") from exc
    await on_lobby(LobbyClosed("the host closed the lobby"))
    raise LobbyRefused("the host closed the lobby before the game started")


def _same_table(state: lb.LobbyState, first: lb.LobbyState) -> bool:
    """The game id, the game and the seat count stay what the joiner sat down to."""
    return (state.game, state.variant, len(state.seats)) == (
        first.game,
        first.variant,
        len(first.seats),
    )


def checked_setup(
    identity: Identity,
    lobby: lb.LobbyState,
    start: lb.Start,
    host_key: bytes,
    nonce: bytes,
    home: str | os.PathLike[str] | None,
) -> tuple[m.TableMsg, bytes]:
    """Check the host's ``table`` envelope before building anything on it (and so
    before we sit and sign): a valid table, signed by the host, that seats us, under
    the game id its seats' nonces give, with our ``nonce`` at our seat, an id this
    machine never kept a game under, and the game, seats and rules the lobby showed
    last.  The table and the game id."""
    try:
        envelope = open_envelope(start.table)
    except ProtocolError as exc:
        raise LobbyRefused(f"the host sent a bad table envelope: {exc}") from None
    game_id = envelope.game
    probe = Table(game_id, signer=signer_of(identity), nonce=nonce)
    probe.receive_envelope(envelope)
    problems = [e.reason for e in probe.take_events() if isinstance(e, ev.Rejected)]
    if probe.state.setup is None or problems:
        raise LobbyRefused("the host's table envelope was refused: " + "; ".join(problems))
    if envelope.sender != host_key:
        raise LobbyRefused("the table envelope is not signed by the host")
    if probe.state.me is None:
        raise LobbyRefused("we are not seated in the host's table envelope")
    setup = probe.state.setup
    shown = (lobby.variant, lobby.preset, dict(sorted(lobby.options.items())), len(lobby.seats))
    if (setup.game, setup.preset, dict(setup.options), len(setup.seats)) != shown:
        raise LobbyRefused("the host's table has other rules or seats than its lobby showed")
    if len(start.peers) != len(setup.seats):
        raise LobbyRefused("the host's start names a different number of seats than its table")
    if known_game(game_id, home):
        # All but impossible with our fresh nonce in it: refused all the same, since a
        # place is (game id, seat, seq) and an id we used would let old envelopes count.
        raise LobbyRefused(id_used_reason(game_id))
    return setup, game_id
