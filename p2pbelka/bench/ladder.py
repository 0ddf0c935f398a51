"""``p2pbelka bench ladder``: a ledger of 10,000 results read and the ladder computed.

The results are a club's made up for the measure (``club``): a dozen players of
hidden strengths, every game a real certificate (the host's signed table, every
seat's signed close over one set of chain heads, the maker's signature: what
``certificate.read`` checks) but with no game played behind it, since the ledger
and the ratings read only the certificate.  Filling the ledger (every certificate
checked as it is added) is timed too, apart.  ``read_and_rate_ms``: opening the
ledger, reading every result back (each row's hash checked) and computing the
ladder, best of three; ``_x`` is that time in multiples of the yardstick (one PyNaCl
ed25519 noclamp multiplication, timed in the same run).
"""

from __future__ import annotations

import gc
import hashlib
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import trio

from p2pbelka.bench.deal_crypto import yardstick_us
from p2pbelka.fairdeal.versions import FAIRDEAL_VERSION
from p2pbelka.ladder.certificate import CLOSED, Certificate, Outcome, seal
from p2pbelka.ladder.ledger import Ledger, ledger_path
from p2pbelka.ladder.ratings import ladder
from p2pbelka.protocol import messages as m
from p2pbelka.protocol.envelope import Signer, seal_envelope
from p2pbelka.protocol.ids import game_id_of
from p2pbelka.rules.registry import DEFAULT, names, spec

GAMES = 10_000
SHARED = 1_000
"""Results one member shares with another who holds none of them (the exchange's most)."""


def member_seed(seed: int, n: int) -> bytes:
    """The key seed of member ``n`` of the club ``seed``."""
    return hashlib.sha256(f"club {seed} member {n}".encode()).digest()


def club(count: int, seed: int, game: str = DEFAULT, players: int = 12) -> Iterator[Certificate]:
    """``count`` certificates of games between ``players`` members of one club, the
    stronger side winning more often; reproducible from ``seed``."""
    rng = random.Random(seed)
    members = [Signer.from_seed(member_seed(seed, n)) for n in range(players)]
    strength = [rng.random() for _ in members]
    seats = spec(game).default_seats
    teams = spec(game).teams(seats)
    for n in range(count):
        sitting = rng.sample(range(players), seats)
        power = [sum(strength[sitting[s]] for s in team) for team in teams]
        winner = max(range(len(teams)), key=lambda t: power[t] + rng.random())
        score = [12 if t == winner else rng.randrange(12) for t in range(len(teams))]
        names = [f"member {s}" for s in sitting]
        outcome = Outcome(winner, tuple(score))
        yield certificate_of([members[s] for s in sitting], game, outcome, 1_700_000_000 + n, names)


def certificate_of(
    signers: list[Signer], game: str, outcome: Outcome, at: int, names: list[str] | None = None
) -> Certificate:
    """A certificate of a game with no play behind it: the table and every seat's close
    (its chain as if it held one envelope before it), signed by the seats' keys; the
    host makes it."""
    nonces = [hashlib.sha256(s.public_key + at.to_bytes(8, "big")).digest()[:16] for s in signers]
    names = names or [f"player {n}" for n in range(len(signers))]
    seats = tuple(m.SeatInfo(s.public_key, name) for s, name in zip(signers, names, strict=True))
    setup = m.TableMsg(game, "classic", {}, seats, FAIRDEAL_VERSION, nonces=tuple(nonces))
    game_id = game_id_of(nonces)
    table = seal_envelope(signers[0], game_id, 0, 0, bytes(32), setup)
    heads = tuple((1, hashlib.sha256(s.public_key + game_id).digest()) for s in signers)
    closes = tuple(
        seal_envelope(s, game_id, 1, 1, heads[n][1], m.CloseMsg(), heads)
        for n, s in enumerate(signers)
    )
    return seal(CLOSED, table, outcome, at, signers[0], closes)


