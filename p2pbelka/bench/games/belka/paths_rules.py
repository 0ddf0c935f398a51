"""Belka's path vectors for issue 41, items 18-26 (``bench/path_vectors.py``): endings
and proofs in tables of flows 1 and 2, and a won game there; every continuation
``table`` section 9.3 refuses, and continuations accepted at flows 1 and 2 and while
an eggs choice is due; ``goli=continues``; a re-deal claim that raises a dispute;
several audit faults in one deal."""

from __future__ import annotations

from collections.abc import Callable

from p2pbelka.bench import path_segments as seg
from p2pbelka.bench.games.belka.disputes import ManyAuditFaults, RedealOffSeed
from p2pbelka.bench.games.belot.disputes import off_seed
from p2pbelka.bench.path_vectors import CHEATER, PathVector, _ending, _first, _signer_of
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import resign
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, open_envelope


def two_shares(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seat 2's first ``shares``, then another it signed for the same place (a key off its
    seed): a proof record; then seat 0's ``evidence`` of the pair, and nothing after."""
    index, first = _first(envelopes, game, "shares", CHEATER)
    assert isinstance(first.msg, m.SharesMsg)
    shares = first.msg.shares
    second = resign(
        _signer_of(game, first), first, msg=m.SharesMsg((off_seed(shares[0]), *shares[1:]))
    )
    prefix = envelopes[: index + 1]
    evidence = _ending(prefix, game, 0, m.EvidenceMsg(first.raw, second))
    return [*(e.raw for e in prefix), second, evidence]


