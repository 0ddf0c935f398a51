"""The seat's game as the phases see it: ``TableState``, the context their code works through.

It owns what a phase reads and changes: the table description and the local seat's
place in it, the rules' track, the set-up of deals (``dealsetup.py``), where the
schedule stands (the phase), the outbox the driver takes from, and who is at fault
(``blame.py``, over the chains it is given).  It satisfies ``context.TableContext``,
which is all a phase's code may use of it.  The phase runner (``runner.py``) drives
it and the face (``session.Table``) reads it; it holds neither (h11's split: the
state in ``_state.py``, the face in ``_connection.py``).

``compose`` (what the local seat says when its turn comes) and ``handle`` (how a
message due is applied) are where a dishonest seat lies: a test's or a path
vector's cheat is a subclass, which a table is built with (``Table(state=...)``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope
from p2pbelka.table import events as ev
from p2pbelka.table import flow, registry
from p2pbelka.table.blame import Blame
from p2pbelka.table.carry import Previous
from p2pbelka.table.chains import Chains
from p2pbelka.table.dealsetup import DealSetup, LotDraw
from p2pbelka.table.flow import Schedule
from p2pbelka.table.phase import Phase, PhaseId, Question, Step
from p2pbelka.table.round import DealRound
from p2pbelka.table.track import GameTrack


@dataclass
class Outbox:
    """What the driver takes: envelopes to broadcast, events for the screen or bot."""

    outgoing: list[bytes] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)


class TableState:
    def __init__(
        self,
        game_id: bytes,
        chains: Chains,
        seed_source: Callable[[], bytes],
        previous: Previous | None,
    ) -> None:
        """``previous``: the segment this one continues (None in a game's first)."""
        self.game_id = game_id
        self.chains = chains
        self.previous = previous
        self.out = Outbox()
        self.blame = Blame(chains, game_id, lambda event: self.out.events.append(event))
        self.deals = DealSetup(game_id, seed_source)
        self.audit_every_pass = False
        """Replay every seat's every pass at each deal's audit, even when the deck
        came out as the seeds say (``verify --every-pass``; see ``fairdeal/audit.py``)."""
        self.setup: m.TableMsg | None = None
        self.me: int | None = None
        """The local seat, or None for an observer (or before the table description)."""
        self.host_seat = 0
        self.table_digest = b""
        """The hash of the ``table`` envelope every seat sits down to."""
        self.schedule: Schedule | None = None
        self.phase: PhaseId = Phase.SIT
        self.on_transition: Callable[[PhaseId, PhaseId], None] | None = None
        """Told every change of phase, (from, to): for a test or a tracer."""
        self.held = False
        """A resumed seat stays silent until its driver has fetched what the others hold."""
        self._track: GameTrack | None = None

    def seat(self, setup: m.TableMsg, host: int, schedule: Schedule, me: int | None) -> None:
        """The table description is accepted: ``me`` is the local seat (None: none)."""
        self.setup, self.host_seat, self.schedule, self.me = setup, host, schedule, me
        self.deals.seat(setup, me)

    # -- the table description, and where the game stands -----------------------------

    @property
    def n_seats(self) -> int:
        return len(self.setup.seats) if self.setup else 0

    @property
    def flow(self) -> int:
        """The schedule revision the table description names (``TableMsg.flow``)."""
        return self.setup.flow if self.setup is not None else m.FLOW

    @property
    def carries_commitments(self) -> bool:
        """Flow 2 and later: a ``deal_end`` carries its sender's commitment for the next
        deal."""
        return self.flow >= 2

    @property
    def game(self) -> Any:
        """The rules engine's state of the game (None before the lot)."""
        return self._track.game if self._track is not None else None

    @property
    def started(self) -> bool:
        """The game has a track: the lot is drawn, or a continuation took it over."""
        return self._track is not None

    @property
    def track(self) -> GameTrack:
        assert self._track is not None, "the game has not started"
        return self._track

    @property
    def round(self) -> DealRound:
        assert self.deals.round is not None, "no deal in progress"
        return self.deals.round

    @property
    def deal_id(self) -> int:
        return self.deals.deal_id

    @property
    def lots(self) -> LotDraw:
        return self.deals.lots

    @property
    def over(self) -> bool:
        """The game ended as the rules or a give-up say (not on a proven fault)."""
        return self.phase is Phase.OVER

    @property
    def aborted(self) -> bool:
        """The game ended on a proven fault."""
        return self.phase is Phase.ABORTED

    def step_or_none(self) -> Step | None:
        return None if self.schedule is None else self.schedule.steps.get(self.phase)

    def step(self) -> Step:
        assert self.schedule is not None, "no table yet"
        return self.schedule.steps[self.phase]

    # -- what a seat says, and how a message is handled -----------------------------------

    def compose(self) -> m.Message | Question | None:
        """What the local seat sends now that its turn has come, or the question its
        player must answer.  (The one place a dishonest test seat lies.)"""
        return self.step().own(self)

    def handle(self, seat: int, msg: m.Message) -> None:
        """Apply ``seat``'s message, which the schedule says is due (raises ``Abort``)."""
        self.step().handlers[type(msg)](self, seat, msg)

    # -- what a phase does ----------------------------------------------------------------

    def emit(self, event: ev.Event) -> None:
        self.out.events.append(event)

    def fault(
        self, seat: int, what: str, envelope: Envelope | None = None, fatal: bool = True
    ) -> ev.Fault:
        """A fault proven by ``seat``'s envelope (by default the last one accepted)."""
        return self.blame.fault(seat, what, envelope, fatal, self.deal_id)

    def dispute(self, seat: int, what: str) -> None:
        """Note a problem no seat can be blamed for yet: the audit will decide."""
        self.round.disputes.append(
            self.fault(seat, what)
            if seat >= 0
            else ev.Fault(-1, what, deal=self.deal_id, proven=False)
        )

    def draw_secret(self) -> bytes:
        return self.deals.seed_source()

    def open_position(self, seat: int, opening: m.Opening) -> int | None:
        """Open a position of ``seat``'s to all; None (and a dispute) if it does not open."""
        return flow.open_position(self, seat, opening)

    def continue_game(self) -> bool:
        """Every seat sat: in a continuation segment, go on from the rules' state the
        previous segment left (True); False in a game's first segment (the lot follows)."""
        previous = self.previous
        if previous is None:
            return False
        assert self.setup is not None
        track = registry.track_class(self.setup.game).resumed(self.setup, previous.state)
        self._track = track
        self.deals.deal_id = track.deal_number
        self._emit_started(track.dealer, continued=True)
        return True

    def start_game(self, first_dealer: int) -> None:
        """The lot is drawn: the game starts, and its first deal."""
        assert self.setup is not None
        self._track = registry.track_class(self.setup.game).new(self.setup, first_dealer)
        self._emit_started(first_dealer)
        self.begin_deal()

    def sat_down(self) -> tuple[m.SeatInfo, ...]:
        """The seats of the game's first segment (this one's if it is the first): the
        players who sat down at the start, whose result the game is, whoever holds a
        seat now (protocol/results.md 1.1)."""
        assert self.setup is not None
        previous = self.previous
        if previous is None:
            return self.setup.seats
        return previous.sat_down or previous.setup.seats

    def _emit_started(self, dealer: int, continued: bool = False) -> None:
        setup, track = self.setup, self.track
        assert setup is not None
        names = tuple(s.name for s in setup.seats)
        keys = tuple(s.key for s in setup.seats)
        first = self.sat_down()
        options = dict(track.game.options.to_dict())
        standing = track.standing()
        self.emit(
            ev.GameStarted(
                setup.game,
                names,
                keys,
                dealer,
                self.me,
                options,
                standing,
                continued,
                tuple(s.name for s in first),
                tuple(s.key for s in first),
            )
        )

    def begin_deal(self) -> None:
        self.emit(self.deals.begin(self.track, self.audit_every_pass))
        # A held table replays its own transcript: its passes are there already.
        self.round.deck.multiply_ahead = self.round.deck.local is not None and not self.held

    def carry_commitment(self, seat: int, commitment: bytes) -> None:
        """``seat``'s commitment for the next deal id, from its ``deal_end``."""
        self.deals.carry_commitment(seat, commitment)

    def upcoming_commitment(self) -> bytes:
        """The local seat's commitment for the next deal id (its secrets for that deal
        are made now, if ``prepare`` has not made them yet: the seed is drawn in the
        same order as ever, one per deal)."""
        return self.deals.upcoming_commitment()
