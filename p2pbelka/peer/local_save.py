"""A local table kept on disk, so a game left (or killed) can be continued.

``p2pbelka play`` (any registered game) seats you and bot peers
over loopback (``loopback.py``, through the lobby as on a LAN), each peer
keeping its game in a home of its own exactly as on a LAN (``store.py``:
secrets drawn, transcript, what it signed).  Those homes live in the games
directory as ``local-<game id>/``::

    local.json     how the table was set up: the game, each seat's name and key, the
                   bots' levels, the seed, the rules, where the player's transcript goes
    seat0/ ...     each seat's GameStore, under games/<game id>/

Resuming rebuilds every seat, the bots too, with ``resume_game`` from its own
files: the same keys, the same secrets, and what each seat signed before is sent
again, never signed anew.  The seats meet again over loopback; the deal goes on
where it stopped.  The directory is readable by the user only (the bots' keys and
every seat's secrets are in it), is held by the one program playing it
(``storelock.py``: an OS lock, taken before anything in it is read or written, let go
of when that program ends), and is removed once the game has ended: the player's
transcript holds the whole game.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import secrets
import shutil
import socket
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from p2pbelka.peer import storelock
from p2pbelka.peer.store import GameStore, games_dir, move_aside, now, seat_home
from p2pbelka.protocol.transcript import MAGIC, encode_record, iter_records, valid_prefix_length
from p2pbelka.rules import registry

# Finding the saved tables (``games --ids``, at every Tab of a shell's completion) reads
# files only: the bots, trio and the peer's stack load in the functions that play one.
if TYPE_CHECKING:
    from p2pbelka.net.identity import Identity
    from p2pbelka.peer.driver import FrontEnd
    from p2pbelka.peer.seat import GameResult, NetOptions
    from p2pbelka.protocol.envelope import Envelope

PREFIX = "local-"
GONE = ".gone-"  # a game's directory being removed
PLAN_FILE = "local.json"
LOOPBACK = "127.0.0.1"


@dataclass
class LocalPlan:
    """What ``local.json`` holds: enough to seat the same players again."""

    game_id: str  # hex: the table's id (its lobby's), which names this save; the game
    # id is derived from the seats' nonces when the game starts (the seats' stores)
    transcript: str  # the player's copy of the game ("" if none is kept)
    names: list[str]  # by seat; seat 0 is the player
    keys: list[str]  # each seat's private key (hex): the bots have no other home
    bots: list[str]  # the level of each bot, seat 1 on
    seed: int | None = None
    preset: str = "classic"
    options: dict[str, str] = field(default_factory=dict)
    game: str = registry.DEFAULT  # a plan saved before there were other games has none
    pace: float = 0.7  # the screen's settings, so a resumed game looks the same
    lang: str = "en"
    started: float = 0.0

    def identities(self) -> list[Identity]:
        from p2pbelka.net.identity import Identity

        return [
            Identity.from_seed(bytes.fromhex(key), name)
            for key, name in zip(self.keys, self.names, strict=True)
        ]


def new_plan(
    name: str,
    bots: Sequence[str],
    *,
    transcript: Path | None,
    seed: int | None = None,
    preset: str = "classic",
    options: dict[str, str] | None = None,
    game: str = registry.DEFAULT,
    pace: float = 0.7,
    lang: str = "en",
    owner: bytes | None = None,
) -> LocalPlan:
    """A new table: fresh keys and game id, or those ``seed`` gives (the same as
    ``loopback_table`` draws, so a seeded game deals as it always did).  ``owner``, the
    player's own key (its Ed25519 seed), sits at seat 0 of an unseeded table, and its
    bots' keys are made from it (``own_bot_seed``): the ladder knows them from game to
    game, each bot level one player."""
    from p2pbelka.net.beacon import new_table_id
    from p2pbelka.peer.loopback import BOT_NAMES, seeded

    seats = len(bots) + 1
    if seed is not None:
        parts = seeded(seed, seats, game)
        keys, game_id = parts.keys[:seats], parts.game_id
    elif owner is not None:
        keys = [owner] + [
            own_bot_seed(owner, level, list(bots[:n]).count(level)) for n, level in enumerate(bots)
        ]
        game_id = new_table_id()
    else:
        keys, game_id = [secrets.token_bytes(32) for _ in range(seats)], new_table_id()
    return LocalPlan(
        game_id=game_id.hex(),
        transcript=str(transcript) if transcript is not None else "",
        names=[name, *BOT_NAMES[: seats - 1]],
        keys=[k.hex() for k in keys],
        bots=list(bots),
        seed=seed,
        preset=preset,
        options=dict(options or {}),
        game=game,
        pace=pace,
        lang=lang,
        started=now(),
    )


OWN_BOT_LABEL = b"p2pbelka/own-bot/v1"


def own_bot_seed(owner: bytes, level: str, n: int) -> bytes:
    """The key seed of the ``n``-th bot of ``level`` at a table of the player whose key
    seed is ``owner``: the same in every game (a one-way hash: it tells nothing of the
    player's key)."""
    return hashlib.sha256(OWN_BOT_LABEL + owner + f"{level}/{n}".encode()).digest()


def own_bots(owner: bytes, levels: Sequence[str], most: int = 3) -> dict[bytes, str]:
    """The public keys of the player's own bots of ``levels`` (up to ``most`` of one
    level at a table), each to its level: how ``ladder --me`` names them."""
    from p2pbelka.net.identity import Identity

    out = {}
    for level in levels:
        for n in range(most):
            out[Identity.from_seed(own_bot_seed(owner, level, n)).public_key] = level
    return out


class LocalSave:
    """One local game's directory (see the module docstring)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.plan_path = directory / PLAN_FILE

    @classmethod
    def create(cls, plan: LocalPlan, home: str | os.PathLike[str] | None = None) -> LocalSave:
        """A new game's directory.  The same ``--seed`` gives the same game id: a game
        left with that seed starts over (its player's transcript so far stays), unless
        it is open in another p2pbelka (``StoreBusy``).  The new directory is this
        program's (``hold``) before anything is written in it."""
        save = cls(games_dir(home) / f"{PREFIX}{plan.game_id}")
        save.directory.mkdir(mode=0o700, exist_ok=True)
        save.hold()
        if save.plan_path.is_file():  # the game left with that seed
            save.remove()
            save.directory.mkdir(mode=0o700, exist_ok=True)
            save.hold()
        os.chmod(save.directory, 0o700)
        save.save_plan(plan)
        return save

    @classmethod
    def in_directory(cls, directory: Path) -> list[LocalSave]:
        """The local games kept in ``directory`` (a games directory)."""
        if not directory.is_dir():
            return []
        return [
            cls(d)
            for d in sorted(directory.iterdir())
            if d.name.startswith(PREFIX) and (d / PLAN_FILE).is_file()
        ]

    @classmethod
    def find(cls, prefix: str = "", home: str | os.PathLike[str] | None = None) -> LocalSave:
        """The local game whose id starts with ``prefix``; with no prefix, the most
        recently started one that can go on.  ``LookupError`` says why there is none."""
        found = []
        cls.tidy(games_dir(home))
        for save in cls.in_directory(games_dir(home)):
            try:
                plan = save.load_plan()
            except (OSError, ValueError, TypeError, KeyError):
                continue
            if not plan.game_id.startswith(prefix):
                continue
            if prefix or save.resumable():
                found.append((plan.started, save))
        if not found:
            raise LookupError("no game to resume" + (f" with id {prefix}…" if prefix else ""))
        if prefix and len(found) > 1:
            raise LookupError(f"several games start with {prefix}")
        return max(found, key=lambda pair: pair[0])[1]

    @classmethod
    def of_transcript(
        cls, transcript: Path, home: str | os.PathLike[str] | None = None
    ) -> LocalSave | None:
        """The local game that can go on whose player's transcript is ``transcript``."""
        wanted = str(transcript.resolve())
        for save in cls.in_directory(games_dir(home)):
            try:
                if save.load_plan().transcript == wanted and save.resumable():
                    return save
            except (OSError, ValueError, TypeError, KeyError):
                continue
        return None

    @property
    def game_id(self) -> str:
        return self.load_plan().game_id

    # -- local.json --------------------------------------------------------------------

    def save_plan(self, plan: LocalPlan) -> None:
        tmp = self.directory / f".{PLAN_FILE}.{secrets.token_hex(4)}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(asdict(plan), f, indent=1)
        os.replace(tmp, self.plan_path)

    def load_plan(self) -> LocalPlan:
        data: dict[str, Any] = json.loads(self.plan_path.read_text())
        return LocalPlan(**data)

    # -- the seats' stores -----------------------------------------------------------------

    def store(self, seat: int) -> GameStore:
        """``seat``'s game files: the one game its home holds (named by the game id the
        seats' nonces gave when the game started, not by this save's table id)."""
        games = seat_home(self.directory, seat) / "games"
        found = sorted(d for d in games.iterdir() if d.is_dir()) if games.is_dir() else []
        return GameStore(found[0] if found else games / self.game_id)

    def started(self) -> bool:
        """Whether the game began: the player's seat holds the table's description."""
        store = self.store(0)
        # read only: the game may be running in another program
        return store.meta_path.exists() and bool(store.read_transcript())

    def finished(self) -> bool:
        try:
            return self.store(0).load_meta().finished
        except (OSError, ValueError, TypeError, KeyError):
            return False

    def resumable(self) -> bool:
        return self.started() and not self.finished()

    # -- while a game runs ---------------------------------------------------------------

    def hold(self) -> None:
        """Make the game this program's until it exits or removes it: two programs
        playing the same seats would sign two different envelopes for one place in a
        chain.  ``StoreBusy`` (which program has it) if another one does."""
        storelock.hold(self.directory, self.directory.name.removeprefix(PREFIX))

    def remove(self) -> None:
        """Forget the seats' files of a game that has ended.  Renamed first, so a
        process killed meanwhile leaves a whole game or none (``tidy`` ends the job)."""
        if not self.plan_path.is_file():
            return
        self.hold()  # ours already, or no other program's
        gone = self.directory.with_name(f"{GONE}{self.directory.name}")
        os.replace(self.directory, gone)
        shutil.rmtree(gone, ignore_errors=True)
        storelock.release(self.directory)

    @classmethod
    def tidy(cls, directory: Path) -> None:
        """Finish what a killed process left undone in a games directory: a game over
        for its player gets its transcript completed and its seats' files removed
        (the bots may not have seen the end), half-removed ones go."""
        if not directory.is_dir():
            return
        for leftover in directory.glob(f"{GONE}{PREFIX}*"):
            shutil.rmtree(leftover, ignore_errors=True)
        for save in cls.in_directory(directory):
            if not save.finished() or storelock.held(save.directory):
                continue  # going on, or this program's own (it ends it itself)
            try:
                save.hold()
                plan = save.load_plan()
                if plan.transcript:
                    seat0 = save.store(0).saved_transcript()
                    bring_up_to_date(Path(plan.transcript), seat0)
                save.remove()
            except (storelock.StoreBusy, OSError, ValueError, TypeError, KeyError):
                storelock.release(save.directory)  # another program may finish it
                continue  # still running, or unreadable: left as it is

    def settle(self, *, over: bool) -> None:
        """After the player left: keep the files of a game that can go on, forget those
        of a game that is ``over`` (as its player saw it) or never began."""
        if self.plan_path.is_file() and (over or not self.started()):
            self.remove()


def find_resumable(
    prefix: str = "", home: str | os.PathLike[str] | None = None
) -> GameStore | LocalSave:
    """The game ``p2pbelka resume [PREFIX]`` means: a LAN seat's store or a local
    game, whose id starts with ``prefix``; with none, the one started last of those
    that can go on.  ``LookupError`` says why there is none."""
    found: list[tuple[float, GameStore | LocalSave]] = []
    reasons = []
    try:
        store = GameStore.find(prefix, home)
        found.append((store.load_meta().started, store))
    except (LookupError, OSError, ValueError, TypeError, KeyError) as exc:
        reasons.append(str(exc))
    try:
        save = LocalSave.find(prefix, home)
        found.append((save.load_plan().started, save))
    except (LookupError, OSError, ValueError, TypeError, KeyError) as exc:
        reasons.append(str(exc))
    if not found:
        # "several games start with ..." says more than "no game to resume"
        raise LookupError(next((r for r in reasons if not r.startswith("no game")), reasons[0]))
    if prefix and len(found) > 1:
        raise LookupError(f"several games start with {prefix}")
    return max(found, key=lambda pair: pair[0])[1]


async def play_saved_table(
    save: LocalSave, front_end: FrontEnd, *, net: NetOptions | None = None
) -> list[GameResult]:
    """Play the game ``save`` was created for, from the start: ``front_end`` in seat 0,
    bot peers in the others, every seat keeping its files under the save."""
    from p2pbelka.peer.loopback import loopback_table
    from p2pbelka.peer.seat import NetOptions

    save.hold()
    plan = save.load_plan()
    results = await loopback_table(
        front_end,
        plan.bots,
        preset=plan.preset,
        options=plan.options,
        seed=plan.seed,
        transcript_dir=save.directory,
        identities=plan.identities(),
        net=replace(net or NetOptions(), table_id=bytes.fromhex(plan.game_id)),
        game=plan.game,
    )
    _forget_if_over(save, results)
    return results


async def resume_saved_table(
    save: LocalSave, front_end: FrontEnd, *, net: NetOptions | None = None
) -> list[GameResult]:
    """Continue a saved game where it stopped: each seat from its own files, over
    loopback.  ``LookupError`` if it never began or is already over, ``StoreBusy`` if
    it is open elsewhere, ``OrderError`` if a seat's files do not replay."""
    import trio

    from p2pbelka.bots import make_bot
    from p2pbelka.peer.driver import BotFrontEnd
    from p2pbelka.peer.loopback import bot_seed, seeded, stream
    from p2pbelka.peer.seat import NetOptions, resume_game

    save.hold()
    plan = save.load_plan()
    if not save.started():
        raise LookupError(f"game {save.game_id[:12]} was left before it began: start a new one")
    if save.finished():
        raise LookupError(f"game {save.game_id[:12]} is over: nothing to resume")
    seats = len(plan.keys)
    stores = [save.store(n) for n in range(seats)]
    _complete_seats(stores)
    _choose_ports(stores)
    parts = seeded(plan.seed, seats, plan.game) if plan.seed is not None else None
    base = replace(net or NetOptions(), listen_host=LOOPBACK, listen_port=0, announce=False)
    front_ends: list[FrontEnd] = [front_end]
    front_ends += [
        BotFrontEnd(make_bot(level, bot_seed(plan.seed, n))) for n, level in enumerate(plan.bots, 1)
    ]
    results: list[GameResult | None] = [None] * seats

    async def run_seat(seat: int, identity: Identity) -> None:
        fresh = None
        if parts is not None:
            # the values the seat drew before are saved: the stream goes on after them
            drawn = stores[seat].saved_secret_count()
            fresh = stream(parts.streams[seat], skip=drawn)
        seat_net = replace(base, home=seat_home(save.directory, seat), fresh_seeds=fresh)
        results[seat] = await resume_game(identity, stores[seat], front_ends[seat], net=seat_net)

    async with trio.open_nursery() as nursery:
        for seat, identity in enumerate(plan.identities()):
            nursery.start_soon(run_seat, seat, identity)
    done = [r for r in results if r is not None]
    _forget_if_over(save, done)
    return done


def _forget_if_over(save: LocalSave, results: list[GameResult]) -> None:
    if results and all(r.finished or r.aborted for r in results):
        save.remove()


def _complete_seats(stores: list[GameStore]) -> None:
    """Every seat must have sat down and hold the table's description.  A seat stopped
    between its seating and its first write lacks the description: it gets the
    host's signed one (what it received), so it can be rebuilt like the others."""
    if not all(s.meta_path.exists() for s in stores):
        raise LookupError("the game was left while the seats were sitting down: start a new one")
    opening: Envelope = stores[0].saved_transcript()[0]
    for store in stores[1:]:
        if not store.saved_transcript():
            store.transcript_path.write_bytes(MAGIC + encode_record(opening))


def _choose_ports(stores: list[GameStore]) -> None:
    """Each seat listens again where it did (its port is in the others' files); a
    port another program took meanwhile is replaced in every seat's file."""
    metas = [s.load_meta() for s in stores]
    changed = False
    for seat, meta in enumerate(metas):
        if _can_listen(meta.listen_port):
            continue
        port = _free_port()
        meta.listen_port = port
        for other in metas:
            if other.seat != seat:
                other.peers[seat] = (LOOPBACK, port)
        changed = True
    if changed:
        for store, meta in zip(stores, metas, strict=True):
            store.save_meta(meta)


def _can_listen(port: int) -> bool:
    if port == 0:
        return False
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as trio's listeners do
        try:
            probe.bind((LOOPBACK, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def bring_up_to_date(path: Path, envelopes: Sequence[Envelope]) -> None:
    """Make the player's transcript hold ``envelopes`` (seat 0's own, the reference).

    The copy is written just after seat 0's, so a killed game leaves it at most a
    record behind, maybe torn: the torn bytes are moved aside and the rest appended.
    A copy that is not a prefix at all (edited by hand?) is moved aside whole."""
    data = path.read_bytes() if path.exists() else b""
    keep = valid_prefix_length(data) if data else 0
    if keep < len(data):
        move_aside(path, data, keep)
        data = data[:keep]
    have = [r.envelope.raw for r in iter_records(data)] if keep else []
    if have != [e.raw for e in envelopes[: len(have)]]:
        move_aside(path, data, 0)
        have, keep = [], 0
    missing = b"".join(encode_record(e) for e in envelopes[len(have) :])
    with open(path, "ab") as out:
        out.write((b"" if keep else MAGIC) + missing)
