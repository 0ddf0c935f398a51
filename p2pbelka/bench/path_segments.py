"""Path vectors of continuation segments (protocol/SPEC.md section 9): a seat that
changes hands in a game of any flow or game, and every continuation ``table`` that
section 9.3 refuses.

Two kinds of vector use this module (``bench/games/<game>/paths.py`` lists them):

- ``seat_change(cut, ...)`` *drives* a game (``PathVector.drive``): every seat plays
  until ``cut`` says so, the seats but one go on until they wait for it, then the
  lowest remaining seat proposes a continuation that gives that seat to a bot (a key,
  nonce and secrets drawn from the vector's seed), the others sign it, and the new
  segment plays its first deals: seat 0's file, both segments.
- ``refused(change)`` is an *edit* of a played first segment: the continuation an
  honest proposer would make of the file as it stands (its ``table`` and the
  remaining seats' ``sit``s), or that continuation changed by ``change`` (a field, the
  id, the host, an agreement) and signed again, so that section 9.3 refuses it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from p2pbelka.bench.path_vectors import _ending as ending
from p2pbelka.bots.common.seat import Bot, SeatBot
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, Signer, open_envelope, seal_envelope
from p2pbelka.protocol.ids import segment_id_of
from p2pbelka.protocol.seatchange import sign_agreement, with_agreements
from p2pbelka.table import moves as mv
from p2pbelka.table.carry import Previous
from p2pbelka.table.phase import Question
from p2pbelka.table.segments import observe_segments, previous_of, propose
from p2pbelka.table.session import Table

LOST = 3
"""The seat that changes hands in every vector of this module (its own segment's seat 3
at four seats; at three, seat 2 is passed instead)."""


def _stream(rng: random.Random) -> Callable[[], bytes]:
    return lambda: rng.randbytes(32)


def _bot(seed: int) -> tuple[Signer, bytes, random.Random]:
    """The bot's key, its fresh nonce and the stream its secrets come from."""
    rng = random.Random(f"the bot of path vector {seed}")
    return Signer.from_seed(rng.randbytes(32)), rng.randbytes(m.NONCE_SIZE), rng


# -- a continuation played ----------------------------------------------------------------

Cut = Callable[[list[Table]], bool]


class _SeatLost(Exception):
    """The seat's player is gone, as it was asked (``LeavesWhenAsked``)."""


class LeavesWhenAsked:
    """A seat's bot whose player leaves for good when the table asks it ``kind`` (so the
    cut falls exactly where that seat's answer is due)."""

    def __init__(self, bot: Bot, kind: str) -> None:
        self.bot, self.kind = bot, kind
        self.inner: Any = None

    def for_game(self, game: str) -> SeatBot:
        self.inner = self.bot.for_game(game)
        return self  # type: ignore[return-value]

    def choose(self, game: Any, seat: int, question: Question) -> mv.Move:
        if question.kind == self.kind:
            raise _SeatLost(question.kind)
        return self.inner.choose(game, seat, question)  # type: ignore[no-any-return]


def seat_change(
    cut: Cut | None, seat: int = LOST, deals: int = 1, asked: str | None = None
) -> Callable[..., list[Envelope]]:
    """A ``PathVector.drive``: play until ``cut`` (or until ``seat``'s player is asked
    ``asked``), lose ``seat``, hand it to a bot and play ``deals`` deals of the new
    segment to their ``deal_end``s (or the end); the file is the proposer's (the
    lowest other seat, which hosts the continuation)."""

    def drive(
        seed: int, game: LocalGame, tables: list[Table], bots: list[Bot], oldest: int | None
    ) -> list[Envelope]:
        playing = list(bots)
        if asked is not None:
            playing[seat] = LeavesWhenAsked(bots[seat], asked)
        try:
            run_sync(tables, playing, until=None if cut is None else lambda _: cut(tables))
        except _SeatLost:
            pass  # what was in flight comes again: the others ask for what they lack
        rest = [s for s in range(len(tables)) if s != seat]
        run_sync([tables[s] for s in rest], [bots[s] for s in rest])
        host = rest[0]  # the proposer: its file, both segments
        file = list(tables[host].view.transcript)
        new, first = _hand_over(seed, game, tables, seat, oldest)
        for table in new:
            table.stop_at_deal(first + deals)
        run_sync(new, bots)
        return file + list(new[host].view.transcript)

    return drive


