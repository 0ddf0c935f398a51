"""The exchange vectors whose state lives in the reference's trio code (``host-door``,
``linger``, ``seat-chain``) and the beacon listener's cap (``beacon-cap``).  Each file is made by
running the real tasks under a mock clock, and ``test_exchange_vectors`` makes it
again byte for byte; here each case is read from the file's bytes and checked to
reach its path, so a change that moves the real code off it fails twice."""

from __future__ import annotations

import json
from typing import Any

import pytest

from p2pbelka.bench import exchange_beacons as eb
from p2pbelka.bench import exchange_vectors as ev
from p2pbelka.net.beacon import parse_beacon
from p2pbelka.peer import lobby as lb
from p2pbelka.protocol import seatchange as sc
from p2pbelka.protocol.envelope import open_envelope
from p2pbelka.table.segments import observe_segments


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ev.path(name).read_text(encoding="utf-8"))
    return data


def cases(name: str) -> dict[str, dict[str, Any]]:
    return {case["name"]: case for case in load(name)["cases"]}


def said(link: dict[str, Any], direction: str = "from") -> list[tuple[float, lb.Control]]:
    """(time, message) of each control payload one way on a link, read from its bytes."""
    return [
        (step["at"], lb.decode_control(bytes.fromhex(step["payload"])))
        for step in link["steps"]
        if step["dir"] == direction and step["t"] not in ("envelope", "chat")
    ]


# -- the beacon listener's cap ------------------------------------------------------------


def test_the_257th_table_is_refused_by_the_cap_alone_then_takes_a_stale_place() -> None:
    data = load("beacon-cap")
    steps = data["steps"]
    got = eb.replay_beacons(steps, data["at"])
    assert got["outcomes"] == [s["outcome"] for s in steps]
    refused = [s for s in steps if s["outcome"] == "full"]
    assert len(refused) == 1 and refused[0]["rule"] == 6
    first = next(s for s in steps if s["table"] == refused[0]["table"])
    before = steps[: steps.index(first)]
    assert len({s["table"] for s in before}) == 256, "the list was full"
    assert first["source"] not in {s["source"] for s in before}, "not the cap a source"
    keys = {parse_beacon(bytes.fromhex(s["datagram"])).host_key for s in before}
    assert parse_beacon(bytes.fromhex(first["datagram"])).host_key not in keys, "nor a key's"
    assert len(got["listed"]) == data["listed"] == 256
    ids = {t["id"] for t in got["listed"]}
    assert data["newest"]["id"] in ids and data["newest_listed"]
    assert not data["first_listed"]


# -- the host's lobby door and its watchers' feed -----------------------------------------


DOOR = cases("host-door")


def test_wait_then_the_persons_yes_seats_the_joiner() -> None:
    case = DOOR["wait"]
    messages = said(case["links"]["Ann"])
    assert [type(m) for _, m in messages] == [lb.LobbyState, lb.Wait, lb.LobbyState]
    (hello_at, _hello), *_ = said(case["links"]["Ann"], "to")
    assert messages[1][0] == hello_at, "wait comes at once"
    assert case["while_deciding"]["asking"] == ["Ann"]
    assert case["while_deciding"]["seating"]["seats"][1] is None, "not counted meanwhile"
    seated_at, seated = messages[2]
    assert seated_at == hello_at + 30.0
    assert isinstance(seated, lb.LobbyState) and seated.seats[1] is not None
    assert case["host"]["seating"]["seats"][1][1] == "Ann" and case["host"]["asking"] == []
    # the reference joiner: told it waits for the person, then shown its seat
    assert case["joiner"] == ["waiting for the host's person", "lobby: seat 1"]


def test_a_joiner_has_10_s_for_its_hello() -> None:
    late, in_time = DOOR["hello-timeout"], DOOR["hello-in-time"]
    assert [type(m) for _, m in said(late["links"]["Ann"])] == [lb.LobbyState]
    assert late["links"]["Ann"]["closed_at"] == 10.0
    assert late["host"]["seating"]["seats"][1:] == [None, None, None]
    assert in_time["links"]["Ann"]["closed_at"] is None
    assert in_time["host"]["seating"]["seats"][1][1] == "Ann"


