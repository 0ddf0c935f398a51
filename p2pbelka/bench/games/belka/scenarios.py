"""Game-protocol vectors for what the first deal never reaches: re-deals, the eggs
choice, seat suits, the eyes count, the ace rule, and deals that end PROVEN or
DISPUTED, or PROVEN after a dispute.

``python -m p2pbelka.bench.games.belka.scenarios DIR`` writes ``DIR/scenarios/NAME.p2pb`` and
``NAME.json`` for each scenario below: a seeded game between random bots, cut
after the deal that shows the case (for the endings, the whole transcript of an
honest seat: seat 0's, the victim of the last one).  Each JSON gives the seed, the
rules, every record's hash and what ``verify`` says (verdict, faults, the audited
deals), as in
``first-deal.json`` (protocol/SPEC.md section 5.2).  The seeds were found once
by search and are fixed here, so the bytes are reproducible.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from p2pbelka.bench.vectors import record_rows
from p2pbelka.bots.belka.base import RandomBot
from p2pbelka.bots.belka.seat import BelkaSeatBot
from p2pbelka.bots.common.seat import Bot, as_bot
from p2pbelka.fairdeal.versions import remembering as remembering_products
from p2pbelka.peer.local import LocalGame
from p2pbelka.peer.sync import Deliver, Fork, Tamper, resign, run_sync
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Envelope, Signer, open_envelope, remembering
from p2pbelka.protocol.transcript import dump_transcript
from p2pbelka.rules.belka.game import GameState
from p2pbelka.rules.belka.summary import BelkaSummary
from p2pbelka.table import events as ev
from p2pbelka.table.games.belka import events as belka_ev
from p2pbelka.table.session import Table
from p2pbelka.table.verify import verify_bytes

CHEATER = 2
FAIRDEAL = 1
"""The scenarios are dealt with fair-deal version 1 (the first-deal vector uses the
current version), so both versions stay covered by vectors."""


class ClaimsEveryRedeal(RandomBot):
    """A random player that always asks for a re-deal when its hand allows one."""

    def claim_redeal(self, game: GameState, seat: int) -> bool:
        return True


Done = Callable[[list[ev.Event]], bool]
"""Given seat 0's events so far: does the last deal show the case?"""


@dataclass
class Scenario:
    name: str
    seed: int
    what: str
    done: Done
    preset: str = "classic"
    options: dict[str, str] = field(default_factory=dict)
    bot: type[RandomBot] = RandomBot
    cheat: str | None = None  # "equivocate", "lie" or "dispute"


def _audited(events: list[ev.Event]) -> list[BelkaSummary]:
    """The summaries of the deals audited (these scenarios are Belka's)."""
    return [
        e.summary
        for e in events
        if isinstance(e, ev.DealAudited) and isinstance(e.summary, BelkaSummary)
    ]


def _played(events: list[ev.Event]) -> list[BelkaSummary]:
    return [s for s in _audited(events) if s.redeal_claim is None]


def _played_after_three_redeals(summaries: list[BelkaSummary]) -> bool:
    charged = [i for i, s in enumerate(summaries) if "three re-deals" in " ".join(s.notes)]
    return bool(charged) and any(s.redeal_claim is None for s in summaries[charged[0] + 1 :])


