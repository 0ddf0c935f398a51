"""A seat whose link to the host comes up late hears who watches (SPEC 7.5): the host's
``/watching`` line is standing, put on every link of its mesh as it opens, re-dialled ones
too, with no new signature (so the sending limit is not spent), and a seat that heard it
already drops the copy quietly.  Two real meshes on one loopback connection."""

from __future__ import annotations

from typing import cast

import trio
from trio.testing import MockClock

from p2pbelka.net.connection import SecureChannel, open_secure_channel
from p2pbelka.net.handshake import Role
from p2pbelka.net.identity import Identity
from p2pbelka.peer.chat import REPLAYED, SEND_BURST, SEND_EVERY, WATCHING, Chat
from p2pbelka.peer.lan.events import JoinRequest
from p2pbelka.peer.lan.watchers import Feed, Watcher
from p2pbelka.peer.mesh import Mesh
from p2pbelka.protocol.chat import ChatMsg, open_chat
from p2pbelka.protocol.envelope import Signer

GAME = bytes(range(16))
SIGNERS = [Signer.from_seed(bytes([n + 1]) * 32) for n in range(4)]
KEYS = [s.public_key for s in SIGNERS]
NAMES = ["Asel", "Bolat", "Saule", "Nurlan"]
HOST_ID, SEAT_ID = Identity.generate("host"), Identity.generate("seat")


def _mesh(identity: Identity, me: int) -> Mesh:
    return Mesh(identity, GAME, me, KEYS, [], source=lambda *a, **k: [], wants=list)


async def _link(host: Mesh, seat: Mesh, nursery: trio.Nursery) -> trio.CancelScope:
    """One real TCP link between the host's seat (0) and seat 3, carried by both meshes."""
    listener = (await trio.open_tcp_listeners(0, host="127.0.0.1"))[0]
    port = listener.socket.getsockname()[1]
    ends: dict[str, SecureChannel] = {}

    async def accept() -> None:
        stream = await listener.accept()
        ends["host"] = await open_secure_channel(stream, HOST_ID, Role.RESPONDER, context=GAME)

    async with trio.open_nursery() as opening:
        opening.start_soon(accept)
        stream = await trio.open_tcp_stream("127.0.0.1", port)
        ends["seat"] = await open_secure_channel(stream, SEAT_ID, Role.INITIATOR, context=GAME)
    await listener.aclose()
    scope = trio.CancelScope()

    async def carry() -> None:
        with scope:
            async with trio.open_nursery() as both:
                both.start_soon(host.serve_channel, 3, ends["host"])
                both.start_soon(seat.serve_channel, 0, ends["seat"])

    nursery.start_soon(carry)
    return scope


async def test_a_seat_linked_late_hears_who_watches_and_a_redial_says_it_again_quietly() -> None:
    host, seat = _mesh(HOST_ID, 0), _mesh(SEAT_ID, 3)
    host_chat = Chat(SIGNERS[0], GAME, 0, KEYS, NAMES, host.send_chat)
    host.standing_chat = lambda: host_chat.standing  # as the seat wires it (peer/seat.py)
    seat_chat = Chat(SIGNERS[3], GAME, 3, KEYS, NAMES, seat.send_chat)
    seat.on_chat = seat_chat.heard
    heard: list[ChatMsg] = []
    arrived = trio.Event()
    seat_chat.taps.append(lambda msg: (heard.append(msg), arrived.set()))
    feed = Feed(4)
    dana = JoinRequest(b"d" * 32, "Dana", "127.0.0.1", watcher=True)
    feed.watchers.append(Watcher(dana, cast(SecureChannel, None), None))
    feed.follow(host_chat)  # said while no link is up: nobody hears it now
    for n in range(SEND_BURST - 1):  # the host's player chats the sending limit away
        host_chat.say(f"hello {n}")
    async with trio.open_nursery() as nursery:
        link = await _link(host, seat, nursery)
        with trio.fail_after(30):
            await arrived.wait()
        assert [m.text for m in heard] == ["/watching Dana"]
        link.cancel()  # the link drops and comes back: the line comes again, dropped quietly
        await _link(host, seat, nursery)
        with trio.fail_after(30):
            while not seat_chat.dropped[REPLAYED]:
                await trio.sleep(0.01)
        assert [m.text for m in heard] == ["/watching Dana"]
        nursery.cancel_scope.cancel()


