"""The seat-change machine on its own: every path, with real tables and no trio.

A seat is lost for good (``tests/table/seatloss.py``); each remaining seat's
``SeatChange`` is fed what its runner would feed it, on a made-up network and a
made-up clock (``seatnet.py``): agreed, declined (and closed, to a seat the no
never reached), a signer missing, the player returning, a second loss during the
change, and a proposer that cheats.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from p2pbelka.peer.seatchange.effects import RESEND_EVERY, CatchUp, Remember, Switch
from p2pbelka.peer.seatchange.machine import SeatChange, Stage
from p2pbelka.peer.seatchange.stages import Agreed
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.seatchange import (
    Agree,
    ClosedOffer,
    Decline,
    Offer,
    closed_statement,
    sign_agreement,
)
from p2pbelka.table.segments import observe_segments, previous_of, propose
from tests.peer.seatnet import GIVE_UP, OFFER_TIMEOUT, Net, Node, machine_of
from tests.table.seatloss import Game, bot_then_back, lose_seat, start

GAMES = [
    pytest.param("belka", 4, 2, 5, id="belka-4"),
    pytest.param("belot", 3, 1, 6, id="belot-3"),
]
SIGNING = GAMES
"""The games where a seat but the proposer signs (in Belot for two it alone would
remain: no seat changes hands there, ``test_a_two_seat_game_never_seats_a_bot``)."""


def _lost(name: str, players: int, lost: int, seed: int) -> tuple[Game, Net]:
    for tried in range(seed, seed + 30):
        game, _local = start(tried, game_name=name, players=players)
        lose_seat(game, lost, after_deals=1)
        stuck = [t for s, t in enumerate(game.tables) if s != lost]
        if all(not t.finished and not t.view.closing and t.view.missing() == [lost] for t in stuck):
            nodes = [Node(s, machine_of(t, s)) for s, t in enumerate(game.tables) if s != lost]
            return game, Net(nodes)
    raise AssertionError(f"no seed from {seed} leaves a {name} game stuck on seat {lost}")


def _switched_ids(net: Net) -> set[bytes]:
    return {n.switched.table.game_id for n in net.nodes.values() if n.switched is not None}


@pytest.mark.parametrize(("name", "players", "lost", "seed"), GAMES)
def test_agreed_every_remaining_seat_goes_on_in_one_continuation(
    name: str, players: int, lost: int, seed: int
) -> None:
    _game, net = _lost(name, players, lost, seed)
    assert all(net.lost(lost).values())  # left to the seat change, not the end
    assert all(n.switched is not None for n in net.nodes.values()), [
        (n.seat, n.change.stage, n.closed) for n in net.nodes.values()
    ]
    (segment,) = _switched_ids(net)
    proposer = net.node(0 if lost else 1)
    assert proposer.switched is not None
    assert [seat for _table, seat in proposer.switched.bots] == [lost]
    assert proposer.change.bots.keys() == {lost}
    for node in net.nodes.values():
        assert node.switched is not None
        table = node.switched.table
        assert table.state.setup is not None and table.state.setup.after is not None
        assert table.state.setup.after.seat == lost and table.state.me == node.seat
        assert node.remembered == [segment]  # before anything is signed in it
        assert not node.closed and node.asked[0].seat == lost
        # the new tables take the game on: the proposer's table envelope is theirs too
        assert table.view.transcript[0].raw == net.sealed[0]


def test_a_two_seat_game_never_seats_a_bot() -> None:
    """Nobody would co-sign the proposer's offer, and neither seat can tell "the other
    is gone" from "I am cut off": each would seat a bot for the other and the game
    would split.  The driver waits as a peer cut off from everyone does instead."""
    _game, net = _lost("belot", 2, 1, 7)
    assert net.lost(1) == {0: False}
    (node,) = net.nodes.values()
    assert node.change.stage is Stage.IDLE and not node.sent and not node.asked
    assert node.switched is None and not node.frozen


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_declined_by_a_player_ends_the_change_and_then_the_game(
    name: str, players: int, lost: int, seed: int
) -> None:
    _game, net = _lost(name, players, lost, seed)
    proposer, signer = (net.node(s) for s in sorted(net.nodes)[:2])
    signer.answer = False
    net.lost(lost)
    assert signer.sent[-1] == Decline(
        signer.sent[-1].segment, "the player does not want a bot", False
    )  # type: ignore[union-attr]
    assert [c.why for c in signer.closed] == ["this seat's player did not want a bot"]
    assert [c.why for c in proposer.closed] == [
        f"seat {signer.seat} said no: the player does not want a bot"
    ]
    assert not _switched_ids(net) and not proposer.frozen and not signer.frozen
    # the driver gives up again: now the game ends, as before seats could change hands
    assert not any(n.change.lost([lost], GIVE_UP, net.now) for n in (proposer, signer))


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_the_proposers_player_saying_no_offers_nothing(
    name: str, players: int, lost: int, seed: int
) -> None:
    _game, net = _lost(name, players, lost, seed)
    proposer = net.node(sorted(net.nodes)[0])
    proposer.answer = False
    net.lost(lost)
    assert not proposer.sent and not _switched_ids(net)
    assert [c.why for c in proposer.closed] == ["this seat's player did not want a bot"]
    net.run(OFFER_TIMEOUT + 1)  # the others waited for an offer that never came
    for node in net.nodes.values():
        if node is not proposer:
            assert [c.why for c in node.closed] == ["no offer came from the proposing seat"]


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_a_signer_missing_runs_the_offer_out_and_nobody_goes_on(
    name: str, players: int, lost: int, seed: int
) -> None:
    """A second seat lost during the change (it never answers): the proposer's offer
    runs out naming it, and a seat that signed goes on on the proposer's signed word
    that it is closed (without it, it would wait for a seal that never comes)."""
    _game, net = _lost(name, players, lost, seed)
    seats = sorted(net.nodes)
    proposer, missing = net.node(seats[0]), net.node(seats[-1])
    net.cut.add(missing.seat)
    net.lost(lost)
    assert proposer.change.stage is Stage.OFFERING and proposer.frozen
    resent = len(proposer.sent)
    net.run(OFFER_TIMEOUT + 1)
    assert len(proposer.sent) > resent  # sent again while it waited
    assert not proposer.frozen  # only it could have sealed its offer: it goes on
    assert [c.why for c in proposer.closed] == [f"seats [{missing.seat}] did not answer in time"]
    for node in net.nodes.values():
        assert node.switched is None
        if node not in (proposer, missing):
            assert node.change.stage is Stage.IDLE
            why = f"seats [{missing.seat}] did not answer in time"
            assert [c.why for c in node.closed] == [f"seat {proposer.seat} closed it: {why}"]
            assert not node.frozen  # it signed, but the offer can never be sealed
            assert node.change.outcomes["closed by the proposer"] == 1
    assert not proposer.change.lost([lost], GIVE_UP, net.now)  # the game ends


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_a_second_loss_during_the_change_is_waited_out_then_ends_the_game(
    name: str, players: int, lost: int, seed: int
) -> None:
    _game, net = _lost(name, players, lost, seed)
    proposer = net.node(sorted(net.nodes)[0])
    proposer.answer = None  # its player thinks it over
    net.lost(lost)
    second = sorted(net.nodes)[-1]
    # two seats gone at once: no change (every other seat must sign); one more while
    # busy: left to the change under way
    assert not proposer.change.lost([lost, second], GIVE_UP, net.now)
    assert proposer.change.lost([second], GIVE_UP, net.now)
    net.run(OFFER_TIMEOUT + 1)
    assert [c.why for c in proposer.closed] == ["this seat's player did not want a bot"]
    assert not proposer.change.lost([lost], GIVE_UP, net.now)


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_the_lost_player_returning_during_the_question_stops_the_offer(
    name: str, players: int, lost: int, seed: int
) -> None:
    game, net = _lost(name, players, lost, seed)
    proposer = net.node(sorted(net.nodes)[0])
    proposer.answer = None
    net.lost(lost)
    (ask,) = proposer.asked
    game.settle([proposer.seat, lost])  # the player is back: its envelopes came
    assert lost not in game.tables[proposer.seat].view.missing()
    proposer.change.answered(ask.ask, True, net.now)
    net.settle()
    assert not proposer.sent and not proposer.closed and proposer.change.busy is None


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_the_lost_player_back_at_a_signer_declines_the_offer(
    name: str, players: int, lost: int, seed: int
) -> None:
    game, net = _lost(name, players, lost, seed)
    seats = sorted(net.nodes)
    proposer, signer = net.node(seats[0]), net.node(seats[1])
    game.settle([signer.seat, lost])
    net.lost(lost)
    assert signer.sent and isinstance(signer.sent[0], Decline)
    assert signer.sent[0].why == f"seat {lost} is back" and not signer.sent[0].retry
    assert [c.why for c in proposer.closed] == [f"seat {signer.seat} said no: seat {lost} is back"]
    assert not signer.asked  # nothing to ask its player


@pytest.mark.parametrize(("name", "players", "lost"), [("belka", 4, 2), ("belot", 3, 1)])
def test_the_player_takes_the_seat_back_from_the_bot(name: str, players: int, lost: int) -> None:
    back, sealed, nonce, host, _file = _handed_back(name, players, lost, behind=0)
    back.seen(sealed, None)  # not under our own nonce: not ours
    assert not back.take()
    back.seen(sealed, nonce)
    (switch,) = back.take()[1:]
    assert host.switched is not None
    assert switch.table.state.me == lost and switch.table.game_id == host.switched.table.game_id  # type: ignore[union-attr]
    assert host.change.bots == {} and not host.switched.bots


def test_a_watcher_behind_the_cut_asks_to_catch_up_then_follows() -> None:
    """The continuation handing the seat back cuts the bot's segment further than the
    watching table holds (it lost envelopes no resend can bring: the peers' tables are
    in the new segment): the machine asks its runner to fetch the game, and follows the
    continuation once the table holds the cut."""
    back, sealed, nonce, host, file = _handed_back("belka", 4, 2, behind=3)
    back.seen(sealed, nonce)
    assert back.take() == [CatchUp(host.seat)]
    assert back.stage is not Stage.SWITCHED
    assert back.table is not None
    for envelope in file[-3:]:  # what the records bring
        back.table.receive(envelope.raw)
    back.retry(nonce)
    effects = back.take()
    assert [type(effect) for effect in effects] == [Remember, Switch], effects
    assert back.stage is Stage.SWITCHED


def _handed_back(
    name: str, players: int, lost: int, *, behind: int
) -> tuple[SeatChange, bytes, bytes, Node, list[Envelope]]:
    """The bot's host seals the continuation handing ``lost`` back; the player watches
    the game as the host's file has it, but for its last ``behind`` envelopes: the
    player's machine, the sealed ``table``, the player's nonce, the host and its file."""
    game, _first, segment, player = bot_then_back(name, players, lost)
    nodes = []
    for seat, table in enumerate(game.tables):
        if seat != lost:
            nodes.append(Node(seat, machine_of(table, seat)))
    for node in nodes:  # the keys the players sat down with (a mesh's)
        node.change.ids.keys[lost] = player.public_key
    net = Net(nodes)
    host = net.node(0 if lost else 1)
    bot_signer = game.tables[lost]._signer
    assert bot_signer is not None
    host.change.bots[lost] = bot_signer
    host.change.enter(host.change.table, {lost: game.tables[lost]})  # type: ignore[arg-type]
    game.tables[lost].stop_at_deal(None)  # the bot plays on until the player asks
    nonce = bytes(range(16))
    host.change.hand_back(lost, segment, nonce, net.now)
    net.settle()
    assert host.asked[0].back and host.asked[0].bot == host.change.ids.names[lost]
    assert host.change.stage is Stage.DRAINING  # the bot finishes its deal first
    game.settle(list(range(players)))
    file = game.files[host.seat]
    back = machine_of(game.tables[lost], lost)  # the seat's names and keys
    back.ids.signer = player
    back.enter(observe_segments(file[: len(file) - behind]), {})
    assert back.watching and back.lost([0], GIVE_UP, 0.0)  # watching: the seated decide
    net.run(1.0)
    assert host.switched is not None, [(n.seat, n.sent, n.change.stage) for n in net.nodes.values()]
    return back, net.sealed[0], nonce, host, file


# -- a proposer that cheats ------------------------------------------------------------------


def _forged_offer(game: Game, lost: int, proposer: int, **change: object) -> tuple[Offer, Signer]:
    signer = game.tables[proposer]._signer
    assert signer is not None
    previous = replace(previous_of(game.tables[proposer]), **change)
    bot = Signer.from_seed(bytes(32))
    segment, table = propose(previous, lost, bot.public_key, "Bot", bytes(range(16)), signer)
    return Offer(segment, table), signer


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_a_proposer_lying_about_the_heads_is_not_signed(
    name: str, players: int, lost: int, seed: int
) -> None:
    game, net = _lost(name, players, lost, seed)
    proposer, signer = sorted(net.nodes)[:2]
    view = previous_of(game.tables[proposer]).view
    (count, head), *rest = view
    offer, _ = _forged_offer(game, lost, proposer, view=((count - 1, head), *rest))
    net.deliver(proposer, offer, to=[signer])
    decline = net.node(signer).sent[-1]
    assert isinstance(decline, Decline) and "it cuts seat 0's chain at" in decline.why
    assert not net.node(signer).asked and net.node(signer).change.stage is Stage.IDLE


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_an_agreement_for_another_segment_is_not_counted(
    name: str, players: int, lost: int, seed: int
) -> None:
    _game, net = _lost(name, players, lost, seed)
    seats = sorted(net.nodes)
    proposer, honest, liar = net.node(seats[0]), net.node(seats[1]), seats[-1]
    net.cut.add(liar)  # it answers only with the agreement it forged
    net.lost(lost)
    offer = proposer.sent[0]
    assert isinstance(offer, Offer)
    wrong = sign_agreement(net.node(liar).change.ids.signer, bytes(16), offer.table)
    net.cut.discard(liar)
    proposer.change.heard(liar, Agree(offer.segment, wrong), net.now)
    net.settle()
    assert proposer.switched is None and proposer.change.outcomes["bad agreement"] == 1
    assert proposer.change.stage is Stage.OFFERING
    del honest


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_a_replayed_offer_gets_the_same_agreement_and_no_second_question(
    name: str, players: int, lost: int, seed: int
) -> None:
    _game, net = _lost(name, players, lost, seed)
    seats = sorted(net.nodes)
    proposer, signer = seats[0], net.node(seats[1])
    net.deaf.add(proposer)  # the agreement is lost: the signer stays agreed
    net.lost(lost)
    assert signer.change.stage is Stage.AGREED
    offer = net.node(proposer).sent[0]
    assert isinstance(offer, Offer)
    agreement = signer.sent[-1]
    net.deliver(proposer, offer, to=[signer.seat])
    assert signer.sent[-1] == agreement and len(signer.asked) == 1


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_a_second_continuation_of_the_same_cut_is_never_signed(
    name: str, players: int, lost: int, seed: int
) -> None:
    """The proposer lets the first offer run out, then offers the same cut again under
    a fresh nonce (so a new id): the seat that signed the first signs no second one,
    so no proposer holds two continuations of one segment signed by it."""
    game, net = _lost(name, players, lost, seed)
    seats = sorted(net.nodes)
    proposer, signer = seats[0], net.node(seats[1])
    net.deaf.add(proposer)  # it never hears the agreement, so never seals
    net.lost(lost)
    net.run(OFFER_TIMEOUT + RESEND_EVERY + 1)  # (a seat that signed waits a moment more)
    assert [c.why for c in signer.closed] == ["the proposer never sealed it"]
    second, _ = _forged_offer(game, lost, proposer)
    net.deliver(proposer, second, to=[signer.seat])
    decline = signer.sent[-1]
    assert isinstance(decline, Decline) and "signs one only" in decline.why, decline
    assert len(signer.asked) == 1


def test_an_offer_from_a_seat_that_does_not_propose_is_ignored() -> None:
    """(Belka-4: in Belot for three the only other seat is the proposer.)"""
    game, net = _lost("belka", 4, 2, 5)
    signer, other = 1, 3
    offer, _ = _forged_offer(game, 2, other)
    net.deliver(other, offer, to=[signer])
    assert not net.node(signer).sent and not net.node(signer).asked


def test_a_continuation_giving_our_seat_away_while_we_are_seated_is_told() -> None:
    game, net = _lost("belka", 4, 2, 5)
    net.lost(2)
    sealed = net.sealed[0]
    lost = machine_of(game.tables[2], 2)  # the lost seat's peer comes back now
    lost.seen(sealed, None)
    assert [type(s).__name__ for s in lost.take()] == ["Replaced"]


def test_what_another_peer_sends_never_raises() -> None:
    """Answers to no offer, seats out of range, bytes that are no envelope, a
    hand-back of a seat no bot of ours plays: counted or ignored, never raised."""
    game, net = _lost("belka", 4, 2, 5)
    node = net.node(1)
    change = node.change
    offer, _ = _forged_offer(game, 2, 0)
    change.heard(0, Agree(offer.segment, bytes(64)), 0.0)
    change.heard(0, Decline(offer.segment, "no", False), 0.0)
    assert change.refused == {"seat_agree": 1, "seat_decline": 1}
    for sender in (9, 2, 1):  # no such seat, the lost seat, ourselves
        change.heard(sender, offer, 0.0)
    change.hand_back(3, change.segment, bytes(16), 0.0)
    change.hand_back(9, bytes(16), bytes(16), 0.0)
    for raw in (b"", b"\x92\xc4", offer.table.to_wire().__repr__().encode()):
        change.seen(raw, None)
    change.answered(12345, True, 0.0)
    change.tick(1e9)
    assert change.take() == [] and change.stage is Stage.IDLE


@pytest.mark.parametrize(("name", "players", "lost", "seed"), SIGNING)
def test_every_remaining_player_is_asked_at_the_loss_not_after_the_proposer(
    name: str, players: int, lost: int, seed: int
) -> None:
    """The question reaches every seat at once; a player who answers before the offer
    comes is not asked again, and one still deciding when it comes answers it."""
    _game, net = _lost(name, players, lost, seed)
    proposer = net.node(sorted(net.nodes)[0])
    for node in net.nodes.values():
        node.answer = None  # nobody answers yet
    net.lost(lost)
    assert all([a.seat for a in n.asked] == [lost] for n in net.nodes.values())
    assert not proposer.sent  # no offer yet: its player has not answered
    signers = [n for n in net.nodes.values() if n is not proposer]
    early = signers[0]
    early.change.answered(early.asked[0].ask, True, net.now)  # before the offer
    net.settle()
    proposer.change.answered(proposer.asked[0].ask, True, net.now)
    net.settle()
    for late in signers[1:]:  # still deciding when the offer came: that answer signs
        late.change.answered(late.asked[0].ask, True, net.now)
        net.settle()
    assert all(len(n.asked) == 1 for n in net.nodes.values())  # never asked twice
    assert all(n.switched is not None for n in net.nodes.values()), [
        (n.seat, n.change.stage, n.closed) for n in net.nodes.values()
    ]
    assert len(_switched_ids(net)) == 1


def _a_no_that_never_reaches_a_signer(signs_first: bool) -> tuple[Net, Node, Node, Node]:
    """Belka for four, seat 2 lost: seat 0 offers a bot, seat 1's player says no, and
    seat 3 signs (before the no, or after seat 0 closed the offer), with no link
    between seats 1 and 3: a line of links 1 - 0 - 3.  (The proposer, decliner, signer.)"""
    _game, net = _lost("belka", 4, 2, 5)
    proposer, decliner, signer = net.node(0), net.node(1), net.node(3)
    net.apart.add(frozenset((decliner.seat, signer.seat)))
    decliner.answer = None if signs_first else False
    signer.answer = True if signs_first else None
    net.lost(2)
    waiting = decliner if signs_first else signer
    waiting.change.answered(waiting.asked[-1].ask, not signs_first, net.now)
    net.settle()
    return net, proposer, decliner, signer


@pytest.mark.parametrize("signs_first", [True, False], ids=["signed-first", "signed-after"])
def test_the_proposers_close_reaches_a_seat_that_did_not_hear_the_no(signs_first: bool) -> None:
    """Seat 1's no never reaches seat 3, which signed: the proposer's signed word that
    it closed the offer does (sent on closing, or in answer to the agreement that came
    after), and seat 3 goes on in the segment in play as the proposer does, instead of
    waiting frozen for a seal that can never come (SPEC 9.4)."""
    net, proposer, decliner, signer = _a_no_that_never_reaches_a_signer(signs_first)
    why = f"seat {decliner.seat} said no: the player does not want a bot"
    assert [c.why for c in proposer.closed] == [why]
    (closed,) = [m for s, m in proposer.told if s == signer.seat]
    assert isinstance(closed, ClosedOffer) and closed.why == why
    assert signer.change.stage is Stage.IDLE and not signer.frozen
    assert signer.change.outcomes["closed by the proposer"] == 1
    assert [c.why for c in signer.closed] == [f"seat {proposer.seat} closed it: {why}"]
    assert not _switched_ids(net) and not any(n.frozen for n in net.nodes.values())
    # as at the proposer: no bot for that seat now, a give-up on it ends the game
    assert not signer.change.lost([2], GIVE_UP, net.now)


def test_a_close_not_signed_by_the_proposer_frees_nobody_and_a_relayed_one_does() -> None:
    """The close is the proposer's word: one signed by another seat's key is refused
    (counted; the seat that signed stays frozen), the proposer's own, passed on by a
    seat that holds it, is taken whoever brings it."""
    _game, net = _lost("belka", 4, 2, 5)
    proposer, decliner, signer = net.node(0), net.node(1), net.node(3)
    decliner.answer = None
    net.deaf.add(proposer.seat)  # it never hears the agreement: its offer stays open
    net.lost(2)
    assert signer.change.stage is Stage.AGREED and signer.frozen
    agreed = signer.change.at
    assert isinstance(agreed, Agreed)
    segment = agreed.segment
    forged_by = decliner.change.ids.signer
    why = "seat 1 said no: seat 2 is back"
    forged = ClosedOffer(segment, why, forged_by.sign(closed_statement(segment, why)))
    net.deliver(decliner.seat, forged, to=[signer.seat])
    assert signer.change.outcomes["bad close"] == 1
    assert signer.change.stage is Stage.AGREED and signer.frozen
    word = proposer.change.ids.signer.sign(closed_statement(segment, why))
    net.deliver(decliner.seat, ClosedOffer(segment, why, word), to=[signer.seat])
    assert signer.change.stage is Stage.IDLE and not signer.frozen
    assert signer.change.closes[segment].sig == word  # kept: the proposer's word for it
