"""Belka's path vectors (``bench/path_vectors.py``): whole games, INVALID files and
views, a host at seat 2, tables of flows 1 and 2, the options of a first deal, and the
dishonest seats of a Belka deal (a pass on its face, a false dispute, a hidden J♣, a
share off its seed, a lock pass that copies a card, reneges), the eyes count and
every eggs rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from p2pbelka.bench import path_endings as pe
from p2pbelka.bench import reporting_vectors as rv
from p2pbelka.bench.path_vectors import (
    CHEATER,
    PathVector,
    bad_signature,
    evidence_of_nothing,
    swapped_sits,
    view_ahead,
    view_differs,
)
from p2pbelka.cards import from_mask
from p2pbelka.protocol import messages as m
from p2pbelka.rules.belka import core
from p2pbelka.table import moves as mv
from p2pbelka.table.games.belka.track import BelkaTrack
from p2pbelka.table.phase import Phase, Question
from p2pbelka.table.state import TableState


class WrongInput(TableState):
    """Its first shuffle names a deck it was not computed from: a fault on its face."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.ShuffleMsg) and self.deal_id == 1:
            return m.ShuffleMsg(msg.deck, bytes(32 * [0x5A]))
        return msg


class FalseDispute(TableState):
    """Says its hand did not open when it did: a dispute the audit finds false."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.TrumpMsg) and self.deal_id == 1:
            return m.TrumpMsg(msg.jack, False)
        return msg


class HidesTheJack(TableState):
    """Holds the J♣ and says nothing (the first deal it holds it in): no J♣ claim, a
    dispute (seat −1) the audit settles by naming the holder."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.TrumpMsg) and msg.jack is not None:
            return m.TrumpMsg(None, msg.hand_ok)
        return msg


class WrongShare(TableState):
    """Publishes one share that is not its seed's: the position does not open, and the
    audit names it."""

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        if isinstance(msg, m.SharesMsg) and self.deal_id == 1:
            last = msg.shares[-1]
            other = (int.from_bytes(last.key, "little") % 1000 + 7).to_bytes(32, "little")
            return m.SharesMsg((*msg.shares[:-1], m.Opening(last.pos, other)))
        return msg


class CopiesAPosition(TableState):
    """In the first deal it locks first in, its lock pass puts at its own first
    position its lock of seat ``SOURCE``'s first position: one card in two hands,
    the card at its own position gone (every point valid and distinct, so nothing
    shows on the pass's face; locking first, its copy opens with the others'
    shares of its own position, as they lock it after it)."""

    SOURCE, INDEX = 0, 0

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._copy_deal = 0

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        deck = self.round.deck if self.deal_id else None
        if isinstance(msg, m.LockMsg) and deck is not None and deck.order[0] == CHEATER:
            self._copy_deal = self._copy_deal or self.deal_id
            if self.deal_id != self._copy_deal:
                return msg
            local = deck.local
            assert local is not None
            source = deck.positions_of(self.SOURCE)[self.INDEX]
            mine = deck.positions_of(CHEATER)[0]
            points = list(msg.deck)
            points[mine] = local.ctx.group.mult(
                local.secrets.lock_factors[mine], deck.current()[source]
            )
            return m.LockMsg(tuple(points), msg.input)
        return msg


class CopiesTheJack(CopiesAPosition):
    """The same, copying seat 1's seventh position: the J♣ in the vector's seeds, so
    both holders claim it."""

    SOURCE, INDEX = 1, 6


