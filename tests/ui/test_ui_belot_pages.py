"""Belot's view, table panel and pages, drawn from events and audited deal summaries."""

from __future__ import annotations

import pytest
from prompt_toolkit.output import ColorDepth

from p2pbelka.cards import Card, Suit, parse_cards
from p2pbelka.rules.belot import moves as belot_mv
from p2pbelka.rules.belot.game import BelotGame
from p2pbelka.table import events as ev
from p2pbelka.table import moves as mv
from p2pbelka.table.games.belot import events as belot_ev
from p2pbelka.ui.app import TableScreen
from p2pbelka.ui.canvas import plain_text
from p2pbelka.ui.games.belot import panels as belot_panels
from p2pbelka.ui.games.belot import reports as belot_reports
from p2pbelka.ui.games.belot.screen import UI as BELOT
from p2pbelka.ui.games.belot.view import BelotView, sort_belot_hand
from p2pbelka.ui.words import i18n
from p2pbelka.ui.words.cardnames import RED_STYLE, red_suits
from tests.ui.belot_summaries import BAIT, CLAIM, HANGING, MADE, PAID, VOID, end

NAMES = ("Asel", "Bolat", "Saule")


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_language("en")


def started(players: int = 3) -> BelotView:
    view = BelotView(me=0)
    names = NAMES[:players]
    score = ev.Score((0,) * players)
    view.apply(ev.GameStarted("belot", names, (b"",) * players, 1, 0, {}, score))
    view.apply(ev.DealStarted(1, 0, 1, score))
    return view


def test_hands_sort_trumps_first_in_their_order_then_plain_suits_alternating() -> None:
    hand = parse_cards("7H JH 9H AH AS 9S KC 10D".replace("10", "T"))
    trumps_hearts = sort_belot_hand(hand, Suit.HEARTS)
    assert [str(c) for c in trumps_hearts[:4]] == ["JH", "9H", "AH", "7H"]
    assert [c.suit for c in trumps_hearts[4:]] == [
        Suit.SPADES, Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS,
    ]  # fmt: skip
    assert [str(c) for c in sort_belot_hand(hand, None)[:4]] == ["AS", "9S", "AH", "JH"]


def test_the_view_follows_the_calls_and_the_turned_card() -> None:
    view = started()
    hand = tuple(parse_cards("7C 8C 9C QH KH AS"))
    view.apply(ev.HandDealt(0, hand))
    view.apply(belot_ev.CardTurned(Card.parse("JH"), 2))
    assert view.turned == Card.parse("JH") and view.turn == 2
    assert view.stock_left == 4  # no rules state yet: as after the three more
    view.apply(belot_ev.BidMade(2, "pass", None, None, 0, False))
    view.apply(ev.ChoiceNeeded("bid", (belot_mv.Bid("play"), belot_mv.Bid("pass"))))
    assert view.bidding and view.offered_calls == ["play", "pass"]
    view.apply(belot_ev.BidMade(0, "play", 0, "H", None, False))
    assert not view.bidding and view.declarer == 0 and view.trump is Suit.HEARTS
    assert [str(c) for c in view.hand[:2]] == ["KH", "QH"]  # re-sorted: trumps first
    assert view.calls == [(2, "pass"), (0, "play")]
    assert "Saule passes." in view.log
    assert "Asel plays ♥ hearts: trumps, and Asel is the declarer." in view.log
    table = plain_text(belot_panels.table_panel(view, 60).fragments())
    assert "turned J♥" in table and "Bolat (deals)" in table and "Saule" in table


def test_the_view_reads_values_and_claims_from_the_rules_state() -> None:
    game = BelotGame.new(players=3, first_dealer=2)
    game = game.start_deal([parse_cards("7C 8C 9C QH KH AS"), None, None], Card.parse("JH"))
    from p2pbelka.rules.belot.deal import Bid

    game = game.apply(Bid(0, "play"))
    game = game.deal_extra([parse_cards("TC 7D 8D"), None, None])
    view = started()
    view.observe(game)
    assert view.stock_left == 4
    offered = (belot_mv.Declare(tuple(parse_cards("7C 8C 9C TC"))), mv.PlayCard(Card.parse("7C")))
    view.apply(ev.ChoiceNeeded("play", offered))
    assert view.may_declare and view.worth(view.offered[0]) == ("berz", 50)
    assert belot_panels.combination_line(view, view.offered[0]) == "berz  7♣ 8♣ 9♣ 10♣  · 50"
    assert not view.claim_offered and view.status == ""
    assert view.deal_totals() == (0, 0, 0)


def test_the_score_shows_each_seat_towards_1001_and_the_hanging_points() -> None:
    view = started()
    view.score, view.hanging = (500, 250, 0), 53
    text = plain_text(belot_panels.score_lines(view, 31))
    lines = text.splitlines()
    assert lines[0].startswith("Score (to 1001)")
    assert "Asel" in lines[1] and "500" in lines[1] and "■■■■□" in lines[1]
    assert "Hanging: 53 points" in text


def test_a_made_deal_page_has_hands_stock_tricks_totals_and_the_verdict() -> None:
    view = started()
    page = plain_text(belot_reports.deal_end_lines(view, end(MADE), 100))
    assert "Deal 1, dealt by Saule; turned Q♥; Asel plays ♥ hearts" in page
    assert "Calls: Asel play ♥ hearts" in page
    assert "Hands as dealt (six, then three more):" in page
    assert "Stock: " in page and "the turned Q♥ under it" in page
    assert page.count("→") == 1 + 9 and "Combinations: none declared." in page
    totals = next(line for line in page.splitlines() if line.startswith(" Bolat") and "35" in line)
    assert totals.split() == ["Bolat", "25", "10", "0", "35", "35"]
    assert "Made: Asel, the declarer, has the most" in page
    assert "Score: Asel 104, Bolat 35, Saule 5" in page
    assert "✔ Fair deal verified" in page


