"""Exchange vectors of chat (protocol/SPEC.md sections 7.4 and 7.5): lines a seat says,
lines a seat hears on its links (each rule of 7.4 that drops one), the host's checks of
a watcher's line, and the host's ``/watching`` line.

Each case's expected outcomes are written here and checked against the reference's
sans-IO chat state (``ChatGate``, ``WatcherChat``) when the vectors are made, and again
by the suite from the file's bytes alone.
"""

from __future__ import annotations

from typing import Any

from p2pbelka.net.identity import Identity
from p2pbelka.peer.chat import (
    FLOOD,
    FORGED,
    MALFORMED,
    NOT_ITS_LINK,
    NOT_SEATED,
    OTHER_TABLE,
    REPLAYED,
    ChatDropped,
    ChatGate,
    watchers_named,
    watching_line,
)
from p2pbelka.peer.lan.watchers import CutOff, WatcherChat
from p2pbelka.protocol.chat import CHAT_LABEL, CHAT_TAG, seal_chat
from p2pbelka.protocol.codec import encode

SEAT_SEEDS = (0x10, 0x11, 0x12, 0x13)
STRANGER_SEED = 0x20
WATCHER_SEED = 0x21
SEGMENT = bytes(range(0x20, 0x30))
"""The id of the segment in play (any 16 bytes: in a game, the derived game id)."""
OTHER_SEGMENT = bytes(range(0x30, 0x40))
WALL = 1_700_000_000_000
ME = 1
"""The hearing seat of every ``hear`` case."""
HEARD = "heard"

RULES = {
    MALFORMED: 1,
    NOT_SEATED: 2,
    NOT_ITS_LINK: 2,
    OTHER_TABLE: 3,
    FLOOD: 4,
    REPLAYED: 5,
    FORGED: 6,
    HEARD: 0,
}
"""SPEC.md section 7.4's rule behind each outcome (0: heard)."""


def identity(seed: int) -> Identity:
    return Identity.from_seed(bytes([seed]) * 32)


KEYS = [identity(seed).public_key for seed in SEAT_SEEDS]


def line(seed: int, counter: int, text: str = "hello", game: bytes = SEGMENT) -> bytes:
    return seal_chat(identity(seed), game, counter, text).raw


def raw_line(seed: int, counter: int, text: str, game: bytes = SEGMENT) -> bytes:
    """A line signed as sent, whatever breaks the rules: what a liar or a broken
    program sends."""
    who = identity(seed)
    inner = encode([CHAT_LABEL, game, who.public_key, counter, text])
    return encode([CHAT_TAG, inner, who.sign(inner)])


def _broken_signature(raw: bytes) -> bytes:
    return raw[:-1] + bytes([raw[-1] ^ 1])


Step = tuple[int, bytes, float, str]
"""The seat whose link brought it, the payload, the time (s), the expected outcome."""


def _hear_cases() -> list[tuple[str, list[Step]]]:
    s0, s2 = SEAT_SEEDS[0], SEAT_SEEDS[2]
    flood: list[Step] = [(2, line(s2, n + 1), 0.0, HEARD) for n in range(10)]
    return [
        ("a line of seat 0 on its own link", [(0, line(s0, WALL), 0.0, HEARD)]),
        (
            "rule 1: a space at the end of the text (signed)",
            [(0, raw_line(s0, 1, "hello "), 0.0, MALFORMED)],
        ),
        ("rule 1: 201 code points", [(0, raw_line(s0, 1, "x" * 201), 0.0, MALFORMED)]),
        ("rule 1: a line break in the text", [(0, raw_line(s0, 1, "a\nb"), 0.0, MALFORMED)]),
        ("rule 1: counter -1", [(0, raw_line(s0, -1, "hi"), 0.0, MALFORMED)]),
        ("rule 1: not a chat array", [(0, encode(["chat", b"", bytes(64)]), 0.0, MALFORMED)]),
        ("rule 2: seat 0's line on seat 2's link (a relay)", [(2, line(s0, 1), 0.0, NOT_ITS_LINK)]),
        (
            "rule 2: the hearer's own line sent back",
            [(0, line(SEAT_SEEDS[ME], 1), 0.0, NOT_ITS_LINK)],
        ),
        ("rule 2: a key the table does not seat", [(0, line(STRANGER_SEED, 1), 0.0, NOT_SEATED)]),
        (
            "rule 3: a line for another segment",
            [(0, line(s0, 1, game=OTHER_SEGMENT), 0.0, OTHER_TABLE)],
        ),
        (
            "rule 3 before rule 6: another segment, its signature broken",
            [(0, _broken_signature(line(s0, 1, game=OTHER_SEGMENT)), 0.0, OTHER_TABLE)],
        ),
        (
            "rule 4: 10 lines in a row are heard, the 11th is a flood; a second later one more",
            [
                *flood,
                (2, line(s2, 11), 0.0, FLOOD),
                (2, line(s2, 12), 1.0, HEARD),
                (2, line(s2, 13), 1.0, FLOOD),
            ],
        ),
        (
            "rule 5: the same line again, then a lower counter",
            [
                (0, line(s0, 5), 0.0, HEARD),
                (0, line(s0, 5), 0.1, REPLAYED),
                (0, line(s0, 4, "late"), 0.2, REPLAYED),
                (0, line(s0, 6), 0.3, HEARD),
            ],
        ),
        (
            "rule 5 before rule 6: a replayed counter, its signature broken",
            [(0, line(s0, 5), 0.0, HEARD), (0, _broken_signature(line(s0, 5, "x")), 0.1, REPLAYED)],
        ),
        (
            "rule 6: a signature that does not verify; its counter stays free",
            [(0, _broken_signature(line(s0, 7)), 0.0, FORGED), (0, line(s0, 7), 0.1, HEARD)],
        ),
    ]