def dispute_own_entry_behind(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """After seat 2's first ``shares``, seat 1's ``dispute`` naming seat 2 whose view
    counts its own chain one envelope short of its ``seq`` (its own entry is not
    ``[seq, prev]``): taken at flows 1 and 2, refused from flow 3 on."""
    index, _ = _first(envelopes, game, "shares", CHEATER)
    prefix = envelopes[: index + 1]
    dispute = open_envelope(_ending(prefix, game, 1, m.DisputeMsg((CHEATER,), "seat 2 is silent")))
    mine = [e for e in prefix if e.sender == dispute.sender]
    view = list(dispute.view)
    view[1] = (len(mine) - 1, mine[-2].digest)
    return [*(e.raw for e in prefix), resign(game.signers[1], dispute, view=tuple(view))]


def last_deal_end_missing(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """The whole won game but seat 3's last ``deal_end``."""
    return [e.raw for e in envelopes[:-1]]


def last_deal_end_disputed(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """The whole won game but seat 3's last ``deal_end``, and seat 0's ``dispute``
    naming seat 3 in its place (a driver that gave up waiting for it)."""
    kept = envelopes[:-1]
    dispute = _ending(kept, game, 0, m.DisputeMsg((3,), "seat 3 did not end the deal"))
    return [*(e.raw for e in kept), dispute]


def _after_trump(envelopes: list[Envelope]) -> int:
    """The records up to the first deal's ``trump`` phase: seat 3 is lost there."""
    return max(i for i, e in enumerate(envelopes) if e.type == "trump" and e.deal == 1) + 1


def _cut_then(edit: Callable[[list[Envelope], LocalGame], list[bytes]]) -> seg.Edit:
    return lambda envelopes, game: edit(envelopes[: _after_trump(envelopes)], game)


def _deal_ends_of(deal: int) -> Callable[[list[Envelope]], int]:
    """The records up to the last of deal ``deal``'s four ``deal_end``s."""
    return lambda e: min(i for i, x in enumerate(e) if x.type == "deal_end" and x.deal == deal) + 4


def _reveals_then(more: int) -> Callable[[list[Envelope]], int]:
    return lambda e: max(i for i, x in enumerate(e) if x.type == "reveal") + 1 + more


def _closes_then(more: int) -> Callable[[list[Envelope]], int]:
    return lambda e: min(i for i, x in enumerate(e) if x.type == "close") + more


def _nonce_twice(game: LocalGame) -> None:
    """Seat 2 brings seat 1's nonce (both sit: each finds its own at its seat)."""
    game.nonces[2] = game.nonces[1]


OLD = "a Belka table of flow {flow} (a game id its host chose, no nonces)"

VECTORS: list[PathVector] = [
    *(
        PathVector(
            f"flow-{flow}-proof",
            1,
            OLD.format(flow=flow) + f": seat {CHEATER}'s first shares, then another it signed"
            " for that place (a proof record), then seat 0's evidence of the pair: CHEATING"
            " PROVEN, as at flow 3",
            flow=flow,
            edit=two_shares,
        )
        for flow in (1, 2)
    ),
    PathVector(
        "flow-2-dispute-own-entry",
        1,
        OLD.format(flow=2) + ": seat 1's dispute naming seat 2, its view counting its own"
        " chain one envelope short of its seq (taken: the own entry of an ending is checked"
        " from flow 3 on only): DISPUTED",
        flow=2,
        edit=dispute_own_entry_behind,
    ),
    PathVector(
        "flow-1-won-cut",
        27,
        OLD.format(flow=1) + ": a game won in its first deal (goli), the file cut before"
        " seat 3's last deal_end: INCOMPLETE (no close phase, nobody named)",
        flow=1,
        deals=2,
        whole=False,
        edit=last_deal_end_missing,
    ),
    PathVector(
        "flow-2-won-dispute",
        27,
        OLD.format(flow=2) + ": the same game won in its first deal, seat 3's last deal_end"
        " replaced by seat 0's dispute naming seat 3: DISPUTED (at flow 3 it would be OK,"
        " seat 3 named as not closing)",
        flow=2,
        deals=2,
        whole=False,
        edit=last_deal_end_disputed,
    ),
    PathVector(
        "flow-2-game-ok",
        27,
        OLD.format(flow=2) + ": the same game won in its first deal, whole: OK after the"
        " last deal_end (no close phase before flow 3)",
        flow=2,
    ),
    *(
        PathVector(
            f"continuation-flow-{flow}",
            1,
            OLD.format(flow=flow) + ": seat 3 lost during deal 2, given to a bot by a"
            " continuation (its id derived, never checked before flow 3; no nonces), deal 2"
            " voided and dealt again in the new segment",
            flow=flow,
            whole=False,
            drive=seg.seat_change(seg.deal_under_way(2)),
        )
        for flow in (1, 2)
    ),
    PathVector(
        "continuation-eggs-choice",
        473,
        "classic Belka, eggs=plus4: 60:60 in deal 1, deal 2 won by team 0, whose chooser"
        " (seat 0) is lost when asked: the continuation (hosted by seat 1) cuts after deal"
        " 2's deal_ends, and the new segment's first record after the sits is the bot's"
        " choice (deal 2), then deal 3",
        whole=False,
        drive=seg.seat_change(None, seat=0, asked="eggs"),
    ),
    PathVector(
        "continuation-to-the-end",
        2,
        "seat 3 lost in deal 1's play, given to a bot by a continuation that seats 0, 1"
        " and 2 sign (seat 0 hosts), deal 1 voided and dealt again; the new segment is"
        " played to the game's end and its four closes: OK (the chained result"
        " certificate's game, protocol/results.md)",
        whole=False,
        drive=seg.seat_change(seg.deal_under_way(1), deals=1000),
    ),
    PathVector(
        "continuation-accepted",
        1,
        "seat 3 lost in deal 1's trump phase: the honest continuation (seat 0 hosts, seats"
        " 0, 1 and 2 sign) and its three sits, accepted: the base every continuation-"
        " vector below changes once",
        whole=False,
        edit=seg.refused(None, _after_trump),
    ),
    PathVector(
        "continuation-after-deal-ends",
        1,
        "seat 3 lost right after deal 1's four deal_ends (deal 2's commitments on them, no"
        " card of it dealt): the honest continuation and its sits, accepted; the change"
        " says deal 2 starts over (no card of it was dealt), not that it was voided unfinished",
        whole=False,
        deals=2,
        edit=seg.refused(None, _deal_ends_of(1)),
    ),
    *(
        PathVector(
            f"continuation-{name}",
            1,
            f"continuation-accepted's continuation, but {what}: refused (section 9.3),"
            " INVALID at that record",
            whole=False,
            edit=seg.refused(change, _after_trump),
        )
        for name, (change, what) in seg.REFUSALS.items()
    ),
    PathVector(
        "continuation-first-record",
        1,
        "continuation-accepted's continuation as the file's record 0: no segment comes"
        " before it, INVALID at record 0",
        whole=False,
        edit=_cut_then(seg.first_record),
    ),
    PathVector(
        "continuation-after-an-end",
        1,
        "seat 0's dispute naming seat 3 ends the game (DISPUTED), then a continuation of"
        " it: a game that ended is not continued, INVALID",
        whole=False,
        edit=_cut_then(seg.after_an_end),
    ),
    PathVector(
        "continuation-not-started",
        1,
        "a continuation after the sits and the first lot_commits: the game had not"
        " started, INVALID",
        whole=False,
        edit=seg.refused(seg.as_is, lambda envelopes: 6),
    ),
    PathVector(
        "continuation-earlier-id",
        1,
        "continuation-accepted (two segments), then a continuation of its second segment"
        " sealed under the game's first id: an earlier segment's id, INVALID",
        whole=False,
        edit=_cut_then(seg.earlier_id),
    ),
    PathVector(
        "continuation-own-id",
        1,
        "continuation-accepted's continuation sealed under the id of the segment it"
        " continues: not a continuation (its id is the segment in play's) but seat 0's"
        " second envelope for its place 0 there, a proof record: CHEATING PROVEN (seat 0)",
        whole=False,
        edit=_cut_then(seg.own_id),
    ),
    *(
        PathVector(
            f"continuation-won-{where}",
            17,
            "the game-ok game (won in deal 2 by goli), cut "
            + what
            + ", then a continuation: the game was won, INVALID",
            whole=False,
            deals=3,
            edit=seg.refused(seg.as_is, cut),
        )
        for where, what, cut in (
            ("deal-end", "after two of the last deal's deal_ends", _reveals_then(2)),
            ("close", "after two closes", _closes_then(2)),
        )
    ),
    PathVector(
        "nonces-repeat",
        1,
        "a flow-3 table whose nonces hold seat 1's nonce at seat 2 too: well formed, not"
        " refused, the game id derived from the list as it is; to the end of deal 1",
        whole=False,
        prepare=_nonce_twice,
    ),
    PathVector(
        "goli-continues",
        17,
        "classic Belka with goli=continues: the game-ok game, whose deal 2 takes all 120"
        " card points: awarded 2, the score back to 0:0, team 0 wins a game and play goes"
        " on; deal 3 scores from 0:0",
        options={"goli": "continues"},
        whole=False,
        deals=3,
    ),
    PathVector(
        "redeal-dispute",
        1,
        f"seat {CHEATER} claims a re-deal in deal 1 with its third opening's key off its"
        " seed: the position does not open, a dispute raised by the claim (the openings"
        " after it not shown), and the audit names the share: CHEATING PROVEN",
        cheat=RedealOffSeed,
    ),
    PathVector(
        "audit-faults",
        1,
        f"several audit faults of seat {CHEATER} in one deal: its lock pass swaps two points"
        " (one fault for the pass, though two points differ), and its shares give its two"
        " highest positions keys off its seed (one fault a share, by position): three"
        " faults in the audit's order",
        cheat=ManyAuditFaults,
    ),
]
