"""The cheaters of the promise property: one seat, or a coalition of all seats but one.

Each cheating seat runs the real ``Table`` with a bot (so its true chain is an
honest seat's), and everything it sends goes through the ``Coalition``, which
decides per recipient what actually goes out.  The *victims* of an attack are
shown a second chain (a *world* of their own): from the attacked place on, each
of the liar's envelopes re-chained and signed again, and every coalition seat's
view re-mapped to the second chains, so nothing is wrong on its face (the
coalition's lies back each other).  What an attack changes at its place:

- ``fork_body``: another body (a different pass, share, commitment...; a view
  change where the message has no field to change);
- ``fork_move``: another legal move at one of the liar's choices (another card, bid
  or call: the game itself goes another way, perhaps to another seat's turn);
- ``fork_view``: the same message with another, plausible view (one chain seen an
  envelope shorter);
- ``lie_view``: a view giving a third seat's chain (``target``, neither the liar's
  nor a victim's) a hash nobody signed;
- ``lie_own_view``: each victim is told a false hash for its *own* last envelope
  (a world per victim);
- ``overcount_view``: a view claiming one envelope more of ``target``'s chain than
  came before the liar's in the schedule;
- ``ending_split``: a ``dispute`` (or an ``evidence`` that proves nothing) at that
  place for the victims, the normal envelope for the others;
- ``fork_final``: another version of the liar's ``deal_end`` of the game's last deal;
- ``withhold_final``: that ``deal_end`` never reaches the victims from the liar;
- ``fork_close``: another version of the liar's ``close`` (flow 3: its last envelope
  of the game), with an older view (``variant`` 1: a view lying about a chain);
- ``replay_game1``: the envelopes the coalition holds from the first game and the
  earlier segments (the victims' own among them) sent again into the second game,
  at that point;
- ``withhold_own``: a resend request from a victim gets nothing of its own chain
  back (what it signed before a power cut stays away);
- ``fork_on_resend``: the same, and the liar's envelopes the victim asks for come
  back in a second version (after a power cut: its lost inputs, changed);
- ``refused_first``: just before the normal envelope, the victims get a second one
  for the same place that their tables refuse (it names the next deal), so only
  one of the two is ever kept.

How the coalition answers resend requests and delays its envelopes is its
``Conduct``; a victim may be shown the other world's version that way, which is
an equivocation that reached it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from p2pbelka.fairdeal import FAIRDEAL_VERSION, group_for
from p2pbelka.peer.sync import resign
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import ZERO_HASH, Envelope, Signer
from p2pbelka.table import events as ev
from p2pbelka.table.session import Table
from tests.table.promise_net import answer_resend, is_final_deal_end, opened

FORKS = (
    "fork_body",
    "fork_move",
    "fork_view",
    "lie_view",
    "lie_own_view",
    "overcount_view",
    "ending_split",
    "refused_first",
)
FINALS = ("fork_final", "withhold_final", "fork_close")
ATTACKS = (*FORKS, *FINALS, "withhold_own", "fork_on_resend", "replay_game1")
RESENDS = ("honest", "mine", "other")

GROUP = group_for(FAIRDEAL_VERSION)
SCALAR = GROUP.scalar_from_64(bytes(range(7, 71)))
FAKE = bytes(32 * [0x5A])


@dataclass(frozen=True)
class Attack:
    kind: str
    game: int
    """The game it happens in (0: the first, 1: the second)."""
    liar: int
    at: int
    """Which of the liar's envelopes in that game (its choices, for ``fork_move``)."""
    victims: tuple[int, ...]
    target: int = 0
    """``lie_view``: whose chain the view lies about (a seat other than the liar)."""
    variant: int = 0


@dataclass(frozen=True)
class Conduct:
    resend: str = "mine"
    """Resend answers: ``honest`` (the true chain to all), ``mine`` (each recipient's own
    world), ``other`` (the other world's: the equivocation reaches the asker)."""
    delay: float = 0.0
    """How often an envelope to an honest seat is held back until the network is quiet."""


