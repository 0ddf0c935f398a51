"""The pages every game shares, or shows when it draws none of its own: the audit's word
on a deal, where the transcript is, and plain pages for the end of a deal, the score sheet,
the end of the game and the keys (from what every deal summary offers: ``line``)."""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.formatted_text import StyleAndTextTuples

from p2pbelka.rules.common.summary import DealSummary
from p2pbelka.table.events import Fault
from p2pbelka.ui.view import DealEnd, TableView
from p2pbelka.ui.words.faults import fault_words
from p2pbelka.ui.words.i18n import _


def verdict(summary: DealSummary, faults: Sequence[Fault]) -> tuple[str, str]:
    """The audit's word on a deal (the faults it charged in it), and its style."""
    if faults:
        return "class:verdict.bad", _("✘ The audit charged: {faults}").format(
            faults="; ".join(fault_words(f.what) for f in faults)
        )
    return "class:verdict.ok", _(
        "✔ Fair deal verified: every shuffle, key share and card checked ({n} cards)."
    ).format(n=summary.cards_checked)


def transcript_lines(view: TableView) -> StyleAndTextTuples:
    """Where the game is saved, and how to check it again."""
    if not view.transcript_path:
        return []
    path = view.transcript_path
    return [
        ("", _("Transcript saved to {path}").format(path=path) + "\n"),
        (
            "class:hint",
            _("Check it again any time: p2pbelka verify {path}").format(path=path) + "\n",
        ),
    ]


def deal_end_lines(view: TableView, end: DealEnd, width: int = 80) -> StyleAndTextTuples:
    """A finished deal on one line, and the audit's word on it."""
    summary = end.summary
    return [
        ("class:heading", _("Deal {n}").format(n=summary.number + 1) + "\n"),
        ("", summary.line() + "\n"),
        verdict(summary, end.faults),
        ("", "\n"),
    ]


def summary_title(view: TableView, end: DealEnd) -> str:
    return " · ".join(["p2pbelka", _("deal {n}").format(n=end.summary.number + 1)])


def title_line(view: TableView) -> str:
    parts = ["p2pbelka"]
    if view.dealer is not None:
        parts.append(_("deal {n}").format(n=view.deal_number + 1))
    return " · ".join(parts)


def score_sheet_lines(view: TableView) -> StyleAndTextTuples:
    """Every deal so far, one line each, with the audit's mark."""
    out: StyleAndTextTuples = [("class:heading", _("Score sheet") + "\n")]
    if not view.deal_ends:
        out.append(("class:hint", _("No deal has ended yet.") + "\n"))
    for end in view.deal_ends:
        mark = verdict(end.summary, end.faults)
        out.append(("", f" {end.summary.line()} "))
        out.append((mark[0], mark[1][:1] + "\n"))
    return out


def game_end_lines(view: TableView) -> StyleAndTextTuples:
    """The result, every deal, and where the game is saved."""
    out: StyleAndTextTuples = []
    if view.game_over is not None:
        over = view.game_over
        score = ", ".join(f"{view.name(s)} {points}" for s, points in enumerate(over.score))
        if over.winner is None:
            text = _("Game over, {score}.").format(score=score)
        else:
            text = view.winner_line(over) + " " + score
        out.append(("class:verdict.ok", text + "\n"))
    elif view.aborted is not None:
        out.append(("class:verdict.bad", _("The game was stopped:") + "\n"))
        for fault in view.aborted.faults:
            out.append(("class:verdict.bad", f" {view.describe_fault(fault)}\n"))
    out += score_sheet_lines(view)[1:]
    out.append(("", "\n"))
    return out + transcript_lines(view)


def help_text() -> str:
    return _(
        """Keys: ←/→ or a digit choose a card, Enter plays it (or click it twice),
l shows the last trick, s the score sheet, c writes in the chat,
q quits (the game is saved), Esc closes this help."""
    )
