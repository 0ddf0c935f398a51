"""The table screen asks about a bot for a lost seat (and the seat back): the question
in the status line, ``y`` or ``n`` answers it, the change is written in the log."""

from __future__ import annotations

import pytest
import trio
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pbelka.cards import Card
from p2pbelka.peer.seatchange.drivers import (
    Decision,
    OfferClosed,
    OfferWithdrawn,
    SeatKept,
    SeatOffer,
)
from p2pbelka.rules.belot.moves import Bid
from p2pbelka.table.events import ChoiceNeeded, Fault, GameAborted
from p2pbelka.table.games.belot.events import CardTurned
from p2pbelka.table.segments import SeatChanged
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.front import ScreenFrontEnd
from p2pbelka.ui.games.belka.screen import UI as BELKA
from p2pbelka.ui.games.belka.view import BelkaView
from p2pbelka.ui.games.belot.screen import UI as BELOT
from p2pbelka.ui.games.belot.view import BelotView
from p2pbelka.ui.hostloop import Bridge, run_with_app
from p2pbelka.ui.words import i18n
from tests.ui.render import Terminal, render
from tests.ui.summaries import summary


def _offer(back: bool = False) -> SeatOffer:
    bot = "Saule" if back else "Bot for Saule"
    return SeatOffer(2, "Saule", 120.4, bot, Decision(), back)


def test_y_seats_the_bot_and_n_does_not() -> None:
    for key, answer in (("y", True), ("n", False)):
        view = BelkaView()
        offer = _offer()
        view.apply(offer)
        assert view.log[-1] == (
            "Saule has been gone for 120 s. Seat a bot in their place from the next deal?"
        )
        with create_pipe_input() as pipe:
            screen = TableScreen(BELKA, view, lambda move: None, input=pipe, output=DummyOutput())
            status = "".join(text for _style, text, *_ in screen._status())
            assert "Seat a bot" in status and "[y] yes" in status
            screen.answer_offer(answer)  # what the y and n keys do
        assert offer.decision.value is answer and view.offer is None, key


def test_the_seat_back_and_the_changes_are_told() -> None:
    view = BelkaView()
    view.apply(_offer(back=True))
    assert view.log[-1] == "Saule is back. Hand the seat back from the next deal?"
    view.apply(OfferClosed(2, "seat 1 said no"))
    assert view.offer is None and view.log[-1] == "No bot for 2: seat 1 said no"
    view.names = ["Asel", "Bolat", "Saule", "Nurlan"]
    view.apply(SeatChanged(2, "Bot for Saule", b"k" * 32, "Saule", (0, 1, 3), 5, 5, False, b""))
    assert view.log[-1] == "Bot for Saule takes the seat of Saule from deal 5."
    view.apply(SeatChanged(2, "Saule", b"s" * 32, "Bot for Saule", (0, 1, 3), 9, 9, True, b""))
    assert view.log[-1] == "Saule has their seat back from deal 9."


def test_on_the_belot_screen_y_answers_the_offer_before_the_call() -> None:
    """In the middle of the calls, y is the question about the lost seat's, not a call:
    the status line asks it first, and the call waits."""
    view = BelotView(me=0, players=3, names=["Asel", "Bolat", "Saule"])
    view.apply(CardTurned(Card.parse("JH"), 0))
    view.apply(ChoiceNeeded("bid", (Bid("play"), Bid("pass"))))
    offer = _offer()
    view.apply(offer)
    calls: list[object] = []

    async def robot(screen: TableScreen) -> None:
        status = "".join(text for _style, text, *_ in screen._status())
        assert "Seat a bot" in status and "Your call" not in status
        pipe.send_text("y")
        with trio.fail_after(120):  # a hang, not a speed limit
            while view.offer is not None:
                await trio.sleep(0.01)
        status = "".join(text for _style, text, *_ in screen._status())
        assert "Your call" in status  # the call is asked again, unanswered
        screen.app.exit()

    with create_pipe_input() as pipe:
        screen = TableScreen(BELOT, view, calls.append, input=pipe, output=DummyOutput())

        async def main(bridge: Bridge) -> None:
            await robot(screen)

        run_with_app(screen.app, main)
    assert offer.decision.value is True and calls == []
    assert view.bidding


