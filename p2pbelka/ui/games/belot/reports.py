"""Belot's pages: the end of a deal, the score sheet, the end of the game, the rules.

Each page is drawn from the deal summaries the audit reports
(:class:`~p2pbelka.rules.belot.summary.BelotSummary`: hands as dealt, the calls, the
declarations, the tricks, the totals, what each seat wrote), never from the live table.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.cards import Card, Suit
from p2pbelka.rules.belot import core
from p2pbelka.rules.belot.options import belot_options
from p2pbelka.rules.belot.summary import BelotPlay, BelotSummary
from p2pbelka.rules.common.play import hand_mask
from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.ui.games.belot.view import (
    BelotView,
    call_name,
    combination_name,
    result_name,
    sort_belot_hand,
)
from p2pbelka.ui.plainpages import transcript_lines, verdict
from p2pbelka.ui.view import DealEnd
from p2pbelka.ui.words.cardnames import card_label, suit_name
from p2pbelka.ui.words.i18n import _

TRICK_COLUMN = 40
"""Width of one column of tricks: two side by side when the page is wide enough."""


def _cards(cards: list[Card], trump: Suit | None = None) -> str:
    return " ".join(card_label(c) for c in sort_belot_hand(cards, trump))


def belot_summary(summary: DealSummary) -> BelotSummary:
    """The summary of a deal on Belot's pages (they are shown Belot's deals only)."""
    assert isinstance(summary, BelotSummary), type(summary)
    return summary


def _trump(summary: BelotSummary) -> Suit | None:
    return summary.played.trump if summary.played is not None else None


def _fours(view: BelotView) -> tuple[int, ...]:
    if view.state is not None:
        return view.state.options.fours
    return belot_options().fours


def _players(view: BelotView, summary: BelotSummary) -> int:
    return len(summary.hands) or view.players


def summary_title(view: BelotView, end: DealEnd) -> str:
    """The title line of a finished deal's page: that deal, not the one now dealt."""
    summary = belot_summary(end.summary)
    parts = ["p2pbelka", _("Belot"), _("deal {n}").format(n=summary.number + 1)]
    played = summary.played
    if played is not None:
        parts.append(_("trumps: {suit}").format(suit=suit_name(played.trump)))
        parts.append(_("declarer: {name}").format(name=view.name(played.declarer)))
    return " · ".join(parts)


def calls_text(view: BelotView, summary: BelotSummary) -> str:
    """The deal's calls in order, with who made them."""
    n = _players(view, summary)
    said = [
        f"{view.name((summary.dealer + 1 + i) % n)} {call_name(call, summary.turned)}"
        for i, call in enumerate(summary.bids)
    ]
    return " · ".join(said)


def outcome_text(view: BelotView, summary: BelotSummary) -> str:
    """What the deal came to: made, bait, hanging bait, a claim of 1001, or void."""
    played = summary.played
    if played is None:
        return _("Everybody passed twice: the deal is void and nobody scores.")
    declarer = view.name(played.declarer)
    totals = played.totals
    result = played.result
    if result == "claim" and played.claim is not None:
        seat = played.claim
        return _("{name} claimed 1001 with {total}: the deal ends there, and the game.").format(
            name=view.name(seat), total=summary.score[seat]
        )
    if result == "made":
        return _("Made: {name}, the declarer, has the most; everyone writes their total.").format(
            name=declarer
        )
    if result == "bait":
        best = max(t for s, t in enumerate(totals) if s != played.declarer)
        over = ", ".join(
            view.name(s) for s, t in enumerate(totals) if t == best and s != played.declarer
        )
        return _("Bait: {others} took more than {name}, the declarer, who writes nothing.").format(
            others=over, name=declarer
        )
    return _(
        "Hanging bait: {name}, the declarer, ties for the most; {points} points hang"
        " and {name} deals next."
    ).format(name=declarer, points=totals[played.declarer])


