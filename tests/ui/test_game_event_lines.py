"""A game's own events are data; the game's screen words them in the text log (in
English too, its seats by name and its cards as the screen writes them), so the text
front end and the table know no game and no words."""

from __future__ import annotations

from dataclasses import dataclass

from p2pbelka.cards import Card, Suit, parse_cards
from p2pbelka.peer.local import LocalGame
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka import events as belka_ev
from p2pbelka.table.games.belot import events as belot_ev
from p2pbelka.ui.words.englishlog import english_line


def test_the_lines_of_a_games_own_events() -> None:
    tables = {g: LocalGame.seeded(1, game=g).make_tables()[0] for g in ("belka", "belot")}
    suits = (Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS)
    lines = {
        belka_ev.TrumpAnnounced(2, "H", 0, suits): "trump ♥ hearts (Saule holds the J♣)",
        belka_ev.RedealClaimed(1, tuple(parse_cards("7C 7D"))): "Bolat claims a re-deal: 7♣ 7♦",
        belka_ev.EggsChosen(3, "plus4", belka_ev.BelkaScore((0, 4))): "Nurlan chooses +4 points",
        belot_ev.CardTurned(Card.parse("JH"), 1): "turned card J♥; Bolat calls first",
        belot_ev.BidMade(0, "pass", None, None, 1, False): "Asel calls pass",
        belot_ev.BidMade(1, "play", 1, "H", None, False): (
            "Bolat calls play: Bolat plays, trump ♥ hearts"
        ),
        belot_ev.BidMade(2, "pass", None, None, None, True): (
            "Saule calls pass: all passed twice, the deal is void"
        ),
        belot_ev.Declared(0, tuple(parse_cards("QC KC AC")), "terz", 20): (
            "Asel declares terz (20): Q♣ K♣ A♣"
        ),
        belot_ev.Claimed(2, 1004): "Saule claims 1001 (1004)",
    }
    for event, line in lines.items():
        assert isinstance(event, ev.GameEvent)
        game = "belka" if type(event).__module__ == belka_ev.__name__ else "belot"
        assert english_line(event, tables[game]) == line


def test_a_games_event_no_screen_words_shows_as_its_record() -> None:
    @dataclass(frozen=True, slots=True)
    class Knocked(ev.GameEvent):
        seat: int

    table = LocalGame.seeded(1).make_tables()[0]
    assert english_line(Knocked(1), table) == repr(Knocked(1))


def test_the_core_keeps_only_the_shared_standing() -> None:
    """Belka's standing extends the shared points; the core's says nothing of it."""
    assert [f for f in ev.Score.__dataclass_fields__] == ["points"]
    standing = belka_ev.BelkaScore((3, 5), ((), ("title",)), True, None)
    assert isinstance(standing, ev.Score) and standing.points == (3, 5)