SCENARIOS = [
    Scenario(
        "redeal",
        0,
        "a re-deal claimed (the claimant's hand opened to all), then the same dealer deals",
        lambda evs: any(s.redeal_claim is not None for s in _audited(evs)),
        bot=ClaimsEveryRedeal,
    ),
    Scenario(
        "three-redeals",
        10,
        "three re-deals in a row: the classic point to the team not dealing, then the"
        " same dealer deals a deal that is played",
        lambda evs: _played_after_three_redeals(_audited(evs)),
        bot=ClaimsEveryRedeal,
    ),
    Scenario(
        "eggs-choice",
        1,
        "60:60, then the winners of the next deal choose plus4 or the title",
        lambda evs: any(isinstance(e, belka_ev.EggsChosen) for e in evs),
    ),
    Scenario(
        "seat-suits",
        5,
        "the second played deal: the trump is the J♣ holder's seat suit",
        lambda evs: len(_played(evs)) >= 2,
    ),
    Scenario(
        "eyes",
        6,
        "the eyes count (preset eyes): a played deal scored in eyes",
        lambda evs: len(_played(evs)) >= 1,
        preset="eyes",
    ),
    Scenario(
        "ace-rule",
        7,
        "option no_unled_ace_discard=on: a deal played under the ace rule",
        lambda evs: len(_played(evs)) >= 1,
        options={"no_unled_ace_discard": "on"},
    ),
    Scenario(
        "proven",
        8,
        f"seat {CHEATER} sends seat 3 another copy of its shares: the two signed copies meet,"
        " and the deal ends CHEATING PROVEN with an evidence record",
        lambda evs: False,
        cheat="equivocate",
    ),
    Scenario(
        "disputed",
        9,
        f"seat {CHEATER}'s deal_end carries a view of seat 1's chain that no envelope backs:"
        " the deal ends DISPUTED with a dispute record",
        lambda evs: False,
        cheat="lie",
    ),
    Scenario(
        "dispute-proven",
        10,
        f"seat {CHEATER} sends seat 0 a dispute naming seat 1 where the others get its"
        " shares: seat 0 ends DISPUTED on it and passes it on, the others hold two"
        " envelopes for one place, and what they send back makes seat 0's ending"
        " CHEATING PROVEN after the end, with a proof record and an evidence record",
        lambda evs: False,
        cheat="dispute",
    ),
]


def _network(game: LocalGame, cheat: str | None) -> tuple[Tamper | None, Deliver | None]:
    signer = game.signers[CHEATER]
    if cheat == "equivocate":

        def other_shares(envelope: Envelope) -> m.Message | None:
            if not isinstance(envelope.msg, m.SharesMsg):
                return None
            return m.SharesMsg(tuple(reversed(envelope.msg.shares)))

        return None, Fork(signer, CHEATER, 3, other_shares)
    if cheat == "lie":
        lies: dict[bytes, bytes] = {}

        def lie(seat: int, raw: bytes) -> list[bytes]:
            envelope = open_envelope(raw)
            mine = envelope.sender == signer.public_key  # not another's it passes on
            if seat != CHEATER or not mine or not isinstance(envelope.msg, m.DealEndMsg):
                return [raw]
            view = list(envelope.view)
            view[1] = (view[1][0], bytes(32 * [7]))
            lies[raw] = resign(signer, envelope, view=tuple(view))
            return [lies[raw]]

        def only_the_lie(source: int, dest: int, raw: bytes) -> bytes | None:
            # Asked again for it, the liar shows the same lie, never its own copy, and
            # after it says nothing more (its own table's later envelopes follow the
            # copy it kept).
            if source != CHEATER:
                return raw
            envelope = open_envelope(raw)
            told = [open_envelope(lie).seq for lie in lies.values()]
            if envelope.sender == signer.public_key and told and envelope.seq > max(told):
                return None
            return lies.get(raw, raw)

        return lie, only_the_lie
    if cheat == "dispute":
        return None, _dispute_for_seat_0(signer)
    return None, None


def _dispute_for_seat_0(signer: Signer) -> Deliver:
    """The cheater's first shares reach seat 0 as a dispute naming seat 1 (an honest
    seat), the others as they are."""
    twins: dict[int, bytes] = {}

    def deliver(source: int, dest: int, raw: bytes) -> bytes | None:
        if source != CHEATER or dest != 0:
            return raw
        envelope = open_envelope(raw)
        if envelope.sender != signer.public_key or not isinstance(envelope.msg, m.SharesMsg):
            return raw
        if not twins or envelope.seq in twins:
            why = "seat 1 sent nothing"
            twins.setdefault(envelope.seq, resign(signer, envelope, msg=m.DisputeMsg((1,), why)))
            return twins[envelope.seq]
        return raw

    return deliver