def _hand_over(
    seed: int, game: LocalGame, tables: list[Table], seat: int, oldest: int | None
) -> tuple[list[Table], int]:
    """Every seat's table of the continuation that gives ``seat`` to a bot, proposed and
    hosted by the lowest other seat, signed by every other: each remaining seat draws
    its secrets from a new stream (no secret crosses the cut)."""
    holder, nonce, rng = _bot(seed)
    host = min(s for s in range(len(tables)) if s != seat)
    previous = previous_of(tables[host])
    segment, proposal = propose(previous, seat, holder.public_key, "Bot", nonce, game.signers[host])
    agreed = dict(proposal.after.agreed) if proposal.after else {}
    for s, table in enumerate(tables):
        if s not in (seat, host):
            assert previous_of(table).view == previous.view, "the views differ at the cut"
            agreed[s] = sign_agreement(game.signers[s], segment, proposal)
    final = with_agreements(proposal, agreed)
    new: list[Table] = []
    for s, old in enumerate(tables):
        source = _stream(random.Random(old.state.deals.seed_source()))
        if s == seat:
            table = Table(
                segment,
                signer=holder,
                seed_source=_stream(rng),
                previous=previous,
                oldest_flow=oldest,
            )
        elif s == host:
            table = Table.host(
                game.signers[s],
                final,
                seed_source=source,
                previous=previous,
                game_id=segment,
                oldest_flow=oldest,
            )
        else:
            table = Table(
                segment,
                signer=game.signers[s],
                seed_source=source,
                previous=previous_of(old),
                oldest_flow=oldest,
            )
        new.append(table)
    assert final.after is not None
    return new, final.after.deal


def deal_under_way(deal: int, played: int = 2) -> Cut:
    """Cut once seat 0's table is in deal ``deal`` with ``played`` cards down (or over)."""

    def cut(tables: list[Table]) -> bool:
        table = tables[0]
        if table.finished:
            return True
        if table.state.deal_id < deal:
            return False
        try:
            return len(table.state.round.played) >= played
        except AssertionError:
            return False

    return cut


def deal_ending(deal: int) -> Cut:
    """Cut once seat 0's table is in deal ``deal``'s ``deal_end`` phase or past it (an
    eggs ``choice`` its seat owes then waits for the seat's next holder)."""

    def cut(tables: list[Table]) -> bool:
        table = tables[0]
        phase = table.state.phase.value
        return (
            table.finished
            or table.state.deal_id > deal
            or (table.state.deal_id == deal and phase in ("deal_end", "choice"))
        )

    return cut


# -- a continuation refused ---------------------------------------------------------------


@dataclass
class Proposal:
    """The continuation an honest proposer makes of the file so far, to be changed."""

    previous: Previous
    signers: list[Signer]
    """The previous segment's keys, by seat."""
    holder: Signer
    table: m.TableMsg
    """Its body, ``after.agreed`` empty."""
    seat: int
    host: int
    segment: bytes | None = None
    """The id it is sealed under (None: the one the body derives)."""
    signer: Signer | None = None
    """Who signs the ``table`` (None: the host)."""
    agreed: dict[int, bytes] | None = None
    """``after.agreed`` (None: every remaining seat's signature on the body)."""

    def after(self, **fields: Any) -> m.TableMsg:
        assert self.table.after is not None
        return replace(self.table, after=replace(self.table.after, **fields))

    def sealed(self) -> Envelope:
        segment = self.segment if self.segment is not None else segment_id_of(self.table)
        agreed = self.agreed
        if agreed is None:
            agreed = {
                s: sign_agreement(signer, segment, self.table)
                for s, signer in enumerate(self.signers)
                if s != self.seat
            }
        body = with_agreements(self.table, agreed)
        signer = self.signer if self.signer is not None else self.signers[self.host]
        return seal_envelope(signer, segment, 0, 0, ZERO_HASH, body)


Change = Callable[[Proposal], None]
Edit = Callable[[list[Envelope], LocalGame], list[bytes]]


def proposal(
    envelopes: Sequence[Envelope], game: LocalGame, seat: int = LOST, bots: Sequence[Signer] = ()
) -> Proposal:
    """The continuation of ``envelopes`` (a game's segments so far) that gives ``seat`` to
    a bot of its own (drawn from the file's length), hosted by the lowest other seat;
    ``bots``: the keys earlier continuations seated."""
    table = observe_segments(envelopes)
    previous = previous_of(table)
    holder, nonce, _ = _bot(len(envelopes))
    n = len(previous.setup.seats)
    host = min(s for s in range(n) if s != seat)
    keys = [info.key for info in previous.setup.seats]
    signers = [next(s for s in (*game.signers, *bots) if s.public_key == k) for k in keys]
    if previous.state is None:  # not started: what an honest proposer would restate
        teams = 2 if n == 4 else n  # the score: one entry a team of two, else a seat
        after = m.After(previous.segment, previous.view, seat, (0,) * teams, 0, 1)
        body = replace(previous.setup, after=after)
        seats = list(body.seats)
        seats[seat] = m.SeatInfo(holder.public_key, "Bot")
        nonces = list(body.nonces)
        if nonces:
            nonces[seat] = nonce
        body = replace(body, seats=tuple(seats), nonces=tuple(nonces))
    else:
        _, body = propose(previous, seat, holder.public_key, "Bot", nonce, signers[host])
        body = with_agreements(body, {})
    return Proposal(previous, signers, holder, body, seat, host)


