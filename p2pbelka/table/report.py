"""What ``verify`` reports of a transcript, and its verdict in words.

Filled by the observer table (``observer.py``) as it replays the records;
``verify_bytes`` (``verify.py``) and a watcher's live screen read the same report.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from p2pbelka.rules.common.recordio import expect
from p2pbelka.rules.common.summary import DealSummary, field_path
from p2pbelka.rules.registry import spec
from p2pbelka.table import events as ev
from p2pbelka.table.segments import SeatChanged, describe_change

ENGLISH = gettext.NullTranslations()
"""The words of a verdict as the code writes them."""


@dataclass(frozen=True, slots=True)
class VerifiedDeal:
    """A deal the audit verified: its id on the wire and its summary."""

    deal_id: int
    summary: DealSummary

    def to_json(self) -> dict[str, object]:
        """The summary's JSON with the deal's id first (``verify --json``)."""
        return {"deal_id": self.deal_id, **self.summary.to_json()}

    @classmethod
    def from_json(cls, value: object, game: str, path: str = "") -> VerifiedDeal:
        """What ``to_json`` gave, for ``game``; ``RecordError`` naming a bad field's path."""
        obj = expect(value, dict, path, "an object")
        deal_id = expect(obj.get("deal_id"), int, field_path(path, "deal_id"), "a whole number")
        rest = {k: v for k, v in obj.items() if k != "deal_id"}
        return cls(deal_id, spec(game).summary_from_json(rest, path))


@dataclass
class VerifyReport:
    records: int = 0
    deals: list[VerifiedDeal] = field(default_factory=list)
    faults: list[ev.Fault] = field(default_factory=list)
    names: tuple[str, ...] = ()
    error: str | None = None
    finished: bool = False
    aborted: bool = False
    winner: int | None = None
    score: tuple[int, ...] | None = None
    game: Any = None
    """The audited game, as its rules engine holds it (every finished deal with all
    hands): a game record can be made of it (its spec's ``records``).  The table
    core knows no game's engine: ``GameTrack.game`` is opaque to it."""
    changes: list[SeatChanged] = field(default_factory=list)
    """Every seat that changed hands (a continuation segment), in order."""
    game_name: str | None = None
    """The game the table description names (``rules.registry.spec`` tells the rest)."""
    cut_at: int | None = None
    """The file ends inside its last record, which starts at this byte (a peer killed
    while writing it): the records before it are judged, the verdict is at most
    INCOMPLETE (SPEC section 5.1)."""

    @property
    def malformed(self) -> bool:
        """Not a transcript at all: not one envelope could be read (a wrong file, not a
        game that fails its checks)."""
        return self.error is not None and self.records == 0

    @property
    def change_lines(self) -> list[str]:
        return [describe_change(c) for c in self.changes]

    @property
    def verdict(self) -> str:
        return self.verdict_in(ENGLISH)

    def verdict_in(
        self, tr: gettext.NullTranslations, describe: Callable[[ev.Fault], str] = str
    ) -> str:
        """The verdict in the words of ``tr`` (a screen's or command's language), each
        fault as ``describe`` words it; its first word (OK, INVALID...) stays as it is,
        for scripts that read it."""
        if self.error is not None:
            return f"INVALID: {self.error}"
        if self.proven:
            named = "; ".join(describe(f) for f in self.faults if f.fatal and f.proven)
            shows = tr.gettext("the transcript is intact and shows {named}")
            return "CHEATING PROVEN: " + shows.format(named=named)
        if self.aborted:
            named = "; ".join(describe(f) for f in self.faults if f.fatal)
            stopped = tr.gettext(
                "the game was stopped, naming {named}; the transcript alone proves no seat at fault"
            )
            return "DISPUTED: " + stopped.format(named=named)
        if self.cut_at is not None:
            before = (
                tr.gettext("the game is over in them")
                if self.finished
                else tr.gettext("the game did not finish in them")
            )
            return "INCOMPLETE: " + tr.gettext(
                "the last record damaged at byte {offset} (the file ends inside it);"
                " every record before it checks out, and {before}"
            ).format(offset=self.cut_at, before=before)
        if not self.finished:
            return "INCOMPLETE: " + tr.gettext(
                "every record checks out, but the game did not finish"
            )
        charged = [f for f in self.faults if not f.fatal and f.proven]
        extra = ""
        if charged:
            extra = (
                " ("
                + tr.ngettext(
                    "{n} renege charged by the rules",
                    "{n} reneges charged by the rules",
                    len(charged),
                ).format(n=len(charged))
                + ")"
            )
        unclosed = sorted({f.seat for f in self.faults if not f.fatal and not f.proven})
        if unclosed:
            seats = ", ".join(map(str, unclosed))
            extra += "; " + tr.ngettext(
                "seat {seats} did not close the game (named, not proven)",
                "seats {seats} did not close the game (named, not proven)",
                len(unclosed),
            ).format(seats=seats)
        return "OK: " + tr.gettext("every deal was dealt fairly and played legally") + extra

    @property
    def proven(self) -> bool:
        """The transcript itself proves a seat at fault (its own signed messages): the
        fault that ended the game, or (``verify --every-pass``) passes off their seeds
        that changed no card, in a game that went on."""
        return any(f.fatal and f.proven for f in self.faults)

    @property
    def disputed(self) -> bool:
        return self.aborted and not self.proven

    @property
    def ok(self) -> bool:
        return (
            self.error is None
            and not self.aborted
            and not self.proven
            and self.finished
            and self.cut_at is None
        )
