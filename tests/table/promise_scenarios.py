"""Scenarios of the promise property, drawn by hypothesis: what the cheaters do, at
which table, with which power cut and seat change (``promise.Scenario``)."""

from __future__ import annotations

from hypothesis import strategies as st

from tests.table.promise import Change, Cut, Kind, Scenario
from tests.table.promise_cheats import ATTACKS, RESENDS, Attack, Conduct

WHATS = (*ATTACKS, "reuse_game_id", "reuse_segment_id", "network")
"""What a scenario's cheating is about (a test per kind; see ``scenarios``): an attack
of ``promise_cheats.ATTACKS``; ``reuse_game_id`` the second game opened by a cheating
host under the first one's id, the victims' old envelopes replayed in it;
``reuse_segment_id`` a cheating proposer's continuation in the second game under the
first game's id, the same replay after it; ``network`` no lie, only the network's
and the coalition's conduct."""

SHORT_GAMES = {"Belka-4": (16, 24, 27, 37), "Belot-3": (41, 46, 29), "Belot-2": (59, 31, 47)}
"""Seeds whose first game is among the shortest (Belka's can end after one deal)."""

_ATTACK_OF = {
    "reuse_game_id": "replay_game1",
    "reuse_segment_id": "replay_game1",
}
_TWO_GAMES = ("replay_game1", "reuse_game_id", "reuse_segment_id")


@st.composite
def scenarios(
    draw: st.DrawFn,
    kind: Kind,
    what: str,
    *,
    short: bool = False,
    cut: bool | None = None,
    change: bool | None = None,
) -> Scenario:
    """A scenario of ``kind`` whose cheating is ``what`` (one of ``WHATS``).

    ``cut``/``change``: always, never, or (None) maybe a power cut / a seat change.
    ``short`` keeps it quick (the default suite): one game unless the cheating needs
    the second, the first then ended early by a cheater caught equivocating; the
    attack, the cut and the change early in their game."""
    n = kind.players
    seeds = st.sampled_from(SHORT_GAMES[str(kind)]) if short else st.integers(0, 5_000)
    seed = draw(seeds, label="seed")
    if what in ("reuse_game_id", "reuse_segment_id"):
        # the second game's host (seat 0), or the lowest remaining seat, cheats
        cheaters = frozenset(range(n - 1)) if n > 2 else frozenset({0})
    elif n == 2 or draw(st.booleans(), label="coalition of all but one?"):
        honest_seat = draw(st.integers(0, n - 1), label="the honest seat")
        cheaters = frozenset(s for s in range(n) if s != honest_seat)
    else:
        cheaters = frozenset({draw(st.integers(0, n - 1), label="the cheater")})
    honest = [s for s in range(n) if s not in cheaters]
    two = what in _TWO_GAMES or not short
    attacks: list[Attack] = []
    attack_kind = _ATTACK_OF.get(what, what)
    if attack_kind in ATTACKS:
        game = 1 if attack_kind == "replay_game1" else 0
        if two and attack_kind != "replay_game1":
            game = draw(st.integers(0, 1), label="game")
        liar = 0 if what == "reuse_segment_id" else draw(st.sampled_from(sorted(cheaters)))
        far = st.integers(0, 40) if short else st.one_of(st.integers(0, 40), st.integers(0, 250))
        at = draw(far, label="at")
        if attack_kind == "fork_move":
            at %= 12
        if liar == 0 and at == 0 and attack_kind in ("ending_split", "refused_first"):
            at = 1  # not the table envelope: a table without one judges nothing
        if what == "reuse_segment_id":
            at += 60  # after the change
        victims = tuple(sorted(draw(st.sets(st.sampled_from(honest), min_size=1), label="victims")))
        third = [s for s in range(n) if s != liar and s not in victims]
        if attack_kind == "lie_view" and not third:
            attack_kind = "lie_own_view"  # two seats: the only other chain is the victim's
        target = draw(st.sampled_from(third or [s for s in range(n) if s != liar]), label="target")
        variant = draw(st.integers(0, 1), label="variant")
        attacks.append(Attack(attack_kind, game, liar, at, victims, target, variant))
    if two and short and not any(a.game == 0 for a in attacks):
        # the first game ends early: a cheater caught equivocating in it
        liar = min(cheaters)
        early = draw(st.integers(0, 20), label="early")
        attacks.append(Attack("fork_body", 0, liar, early, tuple(honest)))
    conduct = Conduct(
        draw(st.sampled_from(RESENDS), label="resend"),
        draw(st.sampled_from([0.0, 0.0, 0.1, 0.3]), label="delay"),
    )
    games = 2 if two else 1
    cut_plan = None
    resent = attack_kind in ("withhold_own", "fork_on_resend")
    if resent or (cut if cut is not None else draw(st.booleans())):
        main = next((a for a in attacks if a.kind == attack_kind), None)
        cut_plan = Cut(
            main.game if main else draw(st.integers(0, games - 1), label="cut game"),
            draw(st.sampled_from(main.victims if resent and main else honest), label="cut seat"),
            draw(st.integers(0, 300 if short else 1200), label="cut tick"),
            draw(st.sampled_from([0, 0, 5, 40]), label="down"),
        )
    change_plan = None
    if n > 2 and (
        what == "reuse_segment_id" or (change if change is not None else draw(st.booleans()))
    ):
        reuse = what == "reuse_segment_id"
        change_plan = Change(
            1 if reuse else draw(st.integers(0, games - 1), label="change game"),
            1 if reuse else draw(st.integers(0, n - 1), label="lost seat"),
            draw(st.integers(60, 400 if short else 900), label="change tick"),
            "game1" if reuse else "",
            draw(st.booleans(), label="back"),
        )
    return Scenario(
        kind,
        seed,
        cheaters,
        tuple(attacks),
        conduct,
        cut_plan,
        change_plan,
        reuse_game_id=what == "reuse_game_id",
        schedule=draw(st.integers(0, 2**32 - 1), label="schedule"),
        games=games,
        quit=500 if short and what in QUICK else None,
    )


QUICK = ("fork_body", "fork_view", "withhold_own", "replay_game1", "network")
"""What a short scenario (``quit``) may cut short: nothing in it needs the game's end."""