class Reneges(TableState):
    """Once a deal, when its hand holds a card the rules forbid now, plays it (an ace
    the ace rule bans before a card that does not follow suit): the others cannot
    see it, the audit charges it.  Its own rules engine would refuse the card, so it
    forgets its hand for the deal (as a table does when a card shows twice) and finds
    its legal cards itself from then on."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._reneged = 0

    def compose(self) -> m.Message | Question | None:
        if self.deal_id != self._reneged:
            msg = super().compose()
            if not (isinstance(msg, Question) and msg.kind == "play"):
                return msg
        elif not self._my_turn_to_play():
            return super().compose()
        hand, track = self._hand(), self.track
        assert isinstance(track, BelkaTrack) and self.me is not None
        deal = replace(track.deal, hands=_with(track.deal.hands, self.me, hand))
        legal = deal.legal_mask(self.me)
        if self.deal_id == self._reneged:
            return Question("play", tuple(mv.PlayCard(c) for c in from_mask(legal)))
        led = core.EFFECTIVE_SUIT[deal.trump][deal.trick[0]] if deal.trick else -1
        following = core.legal_mask(hand, led, deal.trump)
        wrong = from_mask(following & ~legal) or from_mask(hand & ~legal)
        if not wrong:
            return Question("play", tuple(mv.PlayCard(c) for c in from_mask(legal)))
        self._reneged = self.deal_id
        track.forget_hand(self.me)
        pos = self.round.position_of(wrong[0].index)
        assert pos is not None
        return m.PlayMsg(pos, self.round.deck.my_opening(pos).key)

    def _my_turn_to_play(self) -> bool:
        return self.phase == Phase.PLAY and self.track.turn == self.me

    def _hand(self) -> int:
        """Its cards not played yet, as a mask."""
        rnd = self.round
        return sum(1 << c for p, c in rnd.my_hand.items() if p not in rnd.played)


def _with(hands: tuple[int | None, ...], seat: int | None, hand: int) -> tuple[int | None, ...]:
    return tuple(hand if s == seat else h for s, h in enumerate(hands))


EYES: Mapping[str, str] = {
    "scoring": "eyes",
    "goli": "off",
    "eggs": "four",
    "all_tricks": "wins_game",
}
"""The eyes preset's rules, as options of the classic preset."""

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
    PathVector(
        "two-jack-claims",
        251,
        f"two J♣ claims: seat {CHEATER}'s lock pass copies seat 1's J♣ into its own"
        " hand; seat 1 claims it, then seat 2's claim opens a card already shown (a"
        " dispute, not a second claim); the audit names the lock pass",
        cheat=CopiesTheJack,
    ),
    PathVector(
        "card-in-two-hands",
        251,
        f"a card in two hands: seat {CHEATER}'s lock pass copies a card of seat 0's into"
        " its own hand; the second seat to play it shows a card already shown (a"
        " dispute in the play), and the audit names the lock pass",
        cheat=CopiesAPosition,
    ),
    PathVector(
        "eyes-reneges",
        11,
        f"Belka scored in eyes (the eyes preset's rules, the ace rule on): seat {CHEATER}"
        " reneges once a deal, each renege an eye against its own team; the first deal"
        " won 92:28 (one eye more, the losers under 30), the second all eight tricks,"
        " which wins the game (all_tricks=wins_game): OK",
        options={**EYES, "no_unled_ace_discard": "on"},
        cheat=Reneges,
    ),
    PathVector(
        "ace-renege",
        67,
        f"classic Belka, the ace rule on: seat {CHEATER} throws an ace of a suit not yet"
        " led (a no_unled_ace_discard renege), a point to the other team; one deal",
        options={"no_unled_ace_discard": "on"},
        cheat=Reneges,
        whole=False,
    ),
    *(
        PathVector(
            f"eggs-{eggs}",
            473,
            f"classic Belka, eggs={eggs}: 60:60 in the first deal, then the second deal's"
            f" winners (the trump team, 73 card points: 1 point) get {what}",
            options={"eggs": eggs},
            whole=False,
            deals=2,
        )
        for eggs, what in (
            ("four", "exactly 4 points"),
            ("double", "their points doubled (2)"),
            ("none", "their 1 point, no more"),
        )
    ),
    PathVector(
        "eggs-plus4",
        473,
        "classic Belka, eggs=plus4: 60:60 in the first deal, the second deal's winners"
        " (1 point) choose plus4 (the choice record after its deal_ends), and the +4"
        " shows in the third deal's score, not in the second's awarded",
        whole=False,
        deals=3,
    ),
]