def play(scenario: Scenario, seed: int) -> tuple[list[Table], list[Envelope]] | None:
    """Play ``scenario`` with ``seed``; the tables and seat 0's transcript, cut after
    the deal that shows the case, or None if the game never shows it."""
    game = LocalGame.seeded(seed, scenario.preset, scenario.options, fairdeal=FAIRDEAL)
    tables = game.make_tables()
    bots: list[Bot] = [as_bot(BelkaSeatBot(scenario.bot(seed * 10 + s))) for s in range(4)]
    tamper, deliver = _network(game, scenario.cheat)
    target: list[int] = []

    def stop(events: list[list[ev.Event]]) -> bool:
        if not target and scenario.done(events[0]):
            target.append(tables[0].state.deal_id)
        return bool(target) and (tables[0].state.deal_id > target[0] or tables[0].finished)

    until = None if scenario.cheat else stop
    run_sync(tables, bots, tamper=tamper, deliver=deliver, give_up=True, until=until)
    transcript = list(tables[0].view.transcript)
    if scenario.cheat:
        return tables, transcript
    if not target:
        return None
    last = max(i for i, e in enumerate(transcript) if e.deal == target[0])
    return tables, transcript[: last + 1]


def describe(
    scenario: Scenario,
    seed: int,
    envelopes: list[Envelope],
    rows: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The JSON of a scenario's file; ``rows`` its records, if not those of
    ``record_rows`` (seats numbered in the first segment's ``table``)."""
    data = dump_transcript(envelopes)
    report = verify_bytes(data)
    setup = envelopes[0].msg
    assert isinstance(setup, m.TableMsg)
    seats = [s.key for s in setup.seats]
    return {
        "about": f"p2pbelka game-protocol scenario vector: {scenario.what}."
        " Fields as in first-deal.json (protocol/SPEC.md section 5.2). Bytes are hex.",
        "seed": seed,
        "preset": scenario.preset,
        "options": scenario.options,
        "game_id": envelopes[0].game.hex(),
        "seat_keys": [k.hex() for k in seats],
        "transcript_sha256": hashlib.sha256(data).hexdigest(),
        "transcript_bytes": len(data),
        "records": rows if rows is not None else record_rows(envelopes, seats),
        "verify": {
            "verdict": report.verdict.split(":", 1)[0],
            "records": report.records,
            "faults": [
                {"seat": f.seat, "what": f.what, "proven": f.proven, "fatal": f.fatal}
                for f in report.faults
            ],
        },
        "deals": [deal.to_json() for deal in report.deals],
    }


def generate(scenario: Scenario) -> tuple[bytes, dict[str, Any]]:
    # every seat in this process, then verify: each envelope opened once, each product
    # computed once
    with remembering(), remembering_products():
        played = play(scenario, scenario.seed)
        if played is None:
            raise RuntimeError(f"seed {scenario.seed} does not show {scenario.name}")
        _tables, envelopes = played
        return dump_transcript(envelopes), describe(scenario, scenario.seed, envelopes)


def search(scenario: Scenario, seeds: range) -> int | None:
    """The first seed that shows ``scenario`` (how the seeds above were found)."""
    for seed in seeds:
        if play(scenario, seed) is not None:
            return seed
    return None


def main(argv: list[str]) -> int:
    return write_scenarios(argv, SCENARIOS, generate)


class _Named(Protocol):
    @property
    def name(self) -> str: ...


S = TypeVar("S", bound=_Named)


def write_scenarios(
    argv: list[str],
    scenarios: Sequence[S],
    make: Callable[[S], tuple[bytes, dict[str, Any]]],
) -> int:
    """Write each scenario's ``.p2pb`` and ``.json`` under ``argv[0]``/scenarios (by
    default the repository's protocol/vectors): the command line of each generator."""
    out = (Path(argv[0]) if argv else Path("protocol/vectors")) / "scenarios"
    out.mkdir(parents=True, exist_ok=True)
    for scenario in scenarios:
        data, description = make(scenario)
        (out / f"{scenario.name}.p2pb").write_bytes(data)
        text = json.dumps(description, indent=1, ensure_ascii=False, default=str)
        (out / f"{scenario.name}.json").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