def replay_hear(steps: list[dict[str, Any]]) -> list[str]:
    """Feed ``steps`` to a fresh ``ChatGate`` of seat ``ME``: each one's outcome."""
    gate = ChatGate(SEGMENT, ME, KEYS, wall_ms=lambda: WALL)
    outcomes = []
    for step in steps:
        try:
            gate.hear(step["link"], bytes.fromhex(step["payload"]), step["now"])
            outcomes.append(HEARD)
        except ChatDropped as exc:
            outcomes.append(exc.reason)
    return outcomes


def _said() -> list[dict[str, Any]]:
    """What seat 0 says: typed text cleaned, signed with the wall-clock counter (one
    more when the clock did not move), or refused to its player."""
    gate = ChatGate(SEGMENT, 0, KEYS, wall_ms=lambda: WALL)
    typed = ["  Hello,\tpartner!\n", "Hello, partner!", "\x07", "x" * 201, *["ok"] * 4]
    rows: list[dict[str, Any]] = []
    for text in typed:
        try:
            msg = gate.compose(identity(SEAT_SEEDS[0]), text, 0.0)
            rows.append(
                {"typed": text, "text": msg.text, "counter": msg.counter, "payload": msg.raw.hex()}
            )
        except ChatDropped as exc:
            rows.append({"typed": text, "refused": exc.reason})
    return rows


def _watcher_cases() -> list[tuple[str, list[tuple[bytes, float, str]]]]:
    """The host's checks of a watcher's line (chat ``"watchers"``): relayed, dropped
    quietly (another segment) or the watcher cut off."""
    w = WATCHER_SEED
    ten = [(line(w, n + 1), 0.0, "relayed") for n in range(10)]
    return [
        ("a line of the watcher's own key", [(line(w, 1), 0.0, "relayed")]),
        (
            "a line for another segment: dropped, the watcher kept",
            [(line(w, 1, game=OTHER_SEGMENT), 0.0, "dropped")],
        ),
        ("a seat's line sent by the watcher", [(line(SEAT_SEEDS[0], 1), 0.0, "cut off")]),
        ("a malformed line", [(raw_line(w, 1, " x"), 0.0, "cut off")]),
        ("a replayed counter", [(line(w, 3), 0.0, "relayed"), (line(w, 3), 0.1, "cut off")]),
        ("a signature that does not verify", [(_broken_signature(line(w, 1)), 0.0, "cut off")]),
        (
            "the 11th line in a row (the receiving limit), even for another segment",
            [*ten, (line(w, 11, game=OTHER_SEGMENT), 0.0, "cut off")],
        ),
    ]


def replay_watcher(steps: list[dict[str, Any]]) -> list[str]:
    check = WatcherChat(identity(WATCHER_SEED).public_key)
    outcomes = []
    for step in steps:
        try:
            kept = check.check(bytes.fromhex(step["payload"]), SEGMENT, step["now"])
            outcomes.append("dropped" if kept is None else "relayed")
        except CutOff:
            outcomes.append("cut off")
    return outcomes


WATCHING_NAMES = [[], ["Dana", "Ayan"], [f"Watcher {n:02d}" for n in range(20)]]
WATCHING_READ = [
    (0, "/watching Dana, Ayan"),
    (0, "/watching"),
    (0, "/watching Dana, Ayan +3"),
    (2, "/watching Dana"),
    (0, "/watchingDana"),
    (0, "/Watching Dana"),
]


def chat() -> dict[str, Any]:
    hear = []
    for what, steps in _hear_cases():
        rows = [
            {
                "link": seat,
                "payload": raw.hex(),
                "now": now,
                "outcome": expect,
                "rule": RULES[expect],
            }
            for seat, raw, now, expect in steps
        ]
        got = replay_hear(rows)
        if got != [row["outcome"] for row in rows]:
            raise AssertionError(f"chat case {what}: {got}")
        hear.append({"path": what, "steps": rows})
    watcher = []
    for what, wsteps in _watcher_cases():
        wrows = [{"payload": raw.hex(), "now": now, "outcome": out} for raw, now, out in wsteps]
        if replay_watcher(wrows) != [row["outcome"] for row in wrows]:
            raise AssertionError(f"watcher chat case {what}")
        watcher.append({"path": what, "steps": wrows})
    return {
        "about": "SPEC.md sections 7.4 and 7.5: seat s's key is Ed25519 of the seed "
        "(0x10 + s) x 32, a stranger's 0x20, a watcher's 0x21; the segment in play is "
        "`segment`; `hear` cases go to a fresh seat 1 of four, `outcome` the reason it "
        "drops a line (`rule` of section 7.4) or `heard`; `say` is seat 0 composing with "
        f"its wall clock at {WALL} ms; `watcher` cases are a host's checks of a "
        "watcher's lines (chat `watchers`)",
        "keys": [key.hex() for key in KEYS],
        "stranger": identity(STRANGER_SEED).public_key.hex(),
        "watcher_key": identity(WATCHER_SEED).public_key.hex(),
        "segment": SEGMENT.hex(),
        "other_segment": OTHER_SEGMENT.hex(),
        "say": _said(),
        "hear": hear,
        "watcher": watcher,
        "watching": {
            "said": [{"names": names, "text": watching_line(names)} for names in WATCHING_NAMES],
            "read": [
                {"seat": seat, "text": text, "names": listed(watchers_named(seat, text))}
                for seat, text in WATCHING_READ
            ],
        },
    }


def listed(names: tuple[str, ...] | None) -> list[str] | None:
    return None if names is None else list(names)
