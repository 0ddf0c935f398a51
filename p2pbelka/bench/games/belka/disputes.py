"""The dishonest Belka seats of the path vectors for issue 41's rules and audits: a
re-deal claim whose opening does not open (a dispute raised by the claim), and a
deal with several audit faults of one seat (a lock pass that swaps two points, and
two shares off its seed), to show their order and unit."""

from __future__ import annotations

from p2pbelka.bench.games.belot.disputes import off_seed
from p2pbelka.protocol import messages as m
from p2pbelka.table.phase import Question
from p2pbelka.table.state import TableState


class RedealOffSeed(TableState):
    """In the first deal it claims a re-deal (whatever its hand), its third opening's
    key off its seed: that position does not open, a dispute raised by the claim (the
    openings after it are not shown), and the audit names the claimant's share."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        ready = isinstance(msg, m.ReadyMsg) or (isinstance(msg, Question) and msg.kind == "redeal")
        if ready and self.deal_id == 1:
            rnd = self.round
            hand = [rnd.deck.my_opening(pos) for pos in sorted(rnd.my_hand)]
            hand[2] = off_seed(hand[2])
            return m.RedealMsg(tuple(hand))
        return msg


class ManyAuditFaults(TableState):
    """In the first deal its lock pass swaps the points of positions 0 and 2 (every point
    valid and distinct: nothing shows on the pass's face, two cards change hands), and
    its ``shares`` give its two highest positions keys off its seed (their owners'
    hands do not open: a dispute): the audit finds three faults of one seat, in its
    order (the pass, then the shares by position)."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.LockMsg) and self.deal_id == 1:
            points = list(msg.deck)
            points[0], points[2] = points[2], points[0]
            return m.LockMsg(tuple(points), msg.input)
        if isinstance(msg, m.SharesMsg) and self.deal_id == 1:
            *kept, one, two = msg.shares
            return m.SharesMsg((*kept, off_seed(one), off_seed(two)))
        return msg
