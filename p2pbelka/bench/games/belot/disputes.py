"""The dishonest Belot seats of the path vectors for disputes and moments (issue 41,
items 18-26): a share off its seed in each batch, so that an honest seat's
``unopened`` or ``hand_ok: false`` is genuine, or the turned card does not open; a
``declare`` whose position does not open; a ``declare`` or a ``claim`` sent at the
sender's turn but not at its lead, or while a call is due.  Each seat plays honestly otherwise."""

from __future__ import annotations

from dataclasses import replace

from p2pbelka.protocol import messages as m
from p2pbelka.table.games.belot.track import BelotTrack, extra_positions, turned_position
from p2pbelka.table.phase import Question
from p2pbelka.table.state import TableState


def off_seed(opening: m.Opening) -> m.Opening:
    """The same position with another canonical non-zero key: a share its author's seed
    does not give (so the position does not open, and the audit names the author)."""
    other = (int.from_bytes(opening.key, "little") % 1000 + 7).to_bytes(32, "little")
    return m.Opening(opening.pos, other)


class _OnceADeal(TableState):
    """Lies once, in the first deal where its ``lie`` returns a message."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._lied = False

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if self._lied:
            return msg
        lie = self.lie(msg)
        self._lied = lie is not None
        return lie if lie is not None else msg

    def lie(self, msg: m.Message | Question | None) -> m.Message | None:
        raise NotImplementedError


class ExtraShareOffSeed(_OnceADeal):
    """Its first ``shares`` of the three more (a deal not void) gives the lowest
    position it opens to another seat a key off its seed: that seat's three more do
    not open, and it sends a genuine ``unopened`` at its first turn."""

    def lie(self, msg: m.Message | Question | None) -> m.Message | None:
        extra = extra_positions(self.n_seats)
        if isinstance(msg, m.SharesMsg) and msg.shares and msg.shares[0].pos in extra:
            return m.SharesMsg((off_seed(msg.shares[0]), *msg.shares[1:]))
        return None


class FirstShareOffSeed(_OnceADeal):
    """Its first ``shares`` gives its lowest position (seat 0's) a key off its seed:
    seat 0's first six do not open, and its ``turned`` says ``hand_ok: false``."""

    def lie(self, msg: m.Message | Question | None) -> m.Message | None:
        if isinstance(msg, m.SharesMsg) and msg.shares:
            if msg.shares[0].pos < turned_position(self.n_seats):
                return m.SharesMsg((off_seed(msg.shares[0]), *msg.shares[1:]))
        return None


class TurnedOffSeed(_OnceADeal):
    """Its ``turned`` share is off its seed: the turned card does not open (a dispute of
    no seat), and the audit names it."""

    def lie(self, msg: m.Message | Question | None) -> m.Message | None:
        if isinstance(msg, m.TurnedMsg):
            return m.TurnedMsg(off_seed(msg.share), msg.hand_ok)
        return None


class DeclareOffSeed(_OnceADeal):
    """At its first lead it declares a combination it holds, the second card's key off
    its seed: that position does not open, a dispute inside the ``declare`` (never a
    false declaration), and the audit names it."""

    def lie(self, msg: m.Message | Question | None) -> m.Message | None:
        if isinstance(msg, Question) and msg.kind == "play" and not _deal(self).trick:
            cards = _combination_held(self)
            if cards:
                first, second, *rest = (self.round.deck.my_opening(p) for p in cards)
                return m.DeclareMsg((first, off_seed(second), *rest))
        return None


class DeclaresMidTrick(_OnceADeal):
    """At a turn that is not its lead (a card of the trick is down) it declares a
    combination it holds, every card genuine: a false declaration (the moment)."""

    def lie(self, msg: m.Message | Question | None) -> m.Message | None:
        if isinstance(msg, Question) and msg.kind == "play" and _deal(self).trick:
            cards = _combination_held(self)
            if cards:
                return m.DeclareMsg(tuple(self.round.deck.my_opening(p) for p in cards))
        return None


class ClaimsMidTrick(_OnceADeal):
    """At its first turn that is not its lead it claims 1001: a false claim (the
    moment), whatever its total."""

    def lie(self, msg: m.Message | Question | None) -> m.Message | None:
        if isinstance(msg, Question) and msg.kind == "play" and _deal(self).trick:
            return m.ClaimMsg()
        return None


class ClaimsWhenBidding(_OnceADeal):
    """At its first turn to call it claims 1001 instead: a type the bid phase does not
    take, refused when due (a refused record, nobody at fault); its chain goes no
    further, and the others give up on it (a dispute naming it)."""

    def lie(self, msg: m.Message | Question | None) -> m.Message | None:
        if isinstance(msg, Question) and msg.kind == "bid":
            return m.ClaimMsg()
        return None


def _deal(state: TableState):  # type: ignore[no-untyped-def]
    track = state.track
    assert isinstance(track, BelotTrack)
    return track.deal


def _combination_held(state: TableState) -> list[int]:
    """The positions of a combination the seat could declare were it at its lead now
    (the longest first), or [] if its hand holds none."""
    deal, me = _deal(state), state.me
    assert me is not None
    declarable = replace(deal, leader=me, trick=()).legal_declarations(me)
    if not declarable:
        return []
    cards = max(declarable, key=len)
    rnd = state.round
    positions = [rnd.position_of(card.index) for card in cards]
    return [p for p in positions if p is not None]
