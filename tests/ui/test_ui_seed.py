"""``play --seed N`` repeats the same deals: the same hands and the same dealer."""

from __future__ import annotations

from pathlib import Path

import trio

from p2pbelka.bots import make_bot
from p2pbelka.cards import Card
from p2pbelka.peer.driver import BotFrontEnd, PeerDriver
from p2pbelka.table import events as ev
from p2pbelka.ui.play import PlayConfig, run_loopback_table


class FirstHand(BotFrontEnd):
    """A bot in seat 0 that notes the first dealer and hand, then says it has seen them."""

    def __init__(self, seen: trio.Event) -> None:
        super().__init__(make_bot("random", 5))
        self.seen = seen
        self.dealer: int | None = None
        self.hand: tuple[Card, ...] = ()

    async def on_event(self, driver: PeerDriver, event: ev.Event) -> None:
        if isinstance(event, ev.DealStarted) and self.dealer is None:
            self.dealer = event.dealer
        if isinstance(event, ev.HandDealt) and not self.hand:
            self.hand = event.cards
            self.seen.set()
        await super().on_event(driver, event)


async def first_deal(seed: int, home: Path) -> tuple[int | None, tuple[Card, ...]]:
    seen = trio.Event()
    front = FirstHand(seen)
    config = PlayConfig(name="Tester", seed=seed, bot_levels=("random",) * 3)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(run_loopback_table, config, front, home)
        with trio.fail_after(120):
            await seen.wait()
        nursery.cancel_scope.cancel()
    return front.dealer, front.hand


async def test_the_same_seed_deals_the_same_first_hand_by_the_same_dealer(
    tmp_path: Path,
) -> None:
    first = await first_deal(7, tmp_path / "one")
    again = await first_deal(7, tmp_path / "two")
    assert first[1], "a hand was dealt"
    assert first == again
