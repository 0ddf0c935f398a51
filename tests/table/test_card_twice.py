"""A locker that deals one card twice: every honest table reaches the same reveal, and
the audit proves the locker.

The first locker of a deal can copy a position: its lock of position ``dst`` is its
lock factor for ``dst`` times the point at ``src``, so ``dst`` opens to ``src``'s card
(and ``dst``'s own card is gone from the deck).  Before, when the first holder showed
the card, only the second holder (who held it too) noticed: it disputed by itself
and went to the reveal alone, the honest tables parted, the audit that would prove
the locker never ran, and the locker chose which honest seat a DISPUTED verdict
named.  Now the second holder goes on in the schedule like every table and shows
its copy in its next play (SPEC section 4.6): every table sees one card at two
positions at the same record, and they all go to the reveal together.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from p2pbelka.bots import make_bot
from p2pbelka.bots.common.seat import Question as BotQuestion
from p2pbelka.cards import CARDS, Card
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.rules.common.moves import Move
from p2pbelka.table import events as ev
from p2pbelka.table.moves import PlayCard
from p2pbelka.table.phase import Question
from p2pbelka.table.session import Table
from p2pbelka.table.state import TableState
from tests.audit import verify_bytes
from tests.table.helpers import faults_of, play_sync

TURNED = -1
"""The owner of Belot's turned card (nobody's, opened to all)."""

Pick = Callable[[tuple[int, ...], int], tuple[int, int]]
"""Given the deal's owners and the locker's seat: (src, dst), the position whose card
the locker copies and the position it copies it to."""


def copier(pick: Pick) -> type[TableState]:
    """A table that, the first time it locks first in a deal, copies one position
    (``copied``: the deal id, ``src`` and ``dst``)."""

    class CopiesACard(TableState):
        copied: tuple[int, int, int] | None = None

        def compose(self) -> m.Message | Question | None:
            msg = super().compose()
            deck = self.round.deck if self.deals.round is not None else None
            if not isinstance(msg, m.LockMsg) or deck is None or deck.locks:
                return msg
            assert deck.local is not None and self.me is not None
            src, dst = pick(deck.owners, self.me)
            points = list(msg.deck)
            factor = deck.local.secrets.lock_factors[dst]
            points[dst] = deck.ctx.group.mult(factor, deck.current()[src])
            self.copied = (self.deal_id, src, dst)
            return m.LockMsg(tuple(points), msg.input)

    return CopiesACard


def between_hands(first: int, second: int, nth: int = 0, mth: int = 0) -> Pick:
    """From the ``nth`` position of seat ``first`` to the ``mth`` other position of seat
    ``second`` (a seat may be ``TURNED``: Belot's turned card)."""

    def pick(owners: tuple[int, ...], me: int) -> tuple[int, int]:
        sources = [p for p, o in enumerate(owners) if o == first]
        src = sources[nth % len(sources)]
        targets = [p for p, o in enumerate(owners) if o == second and p != src]
        return src, targets[mth % len(targets)]

    return pick


def assert_locker_proven(tables: list[Table], events: list[list[ev.Event]], locker: int) -> bytes:
    """Every honest table stopped after the same last reveal, on a proven fault of the
    locker alone; the honest files are the same bytes, and verify says the same."""
    honest = [s for s in range(len(tables)) if s != locker]
    files = {dump_transcript(tables[s].view.transcript) for s in honest}
    assert len(files) == 1, "the honest transcripts differ"
    for seat in honest:
        table = tables[seat]
        assert table.state.aborted, f"seat {seat} did not end the game ({table.state.phase})"
        assert isinstance(table.view.transcript[-1].msg, m.RevealMsg)
        faults = faults_of(events[seat])
        assert faults and all(f.seat == locker for f in faults), faults
        assert any(f.fatal and f.proven and "lock check failed" in f.what for f in faults)
    data = files.pop()
    report = verify_bytes(data)
    assert report.error is None and report.proven, report.verdict
    assert {f.seat for f in report.faults} == {locker}, report.verdict
    return data


def noticed(events: list[ev.Event]) -> bool:
    return any(isinstance(e, ev.CardInTwoHands) for e in events)


def test_belka_a_card_in_two_honest_hands() -> None:
    # seat 2 locks first when seat 1 deals; it copies a card of seat 3's into seat 0's hand
    tables, events = play_sync(70, states={2: copier(between_hands(3, 0, 2, 5))}, give_up=True)
    assert_locker_proven(tables, events, 2)
    assert noticed(events[0]) or noticed(events[3])


@pytest.mark.parametrize("players", [2, 3])
def test_belot_the_turned_card_in_an_honest_hand(players: int) -> None:
    tables, events = play_sync(
        71,
        game_name="belot",
        players=players,
        states={1: copier(between_hands(TURNED, 0, 0, 1))},
        give_up=True,
    )
    assert_locker_proven(tables, events, 1)


def test_belot_a_card_in_two_honest_hands() -> None:
    tables, events = play_sync(
        72,
        game_name="belot",
        players=3,
        states={1: copier(between_hands(2, 0, 1, 2))},
        give_up=True,
    )
    assert_locker_proven(tables, events, 1)


def test_belot_two_a_card_of_the_lockers_own_in_the_honest_hand() -> None:
    tables, events = play_sync(
        73,
        game_name="belot",
        players=2,
        states={1: copier(between_hands(1, 0, 0, 0))},
        give_up=True,
    )
    assert_locker_proven(tables, events, 1)


def into_three_more(seat: int, source: str) -> Pick:
    """Into ``seat``'s first position of its three more: the turned card, or the card of
    its own first position (a card twice in one hand)."""

    def pick(owners: tuple[int, ...], me: int) -> tuple[int, int]:
        turned = owners.index(TURNED)
        mine = [p for p, o in enumerate(owners) if o == seat]
        extra = [p for p in mine if p > turned]
        return (turned if source == "turned" else mine[0]), extra[0]

    return pick


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("source", ["turned", "first six"])
def test_belot_a_card_not_new_in_the_three_more(players: int, source: str) -> None:
    """The three more of an honest seat open to the turned card, or to a card of its own
    first six: before, its table's rules engine refused the hand and the table crashed
    (``RuleViolation`` out of ``receive``); now it says ``unopened`` at its first card
    (SPEC section 8.1) and every table goes to the reveal."""
    for seed in range(74, 78):
        tables, events = play_sync(
            seed,
            game_name="belot",
            players=players,
            states={1: copier(into_three_more(0, source))},
            give_up=True,
        )
        assert_locker_proven(tables, events, 1)


def _anywhere(examples: int) -> Callable[..., None]:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        game=st.sampled_from([("belka", 4), ("belot", 3), ("belot", 2)]),
        locker=st.integers(0, 3),
        first=st.integers(-1, 3),
        second=st.integers(-1, 3),
        nth=st.integers(0, 12),
        mth=st.integers(0, 12),
        seed=st.integers(0, 10_000),
    )
    def anywhere(
        game: tuple[str, int], locker: int, first: int, second: int, nth: int, mth: int, seed: int
    ) -> None:
        """Any two positions of the honest seats, the turned card, or the locker's own
        hand (a card in two hands, or twice in one): the honest tables end together and
        the audit proves the locker."""
        name, players = game
        locker %= players
        seats = [TURNED, *range(players)] if name == "belot" else list(range(players))
        first, second = seats[first % len(seats)], seats[second % len(seats)]
        if first == second == TURNED:
            return
        tables, events = play_sync(
            seed,
            game_name=name,
            players=players,
            states={locker: copier(between_hands(first, second, nth, mth))},
            give_up=True,
        )
        assume(tables[locker].state.copied is not None)  # type: ignore[attr-defined]  (it locked first)
        assert_locker_proven(tables, events, locker)

    return anywhere