async def test_a_watchers_line_the_sending_limit_refuses_is_said_once_it_allows(
    autojump_clock: MockClock,
) -> None:
    """The host's player chatted its sending limit away: the line naming who watches was
    refused, and said only with the next change of watchers (none came: the seats were
    told of nobody, for the rest of the game).  It is held now and said as soon as the
    limit allows, the latest list then; and said again for a continuation's segment,
    since a line of the segment left is dropped (SPEC 7.4, rule 3)."""
    sent: list[ChatMsg] = []
    host_chat = Chat(SIGNERS[0], GAME, 0, KEYS, NAMES, lambda raw: sent.append(open_chat(raw)))
    feed = Feed(4)
    feed.follow(host_chat)
    async with trio.open_nursery() as nursery:
        host_chat.nursery = nursery  # as the seat gives it (``Chat.waiting_in``)
        for n in range(SEND_BURST):  # the host's player chats the sending limit away
            host_chat.say(f"hello {n}")
        for name in ("Dana", "Ayan"):  # two watchers come meanwhile
            view = JoinRequest(name.encode() * 8, name, "127.0.0.1", watcher=True)
            feed.watchers.append(Watcher(view, cast(SecureChannel, None), None))
            feed._changed()
        assert host_chat.standing is None
        with trio.fail_after(SEND_EVERY * 2):
            while host_chat.standing is None:
                await trio.sleep(0.1)
        said = [m.text for m in sent if m.text.startswith(WATCHING)]
        assert said == ["/watching Dana, Ayan"]  # the latest, once
        assert open_chat(host_chat.standing).text == said[0]
        later = bytes(range(16, 32))  # the game goes on in a continuation
        with trio.fail_after(SEND_EVERY * 2):
            host_chat.enter(later)
            while open_chat(host_chat.standing).game != later:
                await trio.sleep(0.1)
        assert [m.text for m in sent if m.text.startswith(WATCHING)] == [said[0]] * 2


async def test_a_watcher_who_comes_as_the_game_closes_does_not_stop_the_host(
    autojump_clock: MockClock,
) -> None:
    """The game's nursery had closed when a watcher came with the sending limit spent:
    the held line's task was started in it anyway, and the host's lobby failed with
    "Nursery is closed to new arrivals" (met in a full run).  A line held back once
    the game is over is now left unsaid, and the host goes on."""
    sent: list[ChatMsg] = []
    host_chat = Chat(SIGNERS[0], GAME, 0, KEYS, NAMES, lambda raw: sent.append(open_chat(raw)))
    feed = Feed(4)
    feed.follow(host_chat)
    async with trio.open_nursery() as nursery:
        with host_chat.waiting_in(nursery):
            for n in range(SEND_BURST):  # the host's player chats the sending limit away
                host_chat.say(f"hello {n}")
    view = JoinRequest(b"Dana" * 8, "Dana", "127.0.0.1", watcher=True)
    feed.watchers.append(Watcher(view, cast(SecureChannel, None), None))
    feed._changed()  # raised before
    await trio.sleep(SEND_EVERY * 2)
    assert not [m for m in sent if m.text.startswith(WATCHING)]


async def test_a_resumed_host_says_who_watches_now_nobody_included(
    autojump_clock: MockClock,
) -> None:
    """A host that stopped and came back may have told its seats of watchers that went
    with its program: it says the list as it is now as its chat opens, nobody watching
    included (a host that was not resumed says nothing of nobody)."""
    for resumed, expected in ((False, []), (True, ["/watching"])):
        sent: list[bytes] = []
        host_chat = Chat(SIGNERS[0], GAME, 0, KEYS, NAMES, sent.append)
        Feed(4).follow(host_chat, resumed=resumed)
        assert [open_chat(raw).text for raw in sent] == expected
