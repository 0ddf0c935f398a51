"""Two ledgers share their results over a real authenticated channel on loopback and
print the same ladder after; junk, too much, or a game not asked for is refused, and a
stranger's results count only between keys that sat at a table with the owner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trio

from p2pbelka.bench.ladder import certificate_of
from p2pbelka.ladder import share as sh
from p2pbelka.ladder.certificate import MAGIC, Outcome
from p2pbelka.ladder.ledger import Ledger
from p2pbelka.ladder.ratings import ladder
from p2pbelka.net.identity import Identity
from p2pbelka.peer.share import Shared, serve, share
from p2pbelka.protocol.codec import encode
from p2pbelka.protocol.envelope import Signer

CLUB = [Identity.from_seed(bytes([n + 1]) * 32, f"member {n}") for n in range(5)]


def game(n: int, seats: list[int]) -> bytes:
    signers = [Signer(CLUB[s].private_key) for s in seats]
    names = [CLUB[s].name for s in seats]
    return certificate_of(signers, "belka", Outcome(n % 2, (12, n % 12)), 1000 + n, names).raw


def printed(ledger: Ledger) -> str:
    return json.dumps([r.to_json() for r in ladder(ledger.results("belka"))])


async def test_two_ledgers_meet_once_and_print_the_same_ladder(tmp_path: Path) -> None:
    a, b = CLUB[0], CLUB[1]
    ledgers = {
        k: Ledger(tmp_path / f"{k}.sqlite", key.public_key) for k, key in (("a", a), ("b", b))
    }
    ledgers["a"].add(game(0, [0, 1, 2, 3]), "played")  # they sat at one table
    ledgers["b"].add(game(0, [0, 1, 2, 3]), "played")
    for n in range(1, 30):
        ledgers["a" if n % 2 else "b"].add(
            game(n, [0, 2, 1, 3] if n % 3 else [1, 3, 2, 0]), "played"
        )
    assert printed(ledgers["a"]) != printed(ledgers["b"])
    told: list[Shared] = []

    async def said(shared: Shared) -> None:
        told.append(shared)

    async with trio.open_nursery() as nursery:
        port = await nursery.start(
            lambda task_status: serve(
                b,
                [a.public_key.hex()],
                lambda: Ledger(tmp_path / "b.sqlite", b.public_key),
                said,
                host="127.0.0.1",
                task_status=task_status,
            )
        )
        got = await share("127.0.0.1", port, b.public_key.hex(), a, ledgers["a"])
        with trio.fail_after(30):
            while not told:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert not got.error and got.counted == 14 and told[0].counted == 15, (got, told)
    fresh_b = Ledger(tmp_path / "b.sqlite", b.public_key)
    assert printed(ledgers["a"]) == printed(fresh_b)
    assert len(fresh_b.results()) == 30


def test_junk_too_much_and_unasked_games_are_refused() -> None:
    side = sh.Sharing({})
    side.start()
    with pytest.raises(sh.ShareError, match="does not decode"):
        side.receive(b"\xc1")
    with pytest.raises(sh.ShareError, match="not in ascending order"):
        side.receive(encode({"have": bytes(16) * 2, "t": "have"}))
    with pytest.raises(sh.ShareError, match="at most 3000 game ids"):
        side.receive(encode({"have": bytes(16 * 3001), "t": "have"}))
    side.receive(encode({"have": bytes(16), "t": "have"}))
    assert side.wanted == {bytes(16)}
    with pytest.raises(sh.ShareError, match="not asked for, or junk"):
        side.receive(encode({"certs": [b"junk"], "t": "certs"}))
    greedy = sh.Sharing({})
    greedy.wanted = {n.to_bytes(16, "big") for n in range(sh.MAX_RESULTS)}
    greedy.heard_have = True
    big = MAGIC + bytes(40_000)  # the ledger would refuse it; the exchange stops first
    with pytest.raises(sh.ShareError, match="more than 10485760 bytes"):
        for _ in range(sh.MAX_BYTES // len(big) + 1):
            greedy.receive(encode({"certs": [big], "t": "certs"}))


def test_each_message_comes_in_its_turn_and_a_want_is_answered_once() -> None:
    """A side answers one ``want`` only: asked again, it would send every certificate
    again (10 MiB for 16 KiB, as often as the other asks); a second ``have``, anything
    before the ``have`` and anything after the ``done`` stop the exchange too."""
    held = {n.to_bytes(16, "big"): MAGIC + bytes(1000) for n in range(4)}
    want = encode({"t": "want", "want": b"".join(held)})
    have = encode({"have": b"", "t": "have"})
    early = sh.Sharing(held)
    for first in (want, encode({"certs": [], "t": "certs"}), encode({"t": "done"})):
        with pytest.raises(sh.ShareError, match="out of turn"):
            early.receive(first)
    giver = sh.Sharing(held)
    giver.start()
    giver.receive(have)
    assert len(giver.receive(want)) == 2  # the certificates, and done
    with pytest.raises(sh.ShareError, match="second want"):
        giver.receive(want)
    with pytest.raises(sh.ShareError, match="out of turn"):
        giver.receive(have)
    giver.receive(encode({"t": "done"}))
    assert giver.done
    with pytest.raises(sh.ShareError, match="after its done"):
        giver.receive(encode({"certs": [], "t": "certs"}))


def test_a_stranger_s_results_count_only_between_keys_known_to_the_owner(tmp_path: Path) -> None:
    owner, stranger = CLUB[0], Identity.generate("stranger")
    ledger = Ledger(tmp_path / "l.sqlite", owner.public_key)
    ledger.add(game(0, [0, 1, 2, 3]), "played")
    known, unknown = game(1, [1, 2, 3, 0]), game(2, [1, 2, 3, 4])
    ids = {r.game_id for r in ledger.results()}
    from p2pbelka.ladder.certificate import read

    wanted = {read(known).game_id, read(unknown).game_id}
    assert ledger.add_shared(known, stranger.public_key, wanted) is not None
    assert ledger.add_shared(unknown, stranger.public_key, wanted) is None
    assert "stranger" in ledger.notes[-1]
    # a companion's word carries further; a game nobody asked for never counts
    assert ledger.add_shared(unknown, CLUB[1].public_key, wanted) is not None
    assert ledger.add_shared(game(3, [1, 2, 3, 0]), CLUB[1].public_key, wanted) is None
    assert len(ledger.results()) == len(ids) + 2


def test_a_wrapped_message_is_told_apart_and_checked() -> None:
    """At a table each message travels in a ``ladder`` control message: it is told from
    the game's other control messages by its first bytes, and anything else is refused."""
    inner = encode({"t": "done"})
    assert sh.is_wrapped(sh.wrap(inner)) and sh.unwrap(sh.wrap(inner)) == inner
    assert not sh.is_wrapped(encode({"t": "done"}))
    for bad, why in [
        (encode({"m": inner, "t": "other"}), "not a wrapped one"),
        (encode({"m": "text", "t": "ladder"}), "not a byte string"),
        (sh.wrap(inner) + b"\x00", "does not decode"),
        (encode({"m": bytes(sh.MAX_WRAPPED), "t": "ladder"}), "over"),
    ]:
        with pytest.raises(sh.ShareError, match=why):
            sh.unwrap(bad)