def test_bait_hanging_paid_void_and_claim_say_what_happened() -> None:
    view = started()

    def page(summary: dict[str, object]) -> str:
        return plain_text(belot_reports.deal_end_lines(view, end(summary)))

    assert "Bait: Asel took more than Bolat, the declarer, who writes nothing." in page(BAIT)
    hanging = page(HANGING)
    assert "Hanging bait: Bolat, the declarer, ties for the most; 53 points hang" in hanging
    assert "Still hanging: 53 points." in hanging
    assert "Bolat terz 10♥ J♥ Q♥ 20 ✔" in hanging and "Saule terz 7♥ 8♥ 9♥ 20 ✘" in hanging
    assert "53 hanging points go to Asel." in page(PAID)
    void = page(VOID)
    assert "void and nobody scores" in void and "Tricks" not in void
    assert "Asel claimed 1001 with 1018" in page(CLAIM)


def test_the_score_sheet_keeps_every_deal_as_on_paper() -> None:
    view = started()
    view.deal_ends = [end(s) for s in (MADE, BAIT, HANGING, PAID, VOID, CLAIM)]
    view.deal_ends[1] = end(BAIT, ev.Fault(1, "a card not held", deal=2))
    text = plain_text(belot_reports.score_sheet_lines(view))
    lines = text.splitlines()
    header = next(line for line in lines if "dealer" in line)
    for word in ("deal", "trumps", "declarer", "Asel", "Bolat", "Saule", "result"):
        assert word in header
    first = next(line for line in lines if line.startswith("   1 "))
    assert first.split()[1:4] == ["Saule", "♥", "Asel"] and "made" in first
    assert first.split()[4:10] == ["104", "104", "35", "35", "5", "5"]
    assert "bait" in next(line for line in lines if line.startswith("   2 "))
    assert "Bolat: a card not held" in text
    assert "53 points hang." in text and "53 hanging points go to Asel." in text
    assert "void" in next(line for line in lines if line.startswith("  16 "))
    assert "1001 claimed" in lines[-1] or "1001 claimed" in text


def test_the_end_page_puts_the_result_and_the_verdict_first() -> None:
    view = started()
    view.deal_ends = [end(MADE), end(CLAIM)]
    view.transcript_path = "/tmp/g.transcript"
    view.apply(ev.GameOver(0, (1018, 681, 920)))
    lines = plain_text(belot_reports.game_end_lines(view)).splitlines()
    assert lines[0] == "Game over: Asel wins with 1018 (Asel 1018, Bolat 681, Saule 920)."
    assert lines[1].startswith("✔ All 2 deals verified")
    assert lines[2] == "Transcript saved to /tmp/g.transcript"
    assert any(line.startswith("Deal 23: 1001 claimed") for line in lines)


def test_red_suits_on_the_belot_pages() -> None:
    view = started()
    page = red_suits(belot_reports.deal_end_lines(view, end(MADE)))
    red = [f[1] for f in page if RED_STYLE in f[0]]
    assert "Q♥" in red and not any("♣" in text or "♠" in text for text in red)


@pytest.mark.parametrize("lang", ["ru", "kk"])
def test_the_pages_are_translated(lang: str) -> None:
    i18n.set_language(lang)
    view = started()
    page = plain_text(belot_reports.deal_end_lines(view, end(HANGING)))
    assert "Висячий байд" in page and "терц" in page
    assert "Hands" not in page and "Stock" not in page


def test_no_color_is_respected_on_the_belot_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    screen = TableScreen(BELOT, BelotView(), lambda move: None)
    assert screen.app.color_depth == ColorDepth.DEPTH_1_BIT


def test_the_table_panel_paints_hearts_and_diamonds_red() -> None:
    view = started()
    view.apply(belot_ev.CardTurned(Card.parse("QD"), 1))
    table = red_suits(belot_panels.table_panel(view, 60).fragments())
    assert any("♦" in f[1] and ("card.red" in f[0] or RED_STYLE in f[0]) for f in table)


class _Seat:
    """What ``open_declarations`` asks of the table screen."""

    def __init__(self, view: BelotView) -> None:
        self.view, self.overlay, self.drawn = view, None, 0

    def invalidate(self) -> None:
        self.drawn += 1


def test_d_with_nothing_to_declare_says_why_once() -> None:
    from p2pbelka.ui.games.belot.screen import open_declarations
    from p2pbelka.ui.view import TrickView

    view = BelotView(players=3)
    seat = _Seat(view)
    open_declarations(seat)  # type: ignore[arg-type]
    open_declarations(seat)  # type: ignore[arg-type]
    assert view.log == ["Combinations are declared on your lead, before the trick's first card."]
    assert seat.overlay is None and seat.drawn == 2
    view.turn, view.trick = 0, TrickView(leader=0, cards=[], seats=3)
    view.choice, view.legal = "play", set(parse_cards("7H 8H"))
    open_declarations(seat)  # type: ignore[arg-type]
    assert view.log[-1].startswith("Nothing to declare: no combination")