# -- endings and proofs (issue 41 items 1-13) -------------------------------------------
# Refused records of every kind, the closing exchange cut or disputed, proofs before and
# after the end, endings ahead of their chain and views past the file
# (``bench/path_endings.py`` makes each file from an honest game's records).

_REFUSED = "seat 2's lot_reveal refused when due"
_WON = "the game-ok game (won, flow 3)"
_LOT = "the first-deal game of seed 1"


def _after_reneges(name: str, what: str, edit: pe.Edit) -> PathVector:
    """The whole ``eyes-reneges`` game (OK, renege charges), then ``edit``."""
    options = {**EYES, "no_unled_ace_discard": "on"}
    return PathVector(name, 11, what, options=options, cheat=Reneges, edit=edit, deals=99)


VECTORS += [
    PathVector(
        "refused-chain",
        1,
        f"{_REFUSED} (its prev breaks its hash chain), kept as a refused record; the"
        " recorder (seat 0) gives up on seat 2 and its dispute names it: DISPUTED",
        edit=pe.refused_chain,
    ),
    PathVector(
        "refused-deal",
        1,
        f"{_REFUSED} (it carries deal 1 in the lot), kept; the file ends there: INCOMPLETE",
        edit=pe.refused_deal,
    ),
    PathVector(
        "refused-turn",
        1,
        f"{_REFUSED} (a lot_commit where its lot_reveal is due: out of turn), kept; the"
        " lot_reveal seat 2 signed for that place for the others is a proof record, then"
        " the recorder's evidence: CHEATING PROVEN (seat 2)",
        edit=pe.refused_turn,
    ),
    PathVector(
        "refused-view-length",
        1,
        f"{_REFUSED} (its view lists 3 seats), kept; seat 1's dispute is taken after it:"
        " DISPUTED (seat 2)",
        edit=pe.refused_view_length,
    ),
    PathVector(
        "refused-own-entry",
        1,
        f"{_REFUSED} (its view's own entry is not [seq, prev]), kept; the file ends there",
        edit=pe.refused_own_entry,
    ),
    PathVector(
        "refused-close",
        17,
        f"{_WON}: seats 0 and 1 closed, seat 2's close has a view that is not the one the"
        " closing exchange began with: a refused record; the file ends there, in the"
        " close phase: OK, seats 2 and 3 named as not closing",
        edit=pe.refused_close,
        deals=99,
    ),
    PathVector(
        "after-refused",
        1,
        f"INVALID: {_REFUSED} (deal 1), then seat 3's lot_reveal, never due while seat 2's"
        " place is refused",
        edit=pe.after_refused,
    ),
    PathVector(
        "close-cut",
        17,
        f"{_WON}, its file cut after two of the four closes: OK, seats 2 and 3 named as"
        " not closing (fatal false, proven false, in seat order)",
        edit=pe.close_cut,
        deals=99,
    ),
    PathVector(
        "close-dispute",
        17,
        f"{_WON}: seats 0 and 1 closed; the recorder (seat 3) signs a dispute naming seat"
        " 2, one ahead of its chain in the file (its own close held, never taken): OK,"
        " seat 2 named as not closing",
        edit=pe.close_dispute,
        deals=99,
    ),
    PathVector(
        "deal-end-dispute",
        17,
        f"{_WON}: the last deal's deal_ends of seats 0 and 1; the recorder (seat 3) signs a"
        " dispute naming seat 2 (its own deal_end held): OK, seat 2 named as not closing",
        edit=pe.deal_end_dispute,
        deals=99,
    ),
    PathVector(
        "close-dispute-proven",
        17,
        "close-dispute, then seat 2's other version of its last deal_end reaches the"
        " recorder after the end: a proof record and the recorder's evidence; the"
        " not-closing name gives way: CHEATING PROVEN (seat 2 only)",
        edit=pe.close_dispute_proven,
        deals=99,
    ),
    PathVector(
        "evidence-in-close",
        17,
        f"{_WON}: seats 0 and 1 closed; seat 1's evidence of two envelopes of seat 2 for"
        " two places is taken in the close phase: CHEATING PROVEN (seat 1)",
        edit=pe.evidence_in_close,
        deals=99,
    ),
    PathVector(
        "proof-pair",
        1,
        "seat 2 signed two trumps for one place, neither taken: the first of two proof"
        " records, the second, the recorder's evidence: CHEATING PROVEN (seat 2)",
        edit=pe.proof_pair,
    ),
    _after_reneges(
        "proof-after-ok",
        "the eyes-reneges game (OK, two renege charges), then seat 2's other version of"
        " its close after the end: a proof record and the recorder's evidence;"
        " CHEATING PROVEN (seat 2), the renege charges kept",
        pe.proof_after_ok,
    ),
    _after_reneges(
        "second-cheater",
        "proof-after-ok, then seat 1's other version of its close, and its evidence: a"
        " second seat proven after the end: CHEATING PROVEN (seats 2 and 1)",
        pe.second_cheater,
    ),
    _after_reneges(
        "proven-twice",
        "INVALID: proof-after-ok, then seat 2's other version of its last deal_end: a"
        " seat is proven once, and no recorder records a second pair of it",
        pe.proven_twice,
    ),
    _after_reneges(
        "evidence-of-another-pair",
        "INVALID: after the proof record of seat 2's close, an evidence of another pair of"
        " seat 2's (not the one the proof records hold)",
        pe.evidence_of_another_pair,
    ),
    PathVector(
        "evidence-valid-pair",
        1,
        f"{_LOT}: after the lot, seat 1's evidence of two envelopes seat 2 signed for its"
        " place 100 (too far ahead to offer to its chain) is taken as an ending and"
        " proves seat 2: CHEATING PROVEN (seat 2)",
        edit=pe.evidence_valid_pair,
    ),
    PathVector(
        "ending-too-far",
        1,
        f"INVALID: {_LOT}: after the lot, seat 1's dispute at its place 100, 64 or more"
        " past its next",
        edit=pe.ending_too_far,
    ),
    PathVector(
        "ending-past-refused",
        1,
        f"INVALID: {_REFUSED} (deal 1), then seat 2's dispute at its next place: its chain"
        " stops at the refused one, so no recorder took it",
        edit=pe.ending_past_refused,
    ),
    PathVector(
        "view-past-file",
        1,
        f"{_LOT}: before seat 2's lot_reveal, seat 1's dispute whose view counts seat 2's"
        " and seat 3's lot_reveals, which the file does not hold: taken (DISPUTED, seat 0)",
        edit=pe.view_past_file,
    ),
    PathVector(
        "view-too-far",
        1,
        f"INVALID: {_LOT}: seat 1's dispute whose view counts 100 envelopes of seat 3,"
        " more than 64 past the file",
        edit=pe.view_too_far,
    ),
    PathVector(
        "view-past-refused",
        1,
        f"INVALID: {_REFUSED} (deal 1), then seat 1's dispute whose view counts it: past"
        " where seat 2's chain stops",
        edit=pe.view_past_refused,
    ),
    PathVector(
        "view-count-0-head",
        1,
        "INVALID: seat 1's sit whose view gives seat 3 a count of 0 and a head that is"
        " not 32 zero bytes: malformed, refused before its chain",
        edit=pe.count_0_head,
    ),
]
# Belot, continuations, rules and audits (issue 41 items 18-26): their own module
# (this one is long enough), imported with its list
from p2pbelka.bench.games.belka import paths_rules  # noqa: E402