# a short run by default (the cases above are the named ones), a long one under -m slow
test_a_card_dealt_twice_anywhere = _anywhere(12)
test_a_card_dealt_twice_anywhere_long = pytest.mark.slow(_anywhere(100))


class KeepsBack:
    """A random bot that plays the card ``card()`` names only when it must."""

    def __init__(self, seed: int, card: Callable[[], Card | None]) -> None:
        self.inner, self.card = make_bot("random", seed), card

    def for_game(self, game: str) -> KeepsBack:
        self.game = game
        return self

    def choose(self, state: object, seat: int, question: BotQuestion) -> Move:
        kept = self.card()
        moves = tuple(mv for mv in question.moves if mv != PlayCard(kept)) if kept else ()
        if moves and len(moves) < len(question.moves):
            question = ev.ChoiceNeeded(question.kind, moves)
        return self.inner.for_game(self.game).choose(state, seat, question)


@pytest.mark.parametrize(
    ("game", "players", "hand", "found"), [("belka", 4, 8, 95), ("belot", 3, 9, 82)]
)
def test_the_copy_shown_as_the_last_card_of_the_deal(
    game: str, players: int, hand: int, found: int
) -> None:
    """Both holders keep the card to the end: the first plays it in the last trick, and
    the second's copy, shown by the last card of the deal, is disputed by every table;
    the deal reaches the reveal as it would anyway, and the audit proves the locker.

    ``found``: the first seed of the search that had the copy last, tried first (a deal
    of Belka for each seed before it); the search goes on if it no longer does."""
    locker, first, second = 1, 0, 2
    for seed in [found, *range(80, 120)]:
        local = LocalGame.seeded(seed, game=game, players=players)
        tables = local.make_tables()
        assert local.seed_sources is not None
        cheat = copier(between_hands(first, second, seed, seed // 3))
        source = local.seed_sources[locker]
        tables[locker] = Table(
            local.game_id, signer=local.signers[locker], seed_source=source, state=cheat
        )

        def copied(tables: list[Table] = tables) -> Card | None:
            done = tables[locker].state.copied  # type: ignore[attr-defined]
            owner = tables[first].state.deals.round
            if done is None or owner is None or owner.deal_id != done[0]:
                return None
            card = owner.my_hand.get(done[1])
            return None if card is None else CARDS[card]

        bots = [KeepsBack(seed * 10 + s, copied) for s in range(players)]
        events = run_sync(tables, bots, give_up=True)
        assert_locker_proven(tables, events, locker)
        rnd = tables[first].state.deals.round
        assert rnd is not None
        if len(rnd.played) == players * hand and rnd.disputes:
            return  # the last card of the deal was the copy
    pytest.fail("no seed had the copy as the last card of the deal")
