"""DNS-SD TXT records: what a host publishes, and what a joiner accepts as a hint."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from p2pbelka.net.beacon import TableAd, new_table_id
from p2pbelka.net.dnssd import table_from_txt, txt_record
from p2pbelka.net.identity import Identity

HOST = Identity.generate("host")
AD = TableAd(new_table_id(), "Kitchen table", "belka", 4, 2, 40123)


def as_wire(txt: dict[str, str]) -> dict[bytes, bytes | None]:
    return {k.encode(): v.encode() for k, v in txt.items()}


def test_a_record_round_trips_as_an_unsigned_hint() -> None:
    txt = txt_record(HOST, AD)
    assert (
        txt["game"] == "belka"
        and txt["free"] == "2"
        and txt["fp"] in HOST.fingerprint.replace(" ", "")
    )
    table = table_from_txt(as_wire(txt), "10.0.0.9", 40123, now=1.0)
    assert table is not None and table.via == "dns-sd" and not table.address_signed
    assert (table.table_id, table.host_key, table.free_seats) == (AD.table_id, HOST.public_key, 2)


@pytest.mark.parametrize(
    "spoil",
    [
        lambda t: t.update(key="00" * 32),  # not a usable key
        lambda t: t.update(fp="0123456789abcdef"),  # fingerprint of another key
        lambda t: t.update(free="9"),
        lambda t: t.update(name="evil\x1b[2J"),
        lambda t: t.update(v="9"),
        lambda t: t.pop("id"),
        lambda t: t.update(seats="four"),
        lambda t: t.update(watch="256"),
        lambda t: t.update(watch="-1"),
        lambda t: t.update(watch="many"),
    ],
)
def test_malformed_records_are_ignored(spoil: Callable[[dict[str, str]], object]) -> None:
    txt = txt_record(HOST, AD)
    spoil(txt)
    assert table_from_txt(as_wire(txt), "10.0.0.9", 40123, now=1.0) is None
    assert table_from_txt({b"\xff": b"\xfe"}, "10.0.0.9", 1, now=1.0) is None


def test_the_places_for_watchers_go_in_the_record_only_when_there_are_some() -> None:
    assert "watch" not in txt_record(HOST, AD)
    watched = TableAd(AD.table_id, AD.name, AD.variant, 4, 0, 40123, watch=3)
    txt = txt_record(HOST, watched)
    assert txt["watch"] == "3"
    table = table_from_txt(as_wire(txt), "10.0.0.9", 40123, now=1.0)
    assert table is not None and table.watch == 3 and table.free_seats == 0
    no_key = table_from_txt(as_wire(txt_record(HOST, AD)), "10.0.0.9", 40123, now=1.0)
    assert no_key is not None and no_key.watch == 0  # an earlier host's record