VECTORS += paths_rules.VECTORS

# reporting and framing (issue 41 items 14-17)


class WrongLock(TableState):
    """Puts a factor of its own on position 5 of every lock pass beside its seed's."""

    INVERT = False

    def compose(self) -> m.Message | Question | None:
        msg = super().compose()
        local = self.round.deck.local if self.deal_id else None
        if isinstance(msg, m.LockMsg) and local is not None:
            group = local.ctx.group
            factor = group.scalar_from_64(bytes(range(64)))
            factor = group.scalar_invert(factor) if self.INVERT else factor
            deck = list(msg.deck)
            deck[5] = group.mult(factor, deck[5])
            return m.LockMsg(tuple(deck), msg.input)
        return msg


class LocksItOut(WrongLock):
    """Takes :class:`WrongLock`'s factor back out of position 5 in its own lock pass:
    the two deviations cancel (a lock multiplies each position by a factor of its own),
    every card is where the seeds put it."""

    INVERT = True


_REFUSED = "INVALID at record 0 (it reads, it is refused; records 1)"
_MALFORMED = "INVALID at byte 20 (record 0 does not read; records 0)"
_BAD_BODY = "INVALID at byte B (record 4) naming the seat and seq it claims; records 4"


def _unchanged(body: dict[str, object]) -> None:
    """The table's body as it was (what is wrong is around it)."""


