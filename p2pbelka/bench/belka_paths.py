"""Belka's path vectors (``bench/path_vectors.py``): whole games, INVALID files and
views, a host at seat 2, tables of flows 1 and 2, the options of a first deal, and the
dishonest seats of a Belka deal (a pass on its face, a false dispute, a hidden J♣, a
share off its seed)."""

from __future__ import annotations

from p2pbelka.bench.path_vectors import (
    CHEATER,
    PathVector,
    bad_signature,
    evidence_of_nothing,
    swapped_sits,
    view_ahead,
    view_differs,
)
from p2pbelka.protocol import messages as m
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Table


class WrongInput(Table):
    """Its first shuffle names a deck it was not computed from: a fault on its face."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.ShuffleMsg) and self.deal_id == 1:
            return m.ShuffleMsg(msg.deck, bytes(32 * [0x5A]))
        return msg


class FalseDispute(Table):
    """Says its hand did not open when it did: a dispute the audit finds false."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.TrumpMsg) and self.deal_id == 1:
            return m.TrumpMsg(msg.jack, False)
        return msg


class HidesTheJack(Table):
    """Holds the J♣ and says nothing (the first deal it holds it in): no J♣ claim, a
    dispute (seat −1) the audit settles by naming the holder."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.TrumpMsg) and msg.jack is not None:
            return m.TrumpMsg(None, msg.hand_ok)
        return msg


class WrongShare(Table):
    """Publishes one share that is not its seed's: the position does not open, and the
    audit names it."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.SharesMsg) and self.deal_id == 1:
            last = msg.shares[-1]
            other = (int.from_bytes(last.key, "little") % 1000 + 7).to_bytes(32, "little")
            return m.SharesMsg((*msg.shares[:-1], m.Opening(last.pos, other)))
        return msg


VECTORS = [
    PathVector(
        "game-ok",
        17,
        "a whole Belka game (classic preset, fair-deal version 2) played to OK: its"
        " first deal, then a second won outright (goli: all 120 card points, all eight"
        " tricks), the four closes",
    ),
    PathVector(
        "host-seat-2",
        1,
        "a Belka game hosted by seat 2 (its table is record 0; seats 0, 1 and 3 sit),"
        " to the end of its first deal",
        host=2,
        whole=False,
    ),
    PathVector(
        "invalid-order",
        1,
        "INVALID: seat 3's sit recorded before seat 2's (not the envelope due next)",
        edit=swapped_sits,
    ),
    PathVector(
        "invalid-signature",
        1,
        "INVALID: record 5's signature does not verify (a record that fails on its own)",
        edit=bad_signature,
    ),
    PathVector(
        "view-ahead",
        1,
        "CHEATING PROVEN: seat 0's lot_reveal has a view that counts seat 3's lot_reveal,"
        " which comes after it in the schedule",
        edit=view_ahead,
    ),
    PathVector(
        "view-differs",
        1,
        "INVALID: seat 2's lot_reveal names a head of seat 0's chain that is not seat 0's envelope",
        edit=view_differs,
    ),
    PathVector(
        "evidence-of-nothing",
        1,
        "seat 1's evidence encloses two envelopes of seat 2 for two different places: it"
        " proves nothing, and is seat 1's own fault (an ending taken outside the schedule)",
        edit=evidence_of_nothing,
    ),
    PathVector(
        "wrong-input",
        1,
        f"CHEATING PROVEN on the face of a message: seat {CHEATER}'s shuffle names an"
        " input that is not the digest of the deck before it",
        cheat=WrongInput,
    ),
    PathVector(
        "false-dispute",
        1,
        f"a dispute inside a deal: seat {CHEATER} says its hand did not open; the audit"
        " finds the deck sound and proves the dispute false",
        cheat=FalseDispute,
    ),
    PathVector(
        "no-jack-claim",
        2,
        f"zero J♣ claims: seat {CHEATER}, in the first deal where it holds the J♣, sends"
        " jack nil; the deal is disputed (no seat) and the audit names the holder",
        cheat=HidesTheJack,
    ),
    PathVector(
        "wrong-share",
        1,
        f"an audit fault: seat {CHEATER} publishes a share off its seed, a position does"
        " not open, and the audit names the share's author",
        cheat=WrongShare,
    ),
    PathVector(
        "flow-1",
        1,
        "a Belka table of flow 1 (no flow key, no nonces: a game id its host chose): every"
        " deal starts with the commit phase and deal_end is {}; two deals",
        flow=1,
        whole=False,
        deals=2,
    ),
    PathVector(
        "flow-2",
        1,
        "a Belka table of flow 2 (a game id its host chose, no nonces): the next deal's"
        " commitments on the deal_ends; to the end of the first deal",
        flow=2,
        whole=False,
    ),
    PathVector(
        "options",
        1,
        "Belka with trump_order=DSH, first_lead=before_dealer and first_deal_two=on: the"
        " first deal led by the seat before the dealer and awarded exactly 2, then the"
        " second deal, whose trump is the J♣ holder's seat suit by the DSH order",
        options={"first_deal_two": "on", "first_lead": "before_dealer", "trump_order": "DSH"},
        whole=False,
        deals=2,
    ),
]