def test_a_removed_key_is_refused_at_once_when_it_comes_back() -> None:
    case = DOOR["removed"]
    first, again = case["links"]["Ann"], case["links"]["Ann again"]
    why = "the host removed you from this table"
    assert said(first)[-1] == (case["removed_at"], lb.Refuse(why))
    assert first["closed_at"] == case["removed_at"]
    assert [m for _, m in said(again)] == [lb.Refuse(why)], "refuse, not lobby, first"
    assert again["closed_at"] == again["steps"][0]["at"]
    assert case["host"]["removed"] == [load("host-door")["keys"]["Ann"]]
    assert case["host"]["seating"]["seats"][1] is None
    assert case["joiner"]["Ann"][-1] == case["joiner"]["Ann again"][-1] == f"left: {why}"
    assert case["joiner"]["Ann"][0] == "lobby: seat 1"


def test_the_feed_keeps_alive_every_5_s_and_ends_with_fed() -> None:
    case = DOOR["feed"]
    link = case["links"]["Ann"]
    froms = [s for s in link["steps"] if s["dir"] == "from"]
    assert [s["t"] for s in froms[:3]] == ["lobby", "watching", "alive"]
    alive = [s["at"] for s in froms if s["t"] == "alive"]
    assert alive == [0.0, 5.0, 10.0, 15.0], "every 5 s, whatever else came between"
    records = [s for s in froms if s["t"] == "envelope"]
    assert len(records) == case["host"]["records"] == 3
    assert froms[-1]["t"] == "fed" and said(link)[-1][1] == lb.Fed(3)
    assert case["ended_at"] <= froms[-1]["at"] == link["closed_at"]
    assert case["host"]["watchers"] == 0


# -- done and the linger -------------------------------------------------------------------


LINGER = cases("linger")


@pytest.mark.parametrize("name", list(LINGER))
def test_done_goes_on_every_link_and_resends_are_answered(name: str) -> None:
    """Every link opens with seat 0's ``resend``; ``done`` follows on each once seat 0
    is finished (on a link that comes up later, right after its ``resend``)."""
    case = LINGER[name]
    for link in case["links"].values():
        froms = [s for s in link["steps"] if s["dir"] == "from"]
        opened_at = froms[0]["at"]
        assert [s["t"] for s in froms[:2]] == ["resend", "done"]
        assert froms[1]["at"] == max(case["linger_began"], opened_at)
        assert link["closed_at"] == case["linger_ended"]
    one = [s["t"] for s in case["links"]["seat 1"]["steps"] if s["dir"] == "from"]
    assert one == ["resend", "done", "envelope", "envelope", "resent"]


def test_the_linger_ends_at_the_last_done_or_after_5_s() -> None:
    every, silent = LINGER["all-done"], LINGER["one-silent"]
    last_done = max(
        s["at"]
        for link in every["links"].values()
        for s in link["steps"]
        if s["dir"] == "to" and s["t"] == "done"
    )
    assert every["done_from"] == [1, 2] and every["linger_ended"] == last_done
    assert silent["done_from"] == [1]
    assert silent["linger_ended"] == silent["linger_began"] + 5.0


# -- the answer to seat_chain --------------------------------------------------------------


CHAIN = cases("seat-chain")["answer"]


def answers(link: dict[str, Any]) -> list[tuple[float, list[sc.ChainRecord], sc.ChainEnd]]:
    """Each answer on a link: when it came, its records, its end (read from the bytes)."""
    got: list[tuple[float, list[sc.ChainRecord], sc.ChainEnd]] = []
    records: list[sc.ChainRecord] = []
    for step in link["steps"]:
        if step["dir"] != "from":
            continue
        msg = sc.decode_seat_change(bytes.fromhex(step["payload"]))
        if isinstance(msg, sc.ChainRecord):
            records.append(msg)
        else:
            assert isinstance(msg, sc.ChainEnd)
            got.append((step["at"], records, msg))
            records = []
    assert not records, "every answer ends with seat_chain_end"
    return got