_TABLES: list[tuple[str, str, rv.Edit]] = [
    (
        "table-game",
        f"{_REFUSED}: a table of the game skat, which this version does not play",
        rv.table_edit(rv.setting("game", "skat")),
    ),
    (
        "table-seats",
        f"{_REFUSED}: Belka at three seats (three nonces: the id is theirs)",
        rv.table_edit(rv.three_seats),
    ),
    (
        "table-preset",
        f"{_REFUSED}: the preset modern, which Belka does not have",
        rv.table_edit(rv.setting("preset", "modern")),
    ),
    (
        "table-option",
        f"{_REFUSED}: an option jokers=on, which Belka does not have",
        rv.table_edit(rv.option("jokers", "on")),
    ),
    (
        "table-option-value",
        f"{_REFUSED}: goli=sometimes, a value not in the option's row",
        rv.table_edit(rv.option("goli", "sometimes")),
    ),
    (
        "table-fairdeal",
        f"{_REFUSED}: fair-deal version 3, which this version does not know",
        rv.table_edit(rv.setting("fairdeal", 3)),
    ),
    (
        "table-flow",
        f"{_REFUSED}: flow 4, which this version does not know",
        rv.table_edit(rv.setting("flow", 4)),
    ),
    (
        "table-host",
        f"{_REFUSED}: the table signed by a key none of its seats holds",
        rv.table_edit(_unchanged, outsider=True),
    ),
    (
        "table-chain",
        f"{_REFUSED}: the table with deal 1: it does not open its host's chain",
        rv.table_edit(_unchanged, deal=1),
    ),
    ("table-missing", f"{_REFUSED}: record 0 is seat 1's sit, not a table", rv.no_table),
    (
        "table-no-nonces",
        f"{_MALFORMED}: a table of flow 3 without nonces",
        rv.table_edit(rv.dropping("nonces")),
    ),
    (
        "table-nonces-flow-2",
        f"{_MALFORMED}: a table of flow 2 with nonces",
        rv.table_edit(rv.setting("flow", 2)),
    ),
    (
        "table-nonces-count",
        f"{_MALFORMED}: three nonces for four seats",
        rv.table_edit(rv.first_nonces(3)),
    ),
    (
        "table-fairdeal-1",
        f"{_MALFORMED}: fairdeal 1 written (version 1 is written by leaving the key out)",
        rv.table_edit(rv.setting("fairdeal", 1)),
    ),
    (
        "table-flow-1",
        f"{_MALFORMED}: flow 1 written (as the key left out) with nonces",
        rv.table_edit(rv.setting("flow", 1)),
    ),
    (
        "table-key-twice",
        f"{_MALFORMED}: seat 3 has seat 2's key",
        rv.table_edit(rv.seat_key(3, None)),
    ),
    (
        "table-unsound-key",
        f"{_MALFORMED}: seat 3's key is the neutral point (not a sound key)",
        rv.table_edit(rv.seat_key(3, rv.ZERO_KEY)),
    ),
    (
        "table-control",
        f"{_MALFORMED}: seat 3's name holds U+009B (a C1 control character)",
        rv.table_edit(rv.seat_name(3, "Dana\u009b")),
    ),
    (
        "table-long-preset",
        f"{_MALFORMED}: a preset of 17 code points (at most 16)",
        rv.table_edit(rv.setting("preset", "classicclassicabc")),
    ),
]

