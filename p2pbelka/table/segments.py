"""A game as a chain of segments: cutting one, proposing the next, replaying them all.

``carry.py`` says what a continuation must be; this module builds one from a
live table (the proposer's side), signs agreements, splits a transcript into
its segments and replays them (``verify``, and a peer resuming a game whose
seat changed hands), and describes each change in words.  Sans-IO.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from p2pbelka.net.identity import fingerprint
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer
from p2pbelka.protocol.ids import segment_id_of
from p2pbelka.protocol.seatchange import sign_agreement, with_agreements
from p2pbelka.table import events as ev
from p2pbelka.table.carry import Previous, between_deals, carried
from p2pbelka.table.errors import OrderError
from p2pbelka.table.replay import Replay
from p2pbelka.table.session import Table


def previous_of(table: Table) -> Previous:
    """``table`` cut where it stands now: what a continuation of it goes on from."""
    assert table.state.setup is not None, "no table description yet"
    before = table.state.previous
    return Previous(
        segment=table.game_id,
        setup=table.state.setup,
        view=table.view.accepted(),
        state=between_deals(table.state.game) if table.state.started else None,
        deal_id=table.state.deal_id,
        finished=table.finished,
        earlier=before.used if before is not None else (),
        dealt=_dealt(table),
        sat_down=table.state.sat_down(),
    )


def _dealt(table: Table) -> bool:
    """Whether a ``shares`` of the deal in progress was processed (a card dealt)."""
    rnd = table.state.deals.round
    return rnd is not None and any(rnd.deck.shares.values())


def propose(
    previous: Previous,
    seat: int,
    key: bytes,
    name: str,
    nonce: bytes,
    proposer: Signer,
    segment: bytes | None = None,
) -> tuple[bytes, m.TableMsg]:
    """The continuation that puts ``key`` (called ``name``, bringing the fresh ``nonce``)
    in ``seat`` from the next deal, and its segment id (derived from it; ``segment``
    names another only to build a forgery in a test), signed by the proposer (a
    remaining seat, who will host it) so far."""
    score, dealer, deal = carried(previous.state)
    seats = list(previous.setup.seats)
    seats[seat] = m.SeatInfo(key, name)
    nonces = list(previous.setup.nonces)
    if nonces:  # flow 3 and later: the new holder's own
        nonces[seat] = nonce
    after = m.After(previous.segment, previous.view, seat, score, dealer, deal)
    table = replace(previous.setup, seats=tuple(seats), after=after, nonces=tuple(nonces))
    if segment is None:
        segment = segment_id_of(table)
    mine = next(s for s, info in enumerate(previous.setup.seats) if info.key == proposer.public_key)
    return segment, with_agreements(table, {mine: sign_agreement(proposer, segment, table)})


# -- reading a game of several segments -----------------------------------------------------


def split_segments(envelopes: Sequence[Envelope]) -> list[list[Envelope]]:
    """The transcript cut where the segment id (the envelopes' ``game``) changes."""
    out: list[list[Envelope]] = []
    for envelope in envelopes:
        if not out or envelope.game != out[-1][0].game:
            out.append([])
        out[-1].append(envelope)
    return out


SeedSources = Callable[[bytes | None], Callable[[], bytes]]
"""A seat's secrets, one source per segment: None names the game's first segment,
else the continuation's id.  A peer keeps each segment's values apart
(``peer/store.py``), so a segment never uses a secret drawn for another, and a
resumed seat replays each segment's draws in its own order."""


def resume_segments(
    signer: Signer,
    envelopes: Sequence[Envelope],
    *,
    seed_sources: SeedSources,
) -> Table:
    """``Table.resume`` across segments: replay each with the seat's signer and that
    segment's own secrets (in the order the live table drew them) and return the
    last, held.  ``OrderError`` if a segment does not replay or does not continue
    the one before it."""
    previous: Previous | None = None
    table: Table | None = None
    for index, segment in enumerate(split_segments(envelopes)):
        if table is not None:
            previous = previous_of(table)
        source = seed_sources(None if index == 0 else segment[0].game)
        table = Table.resume(signer, segment, seed_source=source, previous=previous)
        if table.state.setup is None:
            raise OrderError("a segment's table description was refused")
    if table is None:
        raise OrderError("an empty transcript: nothing to resume")
    return table


def observe_segments(envelopes: Sequence[Envelope]) -> Table:
    """Replay a game of one or more segments with no seat (as ``verify`` does) and
    return the last segment's table: what a player who takes its seat back builds
    on.  ``OrderError`` if a record does not replay."""
    table: Table | None = None
    for segment in split_segments(envelopes):
        previous = previous_of(table) if table is not None else None
        table = Table(segment[0].game, previous=previous)
        replay = Replay(table)
        for envelope in segment:
            if table.finished:
                raise OrderError("envelope after the end of the game")
            replay.feed(envelope)
    if table is None:
        raise OrderError("an empty transcript")
    return table


# -- the change, in words ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatChanged(ev.Event):
    """A continuation segment began: ``seat`` is played by ``key`` (``name``) from deal
    ``from_deal``, agreed by ``agreed``; ``voided``: the deal the cut left unfinished.
    ``back``: the key held this seat before (the player reclaimed it); ``dealt``: a card
    of the voided deal had been dealt at the cut."""

    seat: int
    name: str
    key: bytes
    was_name: str
    agreed: tuple[int, ...]
    from_deal: int
    voided: int | None
    back: bool
    segment: bytes
    dealt: bool = True
    """A card of the voided deal had been dealt (else it starts over, nothing lost)."""


def change_of(table: Table, earlier_keys: Sequence[bytes] = ()) -> SeatChanged | None:
    """The change a continuation table made (None for a game's first segment).
    ``earlier_keys``: keys that held the seat in earlier segments (a reclaim)."""
    previous, setup = table.state.previous, table.state.setup
    if previous is None or setup is None or setup.after is None:
        return None
    after = setup.after
    info = setup.seats[after.seat]
    return SeatChanged(
        after.seat,
        info.name,
        info.key,
        previous.setup.seats[after.seat].name,
        tuple(s for s, _ in after.agreed),
        after.deal,
        previous.voided,
        info.key in earlier_keys,
        table.game_id,
        previous.dealt,
    )


def describe_change(change: SeatChanged) -> str:
    agreed = ", ".join(str(s) for s in change.agreed)
    who = f"{change.name} [{fingerprint(change.key)}]"
    if change.back:
        what = f"seat {change.seat} handed back to {who}"
    else:
        what = f"seat {change.seat} ({change.was_name}) replaced by {who}"
    voided = ""
    if change.voided is not None and not change.dealt:
        # cut before the deal's cards (a hand-back is cut so, and a change right after
        # the deal_ends): nothing played is lost, and "voided" would say otherwise
        voided = f"; deal {change.voided} starts over, no card of it dealt yet"
    elif change.voided is not None:
        voided = f"; deal {change.voided}, unfinished, voided"
    return f"{what} from deal {change.from_deal}, agreed by seats {agreed}{voided}"