@dataclass
class Coalition:
    seats: frozenset[int]
    signers: dict[int, Signer]
    conduct: Conduct
    rng: random.Random
    n_seats: int
    attack: Attack | None = None
    game: int = 0
    old: list[Envelope] = field(default_factory=list)
    """Every envelope the coalition saw in the games and segments before this one."""
    true: dict[int, dict[int, Envelope]] = field(default_factory=dict)
    twins: dict[int, dict[int, dict[int, Envelope]]] = field(default_factory=dict)
    forks: dict[tuple[int, int], int] = field(default_factory=dict)
    changes: dict[tuple[int, int], tuple[m.Message, tuple[tuple[int, bytes], ...]]] = field(
        default_factory=dict
    )
    ended: set[tuple[int, int]] = field(default_factory=set)
    withheld: set[tuple[int, int, int]] = field(default_factory=set)
    """(recipient, seat, seq) that must not reach it."""
    counts: dict[int, int] = field(default_factory=dict)
    choices: dict[int, list[tuple[int, list[m.Message]]]] = field(default_factory=dict)
    """Per cheating seat: (its seq, other legal messages) at each choice it made."""
    held_back: list[tuple[int, int, bytes]] = field(default_factory=list)
    fired: bool = False
    seen: list[Envelope] = field(default_factory=list)

    # -- per game and segment --------------------------------------------------------------

    def new_segment(self, signers: dict[int, Signer]) -> None:
        """A seat change (or a new game): the chains start over under a new id (what
        the coalition saw so far it may replay into the next)."""
        self.old += self.seen
        self.seen = []
        self.signers = signers
        self.true.clear()
        self.twins.clear()
        self.forks.clear()
        self.changes.clear()
        self.ended.clear()
        self.withheld.clear()
        self.choices.clear()
        self.held_back.clear()

    def new_game(self, game: int, attack: Attack | None, signers: dict[int, Signer]) -> None:
        self.game, self.attack = game, attack
        self.fired = False
        self.counts.clear()
        self.new_segment(signers)

    def keys(self) -> set[bytes]:
        return {s.public_key for s in self.signers.values()}

    def owner(self, key: bytes) -> int:
        """The coalition seat whose key ``key`` is."""
        return next(s for s, signer in self.signers.items() if signer.public_key == key)

    def world(self, dest: int) -> int:
        """Which chains ``dest`` is shown: 0 the true ones; a victim its attack's."""
        attack = self.attack
        if attack is None or dest not in attack.victims or dest in self.seats:
            return 0
        return dest + 1 if attack.kind == "lie_own_view" else 1

    def worlds(self) -> set[int]:
        attack = self.attack
        if attack is None:
            return set()
        return {self.world(d) for d in attack.victims} - {0}

    # -- a cheater's choices -------------------------------------------------------------

    def choose(self, seat: int, table: Table, question: ev.ChoiceNeeded, move: Any) -> None:
        """Note the other legal messages at ``seat``'s choice (before it signs ``move``)."""
        state = table.state  # the test plays this seat, so it may look inside
        schedule = state.schedule
        assert schedule is not None
        others = []
        for other in question.moves:
            if other == move:
                continue
            try:
                others.append(schedule.moves[type(other)](state, other))
            except Exception:  # a move a message cannot be made of here: no fork with it
                continue
        if others:
            self.choices.setdefault(seat, []).append((table._own.seq, others))

    # -- what goes out -------------------------------------------------------------------

    def route(self, seat: int, raw: bytes, table: Table) -> list[tuple[int, bytes]]:
        """What cheating ``seat`` sends of ``raw`` (its table's own), per recipient."""
        others = [d for d in range(self.n_seats) if d != seat]
        envelope = opened(raw)
        if envelope is None or envelope.sender != self.signers[seat].public_key:
            return [(d, raw) for d in others]  # a relay of someone else's: as it is
        self.seen.append(envelope)
        self.true.setdefault(seat, {})[envelope.seq] = envelope
        k = self.counts.get(seat, 0)
        self.counts[seat] = k + 1
        before, extra = self._maybe_fire(seat, k, envelope, table)
        out: list[tuple[int, bytes]] = list(before)
        for dest in others:
            if dest in self.seats:
                out.append((dest, raw))
                continue
            version = self.version(self.world(dest), seat, envelope, dest)
            if version is None:
                continue
            if self.conduct.delay and self.rng.random() < self.conduct.delay:
                self.held_back.append((seat, dest, version.raw))
                continue
            out.append((dest, version.raw))
        return out + extra

    def release(self) -> list[tuple[int, int, bytes]]:
        """What was held back, now (the network was quiet)."""
        out, self.held_back = self.held_back, []
        return out

    def _maybe_fire(
        self, seat: int, k: int, envelope: Envelope, table: Table
    ) -> tuple[list[tuple[int, bytes]], list[tuple[int, bytes]]]:
        """Start the attack if its place has come: what goes out before and after
        the envelope's own routing."""
        attack = self.attack
        if attack is None or self.fired or attack.liar != seat:
            return [], []
        kind = attack.kind
        if kind == "fork_close":
            if not isinstance(envelope.msg, m.CloseMsg):
                return [], []
        elif kind in FINALS:
            if not is_final_deal_end(table, envelope):
                return [], []
        elif kind == "fork_move":
            made = self.choices.get(seat, [])
            if not made or made[-1][0] != envelope.seq or len(made) <= attack.at:
                return [], []
        elif kind in ("withhold_own", "fork_on_resend"):
            return [], []  # in the resend answers
        elif k != attack.at:
            return [], []
        self.fired = True
        if kind == "replay_game1":
            # The honest seats' old envelopes (variant 1: the coalition's too, which
            # only incriminate it where they count again).
            keys = self.keys()
            old = [e for e in self.old if attack.variant == 1 or e.sender not in keys]
            return [], [(d, e.raw) for d in attack.victims for e in old]
        if kind == "refused_first":
            refused = resign(self.signers[seat], envelope, deal=envelope.deal + 1)
            return [(d, refused) for d in attack.victims], []
        for world in self.worlds():
            if kind == "withhold_final":
                for dest in attack.victims:
                    self.withheld.add((dest, seat, envelope.seq))
                continue
            change = self._change(world, seat, envelope, table)
            if change is not None:
                self.forks[(world, seat)] = envelope.seq
                self.changes[(world, seat)] = change
        return [], []

    def version(self, world: int, seat: int, envelope: Envelope, dest: int) -> Envelope | None:
        """``seat``'s ``envelope`` as ``world`` is shown it (None: nothing goes)."""
        if (dest, seat, envelope.seq) in self.withheld:
            return None
        if world == 0:
            return envelope
        if (world, seat) in self.ended and envelope.seq > self.forks[(world, seat)]:
            return None
        twins = self.twins.setdefault(world, {}).setdefault(seat, {})
        if envelope.seq in twins:
            return twins[envelope.seq]
        fork = self.forks.get((world, seat))
        msg, view = envelope.msg, list(envelope.view)
        prev = envelope.prev
        if fork is not None and envelope.seq >= fork:
            before = twins.get(envelope.seq - 1)
            prev = before.digest if before is not None else envelope.prev
        for other in self.seats:
            if other >= len(view) or other == seat:
                continue
            count, _ = view[other]
            theirs = self.twins.get(world, {}).get(other, {}).get(count - 1)
            if theirs is not None:
                view[other] = (count, theirs.digest)
        if view and seat < len(view):
            view[seat] = (envelope.seq, prev)
        if fork == envelope.seq:
            msg, changed = self.changes[(world, seat)]
            # the attack's own change wins over the re-mapping
            pairs = zip(changed, envelope.view, view, strict=True)
            view = [mine if mine != was else mapped for mine, was, mapped in pairs]
            if isinstance(msg, m.EvidenceMsg | m.DisputeMsg):
                self.ended.add((world, seat))
        new_view = tuple(view)
        if msg == envelope.msg and new_view == envelope.view and prev == envelope.prev:
            return envelope
        twin = opened(resign(self.signers[seat], envelope, msg=msg, view=new_view, prev=prev))
        assert twin is not None
        twins[envelope.seq] = twin
        return twin

    def _change(
        self, world: int, seat: int, envelope: Envelope, table: Table
    ) -> tuple[m.Message, tuple[tuple[int, bytes], ...]] | None:
        """The message and view ``world`` gets at the attacked place instead."""
        attack = self.attack
        assert attack is not None
        view = list(envelope.view)
        kind = attack.kind
        if kind == "fork_move":
            alternatives = dict(self.choices.get(seat, [])).get(envelope.seq) or []
            if not alternatives:
                return None
            return self.rng.choice(alternatives), envelope.view
        if kind in ("fork_body", "fork_final", "fork_on_resend"):
            msg = other_message(envelope.msg)
            if msg is not None:
                return msg, envelope.view
            return envelope.msg, older_view(table, envelope, seat) or lying_view(envelope, seat)
        if kind == "fork_close" and attack.variant == 1:
            return envelope.msg, lying_view(envelope, seat)
        if kind in ("fork_view", "fork_close"):
            return envelope.msg, older_view(table, envelope, seat) or lying_view(envelope, seat)
        if kind in ("lie_view", "overcount_view"):
            target = attack.target if attack.target != seat else (seat + 1) % self.n_seats
            if target >= len(view):
                return None
            count, _ = view[target]
            view[target] = (count + (kind == "overcount_view"), FAKE)
            return envelope.msg, tuple(view)
        if kind == "lie_own_view":
            dest = world - 1
            if dest >= len(view):
                return None
            count, _ = view[dest]
            view[dest] = (count, FAKE)
            return envelope.msg, tuple(view)
        if kind == "ending_split":
            honest = [s for s in range(self.n_seats) if s not in self.seats]
            if attack.variant == 1 and self.true.get(seat):
                mine = next(iter(self.true[seat].values()))
                return m.EvidenceMsg(mine.raw, mine.raw), envelope.view
            return m.DisputeMsg(tuple(honest[:1] or [seat]), "went silent"), envelope.view
        return None

    # -- resend requests -----------------------------------------------------------------------

    def answer(self, seat: int, table: Table, asker: int, wants: list[int]) -> list[bytes]:
        """Cheating ``seat``'s answer to ``asker``'s resend request."""
        attack = self.attack
        asker_key = None
        setup = table.state.setup
        if setup is not None and asker < len(setup.seats):
            asker_key = setup.seats[asker].key
        out: list[bytes] = []
        keys = self.keys()
        victim = attack is not None and asker in attack.victims
        if victim and attack is not None and attack.kind == "fork_on_resend":
            self._fork_at_resend(attack, table, asker, wants)
        for raw in answer_resend(table, asker, wants):
            envelope = opened(raw)
            if envelope is None:
                continue
            if (
                victim
                and attack is not None
                and attack.kind in ("withhold_own", "fork_on_resend")
                and envelope.sender == asker_key
            ):
                continue
            if envelope.sender not in keys or asker in self.seats:
                out.append(raw)
                continue
            owner = self.owner(envelope.sender)
            world = self.world(asker)
            if self.conduct.resend == "honest":
                world = 0
            elif self.conduct.resend == "other":
                world = self._other_world(world)
            version = self.version(world, owner, envelope, asker)
            if version is not None:
                out.append(version.raw)
        return out

    def _fork_at_resend(self, attack: Attack, table: Table, asker: int, wants: list[int]) -> None:
        """The liar's chain forks, for the asker's world, at the first envelope it lacks."""
        liar = attack.liar
        if self.fired or liar >= len(wants) or liar not in self.seats:
            return
        envelope = self.true.get(liar, {}).get(wants[liar])
        if envelope is None:
            return
        world = self.world(asker)
        change = self._change(world, liar, envelope, table)
        if change is not None:
            self.fired = True
            self.forks[(world, liar)] = envelope.seq
            self.changes[(world, liar)] = change

    def _other_world(self, world: int) -> int:
        if world != 0:
            return 0
        worlds = sorted(self.worlds())
        return worlds[0] if worlds else 0

    def accepts(self, raw: bytes) -> bool:
        """What a cheating seat's own table takes: anything but the coalition's second
        chains (its table plays on the true ones)."""
        envelope = opened(raw)
        if envelope is None or envelope.sender not in self.keys():
            return True
        true = self.true.get(self.owner(envelope.sender), {}).get(envelope.seq)
        return true is None or true.digest == envelope.digest