_BODIES: list[tuple[str, str, dict[str, object]]] = [
    ("body-type", "an unknown type, hello", {"type": "hello", "body": {}}),
    ("body-missing-key", "a lot_commit without c", {"body": {}}),
    ("body-extra-key", "a lot_commit with a key d besides c", {"body": {"c": bytes(32), "d": 1}}),
    (
        "body-key-order",
        "a trump body, its keys out of order (jack before hand_ok)",
        {"type": "trump", "body": {"jack": None, "hand_ok": True}},
    ),
    (
        "body-not-bool",
        "a trump whose hand_ok is 1, not a boolean",
        {"type": "trump", "body": {"hand_ok": 1, "jack": None}},
    ),
    (
        "body-jack",
        "a trump whose jack is neither nil nor an Opening",
        {"type": "trump", "body": {"hand_ok": True, "jack": [4]}},
    ),
    ("body-int-for-bytes", "a lot_commit whose c is 5", {"body": {"c": 5}}),
    ("body-bin-length", "a lot_commit whose c is 31 bytes", {"body": {"c": bytes(31)}}),
    ("body-pos", "a play at pos 64", {"type": "play", "body": {"key": bytes(32), "pos": 64}}),
    (
        "body-deck-items",
        "a shuffle whose deck has 1 point (2..64)",
        {"type": "shuffle", "body": {"deck": [bytes(33)], "input": bytes(32)}},
    ),
    (
        "body-deck-point",
        "a shuffle with a point of 31 bytes (32 or 33)",
        {"type": "shuffle", "body": {"deck": [bytes(33)] * 31 + [bytes(31)], "input": bytes(32)}},
    ),
    (
        "body-shares-twice",
        "shares naming position 3 twice",
        {"type": "shares", "body": {"shares": [[3, bytes(32)], [3, bytes(32)]]}},
    ),
    ("body-eggs", "a choice of eggs double", {"type": "choice", "body": {"eggs": "double"}}),
    (
        "body-evidence-empty",
        "an evidence whose first is 0 bytes",
        {"type": "evidence", "body": {"first": b"", "second": bytes(40)}},
    ),
    (
        "body-evidence-long",
        "an evidence whose second is 32,001 bytes",
        {"type": "evidence", "body": {"first": bytes(40), "second": bytes(32001)}},
    ),
    (
        "body-dispute-seat",
        "a dispute naming seat 4",
        {"type": "dispute", "body": {"seats": [4], "why": "left"}},
    ),
    (
        "body-dispute-empty",
        "a dispute naming no seat",
        {"type": "dispute", "body": {"seats": [], "why": "left"}},
    ),
    (
        "body-dispute-long",
        "a dispute whose why is 201 code points",
        {"type": "dispute", "body": {"seats": [1], "why": "é" * 201}},
    ),
    (
        "body-dispute-control",
        "a dispute whose why holds ESC (U+001B)",
        {"type": "dispute", "body": {"seats": [1], "why": "left\u001b[2J"}},
    ),
    (
        "encoding-not-shortest",
        "its seq 1 encoded in two bytes (cc 01), not the shortest form",
        {"raw_seq": bytes([0xCC, 0x01])},
    ),
    ("encoding-float", "its deal a float (0.0)", {"raw_deal": bytes([0xCB]) + bytes(8)}),
    (
        "encoding-ext",
        "its c an extension type, not bin",
        {"raw_body": bytes([0x81, 0xA1, 0x63, 0xD8, 0x01]) + bytes(16)},
    ),
    ("encoding-nil", "its c nil", {"body": {"c": None}}),
    ("envelope-version", "envelope version 3", {"version": 3}),
    ("envelope-sender", "its sender the neutral point (not a sound key)", {"sender": rv.ZERO_KEY}),
]

