"""A game's own events are the game's, and say themselves in the text log, so the
text front end prints them without knowing any game."""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import Card, Suit, parse_cards
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.text import describe
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka import events as belka_ev
from p2pbelka.table.games.belot import events as belot_ev


def test_the_lines_of_a_games_own_events() -> None:
    table = LocalGame.seeded(1).make_tables()[0]
    suits = (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
    lines = {
        belka_ev.TrumpAnnounced(2, "H", 0, suits): "trump H (J♣ with seat 2)",
        belka_ev.RedealClaimed(1, tuple(parse_cards("7C 7D"))): ("seat 1 claims a re-deal: 7C 7D"),
        belka_ev.EggsChosen(3, "plus4", belka_ev.BelkaScore((0, 4))): "seat 3 chooses plus4",
        belot_ev.CardTurned(Card.parse("JH"), 1): "turned card JH; seat 1 calls first",
        belot_ev.BidMade(0, "pass", None, None, 1, False): "seat 0 calls pass",
        belot_ev.BidMade(1, "play", 1, "H", None, False): (
            "seat 1 calls play: seat 1 plays, trump H"
        ),
        belot_ev.BidMade(2, "pass", None, None, None, True): (
            "seat 2 calls pass: all passed twice, the deal is void"
        ),
        belot_ev.Declared(0, tuple(parse_cards("QC KC AC")), "terz", 20): (
            "seat 0 declares terz (20): QC KC AC"
        ),
        belot_ev.Claimed(2, 1004): "seat 2 claims 1001 (1004)",
    }
    for event, line in lines.items():
        assert isinstance(event, ev.GameEvent)
        assert describe(event, table) == line


def test_a_games_event_without_a_line_of_its_own_shows_as_itself() -> None:
    @dataclass(frozen=True, slots=True)
    class Knocked(ev.GameEvent):
        seat: int

    table = LocalGame.seeded(1).make_tables()[0]
    assert describe(Knocked(1), table) == repr(Knocked(1))


def test_the_core_keeps_only_the_shared_standing() -> None:
    """Belka's standing extends the shared points; the core's says nothing of it."""
    assert [f for f in ev.Score.__dataclass_fields__] == ["points"]
    standing = belka_ev.BelkaScore((3, 5), ((), ("title",)), True, None)
    assert isinstance(standing, ev.Score) and standing.points == (3, 5)
