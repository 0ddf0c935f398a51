"""Belka's pages: the end of a deal, the score sheet, the end of the game, the rules."""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.ui.games.belka.view import BelkaView, sort_hand
from p2pbelka.ui.games.belka.words import note_words, sides, team_name
from p2pbelka.ui.plainpages import transcript_lines, verdict
from p2pbelka.ui.view import DealEnd
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _


def _cards(cards: Sequence[Card], trump: Suit | None = None) -> str:
    if trump is not None:
        cards = sort_hand(list(cards), trump)
    return " ".join(card_label(c).ljust(3) for c in cards)


def belka_summary(summary: DealSummary) -> BelkaSummary:
    """The summary of a deal on Belka's pages (they are shown Belka's deals only)."""
    assert isinstance(summary, BelkaSummary), type(summary)
    return summary


def deal_end_lines(view: BelkaView, end: DealEnd, width: int = 80) -> StyleAndTextTuples:
    summary = belka_summary(end.summary)
    trump = summary.trump
    names = view.names
    out: StyleAndTextTuples = []
    out.append(
        (
            "class:heading",
            _("Deal {n}, dealt by {dealer}; trumps {suit}, trump team {team}").format(
                n=summary.number + 1,
                dealer=view.name(summary.dealer),
                suit=suit_name(trump),
                team=team_name(summary.trump_team, names),
            )
            + "\n",
        )
    )
    out.append(("class:hint", _("Hands as dealt:") + "\n"))
    width = max(len(n) for n in names) + 1
    for seat, hand in enumerate(summary.hands):
        out.append(("", f" {view.name(seat).ljust(width)} {_cards(hand, trump)}\n"))
    out.append(("class:hint", sides(view.me, names, view.watching) + "\n"))
    claim = summary.redeal_claim
    if claim is not None:
        out.append(
            (
                "",
                _("{name} showed the hand and claimed a re-deal.").format(name=view.name(claim))
                + "\n",
            )
        )
    elif summary.tricks:
        out.append(("class:hint", _("Tricks (leader: cards → taken by):") + "\n"))
        for i, trick in enumerate(summary.tricks):
            out.append(
                (
                    "",
                    f" {i + 1} {view.name(trick.leader).ljust(width)} {_cards(trick.cards)}"
                    f" → {view.name(trick.winner)}\n",
                )
            )
    a, b = summary.card_points
    out.append(
        (
            "",
            _("Card points: {team0} {a}, {team1} {b}").format(
                team0=team_name(0, names), a=a, team1=team_name(1, names), b=b
            )
            + "\n",
        )
    )
    awarded, score = summary.awarded, summary.score
    key = _("eyes opened") if view.scoring == "eyes" else _("game points")
    out.append(
        (
            "class:heading",
            _("This deal: {what} {a}:{b}; game score {c}:{d}").format(
                what=key, a=awarded[0], b=awarded[1], c=score[0], d=score[1]
            )
            + "\n",
        )
    )
    for note in [*summary.notes, *summary.offenses]:
        out.append(("class:hint", f"· {note_words(note, names)}\n"))
    out.append(verdict(summary, end.faults))
    out.append(("", "\n"))
    return out


def summary_title(view: BelkaView, end: DealEnd) -> str:
    """The title line of a finished deal's page: that deal, not the one now dealt."""
    summary = belka_summary(end.summary)
    return " · ".join(
        [
            "p2pbelka",
            _("deal {n}").format(n=summary.number + 1),
            _("trumps: {suit}").format(suit=suit_name(summary.trump)),
            _("trump team: {team}").format(team=team_name(summary.trump_team, view.names)),
        ]
    )


