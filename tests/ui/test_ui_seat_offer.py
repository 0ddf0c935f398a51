"""The table screen asks about a bot for a lost seat (and the seat back): the question
in the status line, ``y`` or ``n`` answers it, the change is written in the log."""

from __future__ import annotations

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from p2pbelka.peer.seatdrivers import Decision, OfferClosed, SeatOffer
from p2pbelka.table.segments import SeatChanged
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.view import TableView


def _offer(back: bool = False) -> SeatOffer:
    bot = "Saule" if back else "Bot for Saule"
    return SeatOffer(2, "Saule", 120.4, bot, Decision(), back)


def test_y_seats_the_bot_and_n_does_not() -> None:
    for key, answer in (("y", True), ("n", False)):
        view = TableView()
        offer = _offer()
        view.apply(offer)
        assert view.log[-1] == (
            "Saule has been gone for 120 s. Seat a bot in their place from the next deal?"
        )
        with create_pipe_input() as pipe:
            screen = TableScreen(view, lambda move: None, input=pipe, output=DummyOutput())
            status = "".join(text for _style, text, *_ in screen._status())
            assert "Seat a bot" in status and "[y] yes" in status
            screen.claim_redeal(answer)  # what the y and n keys do
        assert offer.decision.value is answer and view.offer is None, key


def test_the_seat_back_and_the_changes_are_told() -> None:
    view = TableView()
    view.apply(_offer(back=True))
    assert view.log[-1] == "Saule is back. Hand the seat back from the next deal?"
    view.apply(OfferClosed(2, "seat 1 said no"))
    assert view.offer is None and view.log[-1] == "No bot for 2: seat 1 said no"
    view.names = ["Asel", "Bolat", "Saule", "Nurlan"]
    view.apply(SeatChanged(2, "Bot for Saule", b"k" * 32, "Saule", (0, 1, 3), 5, 5, False, b""))
    assert view.log[-1] == "Bot for Saule takes the seat of Saule from deal 5."
    view.apply(SeatChanged(2, "Saule", b"s" * 32, "Bot for Saule", (0, 1, 3), 9, 9, True, b""))
    assert view.log[-1] == "Saule has their seat back from deal 9."
