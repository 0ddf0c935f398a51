"""Exchange vectors of the lobby and the watchers' door (protocol/SPEC.md sections 7.2
and 7.5): a whole lobby from the first ``lobby`` to ``start``, the host's seating after
each message (``SeatingPlan.take``: what a seated joiner's message changes, or why it
changed nothing), the joiner's checks of ``start`` (``checked_setup``), the host's
answer to a ``watch`` (``Feed.refusal``) and what cuts a watcher off; ``control()``
puts them in ``control.json`` with every message and the refused payloads of
``exchange_control.py``.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from typing import Any

from p2pbelka.bench.exchange_control import (
    HOST_SEED,
    JOINER_SEEDS,
    NAMES,
    NONCES,
    PORT,
    fields_of,
    identity,
    key,
    messages,
    plan,
    read,
    refused,
    signer,
)
from p2pbelka.peer import lobby as lb
from p2pbelka.peer.lan.events import LobbyRefused
from p2pbelka.peer.lan.join import checked_setup
from p2pbelka.peer.lan.watchers import Feed, what_came
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.codec import encode
from p2pbelka.table.session import Table


def seating(plan: lb.SeatingPlan) -> dict[str, Any]:
    return {
        "seats": [None if s is None else [s.key.hex(), s.name, s.ready] for s in plan.seats],
        "rules": plan.rules,
        "preset": plan.preset,
        "complete": plan.complete,
    }


SEEDS = {"Ann": 0x11, "Bea": 0x12, "Cem": 0x13, "Dan": 0x14}
"""The joiners' key seeds (x 32)."""


class _Lobby:
    """The host's side of a lobby, message by message: what each does to the seating."""

    def __init__(self) -> None:
        self.plan = plan()
        self.steps: list[dict[str, Any]] = []

    def _write(self, step: dict[str, Any]) -> None:
        self.steps.append({**step, "host": seating(self.plan)})

    def host_says(self, to: str, payload: bytes) -> None:
        self._write({"from": "host", "to": to, "payload": payload.hex()})

    def set_rules(self, preset: str) -> None:
        """The host's person changes the rules (no message: the next ``lobby`` says it)."""
        assert self.plan.set_rules(preset, {})
        self._write({"from": "host", "to": "", "set_rules": {"preset": preset, "options": {}}})

    def lobby(self, to: str) -> None:
        self.host_says(to, lb.encode_control(self.plan.state()))

    def hello(self, name: str, nonce: bytes) -> None:
        payload = lb.encode_control(lb.Hello(name, "", PORT + SEEDS[name] - 0x10, nonce))
        msg = lb.decode_control(payload)
        assert isinstance(msg, lb.Hello)
        self.plan.sit(key(SEEDS[name]), msg, f"10.77.0.{SEEDS[name] - 0x0E}")
        self._write({"from": name, "to": "host", "payload": payload.hex(), "ignored": ""})

    def says(self, name: str, msg: lb.Control, ignored: bool = False) -> None:
        payload = lb.encode_control(msg)
        why = self.plan.take(key(SEEDS[name]), payload)
        if bool(why) != ignored:
            raise AssertionError(f"lobby step of {name}: {why or 'taken'}")
        self._write({"from": name, "to": "host", "payload": payload.hex(), "ignored": why})

    def leaves(self, name: str) -> None:
        """The joiner's connection closes before the start: its seat is free again."""
        self.plan.leave(key(SEEDS[name]))
        self._write({"from": name, "to": "host", "closed": True})

    def removes(self, name: str) -> None:
        """The host's person removes a seated joiner: ``refuse``, then it closes."""
        self.plan.leave(key(SEEDS[name]))
        refuse = lb.Refuse("the host removed you from this table")
        self._write({"from": "host", "to": name, "payload": lb.encode_control(refuse).hex(),
                     "removes": True})  # fmt: skip


def lobby_exchange() -> dict[str, Any]:
    x = _Lobby()
    x.lobby("Ann")
    x.hello("Ann", NONCES[1])
    x.lobby("Ann")
    x.says("Ann", lb.TakeSeat(3))
    x.says("Ann", lb.TakeSeat(0), ignored=True)
    x.says("Ann", lb.Ready(True, 0))
    x.set_rules("eyes")
    x.lobby("Ann")
    x.says("Ann", lb.Ready(True, 0), ignored=True)
    x.says("Ann", lb.Ready(True, 1))
    x.says("Ann", lb.Hello("Ann", "", 5001, NONCES[1]), ignored=True)
    x.hello("Bea", NONCES[2])
    x.leaves("Bea")
    x.hello("Bea", bytes([0x62]) * 16)  # a new connection, a fresh nonce
    x.says("Bea", lb.Ready(True, 1))
    x.hello("Cem", NONCES[3])
    x.removes("Cem")
    x.hello("Dan", bytes([0x54]) * 16)
    x.says("Dan", lb.Ready(True, 1))
    last_lobby = x.plan.state()
    x.lobby("Ann")
    assert x.plan.complete
    setup = x.plan.setup()
    table = Table.host(signer(HOST_SEED), setup)
    start = lb.Start(table.view.transcript[0].raw, x.plan.peers())
    x.host_says("Ann", lb.encode_control(start))
    return {
        "keys": {name: key(seed).hex() for name, seed in SEEDS.items()},
        "steps": x.steps,
        "joiner": _joiner_checks(last_lobby, start, setup, table.game_id),
    }


