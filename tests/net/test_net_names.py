"""The table list as a person reads it: look-alike names folded into one, and a table
heard both by DNS-SD and by its signed beacon shown signed (in either order)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from p2pbelka.net.beacon import TableAd, encode_beacon, new_table_id
from p2pbelka.net.directory import TableDirectory, TableInfo, look_alikes, matching_tables, shown
from p2pbelka.net.identity import Identity
from p2pbelka.net.names import name_key

HOST = Identity.generate("host")
OTHER = Identity.generate("other")
TID = new_table_id()


def beacon(identity: Identity, name: str, seq: int = 1, table_id: bytes = TID) -> bytes:
    ad = TableAd(table_id=table_id, name=name, variant="belka", seats=4, free_seats=3, port=5000)
    return encode_beacon(identity, ad, seq, 0)


@pytest.mark.parametrize(
    "fake",
    [
        "Kitchen tabIe",  # a capital I for the l
        "Kitchen tab1e",  # a one
        "K1tchen table",
        "Kitchen tab|e",
        "Kitchen tаble",  # Cyrillic а
        "Кitchen table",  # Cyrillic К
        "Kitchen tablе",  # Cyrillic е
        "Kіtchen table",  # Ukrainian і
        "Kitchen τable",  # Greek τ
        "Kitchen tablé",  # an accent
        "Kitchen tab\u0323le",  # a combining dot below
        "  KITCHEN   TABLE ",
    ],
)
def test_a_look_alike_name_is_warned_of_and_matched(fake: str) -> None:
    d = TableDirectory()
    d.handle_datagram(beacon(HOST, "Kitchen table"), "h1", now=0.0)
    d.handle_datagram(beacon(OTHER, fake, table_id=new_table_id()), "h2", now=0.0)
    tables = d.tables(now=0.0)
    assert len(look_alikes(tables)) == 2, fake
    assert len(matching_tables(tables, "Kitchen table")) == 2


def test_zero_and_capital_o_read_alike() -> None:
    assert name_key("B0B's table") == name_key("BOB's table") == name_key("bob's tabIe")


@pytest.mark.parametrize("other", ["Garden", "Kitchen table 2", "Kitchen tables", "Kitchen"])
def test_different_names_stay_apart(other: str) -> None:
    assert name_key(other) != name_key("Kitchen table")


# Each character of a name may be swapped for one drawn like it.
_ALIKE = {
    "a": "aAаА",
    "c": "cCсС",
    "e": "eEеЕ",
    "i": "iIlL1|і",
    "l": "iIlL1|і",
    "o": "oOоО0ο",
    "p": "pPрР",
    "t": "tTтТτ",
    "x": "xXхХ",
    "y": "yуУ",
    " ": [" ", "  ", "\t"],
}
_LETTERS = "".join(_ALIKE)


@given(st.text(alphabet=_LETTERS, min_size=1, max_size=20), st.randoms())
def test_any_swap_of_look_alike_letters_reads_as_the_same_name(name: str, rnd: object) -> None:
    import random

    assert isinstance(rnd, random.Random)
    fake = "".join(rnd.choice(list(_ALIKE[c])) for c in name)
    assert name_key(fake) == name_key(name)
    tables = [_info(HOST, name), _info(OTHER, fake, table_id=bytes(16))]
    if name.strip():
        assert len(look_alikes(tables)) == 2


def _info(identity: Identity, name: str, table_id: bytes = TID, via: str = "beacon") -> TableInfo:
    return TableInfo(
        table_id=table_id,
        name=name,
        variant="belka",
        seats=4,
        free_seats=3,
        host="10.0.0.9",
        port=5000,
        host_key=identity.public_key,
        seq=1,
        last_seen=0.0,
        via=via,
    )


def _hint(now: float) -> TableInfo:
    return dataclasses.replace(_info(HOST, "Kitchen table", via="dns-sd"), last_seen=now)


@pytest.mark.parametrize("order", ["dns-sd first", "beacon first"])
def test_a_table_heard_both_ways_is_listed_signed_once_its_beacon_checks(order: str) -> None:
    d = TableDirectory()
    drawn: list[tuple[object, ...]] = []  # what the list showed, redrawn on each change

    def look(now: float) -> list[TableInfo]:
        listed = d.listed(now)
        if not drawn or drawn[-1] != tuple(shown(t) for t in listed):
            drawn.append(tuple(shown(t) for t in listed))
        return listed

    if order == "dns-sd first":
        d.hint(_hint(0.0))
        (first,) = look(0.1)
        assert first.via == "dns-sd"
    d.handle_datagram(beacon(HOST, "Kitchen table"), "10.0.0.9", now=0.2)
    if order == "beacon first":
        look(0.25)
        d.hint(_hint(0.3))
    (table,) = look(0.4)
    assert table.via == "beacon"
    # the last list drawn is the signed one (not the hint's, left on screen)
    assert [row[2] for row in drawn[-1]] == ["beacon"]  # type: ignore[index]
    # a table whose beacons stop falls back to its hint, marked unsigned
    (later,) = look(10.0)
    assert later.via == "dns-sd"


def test_hints_expire_and_are_capped() -> None:
    d = TableDirectory(max_tables=3, hint_lifetime=60.0)
    for n in range(5):
        d.hint(dataclasses.replace(_hint(float(n)), table_id=bytes([n]) * 16))
    assert [t.table_id[0] for t in d.listed(5.0)] == [2, 3, 4]
    assert d.listed(63.5) == [dataclasses.replace(_hint(4.0), table_id=bytes([4]) * 16)]