def score_sheet_lines(view: BelkaView) -> StyleAndTextTuples:
    """Every deal so far as players keep it on paper: who dealt, trumps and the trump
    team, the card points, what the deal scored, the running score, re-deals and fines."""
    names = view.names
    eyes = view.scoring == "eyes"
    out: StyleAndTextTuples = [
        ("class:heading", _("Score sheet") + "\n"),
        ("class:hint", sides(view.me, names, view.watching) + "\n"),
        (
            "class:hint",
            _("Pair A: {team}; pair B: {other}").format(
                team=team_name(0, names), other=team_name(1, names)
            )
            + "\n\n",
        ),
    ]
    scored = _("eyes") if eyes else _("points")
    # the column heads, translated outside the f-string so xgettext finds them
    deal, dealer, trumps = _("deal"), _("dealer"), _("trumps")
    trump_team, cards, total = _("trump team"), _("cards"), _("total")
    header = (
        f"{deal:>4}  {dealer:<14} {trumps:<10} {trump_team:<10} {cards:>7} {scored:>7} {total:>7}"
    )
    out.append(("class:heading", header + "\n"))
    if not view.deal_ends:
        out.append(("class:hint", _("No deal has ended yet.") + "\n"))
    for end in view.deal_ends:
        summary = belka_summary(end.summary)
        trump = summary.trump
        team = "AB"[summary.trump_team]
        claim = summary.redeal_claim
        cards = "-" if claim is not None else "{}:{}".format(*summary.card_points)
        awarded = "{}:{}".format(*summary.awarded)
        total = "{}:{}".format(*summary.score)
        mark = verdict(summary, end.faults)
        out.append(
            (
                "",
                f"{summary.number + 1:>4}  {view.name(summary.dealer):<14}"
                f" {suit_name(trump):<10} {team:<10} {cards:>7} {awarded:>7} {total:>7} ",
            )
        )
        out.append((mark[0], mark[1][:1] + "\n"))
        if claim is not None:
            out.append(
                (
                    "class:hint",
                    "      " + _("re-deal claimed by {name}").format(name=view.name(claim)) + "\n",
                )
            )
        for note in [*summary.notes, *summary.offenses]:
            if claim is not None and "re-deal" in note and "three" not in note:
                continue  # said just above, with the name
            out.append(("class:hint", f"      · {note_words(note, names)}\n"))
        for fault in end.faults:
            out.append(("class:verdict.bad", f"      ✘ {view.describe_fault(fault)}\n"))
    return out


def game_end_lines(view: BelkaView) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    if view.game_over is not None:
        over = view.game_over
        score = f"{over.score[0]}:{over.score[1]}"
        if over.winner is None:
            text = _("Game over, {score}.").format(score=score)
        else:
            text = _("Game over: {team} win, {score}.").format(
                team=team_name(over.winner, view.names), score=score
            )
        out.append(("class:verdict.ok", text + "\n"))
    elif view.aborted is not None:
        out.append(("class:verdict.bad", _("The game was stopped:") + "\n"))
        for fault in view.aborted.faults:
            out.append(("class:verdict.bad", f" {view.describe_fault(fault)}\n"))
    key = _("eyes opened") if view.scoring == "eyes" else _("game points")
    for end in view.deal_ends:
        summary = belka_summary(end.summary)
        awarded = summary.awarded
        line = _("Deal {n}: {what} {a}:{b}").format(
            n=summary.number + 1, what=key, a=awarded[0], b=awarded[1]
        )
        out.append(("", f"{line}  {verdict(summary, end.faults)[1][:1]}\n"))
    if view.transcript_path:
        out.append(("", "\n"))
        out += transcript_lines(view)
    return out


def help_text() -> str:
    return _(
        """Belka in brief

Four players in two pairs: you and the player opposite against the other two.
32 cards, 7 to ace. The four jacks are always the highest trumps:
J♣ > J♠ > J♥ > J♦, then ace, 10, king, queen, 9, 8, 7 of the trump suit.
Plain suits rank ace, 10, king, queen, 9, 8, 7.
Card points: ace 11, ten 10, king 4, queen 3, jack 2; 120 in the deck.

In the first deal clubs are trumps, and the player holding the J♣ takes
clubs as their suit; the next players in turn take hearts, spades, diamonds.
In every later deal the suit of whoever holds the J♣ is trumps, and their
pair is the trump team.

Follow the suit that was led (jacks count as trumps). Without it you may
play any card: you need not trump. The highest trump takes the trick,
otherwise the highest card of the suit led; the winner leads next.

A pair with more than 60 card points wins the deal: 1 game point (2 with 91
or more), one more if they were not the trump team; all 120 wins the game.
At 60:60 ("eggs") nobody scores and the next deal is worth more. First to 12.
With fewer than 13 points, or all four nines, you may claim a re-deal.

Every deal is shuffled by all four peers together: nobody sees the deck.
After the last trick the seeds are revealed and every card is checked.

Keys: ←/→ or 1-8 choose a card, Enter plays it (or click it twice),
l shows the last trick, s the score sheet, c writes in the chat,
q quits (the game is saved), Esc closes this help."""
    )