def sits(made: Proposal, table: Envelope) -> list[bytes]:
    """Every seat's ``sit`` but the host's, under the continuation ``table``."""
    n = len(made.signers)
    out = []
    for s in range(n):
        if s == made.host:
            continue
        signer = made.holder if s == made.seat else made.signers[s]
        view = tuple((1, table.digest) if v == made.host else (0, ZERO_HASH) for v in range(n))
        sit = seal_envelope(signer, table.game, 0, 0, ZERO_HASH, m.SitMsg(table.digest), view)
        out.append(sit.raw)
    return out


def refused(
    change: Change | None, cut: Callable[[list[Envelope]], int] | None = None, seat: int = LOST
) -> Edit:
    """An edit (``PathVector.edit``): the first ``cut(envelopes)`` records (all, if None)
    and then the continuation that gives ``seat`` to a bot, changed by ``change`` (None:
    the honest one, with its ``sit``s)."""

    def edit(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
        kept = envelopes[: cut(envelopes)] if cut is not None else envelopes
        made = proposal(kept, game, seat)
        if change is not None:
            change(made)
        table = made.sealed()
        more = sits(made, table) if change is None else []
        return [*(e.raw for e in kept), table.raw, *more]

    return edit


# -- what section 9.3 refuses, one change each ---------------------------------------------


def _seats(made: Proposal, seat: int, info: m.SeatInfo) -> None:
    seats = list(made.table.seats)
    seats[seat] = info
    made.table = replace(made.table, seats=tuple(seats))


def _nonce(made: Proposal, seat: int, nonce: bytes) -> None:
    nonces = list(made.table.nonces)
    nonces[seat] = nonce
    made.table = replace(made.table, nonces=tuple(nonces))


def other_segment(made: Proposal) -> None:
    made.table = made.after(segment=bytes(16 * [0xAB]))


def chosen_id(made: Proposal) -> None:
    made.segment = bytes(16 * [0x5A])


def other_nonce(made: Proposal) -> None:
    _nonce(made, 1, bytes(16 * [0x11]))


def old_nonce(made: Proposal) -> None:
    _nonce(made, made.seat, made.previous.setup.nonces[made.seat])


def other_rules(made: Proposal) -> None:
    made.table = replace(made.table, options={**made.table.options, "eggs": "none"})


def other_seat(made: Proposal) -> None:
    _seats(made, 1, m.SeatInfo(made.table.seats[1].key, "Someone else"))


def same_key(made: Proposal) -> None:
    _seats(made, made.seat, made.previous.setup.seats[made.seat])


def host_is_the_seat(made: Proposal) -> None:
    made.signer = made.holder


def other_heads(made: Proposal) -> None:
    assert made.table.after is not None
    heads = list(made.table.after.heads)
    count, _ = heads[1]
    heads[1] = (count - 1, bytes(32 * [0x22]))
    made.table = made.after(heads=tuple(heads))


def fewer_seats(made: Proposal) -> None:
    """The last seat (neither the one changing hands nor the host) left out, with its
    nonce, its head and its score, the dealer taken below the new count: a table of one
    seat fewer (well formed where the game allows that many)."""
    assert made.table.after is not None
    gone = max(s for s in range(len(made.table.seats)) if s not in (made.seat, made.host))
    made.signers = [signer for s, signer in enumerate(made.signers) if s != gone]

    def keep(items: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(item for s, item in enumerate(items) if s != gone)

    after = made.table.after
    score = keep(after.score) if len(after.score) == len(made.table.seats) else after.score
    made.table = replace(
        made.table,
        seats=keep(made.table.seats),
        nonces=keep(made.table.nonces) if made.table.nonces else (),
        after=replace(
            after,
            heads=keep(after.heads),
            score=score,
            dealer=after.dealer % (len(keep(made.table.seats))),
        ),
    )


def other_score(made: Proposal) -> None:
    assert made.table.after is not None
    made.table = made.after(score=(1, *made.table.after.score[1:]))


def other_dealer(made: Proposal) -> None:
    assert made.table.after is not None
    made.table = made.after(dealer=(made.table.after.dealer + 1) % len(made.table.seats))


def other_deal(made: Proposal) -> None:
    assert made.table.after is not None
    made.table = made.after(deal=made.table.after.deal + 1)


def _agreements(made: Proposal) -> dict[int, bytes]:
    segment = segment_id_of(made.table)
    return {
        s: sign_agreement(signer, segment, made.table)
        for s, signer in enumerate(made.signers)
        if s != made.seat
    }


def agreement_missing(made: Proposal) -> None:
    agreed = _agreements(made)
    del agreed[max(agreed)]
    made.agreed = agreed


def agreement_of_the_seat(made: Proposal) -> None:
    agreed = _agreements(made)
    agreed[made.seat] = sign_agreement(
        made.signers[made.seat], segment_id_of(made.table), made.table
    )
    made.agreed = agreed


def agreement_forged(made: Proposal) -> None:
    agreed = _agreements(made)
    agreed[1] = sign_agreement(made.signers[1], bytes(16 * [0x33]), made.table)
    made.agreed = agreed


REFUSALS: dict[str, tuple[Change, str]] = {
    "other-segment": (other_segment, "after.segment names a segment that is not the one before it"),
    "chosen-id": (chosen_id, "sealed under an id its body does not derive (a chosen one)"),
    "other-nonce": (other_nonce, "seat 1's nonce changes, though seat 1 keeps its place"),
    "old-nonce": (old_nonce, "the new holder of seat 3 keeps seat 3's old nonce"),
    "other-rules": (other_rules, "the options change (eggs=none)"),
    "other-seat": (other_seat, "seat 1's name changes, though only seat 3 changes hands"),
    "same-key": (same_key, "seat 3 keeps its key: nothing changes hands"),
    "host-is-the-seat": (
        host_is_the_seat,
        "signed by the new holder of seat 3, the seat that changes hands",
    ),
    "other-heads": (
        other_heads,
        "after.heads cuts seat 1's chain one envelope short, with another head",
    ),
    "other-score": (other_score, "after.score is not the score the audited deals give"),
    "other-dealer": (other_dealer, "after.dealer is not the next dealer the audited deals give"),
    "other-deal": (other_deal, "after.deal is one more than the next deal id"),
    "agreement-missing": (agreement_missing, "seat 2's agreement is missing"),
    "agreement-of-the-seat": (
        agreement_of_the_seat,
        "after.agreed lists seat 3, the seat that changes hands",
    ),
    "agreement-forged": (agreement_forged, "seat 1's agreement is its signature on another change"),
}
"""Each refusal of section 9.3 made by one change of an honest continuation (the name
of its vector is ``continuation-`` and the key)."""


# -- refusals that need another file before the continuation -------------------------------


def _opened(raws: Sequence[bytes]) -> list[Envelope]:
    return [open_envelope(raw) for raw in raws]


def first_record(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """The honest continuation of ``envelopes``, alone: the file's record 0 is a
    continuation, and no segment comes before it."""
    return [proposal(envelopes, game).sealed().raw]


def after_an_end(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """Seat 0's ``dispute`` naming seat 3 ends the game (aborted), then a continuation of
    it: a game that ended is not continued."""
    dispute = ending(envelopes, game, 0, m.DisputeMsg((LOST,), f"seat {LOST} is silent"))
    kept = [*envelopes, open_envelope(dispute)]
    return [*(e.raw for e in kept), proposal(kept, game).sealed().raw]


def earlier_id(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """An honest continuation and its ``sit``s (a second segment), then a continuation of
    that one sealed under the game's first id: an earlier segment's id."""
    made = proposal(envelopes, game)
    table = made.sealed()
    second = [*envelopes, *_opened([table.raw, *sits(made, table)])]
    again = proposal(second, game, bots=[made.holder])
    again.segment = envelopes[0].game
    return [*(e.raw for e in second), again.sealed().raw]


def own_id(envelopes: list[Envelope], game: LocalGame) -> list[bytes]:
    """A continuation sealed under the id of the segment it continues: no continuation
    (its id is the segment in play's), but seat 0's second envelope for its place 0 of
    that segment, beside its first ``table``: a proof record."""
    made = proposal(envelopes, game)
    made.segment = envelopes[0].game
    return [*(e.raw for e in envelopes), made.sealed().raw]


def as_is(made: Proposal) -> None:
    """No change: the honest continuation alone, for a file it cannot continue."""