def other_message(msg: m.Message) -> m.Message | None:
    """A well-formed message of the same kind that says something else (None: it has
    nothing to change)."""
    if isinstance(msg, m.ShuffleMsg | m.LockMsg):
        deck = list(msg.deck)
        deck[0], deck[-1] = deck[-1], deck[0]
        return type(msg)(tuple(deck), msg.input)
    if isinstance(msg, m.SharesMsg) and msg.shares:
        first = msg.shares[0]
        return m.SharesMsg((m.Opening(first.pos, SCALAR), *msg.shares[1:]))
    if isinstance(msg, m.TrumpMsg):
        return m.TrumpMsg(msg.jack, not msg.hand_ok)
    if isinstance(msg, m.TurnedMsg):
        return m.TurnedMsg(msg.share, not msg.hand_ok)
    if isinstance(msg, m.CommitMsg | m.LotCommitMsg | m.SitMsg | m.LotRevealMsg | m.RevealMsg):
        return type(msg)(FAKE)
    if isinstance(msg, m.PlayMsg):
        return m.PlayMsg(msg.pos, SCALAR)
    if isinstance(msg, m.DealEndMsg) and msg.c is not None:
        return m.DealEndMsg(FAKE)
    if isinstance(msg, m.ChoiceMsg):
        return m.ChoiceMsg("title" if msg.eggs != "title" else "plus4")
    if isinstance(msg, m.BidMsg):
        return m.BidMsg("pass" if msg.call != "pass" else "play")
    return None


def older_view(table: Table, envelope: Envelope, seat: int) -> tuple[tuple[int, bytes], ...] | None:
    """``envelope``'s view with one other chain seen an envelope shorter: what the
    sender had signed had it sent a moment earlier (a second version nothing shows
    is false)."""
    view = list(envelope.view)
    for other in range(len(view)):
        count, _ = view[other]
        if other == seat or count == 0:
            continue
        if count == 1:
            view[other] = (0, ZERO_HASH)
            return tuple(view)
        earlier = table.view.envelopes_from(other, count - 2, limit=1)
        if earlier:
            before = opened(earlier[0])
            if before is not None and before.seq == count - 2:
                view[other] = (count - 1, before.digest)
                return tuple(view)
    return None


def lying_view(envelope: Envelope, seat: int) -> tuple[tuple[int, bytes], ...]:
    view = list(envelope.view)
    for other in range(len(view)):
        if other != seat:
            view[other] = (view[other][0], FAKE)
            break
    return tuple(view)