def _declaration_counts(played: BelotPlay, seat: int, name: str) -> bool:
    """Whether a declaration of ``seat`` scored: belle if its owner took a trick, the
    others if their owner had the best combination (and so scores all of theirs)."""
    took = {t.winner for t in played.tricks}
    if seat not in took:
        return False
    belle = sum(
        core.BELLE_VALUE for d in played.declarations if d.seat == seat and d.name == "belle"
    )
    if name == "belle":
        return True
    return played.combinations[seat] - belle > 0


def deal_end_lines(view: BelotView, end: DealEnd, width: int = 80) -> StyleAndTextTuples:
    summary = belot_summary(end.summary)
    played = summary.played
    n = _players(view, summary)
    trump = _trump(summary)
    turned = summary.turned
    names = [view.name(s) for s in range(n)]
    pad = max(len(name) for name in names) + 1
    out: StyleAndTextTuples = []
    head = _("Deal {n}, dealt by {dealer}; turned {card}").format(
        n=summary.number + 1, dealer=view.name(summary.dealer), card=card_label(turned)
    )
    if played is not None:
        head += "; " + _("{name} plays {suit}").format(
            name=view.name(played.declarer), suit=suit_name(played.trump)
        )
    out.append(("class:heading", head + "\n"))
    out.append(("", _("Calls:") + " " + calls_text(view, summary) + "\n"))
    extra = played.extra if played is not None else None
    out.append(
        (
            "class:hint",
            (_("Hands as dealt (six, then three more):") if extra else _("Hands as dealt:")) + "\n",
        )
    )
    for seat in range(n):
        first = _cards(list(summary.hands[seat]), trump)
        more = f"  + {_cards(list(extra[seat]), trump)}" if extra else ""
        out.append(("", f" {names[seat].ljust(pad)} {first}{more}\n"))
    out.append(
        (
            "class:hint",
            " "
            + _("Stock: {cards}; the turned {card} under it").format(
                cards=_cards(list(summary.stock)) or "-", card=card_label(turned)
            )
            + "\n",
        )
    )
    if played is None:
        out.append(("class:heading", outcome_text(view, summary) + "\n"))
        if summary.hanging:
            out.append(("", _("Still hanging: {n} points.").format(n=summary.hanging) + "\n"))
        out.append(verdict(summary, end.faults))
        out.append(("", "\n"))
        return out
    out += _declarations(view, played)
    out += _tricks(played, names, pad, width)
    out += _totals(view, played, names, pad)
    out.append(("class:heading", outcome_text(view, summary) + "\n"))
    if played.paid:
        top = core.top_seat(played.totals)
        out.append(
            (
                "",
                _("{points} hanging points go to {name}.").format(
                    points=played.paid, name=view.name(top)
                )
                + "\n",
            )
        )
    if summary.hanging:
        out.append(("", _("Still hanging: {n} points.").format(n=summary.hanging) + "\n"))
    score = ", ".join(f"{names[s]} {summary.score[s]}" for s in range(n))
    out.append(("class:heading", _("Score: {score}").format(score=score) + "\n"))
    out.append(verdict(summary, end.faults))
    out.append(("", "\n"))
    return out


def _declarations(view: BelotView, played: BelotPlay) -> StyleAndTextTuples:
    declared = played.declarations
    if not declared:
        return [("class:hint", _("Combinations: none declared.") + "\n")]
    fours = _fours(view)
    parts: StyleAndTextTuples = [("class:hint", _("Combinations:") + " ")]
    for i, d in enumerate(declared):
        cards = list(d.cards)
        found = core.combination(hand_mask(cards), int(played.trump), fours)
        value = found[1] if found is not None else 0
        counts = _declaration_counts(played, d.seat, d.name)
        mark = "✔" if counts else "✘"
        text = (
            f"{view.name(d.seat)} {combination_name(d.name, cards)}"
            f" {' '.join(card_label(c) for c in cards)} {value} {mark}"
        )
        if i:
            parts.append(("", " · "))
        parts.append(("" if counts else "class:hint", text))
    parts.append(("", "\n"))
    return parts


