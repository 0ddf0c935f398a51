"""A fresh bot for one lost with its peer's restart, put off by that peer's player
(SPEC 9.5, "A bot lost with its peer"): the seat-change machines on their own, with
real tables and no trio (``seatnet.py``).

A bot holds seat 2 and its peer (seat 0, the host of its changes) runs none: it
restarted.  Its table gives the silent seat up before the window and asks its player
about a fresh bot.  A no, or no answer, does not end the game: nothing is offered (no
agreement at that cut), the seat waits as any silent seat does, and the player is asked
again when the first question's time is out, as the others are asked at their window.
"""

from __future__ import annotations

import pytest

from p2pbelka.peer.seatchange.stages import Stage
from p2pbelka.protocol.seatchange import Offer
from tests.peer.seatnet import GIVE_UP, OFFER_TIMEOUT, Net, Node, machine_of
from tests.table.seatloss import bot_then_back

LOST = 2


def _bot_lost() -> tuple[Net, Node]:
    """Seat 2 is a bot's, stopped before a deal the others wait for; its host (seat 0)
    runs no bot there: the net and the host."""
    game, _first, _segment, player = bot_then_back("belka", 4, LOST)
    nodes = [Node(s, machine_of(t, s)) for s, t in enumerate(game.tables) if s != LOST]
    for node in nodes:  # the keys the players sat down with (a mesh's)
        node.change.ids.keys[LOST] = player.public_key
    net = Net(nodes)
    host = net.node(0)
    assert host.change.bot_lost(LOST) and not net.node(1).change.bot_lost(LOST)
    return net, host


@pytest.mark.parametrize("answer", [False, None], ids=["no", "never"])
def test_a_fresh_bot_put_off_is_asked_again_and_the_game_goes_on(answer: bool | None) -> None:
    net, host = _bot_lost()
    host.answer = answer
    early = GIVE_UP / 2  # its give-up for a seat nobody plays comes before the window
    assert host.change.lost([LOST], early, net.now)
    net.settle()
    net.run(OFFER_TIMEOUT - 1)
    # put off: nothing offered, nothing closed, and its give-ups meanwhile ask nothing
    assert not host.closed and not host.sent and not host.frozen
    (asked,) = host.asked
    assert asked.later and not asked.back and asked.seat == LOST
    assert host.change.lost([LOST], early + net.now, net.now)
    net.settle()
    # (a question not answered is still out: it times out as a no)
    assert len(host.asked) == 1
    assert host.change.stage is (Stage.IDLE if answer is False else Stage.ASKING)
    # the question's time is out: its player is asked again (gone a window by now: a no
    # to this one would end the game, as for any seat)
    net.run(2.0)
    host.answer = True
    assert host.change.lost([LOST], early + net.now, net.now)
    net.settle()
    assert len(host.asked) == 2 and not host.asked[1].later
    assert [type(msg) for msg in host.sent] == [Offer]
    assert all(n.switched is not None for n in net.nodes.values()), [
        (n.seat, n.change.stage, n.closed) for n in net.nodes.values()
    ]
    assert host.switched is not None and [s for _t, s in host.switched.bots] == [LOST]
    assert not any(n.closed for n in net.nodes.values())


def test_a_fresh_bot_declined_once_the_seat_is_gone_a_window_ends_the_change() -> None:
    """The put-off is for the question asked before the window only: asked once the seat
    has been gone a window, as for any seat, a no ends the change (and the game)."""
    net, host = _bot_lost()
    host.answer = False
    assert host.change.lost([LOST], GIVE_UP, net.now)
    net.settle()
    assert not host.asked[0].later
    assert [c.why for c in host.closed] == ["this seat's player did not want a bot"]
    assert not host.change.lost([LOST], GIVE_UP + 1, net.now)


def test_a_give_up_naming_no_seat_is_not_held_by_a_fresh_bot_put_off() -> None:
    """A held table's give-up names no seat (it waits for its own chain): the put-off of
    a fresh bot holds only the seats it is about, and with none named the game ends as
    before (a whole simulated game's resumed seat once waited for ever)."""
    net, host = _bot_lost()
    host.answer = False
    assert host.change.lost([LOST], GIVE_UP / 2, net.now)
    net.settle()
    late = OFFER_TIMEOUT + GIVE_UP + 1  # past any hand-back's pause
    assert not host.change.lost([], late, net.now)
    assert host.change.lost([LOST], late, net.now)  # (still put off)