def run(quick: bool) -> dict[str, object]:
    count = 1_000 if quick else GAMES
    unit_us = yardstick_us(200 if quick else 2000)
    figures: dict[str, object] = {"yardstick_us": round(unit_us, 1), "games": count}
    certificates = list(club(count, 1))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ladder.sqlite"
        start = time.perf_counter()
        with Ledger(path) as ledger, ledger.batch():
            for certificate in certificates:
                ledger.add(certificate.raw, "given")
        figures["fill_s"] = round(time.perf_counter() - start, 2)
        shared = certificates[:SHARED]
        # what was made for the measure goes first: a ladder command holds none of it,
        # and 10,000 certificates alive would make every garbage collection slower
        del certificates
        gc.collect()
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            with Ledger(path) as ledger:
                rows = ladder(ledger.results(DEFAULT))
            best = min(best, time.perf_counter() - start)
        figures["players"] = len(rows)
    figures["read_and_rate_ms"] = round(1000 * best, 1)
    figures["read_and_rate_x"] = round(1e6 * best / unit_us)
    figures.update(trio.run(share_figures, shared))
    figures.update(trio.run(table_share_figures, shared))
    from p2pbelka.bench.lobbyshare import lobby_share_figures

    seeds = (member_seed(1, 0), member_seed(1, 1))
    figures.update(trio.run(lobby_share_figures, shared, seeds))
    figures["yardstick_end_us"] = round(yardstick_us(200 if quick else 2000), 1)
    return figures


async def share_figures(certificates: list[Certificate]) -> dict[str, object]:
    """Member 0, holding ``certificates``, shares them with member 1, who holds one
    game they played together: over loopback, the real handshake and channel."""
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.share import Shared, serve, share

    giver, taker = (Identity.from_seed(member_seed(1, n)) for n in (0, 1))
    together = next(c for c in certificates if {giver.public_key, taker.public_key} <= set(c.keys))
    told: list[Shared] = []

    async def said(shared: Shared) -> None:
        told.append(shared)

    with tempfile.TemporaryDirectory() as folder:
        with Ledger(Path(folder) / "giver.sqlite") as ledger, ledger.batch():
            for certificate in certificates:
                ledger.add_read(certificate, "given")
        taking = Ledger(Path(folder) / "taker.sqlite", taker.public_key)
        taking.add_read(together, "played")

        def giving() -> Ledger:
            return Ledger(Path(folder) / "giver.sqlite", giver.public_key)

        async with trio.open_nursery() as nursery:
            port = await nursery.start(
                lambda task_status: serve(
                    giver,
                    [taker.public_key.hex()],
                    giving,
                    said,
                    host="127.0.0.1",
                    task_status=task_status,
                )
            )
            start = time.perf_counter()
            got = await share("127.0.0.1", port, giver.public_key.hex(), taker, taking)
            elapsed = time.perf_counter() - start
            with trio.fail_after(60):  # the giver's side counts what it sent, then says
                while not told:
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
        taking.close()
    sent = got.sent + sum(t.sent for t in told)
    return {
        "share_results": got.counted,
        "share_s": round(elapsed, 2),
        "share_mib": round(sent / 2**20, 2),
        "share_error": got.error or None,
    }


async def table_share_figures(certificates: list[Certificate]) -> dict[str, object]:
    """The same results shared by themselves at a table's end: member 0, holding
    ``certificates``, and member 1, holding none, play one short game of two (the first
    game played by two; random bots, real peers on loopback, each with its own home);
    the time from member 1's exchange beginning to its results counted, and the bytes
    both sent for it."""
    from p2pbelka.bots import make_bot
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.driver import BotFrontEnd
    from p2pbelka.peer.loopback import loopback_table
    from p2pbelka.peer.store import seat_home

    players = [Identity.from_seed(member_seed(1, n), f"member {n}") for n in (0, 1)]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        with Ledger(ledger_path(seat_home(root, 0) / "games"), players[0].public_key) as ledger:
            with ledger.batch():
                for certificate in certificates:
                    ledger.add_read(certificate, "given")
        results = await loopback_table(
            BotFrontEnd(make_bot("random", 1)),
            ["random"],
            transcript_dir=root,
            identities=players,
            game=next(name for name in names() if 2 in spec(name).seat_counts),
        )
    taker, giver = results[1].shared, results[0].shared
    if taker is None or giver is None:
        return {"table_share_error": "no exchange"}
    errors = [p.error for p in (*taker.peers, *giver.peers) if p.error]
    return {
        "table_share_results": taker.counted,
        "table_share_s": round(taker.seconds, 2),
        "table_share_mib": round((taker.sent + giver.sent) / 2**20, 2),
        "table_share_error": errors[0] if errors else None,
    }