def _tricks(played: BelotPlay, names: list[str], pad: int, width: int) -> StyleAndTextTuples:
    tricks = played.tricks
    if not tricks:
        return []
    out: StyleAndTextTuples = [("class:hint", _("Tricks (leader: cards → taken by):") + "\n")]
    cells = []
    for i, trick in enumerate(tricks):
        cards = " ".join(card_label(c).ljust(3) for c in trick.cards)
        cells.append(f"{i + 1:>2} {names[trick.leader].ljust(pad)}{cards} → {names[trick.winner]}")
    column = max(TRICK_COLUMN, max(len(c) for c in cells) + 2)
    if width >= 2 * column:
        half = (len(cells) + 1) // 2
        rows = [
            cells[i].ljust(column) + (cells[i + half] if i + half < len(cells) else "")
            for i in range(half)
        ]
    else:
        rows = cells
    out += [("", row.rstrip() + "\n") for row in rows]
    return out


def _totals(view: BelotView, played: BelotPlay, names: list[str], pad: int) -> StyleAndTextTuples:
    """Cards, the last trick, combinations, the total and what each seat writes."""
    n = len(names)
    heads = (_("cards"), _("last"), _("comb."), _("total"), _("writes"))
    widths = [max(6, len(h) + 1) for h in heads]
    line = " " + "".ljust(pad) + "".join(h.rjust(w) for h, w in zip(heads, widths, strict=True))
    out: StyleAndTextTuples = [("class:hint", line + "\n")]
    for seat in range(n):
        values = (
            str(played.card_points[seat]),
            str(core.LAST_TRICK) if seat == played.last_trick else "",
            str(played.combinations[seat]),
            str(played.totals[seat]),
            str(played.written[seat]),
        )
        row = " " + names[seat].ljust(pad)
        row += "".join(v.rjust(w) for v, w in zip(values, widths, strict=True))
        style = "class:seat.me" if seat == view.me else ""
        out.append((style, row + "\n"))
    return out


def score_sheet_lines(view: BelotView) -> StyleAndTextTuples:
    """Every deal so far as kept on paper: who dealt, the trumps and the declarer, what
    each seat wrote and its running total, the result and the audit's mark."""
    n = view.players
    out: StyleAndTextTuples = [("class:heading", _("Score sheet") + "\n")]
    deal, dealer, trump, declarer, result = (
        _("deal"),
        _("dealer"),
        _("trumps"),
        _("declarer"),
        _("result"),
    )
    seats = "".join(view.name(s)[:10].rjust(11) for s in range(n))
    out.append(
        ("class:heading", f"{deal:>4}  {dealer[:9]:<9} {trump[:6]:<6} {declarer[:9]:<9}{seats}")
    )
    out.append(("class:heading", f"  {result}\n"))
    out.append(
        (
            "class:hint",
            " " * 31 + _("(each seat: written in the deal, then its total)") + "\n",
        )
    )
    if not view.deal_ends:
        out.append(("class:hint", _("No deal has ended yet.") + "\n"))
    for end in view.deal_ends:
        summary = belot_summary(end.summary)
        played = summary.played
        who = view.name(played.declarer)[:9] if played is not None else "-"
        symbol = played.trump.symbol if played is not None else "-"
        cells = ""
        for s in range(n):
            written = str(played.written[s]) if played is not None else ""
            cells += f"{written:>5}{summary.score[s]:>6}"
        mark = verdict(summary, end.faults)
        out.append(
            (
                "",
                f"{summary.number + 1:>4}  {view.name(summary.dealer)[:9]:<9}"
                f" {symbol:<6} {who:<9}{cells}  {result_name(summary)} ",
            )
        )
        out.append((mark[0], mark[1][:1] + "\n"))
        if played is not None and played.paid:
            top = core.top_seat(played.totals)
            note = _("{points} hanging points go to {name}.").format(
                points=played.paid, name=view.name(top)
            )
            out.append(("class:hint", f"      · {note}\n"))
        if played is not None and played.result == "hanging":
            note = _("{points} points hang.").format(points=played.totals[played.declarer])
            out.append(("class:hint", f"      · {note}\n"))
        for fault in end.faults:
            out.append(("class:verdict.bad", f"      ✘ {view.describe_fault(fault)}\n"))
    if view.hanging:
        out.append(("class:status", _("Hanging: {n} points").format(n=view.hanging) + "\n"))
    return out