_FRAMES: list[tuple[str, str, rv.Frame, int]] = [
    (
        "frame-magic",
        "INVALID at byte 0: the records under p2pbelka-trn-v2 (case matters), not the magic",
        rv.magic(b"p2pbelka-trn-v2\n"),
        rv.KEEP,
    ),
    (
        "frame-protocol-1",
        "INVALID at byte 0: the magic of protocol 1 (P2PBELKA-TRN-v1), which this version"
        " names and does not read",
        rv.magic(rv.PROTOCOL_1),
        rv.KEEP,
    ),
    (
        "frame-length-zero",
        "INVALID at the offset of record 4: its length 0, the records after it all there",
        rv.length_at(rv.AT, 0),
        rv.KEEP,
    ),
    (
        "frame-length-over",
        "INVALID at the offset of record 4: its length 65,537 (over 65,536)",
        rv.length_at(rv.AT, 65537),
        rv.KEEP,
    ),
    (
        "frame-cut-length",
        "INCOMPLETE: the file ends 2 bytes into record 7's length; records 0 to 6 judged",
        rv.cut(2),
        rv.KEEP,
    ),
    (
        "frame-cut-record",
        "INCOMPLETE: the file ends 100 bytes into record 7 (its length announces more)",
        rv.cut(100),
        rv.KEEP,
    ),
    (
        "frame-cut-first",
        "INVALID at byte 16: the file ends inside record 0 (records 0)",
        rv.cut(100),
        1,
    ),
    (
        "frame-cut-first-length",
        "INVALID at byte 16: the file ends 2 bytes into record 0's length (records 0)",
        rv.cut(2),
        1,
    ),
    (
        "frame-last-unreadable",
        "INVALID at byte B (record 7): the last record's bytes all there (its length"
        " says so), not an envelope (a 63-byte signature); never INCOMPLETE",
        rv.unreadable_last,
        rv.KEEP,
    ),
]

VECTORS += [
    *(PathVector(name, 1, what, edit=edit) for name, what, edit in _TABLES),
    *(
        PathVector(name, 1, f"{_BAD_BODY}: {what}", edit=rv.body_edit(**changes))
        for name, what, changes in _BODIES
    ),
    PathVector(
        "envelope-trailing",
        1,
        f"{_BAD_BODY}: one byte after the [inner, signature] array",
        edit=rv.outer_edit(rv.trailing_byte),
    ),
    PathVector(
        "unseated-sender",
        1,
        "INVALID at record 4 (it reads: records 5): a lot_commit signed by a key no seat"
        " holds; the report names an unknown sender, its record's seat is null",
        edit=rv.unseated,
    ),
    *(
        PathVector(name, 1, what, edit=rv.first(keep), frame=frame)
        for name, what, frame, keep in _FRAMES
    ),
    PathVector(
        "passes-cancel",
        54,
        "a whole Belka game, OK: seat 1 puts a factor of its own on position 5 of each"
        " lock pass and seat 3 takes it back out in its own, so every card is where the"
        " seeds put it; verify --every-pass names both seats (CHEATING PROVEN)",
        cheats={1: WrongLock, 3: LocksItOut},
    ),
]