def test_the_game_just_played_is_asked_for_though_held() -> None:
    mine, theirs = game(0, [0, 1, 2, 3]), game(1, [0, 1, 2, 3])
    ids = sorted([sh_id(mine), sh_id(theirs)])
    side = sh.Sharing({sh_id(mine): mine}, frozenset([sh_id(mine)]))
    side.start()
    side.receive(encode({"have": b"".join(ids), "t": "have"}))
    assert side.wanted == set(ids)
    plain = sh.Sharing({sh_id(mine): mine})
    plain.start()
    plain.receive(encode({"have": b"".join(ids), "t": "have"}))
    assert plain.wanted == {sh_id(theirs)}


def sh_id(raw: bytes) -> bytes:
    from p2pbelka.ladder.certificate import read

    return read(raw).game_id


def test_a_side_sends_no_more_than_the_other_takes() -> None:
    """Asked for more than 10 MiB of certificates, a side stops before the one that would
    go past (the other side would refuse it and stop): what it sends is all taken."""
    held = {n.to_bytes(16, "big"): MAGIC + bytes(40_000) for n in range(300)}
    giver, taker = sh.Sharing(held), sh.Sharing({})
    want = taker.receive(giver.start()[0])
    giver.receive(taker.start()[0])
    sent = giver.receive(want[0])
    for message in sent:
        taker.receive(message)
    assert taker.got_all and taker.bytes_in <= sh.MAX_BYTES
    assert len(taker.received) == sh.MAX_BYTES // len(held[bytes(16)])
