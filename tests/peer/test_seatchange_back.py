"""A seat handed back that not every seat agrees to: the bot plays on, the game goes on.

The machines of real tables on a made-up network (``seatnet.py``), no trio: a bot
plays a lost seat (``tests/table/seatloss.py``), its player asks the seat back,
and the hand-back comes to nothing: a remaining seat says no, never answers,
answers too late, the bot's own peer says no.  Each time the bot's table is told
to play on (and its driver woken), every table that stopped for the offer goes on,
no seat is ever offered a bot for the bot while the bot's peer paused it, the
returning player is told it may ask again from the next deal, and the game is
played on to its end.  And the cheats: a resent offer after a no is never signed,
a seat that signed goes on only on another seat's no, and signs nothing more at
that cut.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from p2pbelka.peer.seatchange.machine import Stage
from p2pbelka.peer.seatchange.stages import Draining
from p2pbelka.protocol.seatchange import Agree, ClosedOffer, Decline, Offer, SeatChangeMsg
from tests.peer.seatnet import GIVE_UP, OFFER_TIMEOUT, Net, Node, machine_of
from tests.table.seatloss import Game, bot_then_back

NONCE = bytes(range(16))
LOST = 2


@dataclass
class Back:
    """A bot (run by ``host``) plays seat ``LOST``; its player is back and asks."""

    game: Game
    net: Net
    host: Node
    segment: bytes
    players: int

    @property
    def everyone(self) -> list[int]:
        return list(range(self.players))

    def signers(self) -> list[Node]:
        return [n for n in self.net.nodes.values() if n is not self.host]

    def ask_back(self) -> None:
        self.host.change.hand_back(LOST, self.segment, NONCE, self.net.now)
        self.net.settle()

    def drain(self) -> int:
        """The bot finishes its deal; every table then waits for it: the stop deal."""
        draining = self.host.change.at
        assert isinstance(draining, Draining)
        self.game.settle(self.everyone)
        assert self.game.tables[self.host.seat].view.missing() == [LOST]
        return draining.stop

    def plays_on(self, past: int) -> None:
        """The game goes on past deal ``past`` (or ends), nobody abandoning it."""
        self.game.settle(self.everyone, lambda ts: ts[0].state.deal_id > past or ts[0].finished)
        table = self.game.tables[0]
        assert table.state.deal_id > past or table.state.over, (
            table.state.deal_id,
            table.view.missing(),
        )
        assert not any(t.state.aborted for t in self.game.tables)


def _back(name: str = "belka", players: int = 4) -> Back:
    game, _first, segment, player = bot_then_back(name, players, LOST)
    nodes = [Node(s, machine_of(t, s)) for s, t in enumerate(game.tables) if s != LOST]
    for node in nodes:  # the keys the players sat down with (a mesh's)
        node.change.ids.keys[LOST] = player.public_key
    net = Net(nodes)
    host = net.node(0)
    bot_signer = game.tables[LOST]._signer
    assert bot_signer is not None and host.change.table is not None
    host.change.bots[LOST] = bot_signer
    host.change.enter(host.change.table, {LOST: game.tables[LOST]})
    game.tables[LOST].stop_at_deal(None)  # the bot plays on until the player asks
    return Back(game, net, host, segment, players)


def _kept(back: Back) -> None:
    """The hand-back came to nothing at the bot's peer: the bot plays on, nobody
    stays stopped, and the returning player is told so, naming the segment it asked in."""
    host = back.host
    assert host.change.outcomes["not handed back"] == 1
    assert host.goes_on == [LOST]
    assert back.game.tables[LOST]._runner.stop_at_deal is None
    assert not any(n.frozen for n in back.net.nodes.values())
    assert [c.back for n in back.net.nodes.values() for c in n.closed] == [True]
    _told(host)


def _told(host: Node) -> None:
    # (and every seat that signed, the bot's peer's word that its offer is closed)
    ((seat, msg),) = [(s, m) for s, m in host.told if not isinstance(m, ClosedOffer)]
    assert seat == LOST and isinstance(msg, Decline) and msg.retry
    assert host.change.table is not None and msg.segment == host.change.table.game_id


def _no_bot_for_the_bot(back: Back) -> None:
    """Every driver gives up on the bot's seat now: each leaves it to the seat change
    and none asks its player to seat a bot there, nor ends the game."""
    asked = {n.seat: len(n.asked) for n in back.net.nodes.values()}
    said = back.net.lost(LOST, silent=GIVE_UP * 3)
    assert all(said.values())
    assert {n.seat: len(n.asked) for n in back.net.nodes.values()} == asked
    assert not [c for n in back.net.nodes.values() for c in n.closed if not c.back]


def _sent(node: Node, kind: type[SeatChangeMsg]) -> list[SeatChangeMsg]:
    return [m for m in node.sent if isinstance(m, kind)]


def _offer(node: Node) -> Offer:
    """The one offer ``node`` made (sent once, or again)."""
    offers = [m for m in node.sent if isinstance(m, Offer)]
    assert offers and all(o == offers[0] for o in offers)
    return offers[0]


@pytest.mark.parametrize(("name", "players"), [("belka", 4), ("belot", 3)])
def test_a_remaining_seat_saying_no_leaves_the_bot_playing(name: str, players: int) -> None:
    back = _back(name, players)
    decliner = back.signers()[0]
    decliner.answer = False
    back.ask_back()
    stop = back.drain()
    back.net.run(1.0)
    assert [m.retry for m in _sent(decliner, Decline)] == [False]  # type: ignore[attr-defined]
    _kept(back)
    _no_bot_for_the_bot(back)
    back.plays_on(stop)
    for node in back.signers()[1:]:  # a seat that signed heard the no and went on
        assert node.change.outcomes["released"] == 1 and node.change.stage is Stage.IDLE


def test_a_seat_that_never_answers_is_a_no_and_the_pause_is_waited_out() -> None:
    """The reconnect window shorter than the offer's time: every driver gives up on
    the paused bot again and again while the question is open; nobody is asked to seat
    a bot for the bot, and once the question times out the bot plays on."""
    back = _back()
    silent = back.signers()[0]
    silent.answer = None
    back.ask_back()
    stop = back.drain()
    back.net.run(0.5)  # the bot's peer offers as soon as every table waits for the bot
    for _ in range(int(OFFER_TIMEOUT / GIVE_UP) + 2):
        _no_bot_for_the_bot(back)
        back.net.run(GIVE_UP)
        if back.host.change.stage is Stage.IDLE:
            break
    assert len(silent.asked) == 1 and silent.asked[0].back
    _kept(back)
    _no_bot_for_the_bot(back)
    back.plays_on(stop)


def test_an_answer_after_the_time_is_dropped() -> None:
    back = _back()
    late = back.signers()[0]
    late.answer = None
    back.ask_back()
    back.drain()
    back.net.run(OFFER_TIMEOUT + 4)
    _kept(back)
    late.change.answered(late.asked[0].ask, True, back.net.now)  # the player, too late
    back.net.settle()
    assert not _sent(late, Agree) and late.change.stage is not Stage.AGREED


def test_the_bots_peer_saying_no_tells_the_player_and_asks_again_next_deal() -> None:
    back = _back()
    host = back.host
    host.answer = False
    back.ask_back()
    assert host.change.stage is Stage.IDLE and not host.goes_on
    _told(host)
    table = host.change.table
    assert table is not None
    deal = table.state.deal_id
    for _ in range(3):  # asked every 5 s: not again in this deal
        back.ask_back()
    assert len(host.asked) == 1 and not any(n.asked for n in back.signers())
    back.plays_on(deal)  # the bot was never stopped
    host.answer = True
    back.ask_back()
    assert len(host.asked) == 2 and host.change.stage is Stage.DRAINING


def test_a_resent_offer_after_a_no_is_never_signed() -> None:
    """A seat that said no never signs that offer: a resend (or one that crossed its
    no) is declined again, without asking its player, so no proposer can seal it."""
    back = _back()
    decliner = back.signers()[0]
    decliner.answer = False
    back.ask_back()
    back.drain()
    back.net.run(1.0)
    offer = _offer(back.host)
    decliner.answer = True  # it would say yes now, if it were asked
    back.net.deliver(back.host.seat, offer, to=[decliner.seat])
    assert len(decliner.asked) == 1 and not _sent(decliner, Agree)
    assert [m.retry for m in _sent(decliner, Decline)] == [False, False]  # type: ignore[attr-defined]


def test_a_seat_that_signed_goes_on_only_on_a_no_from_a_seat_that_must_sign() -> None:
    """A seat that signed keeps its table stopped until a seat whose signature the
    offer lacks says no: a no from the proposer, the seat handed back, or one that may
    retry proves nothing.  Then it goes on, and never signs another continuation at
    that cut (it may at a later one)."""
    back = _back()
    first, second = back.signers()
    second.answer = None  # its player still thinks
    back.ask_back()
    back.drain()
    back.net.run(1.0)
    assert first.change.stage is Stage.AGREED and first.frozen
    offer = _offer(back.host)
    assert isinstance(offer, Offer)
    no = Decline(offer.segment, "no", False)
    for sender, msg in (
        (back.host.seat, no),
        (LOST, no),
        (second.seat, Decline(offer.segment, "x", True)),
    ):
        first.change.heard(sender, msg, back.net.now)
        assert first.change.stage is Stage.AGREED, sender
    first.change.heard(second.seat, no, back.net.now)
    back.net.settle()
    assert first.change.stage is Stage.IDLE and not first.frozen
    table = first.change.table
    assert table is not None
    assert first.change.offer_problem(back.host.seat, offer, table).startswith(
        "this seat signed a continuation at this cut"
    )


def test_a_pause_kept_up_past_an_offer_and_a_window_is_waited_out_no_longer() -> None:
    """A bot's peer that offers the seat back again and again (a fresh offer, the bot
    kept stopped) holds the others no longer than one offer and a window: then the
    seat is lost as any other."""
    back = _back()
    node = back.signers()[0]
    node.answer = None  # its player still thinks
    back.ask_back()
    back.drain()
    back.net.run(0.5)
    assert node.change.stage is Stage.CONSIDERING and node.change.busy is None
    silent = OFFER_TIMEOUT + GIVE_UP
    assert node.change.lost([LOST], silent - 1, back.net.now) and not node.change.busy
    assert node.change.lost([LOST], silent, back.net.now) and node.change.busy == LOST


def test_a_no_after_the_offers_time_changes_nothing_more() -> None:
    """The bot's peer gave up on its offer at its own time (the bot plays on); the no
    that comes after it is counted as an answer to no open offer, and nothing is done
    twice: the bot told once, the returning player told once."""
    back = _back()
    host, late = back.host, back.signers()[0]
    late.answer = None
    back.net.deaf.add(host.seat)  # the no, when it comes, is lost on the way
    back.ask_back()
    back.drain()
    back.net.run(OFFER_TIMEOUT + 1)
    back.net.deaf.clear()
    (no,) = _sent(late, Decline)
    assert isinstance(no, Decline) and not no.retry
    back.net.deliver(late.seat, no, to=[host.seat])  # it comes late
    assert host.change.refused["seat_decline"] == 1
    _kept(back)


def test_a_lost_no_is_said_again_to_a_seat_still_waiting_on_the_offer() -> None:
    """The no of the seat that refused reaches the bot's peer but not the seat that
    signed: that seat's agreement, sent again while it waits, brings the no again,
    and it goes on."""
    back = _back()
    signed, decliner = back.signers()[1], back.signers()[0]
    decliner.answer = None  # thinking
    back.ask_back()
    back.drain()
    back.net.run(0.5)
    assert signed.change.stage is Stage.AGREED and signed.frozen
    back.net.deaf.add(signed.seat)  # the broadcast no never reaches it
    # nor the bot's peer's word (``test_the_proposers_close_reaches_...``): the no's path
    back.net.apart.add(frozenset((signed.seat, back.host.seat)))
    decliner.change.answered(decliner.asked[-1].ask, False, back.net.now)
    back.net.settle()
    assert back.host.change.outcomes["not handed back"] == 1
    assert signed.change.stage is Stage.AGREED
    back.net.deaf.clear()
    back.net.run(5.0)  # its agreement is sent again, and the no comes back
    assert signed.change.stage is Stage.IDLE and not signed.frozen
    assert signed.change.outcomes["released"] == 1


def test_asked_again_at_the_next_deal_the_seat_is_handed_back() -> None:
    """Refused in one deal, the player asks again in the next and everyone says yes:
    the seat that signed the refused offer signs this one (another cut), and every
    seat goes on in the one continuation that hands the seat back."""
    back = _back()
    decliner = back.signers()[0]
    decliner.answer = False
    back.ask_back()
    stop = back.drain()
    back.net.run(1.0)
    _kept(back)
    back.plays_on(stop)
    decliner.answer = True
    back.ask_back()
    back.drain()
    back.net.run(1.0)
    switched = {n.switched.table.game_id for n in back.net.nodes.values() if n.switched}
    assert len(switched) == 1 and all(n.switched for n in back.net.nodes.values())
    assert back.host.change.bots == {} and back.host.change.outcomes["sealed"] == 1