def game_end_lines(view: BelotView) -> StyleAndTextTuples:
    """The result and the audit's verdict, where the game is saved, then every deal
    (the list scrolls: a game to 1001 has many)."""
    out: StyleAndTextTuples = []
    names = [view.name(s) for s in range(view.players)]
    if view.game_over is not None:
        over = view.game_over
        score = ", ".join(f"{names[s]} {over.score[s]}" for s in range(len(over.score)))
        if over.winner is None:
            text = _("Game over, {score}.").format(score=score)
        else:
            text = _("Game over: {name} wins with {points} ({score}).").format(
                name=view.name(over.winner), points=over.score[over.winner], score=score
            )
        out.append(("class:verdict.ok", text + "\n"))
        faults = [f for end in view.deal_ends for f in end.faults]
        if view.deal_ends and not faults:
            text = _("✔ All {n} deals verified: every shuffle, key share and card checked.")
            out.append(("class:verdict.ok", text.format(n=len(view.deal_ends)) + "\n"))
        elif faults:
            text = _("✘ The audit charged: {faults}").format(
                faults="; ".join(view.describe_fault(f) for f in faults)
            )
            out.append(("class:verdict.bad", text + "\n"))
    elif view.aborted is not None:
        out.append(("class:verdict.bad", _("The game was stopped:") + "\n"))
        for fault in view.aborted.faults:
            out.append(("class:verdict.bad", f" {view.describe_fault(fault)}\n"))
    out += transcript_lines(view)
    out.append(("", "\n"))
    for end in view.deal_ends:
        summary = belot_summary(end.summary)
        line = _("Deal {n}: {result}").format(n=summary.number + 1, result=result_name(summary))
        if summary.played is not None:
            written = summary.played.written
            line += " · " + ", ".join(f"{names[s]} {written[s]}" for s in range(len(names)))
        out.append(("", f"{line}  {verdict(summary, end.faults)[1][:1]}\n"))
    return out


def help_text() -> str:
    return _(
        """Belot in brief

Two or three players, each for themself. 32 cards, 7 to ace.
Six cards each, then a card is turned up under the stock: its suit is
proposed as trumps. Calls, from the seat after the dealer:
round 1: y plays the turned suit (you become the declarer), n passes;
round 2: 1-3 name another suit, n passes. All pass twice: a new deal.
Then three more cards each: nine in every hand.

Trumps rank J 9 A 10 K Q 8 7 (points 20 14 11 10 4 3 0 0);
plain suits A 10 K Q J 9 8 7 (points 11 10 4 3 2 0 0 0). Last trick +10.
Follow the suit led; when a trump is led, beat it if you can.
You never have to trump.

At your lead (before its first card) you may declare combinations, d:
terz 20, berz 50, five or more in a row 100, four of a kind (jacks 200,
nines 140, aces 110, queens 100, kings and tens 50), belle (K and Q of
trumps) 20. Only the best combination's owner scores combinations.

The declarer must take strictly the most points: otherwise it is a bait
and the declarer writes nothing; a tie for the most leaves the declarer's
points hanging, for the top seat of the next deal. First to 1001 wins:
after taking a trick, w claims 1001 when your points reach it.

Every deal is shuffled by all the peers together: nobody sees the deck.
After the last trick the seeds are revealed and every card is checked.

Keys: ←/→ or 1-9 choose a card, Enter plays it (or click it twice),
l shows the last trick, s the score sheet, c writes in the chat,
q quits (the game is saved), Esc closes this help."""
    )