def test_auto_approve_says_yes_on_screen_without_asking() -> None:
    """``--auto-approve`` at a screen: the question is told in the log and answered yes,
    with nothing left to answer in the status line."""

    class State:  # what the front end reads of the driver: its table's state, not holding
        held = False
        game = None

    class Held:
        state = State()

    class Driver:
        table = Held()

    for auto in (True, False):
        view = BelkaView()
        offer = _offer()
        with create_pipe_input() as pipe:
            screen = TableScreen(BELKA, view, lambda move: None, input=pipe, output=DummyOutput())
            front = ScreenFrontEnd(screen, Bridge(), auto_approve=auto)
            trio.run(front.on_event, Driver(), offer)  # type: ignore[arg-type]
        assert "Seat a bot" in view.log[-1]
        assert offer.decision.value is (True if auto else None)
        assert (view.offer is None) is auto


def _paged_view() -> BelkaView:
    """A Belka table whose first deal ended: its page is up over the table."""
    view = BelkaView(me=1, names=["Asel", "Bolat", "Bot for Saule", "Nurlan"])
    view.deal_ends = [summary()]
    return view


@pytest.mark.parametrize("lang", ["en", "ru", "kk"])
def test_a_question_that_comes_under_a_page_is_asked_above_it(lang: str) -> None:
    """The end of a deal is up when the bot's peer asks to hand the seat back: the
    question is drawn over the page (80x24, nothing cut), and y answers it there."""
    i18n.set_language(lang)
    view = _paged_view()
    offer = _offer(back=True)
    terminal = Terminal()
    try:
        with create_pipe_input() as pipe:
            screen = TableScreen(BELKA, view, lambda move: None, input=pipe, output=terminal.output)
            screen.refresh()
            assert screen.overlay == "deal_end"
            view.apply(offer)

            async def main(bridge: Bridge) -> None:
                drawn = render(screen, terminal, 80, 24)
                question = view.offer_question(offer)
                assert question.split()[0] in drawn.text, drawn.text
                assert i18n._("No answer in time counts as no.").split()[0] in drawn.text
                assert drawn.faults == [], drawn.faults
                pipe.send_text("y")
                with trio.fail_after(120):  # a hang, not a speed limit
                    while offer.decision.value is None:
                        await trio.sleep(0.01)
                screen.app.exit()

            run_with_app(screen.app, main)
        assert offer.decision.value is True and screen.overlay == "deal_end"
        assert not screen.asks_over_a_page()
    finally:
        i18n.set_language("en")


def test_a_question_that_no_longer_applies_goes_away() -> None:
    """Withdrawn (unanswered in time, or the change is over), the question leaves the
    status line and the page; a withdrawal of an older question leaves a newer one; the
    end of the game takes any question away."""
    view = _paged_view()
    first, second = _offer(back=True), _offer(back=True)
    with create_pipe_input() as pipe:
        screen = TableScreen(BELKA, view, lambda move: None, input=pipe, output=DummyOutput())
        screen.refresh()
        view.apply(first)
        assert screen.asks_over_a_page()
        view.apply(OfferWithdrawn(first))
        assert view.offer is None and not screen.asks_over_a_page()
        assert view.log[-1] == "The question about the seat of Bot for Saule no longer applies."
        assert "Hand the seat back" not in "".join(t for _s, t, *_ in screen._status())
        view.apply(second)
        view.apply(OfferWithdrawn(first))
        assert view.offer is second
        view.apply(GameAborted((Fault(3, "went silent for 60 s"),)))
        assert view.offer is None
        assert screen.answer_offer(True) is False and second.decision.value is None


def test_the_returning_player_is_told_the_seat_stays_with_the_bot() -> None:
    view = BelkaView(me=2, names=["Asel", "Bolat", "Bot for Saule", "Nurlan"])
    view.apply(SeatKept(2, "seat 1 said no"))
    assert view.log[-1] == (
        "Bot for Saule keeps your seat for this deal: seat 1 said no. It is asked back"
        " again from the next deal."
    )


def test_a_joiner_s_screen_asks_over_a_page_too() -> None:
    """A joiner's screen gets its game from the lobby (``use_game``): the box the
    question is asked in over a page stays among its floats (it once dropped it, and
    the question was left in the status line under the page)."""
    view = _paged_view()
    offer = _offer(back=True)
    terminal = Terminal()
    with create_pipe_input() as pipe:
        screen = TableScreen(BELKA, BelkaView(), lambda move: None, input=pipe,
                             output=terminal.output)  # fmt: skip
        screen.use_game(BELKA, view)
        screen.refresh()
        view.apply(offer)
        drawn: list[str] = []

        async def main(bridge: Bridge) -> None:
            drawn.append(render(screen, terminal, 100, 30).text)
            pipe.send_text("n")
            with trio.fail_after(120):  # a hang, not a speed limit
                while offer.decision.value is None:
                    await trio.sleep(0.01)
            screen.app.exit()

        run_with_app(screen.app, main)
    assert "A question about a seat" in drawn[0], drawn[0]
    assert offer.decision.value is False