def _joiner_checks(
    shown: lb.LobbyState, start: lb.Start, setup: m.TableMsg, game_id: bytes
) -> list[dict[str, Any]]:
    """Ann's check of ``start`` (SPEC.md section 7.2), and of starts she must leave."""
    ann = identity(JOINER_SEEDS[0])
    seat = next(s for s, info in enumerate(setup.seats) if info.key == ann.public_key)
    nonces = list(setup.nonces)
    nonces[seat] = bytes(16)
    not_hers = Table.host(signer(HOST_SEED), replace(setup, nonces=tuple(nonces)))
    by_bea = Table.host(signer(JOINER_SEEDS[1]), setup)
    other_rules = Table.host(signer(HOST_SEED), replace(setup, preset="classic"))
    cases = [
        ("the host's start", start, ""),
        ("`peers` one short", replace(start, peers=start.peers[:3]), "refused"),
        (
            "a table with another nonce at Ann's seat",
            replace(start, table=not_hers.view.transcript[0].raw),
            "refused",
        ),
        ("a table signed by Bea", replace(start, table=by_bea.view.transcript[0].raw), "refused"),
        (
            "a table of other rules than the last `lobby`",
            replace(start, table=other_rules.view.transcript[0].raw),
            "refused",
        ),
    ]
    rows = []
    with tempfile.TemporaryDirectory() as home:
        for what, case, expect in cases:
            try:
                setup, got_id = checked_setup(ann, shown, case, key(HOST_SEED), NONCES[1], home)
                outcome = {
                    "sits": setup.seats.index(
                        next(s for s in setup.seats if s.key == ann.public_key)
                    ),
                    "game_id": got_id.hex(),
                }
                if expect or got_id != game_id:
                    raise AssertionError(f"start case {what}: taken")
            except LobbyRefused as exc:
                if not expect:
                    raise
                outcome = {"leaves": str(exc)}
            rows.append({"path": what, "start": lb.encode_control(case).hex(), **outcome})
    return rows


# -- watchers -------------------------------------------------------------------------------


def watch_admission() -> list[dict[str, Any]]:
    """The host's answer to a ``watch`` (section 7.5): "" is ``watching``, else the
    ``refuse`` reason; the host's transcript holds 3 records."""
    watcher = key(0x21)
    rows = []
    for what, limit, ended, start in (
        ("from 0, 2 places", 2, False, 0),
        ("from 3, the records the host holds", 2, False, 3),
        ("from 4, past the host's transcript", 2, False, 4),
        ("a host that takes no watchers", 0, False, 0),
        ("the game over", 2, True, 0),
    ):
        feed = Feed(limit)
        feed.records = [b"r0", b"r1", b"r2"]
        feed.ended = ended
        why = feed.refusal(watcher, start)
        answer = lb.Refuse(why) if why else lb.Watching(feed.chat_mode)
        rows.append(
            {
                "path": what,
                "watch": lb.encode_control(lb.Watch("Dana", start)).hex(),
                "answer": lb.encode_control(answer).hex(),
                "refused": why,
            }
        )
    return rows


def watcher_sends() -> list[dict[str, Any]]:
    """What a watcher may not send (chat ``off``): each cuts it off, with the reason."""
    payloads = [
        ("an envelope", b"\x92\xc4\x01\x00\xc4\x01\x00"),
        ("a chat line (chat `off`)", b"\x93\xa4chat\xc4\x00\xc4\x00"),
        ("a `resend`", lb.encode_control(lb.Resend((0, 0, 0, 0)))),
        ("a malformed payload", encode([1])),
    ]
    return [{"path": what, "payload": p.hex(), "cut_off": what_came(p)} for what, p in payloads]


def control() -> dict[str, Any]:
    rows = []
    for section, direction, payload in messages():
        kind, msg = read(payload)
        if kind == "refused":
            raise AssertionError(f"message of section {section} refused: {msg}")
        rows.append(
            {
                "t": fields_of(payload)["t"],
                "section": section,
                "direction": direction,
                "payload": payload.hex(),
                "fields": fields_of(payload),
            }
        )
    return {
        "about": "SPEC.md sections 7.1 to 7.5, 9.4 and 9.5: keys are Ed25519 of the seed "
        "0x10 (the host) and 0x11, 0x12, 0x13 (Ann, Bea, Cem) x 32; each seat's nonce is "
        "(0x50 + seat) x 16; `messages`: one of each control message, `fields` its map "
        "(bytes as hex); `refused`: payloads a receiver refuses, `where` the field it "
        "names; `lobby`: every message of a lobby in order, `host` the seating after it "
        "(`ignored`: why a joiner's message changed nothing, the host then sends the "
        "current `lobby` all the same), then Ann's checks of `start`; `watch`: the "
        "host's answers to a `watch`; `watcher_sends`: what cuts a watcher off",
        "keys": {
            name: key(seed).hex()
            for name, seed in zip(NAMES, (HOST_SEED, *JOINER_SEEDS), strict=True)
        },
        "messages": rows,
        "refused": refused(),
        "lobby": lobby_exchange(),
        "watch": watch_admission(),
        "watcher_sends": watcher_sends(),
    }
