"""A local table of four bots, as ``p2pbelka play`` runs it (seat 0 writes the
player's transcript), started or resumed in a process of its own so a test can
kill it anywhere: ``python -m tests.peer.local_game start|resume HOME TRANSCRIPT SEED``.
Prints ``finished`` when the game has ended."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import trio

from p2pbelka.bots import make_bot
from p2pbelka.peer.driver import BotFrontEnd
from p2pbelka.peer.local_save import (
    LocalSave,
    bring_up_to_date,
    new_plan,
    play_saved_table,
    resume_saved_table,
)
from p2pbelka.peer.seat import NetOptions
from p2pbelka.protocol.transcript import TranscriptWriter

NET = NetOptions(give_up_after=math.inf, linger=1.0)


def main(mode: str, home: Path, transcript: Path, seed: int) -> None:
    if mode == "start":
        plan = new_plan("Tester", ["random"] * 3, transcript=transcript, seed=seed)
        save = LocalSave.create(plan, home)
    else:
        try:
            save = LocalSave.find(home=home)
        except LookupError:  # killed as the game ended: ``find`` tidied it away
            print("game over", flush=True)
            return
        bring_up_to_date(transcript, save.store(0).saved_transcript())
    with TranscriptWriter(transcript) as writer:
        front = BotFrontEnd(make_bot("random", seed))
        front.transcript = writer
        run = play_saved_table if mode == "start" else resume_saved_table
        results = trio.run(lambda: run(save, front, net=NET))
    if results and all(r.finished for r in results):
        print("finished", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]))
