"""The seat-change machine's terms with its runner: what it is given, what it asks.

``Config`` and ``Identities`` are what the runner hands the machine
(``machine.py``) once.  The machine never sends, waits or asks by itself: each
of its inputs leaves zero or more effects (``Effect``, the classes below) in its
outbox (``SeatChange.take``), in the order they must be done.  The runner
(``runner.py``) carries them out: the quick ones at once (a switch, freezing the
table, remembering an id), the ones that wait (sending, asking the player, telling
the front end) in its one task, in order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from p2pbelka.fairdeal.derive import new_seed
from p2pbelka.protocol.envelope import Signer

if TYPE_CHECKING:
    # annotations only: ``GameStore`` reads ``Agreed`` without building a table
    from p2pbelka.table.segments import SeedSources
    from p2pbelka.table.session import Table

RESEND_EVERY = 2.0
"""An offer or an agreement not yet answered is sent again this often."""


@dataclass
class Config:
    """How long things take (the peer's ``NetOptions``; tests shrink them)."""

    offer_timeout: float
    give_up_after: float
    resend_every: float = RESEND_EVERY
    seat_bots: bool = True


@dataclass
class Identities:
    """Where this seat's keys, ids and secrets come from (the peer's, or a test's)."""

    signer: Signer
    keys: list[bytes]
    """The players' own keys, by seat, as they sat down."""
    home_seat: int
    names: list[str]
    seed_sources: SeedSources
    knows: Callable[[bytes], bool]
    """Whether an id is in this machine's list (``KnownIds.knows``)."""
    new_nonce: Callable[[], bytes]
    new_bot: Callable[[], Signer] = Signer.generate
    bot_seeds: Callable[[], bytes] = new_seed
    seen_ids: set[bytes] = field(default_factory=set)
    """Ids this machine told its runner to remember (asked before ``knows``)."""

    def known(self, segment: bytes) -> bool:
        return segment in self.seen_ids or self.knows(segment)


# -- the effects ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Broadcast:
    """Send this seat-change control message to every other seat."""

    payload: bytes


@dataclass(frozen=True, slots=True)
class SendTo:
    """Send this seat-change control message to seat ``seat`` alone."""

    seat: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class AskPlayer:
    """Ask our player about seat ``seat`` (``name``, gone ``silent`` seconds): seat
    ``bot`` in its place, or (``back``) hand it back to its player ``bot``?  The
    answer comes back as ``SeatChange.answered(ask, ...)``; none by ``timeout``
    seconds is no (the machine counts the time itself too).  ``later``: a no only
    puts it off (a fresh bot for one lost with our restart, asked before the window).
    """

    ask: int
    seat: int
    name: str
    silent: float
    bot: str
    back: bool
    timeout: float
    later: bool = False


@dataclass(frozen=True, slots=True)
class Switch:
    """Stop the segment in play and go on in ``table`` (with the bots' ``bots``, each
    its table and seat); then tell the machine with ``SeatChange.enter``."""

    table: Table
    bots: tuple[tuple[Table, int], ...]


@dataclass(frozen=True, slots=True)
class Closed:
    """The change about ``seat`` came to nothing: ``why``.  ``back``: it was a seat
    handed back to its player (the bot plays on, nobody is told); else the front
    end is told (``OfferClosed``) and the driver ends the game as before."""

    seat: int
    why: str
    back: bool = False


@dataclass(frozen=True, slots=True)
class Freeze:
    """Stop the seat's table where it stands: a change is being decided at this cut."""


@dataclass(frozen=True, slots=True)
class Thaw:
    """Go on with the segment in play (if the table is frozen)."""


@dataclass(frozen=True, slots=True)
class BotGoesOn:
    """The bot of ``seat`` plays on (a hand-back came to nothing): its table was told
    (``Table.stop_at_deal(None)``); its driver must look at it now, since nothing may
    ever arrive to make it (``PeerDriver.nudge``)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Kept:
    """Watching: the seat we asked back stays with the bot for now (``why``); we may
    ask again from the next deal.  The front end is told (``SeatKept``)."""

    why: str


@dataclass(frozen=True, slots=True)
class Remember:
    """Keep ``segment`` in this machine's list of ids, durably, before anything is
    signed in it (done before any later effect of the same batch)."""

    segment: bytes


@dataclass(frozen=True, slots=True)
class Agreed:
    """This seat signs ``segment``, a continuation of segment ``previous`` cut where its
    table stood (``cut``: the digest of that view, ``cut_of``), which gives ``seat`` to
    another key, with ``sig``: keep it durably before the signature leaves (done before
    any later effect of the same batch), as every envelope a seat signs is.  A seat
    resumed after a crash then never signs a second continuation of that cut
    (``SeatChange.restore``)."""

    previous: bytes
    cut: bytes
    segment: bytes
    seat: int
    sig: bytes
    proposed: bool = False
    """Our own offer (the proposer's signature rides in it): nothing to wait for."""


def cut_of(view: tuple[tuple[int, bytes], ...]) -> bytes:
    """A cut's digest: how many envelopes of every seat a table held, and the last."""
    return hashlib.sha256(b"".join(n.to_bytes(8, "big") + head for n, head in view)).digest()


@dataclass(frozen=True, slots=True)
class Replaced:
    """A continuation gave our seat to another key while we were still in the segment
    before it (we came back during the offer): fetch the game and watch it."""


@dataclass(frozen=True, slots=True)
class CatchUp:
    """Watching: a continuation that hands our seat back could not be followed (most
    often it cuts a chain further than our table holds, and no resend brings the rest:
    the peers' tables are in the new segment).  Fetch the game's records since the
    watched segment began from the transcript of ``seat`` (the continuation's host:
    it holds all the continuation cuts), then try again."""

    seat: int


Effect = (  # what the machine asks its runner to do: every class above
    Broadcast
    | SendTo
    | AskPlayer
    | Switch
    | Closed
    | Freeze
    | Thaw
    | BotGoesOn
    | Kept
    | Remember
    | Agreed
    | Replaced
    | CatchUp
)
