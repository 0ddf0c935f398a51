"""Exchange vectors of DNS-SD (transport.md section 5.4): the record a host registers
(its instance name, cut to one DNS label, and TXT keys), TXT records a listener keeps
as hints or drops, and a hint beside a beacon table (listed once, signed).  Every
expected outcome is written here and checked against the reference's reader
(``table_from_txt``, ``TableDirectory.hint``) when the vectors are made, and again by
the suite from the file.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from p2pbelka.bench.exchange_beacons import (
    AD,
    HOST_SEED,
    NEUTRAL,
    OTHER_SEED,
    SOURCE,
    TABLE_ID,
    WALL,
    beacon,
    entry,
    identity,
)
from p2pbelka.net.directory import TableDirectory
from p2pbelka.net.dnssd import SERVICE_TYPE, instance_name, table_from_txt, txt_record


def _txt(**changes: str | None) -> dict[str, str]:
    txt = txt_record(identity(HOST_SEED), replace(AD, free_seats=0, watch=3))
    for key, value in changes.items():
        if value is None:
            txt.pop(key)
        else:
            txt[key] = value
    return txt


HINTS: list[tuple[str, dict[str, str], bool]] = [
    ("the host's own record", _txt(), True),
    ("an unknown key", _txt(colour="green"), True),
    ("no `watch`: 0 places", _txt(watch=None), True),
    ("`watch` 0", _txt(watch="0"), True),
    ("`watch` 255", _txt(watch="255"), True),
    ("`watch` 256", _txt(watch="256"), False),
    ("`watch` -1", _txt(watch="-1"), False),
    ("`watch` +3", _txt(watch="+3"), False),
    ("`seats` in Arabic-Indic digits", _txt(seats="\u0664"), False),
    ("`seats` with a space", _txt(seats=" 4"), False),
    ("`seats` 1", _txt(seats="1", free="0"), False),
    ("`seats` 9", _txt(seats="9"), False),
    ("`free` above `seats`", _txt(free="5"), False),
    ("`v` 2", _txt(v="2"), False),
    ("no `id`", _txt(id=None), False),
    ("`id` of 31 hex digits", _txt(id=TABLE_ID.hex()[:31]), False),
    ("`id` in upper case", _txt(id=TABLE_ID.hex().upper()), False),
    ("`key` with a space", _txt(key=" " + identity(HOST_SEED).public_key.hex()[1:]), False),
    ("`key` not sound", _txt(key=NEUTRAL.hex()), False),
    ("`fp` of another key", _txt(fp="0123456789abcdef"), False),
    ("`fp` in upper case", _txt(fp=_txt()["fp"].upper()), False),
    ("`name` of 41 code points", _txt(name="x" * 41), False),
    ("`name` with a control character", _txt(name="Kitchen\x1b[2J"), False),
    ("`game` empty", _txt(game=""), False),
    ("`game` of 17 code points", _txt(game="b" * 17), False),
]
"""TXT records a listener keeps as a hint or drops (transport.md section 5.4)."""


def wire(txt: dict[str, str]) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in txt.items()}


def hint_kept(txt: dict[str, str]) -> bool:
    return table_from_txt(wire(txt), SOURCE, AD.port, 0.0) is not None


def listing() -> dict[str, Any]:
    """A hint of the beacon's own (table id, key) is not listed; another key's is,
    after the signed tables."""
    listener = TableDirectory()
    listener.handle_datagram(beacon(), SOURCE, 0.0, WALL)
    other = _txt(key=identity(OTHER_SEED).public_key.hex())
    other["fp"] = "".join(identity(OTHER_SEED).fingerprint.split())
    for txt in (_txt(), other):
        hint = table_from_txt(wire(txt), "10.77.0.2", AD.port, 0.0)
        assert hint is not None
        listener.hint(hint)
    return {
        "beacon": beacon().hex(),
        "hints": [_txt(), other],
        "listed": [entry(t) for t in listener.listed(0.0)],
    }


def dnssd() -> dict[str, Any]:
    host = identity(HOST_SEED)
    ad = replace(AD, free_seats=0, watch=3)
    long_name = "\u0416" * 40
    for what, txt, kept in HINTS:
        if hint_kept(txt) != kept:
            raise AssertionError(f"DNS-SD hint {what}: not {kept}")
    hints = [{"path": what, "txt": txt, "kept": kept} for what, txt, kept in HINTS]
    return {
        "about": "transport.md section 5.4: the record of section 8.2's host with 0 free "
        "seats and 3 places for watchers; TXT records a listener keeps or drops; a hint "
        "beside a beacon table",
        "record": {
            "service": SERVICE_TYPE.removesuffix(".local."),
            "instance": instance_name(host.public_key, ad.name),
            "port": ad.port,
            "txt": txt_record(host, ad),
        },
        "long_name": {
            "name": long_name,
            "instance": instance_name(host.public_key, long_name),
        },
        "hints": hints,
        "listing": listing(),
    }