def test_a_seat_that_changed_hands_gets_the_whole_game_and_a_top_up() -> None:
    asks = [
        (s["at"], sc.decode_seat_change(bytes.fromhex(s["payload"])))
        for s in CHAIN["links"]["seat 3"]["steps"]
        if s["dir"] == "to"
    ]
    assert [a for _, a in asks] == [
        sc.ChainRequest(0),
        sc.ChainRequest(0),
        sc.ChainRequest(CHAIN["first_of_segment"]),
    ]
    whole, top_up = answers(CHAIN["links"]["seat 3"])
    total = CHAIN["records"]
    assert whole[0] == asks[0][0] and top_up[0] == asks[2][0], "the 2nd ask, too soon: dropped"
    assert CHAIN["dropped"] == {"asked too often": 1}
    assert [r.index for r in whole[1]] == list(range(total)) and whole[2].total == total
    game = [open_envelope(r.record) for r in whole[1]]
    assert [e.game.hex() for e in (game[0], game[-1])] == CHAIN["segments"]
    last = observe_segments(game)  # it replays as verify replays it, both segments
    keys = [bytes.fromhex(k) for k in load("seat-chain")["keys"]]
    assert last.state.setup is not None and last.state.setup.seats[3].key != keys[3]
    first = CHAIN["first_of_segment"]
    assert [r.index for r in top_up[1]] == list(range(first, total))
    assert [r.record for r in top_up[1]] == [r.record for r in whole[1][first:]]
    assert top_up[2].total == total


def test_a_seat_that_never_changed_hands_is_told_so() -> None:
    ((_at, records, end),) = answers(CHAIN["links"]["seat 1"])
    assert records == [] and end == sc.ChainEnd(0)


def test_the_readme_lists_every_exchange_file() -> None:
    readme = (ev.DIRECTORY.parent / "README.md").read_text(encoding="utf-8")
    for name in ev.VECTORS:
        assert f"| `{name}.json` |" in readme, name


# -- alive as the watcher takes it ----------------------------------------------------------


WATCHER = cases("watcher-alive")


def test_a_watcher_takes_a_host_silent_20_s_after_alive_for_away() -> None:
    case = WATCHER["silent-host"]
    link = case["links"]["host"]
    told = [s for s in link["steps"] if s["dir"] == "to"]
    assert [s["t"] for s in told] == ["lobby", "watching", "alive", "alive"]
    last = told[-1]["at"]
    assert case["watcher"]["at"] == link["closed_at"] == last + 20.0
    assert case["watcher"]["why"] == "feed broken: nothing came for 20 s"
    watch = [s for s in link["steps"] if s["dir"] == "from"]
    assert [lb.decode_control(bytes.fromhex(s["payload"])) for s in watch] == [lb.Watch("Dana", 0)]


def test_a_watcher_waits_on_a_host_that_never_sends_alive() -> None:
    case = WATCHER["older-host"]
    link = case["links"]["host"]
    assert "alive" not in {s["t"] for s in link["steps"]}
    assert case["watcher"]["at"] == link["closed_at"] == 60.0, "until the host closed it"
    assert case["watcher"]["why"].endswith("closed the connection before the game's end")


# -- a watching player's top-up -------------------------------------------------------------


def test_a_watching_players_top_up_brings_its_table_the_segment() -> None:
    case = cases("top-up")["top-up"]
    link = case["links"]["seat 3"]
    asks = [s for s in link["steps"] if s["dir"] == "to"]
    assert [s["at"] for s in asks] == [1.0, 3.5], "none at 1.5 s: one top-up every 2 s"
    starts = {sc.decode_seat_change(bytes.fromhex(s["payload"])) for s in asks}
    (request,) = starts
    assert isinstance(request, sc.ChainRequest)
    answers_ = answers(link)
    n = case["segment_records"]
    for _at, records, end in answers_:
        assert [r.index for r in records] == list(range(request.start, request.start + n))
        assert end.total == request.start + n
    assert [at for at, _, _ in answers_] == case["retried_at"] == [1.0, 3.5]
    assert case["held_before"] == 1 and case["held_after"] == n and case["fed"] == 2 * n
    assert case["answerer_dropped"] == case["player_dropped"] == {}
