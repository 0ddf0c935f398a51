"""The seats' text mode speaks the locale's language: a host and joiners on loopback,
run as the real program under ``LANG=ru_RU.UTF-8`` or ``kk_KZ.UTF-8``, play a whole
game of bots and print no line in English (the game's own events included); and every
event of each game has words in Russian and Kazakh."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from p2pbelka.cards import Card
from p2pbelka.peer.driver import Resumed, Waiting
from p2pbelka.peer.seatchange.drivers import Decision, OfferClosed, SeatOffer
from p2pbelka.rules.belka.game import EGGS_CHOICES
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka import events as belka_events
from p2pbelka.table.games.belka.events import BelkaScore
from p2pbelka.table.games.belot import events as belot_events
from p2pbelka.table.segments import SeatChanged, describe_change
from p2pbelka.table.session import Table
from p2pbelka.ui import registry
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.englishlog import ENGLISH as ENGLISH_WORDS
from p2pbelka.ui.words.englishlog import english_line
from p2pbelka.ui.words.loglines import seat_change_line
from p2pbelka.ui.words.seatlog import SeatWords, seat_words
from tests.lan.helpers import Peer, PeerSet

GAME_TIMEOUT = 240.0
NAMES = ("Asel", "Bolat", "Saule", "Nurlan")
DEFAULT = (("kk_KZ.UTF-8", "belot"),)
"""The game of the default suite; ``-m slow`` plays each game in both languages.  A
Belka seat in Russian plays by default too, at test_text_mode_person's table (its
other seats in English): ``prints_no_english`` reads it there."""
VERIFIED = {"ru_RU.UTF-8": "проверена", "kk_KZ.UTF-8": "тексерілді"}

# the English event lines of the text mode (ui/words/englishlog.py, the games' English)
ENGLISH = (
    "game started",
    "first dealer",
    "dealer seat",
    "your hand",
    "your move",
    " leads",
    " plays ",
    "takes the trick",
    "verified:",
    "transcript head",
    "game over",
    "wins",
    "trump ",
    "claims",
    "chooses",
    "turned card",
    "calls",
    "declares",
    "the game goes on",
    "waiting for",
    "card points",
    "awarded",
    "score",
    "totals",
    "written",
    "replaced by",
    "handed back",
    "agreed by",
    "gone for",
    "no bot for",
    "is back",
    "holds the J",
    "deals next",
    " deals",
    "(seat ",
)  # not the moves offered ("re-deal", "play"): they are typed back as they are shown


def _table(peers: PeerSet, locale: str, game: str, players: int) -> list[Peer]:
    bots = ("--bot", "random", "--stats", "--listen", "127.0.0.1")
    setup = ("--game", game, "--players", str(players))
    host = peers.spawn(
        "host", "host", "--auto-approve", "--no-announce", *setup, *bots, locale=locale
    )
    # the host's "table open" line, in the language: its first number is the lobby port
    port = host.wait_for(r"(?m)^\S+ \S+: \D*(\d+)", 20).group(1)
    joiners = [
        peers.spawn(f"joiner{n}", "join", "--connect", f"127.0.0.1:{port}", *bots, locale=locale)
        for n in range(1, players)
    ]
    return [host, *joiners]


@pytest.mark.parametrize(
    ("locale", "game", "players"),
    [  # one game in each language by default (the same lines, looked up in either catalogue)
        pytest.param(loc, game, n, marks=() if (loc, game) in DEFAULT else (pytest.mark.slow,))
        for loc in ("ru_RU.UTF-8", "kk_KZ.UTF-8")
        for game, n in (("belka", 4), ("belot", 2))
    ],
)
def test_a_text_mode_game_prints_no_english_event_line(
    tmp_path: Path, locale: str, game: str, players: int
) -> None:
    with PeerSet(tmp_path) as peers:
        everyone = _table(peers, locale, game, players)
        assert peers.wait(everyone, GAME_TIMEOUT) == [0] * players
        for peer in everyone:
            prints_no_english(peer, locale)


def prints_no_english(peer: Peer, locale: str) -> None:
    """The seat's text mode, run under ``locale``, printed its deals' audits in the
    language and no English event line."""
    lines = peer.text().splitlines()
    assert any(VERIFIED[locale] in line for line in lines), peer.dump()  # each deal's audit
    for line in lines:
        english = [phrase for phrase in ENGLISH if phrase in line]
        assert not english, f"{peer.name}: {line!r} is English ({english})"


def _belka_events() -> list[ev.GameEvent]:
    cards = (Card.parse("JC"), Card.parse("7D"))
    score = BelkaScore(points=(0, 0))
    return [
        belka_events.TrumpAnnounced(1, "H", 1, None),
        belka_events.RedealClaimed(2, cards),
        *(belka_events.EggsChosen(0, choice, score) for choice in EGGS_CHOICES),
    ]


def _belot_events() -> list[ev.GameEvent]:
    cards = (Card.parse("QS"), Card.parse("KS"))
    return [
        belot_events.CardTurned(Card.parse("9H"), 1),
        belot_events.BidMade(1, "play", 1, "H", None, False),
        belot_events.BidMade(0, "pass", None, None, 1, True),
        belot_events.BidMade(0, "S", 0, "S", None, False),
        belot_events.Declared(0, cards, "belle", 20),
        belot_events.Claimed(1, 1001),
    ]


def _kinds(module: object) -> set[type]:
    return {
        kind
        for kind in vars(module).values()
        if isinstance(kind, type) and issubclass(kind, ev.GameEvent) and kind is not ev.GameEvent
    }


@pytest.mark.parametrize("lang", ["ru", "kk"])
@pytest.mark.parametrize(
    ("game", "module", "samples"),
    [("belka", belka_events, _belka_events), ("belot", belot_events, _belot_events)],
)
def test_every_event_of_a_game_has_words_in_the_language(
    lang: str, game: str, module: object, samples: object
) -> None:
    events = samples()  # type: ignore[operator]
    assert {type(e) for e in events} == _kinds(module), "a sample of every kind of event"
    english = [registry.game(game).event_line(e, NAMES) for e in events]
    try:
        i18n.set_language(lang)
        for event, in_english in zip(events, english, strict=True):
            said = registry.game(game).event_line(event, NAMES)
            assert said is not None and in_english is not None, event
            assert said != in_english
            assert not any(p in said for p in ENGLISH), said
    finally:
        i18n.set_language("en")


def _peer_events() -> list[ev.Event]:
    change = SeatChanged(2, "Bot", b"\x01" * 32, "Ann", (0, 1, 3), 4, 3, False, b"")
    return [
        Waiting((1, 2), 30.0),
        Waiting((), 30.0),
        Waiting((1,), 30.0, alone=True),
        Resumed(),
        SeatOffer(2, "Ann", 120.0, "Bot", Decision()),
        SeatOffer(2, "Ann", 120.0, "Bot", Decision(), back=True),
        OfferClosed(2, "the others said no"),
        change,
        replace(change, back=True),
        replace(change, voided=None),
    ]


@pytest.mark.parametrize("lang", ["ru", "kk"])
def test_the_seat_s_waits_offers_and_seat_changes_are_in_the_language(lang: str) -> None:
    table = Table.__new__(Table)  # these lines read nothing of the table
    english = [english_line(event, table) for event in _peer_events()]
    try:
        i18n.set_language(lang)
        words = SeatWords()
        for event, in_english in zip(_peer_events(), english, strict=True):
            said = words.describe(event, table)
            assert said != in_english, event
            assert not any(p in said for p in ENGLISH), said
        prompts = [words.offer_choices(True), words.no_input(), words.type_choice(3)]
        assert all(p != q for p, q in zip(prompts, ("y) yes", "(no input", "type"), strict=True))
    finally:
        i18n.set_language("en")


def test_english_is_worded_for_a_person_too() -> None:
    # scripts read --json (ui/words/jsonlog.py); English text is a person's, as any language's
    assert isinstance(seat_words(), SeatWords) and seat_words() is not ENGLISH_WORDS
    change = _peer_events()[-1]
    assert isinstance(change, SeatChanged)
    assert seat_change_line(change) == describe_change(change)
