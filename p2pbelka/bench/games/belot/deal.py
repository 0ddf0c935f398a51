"""Belot's figures of ``p2pbelka bench deal --game belot --players 2|3``.

The crypto of one Belot deal of two or three seats with the table's fair-deal
version (``belot_`` figures, named as ``deal_crypto`` names a version's: ``_ms``,
``_x``, ``_mults``): nine positions opened to each owner and played (decoded by
every other seat), the turned card opened to all, and the stock left face down
until the audit decodes it; then the whole games, between two yardsticks.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from p2pbelka.bench import deal_crypto
from p2pbelka.fairdeal import DealContext, deal_cards
from p2pbelka.fairdeal.versions import FAIRDEAL_VERSION
from p2pbelka.rules.belot.core import deal_pattern


def crypto_figures(players: int, quick: bool, unit_us: float) -> dict[str, object]:
    """One Belot deal of ``players`` seats with the table's fair-deal version."""
    repeats = 3 if quick else 11
    version = FAIRDEAL_VERSION
    ctx = DealContext(os.urandom(16), 0, players, deal_crypto.N_POSITIONS, version)
    owners = deal_pattern(players, 0)
    deal_cards(ctx)  # per-game setup, cached
    figures: dict[str, object] = {"belot_fairdeal_version": version, "belot_seats": players}
    deal = deal_crypto.play_deal(ctx, decode_plays=False, owners=owners)
    steps: list[tuple[str, Callable[[], object]]] = [
        ("deal_all_seats", lambda: deal_crypto.play_deal(ctx, owners=owners)),
        ("audit_one_seat", lambda: deal_crypto.audit_as_seat(deal, 0, True)),
        ("verify_fairdeal", lambda: deal_crypto.verify_deck(deal)),
    ]
    for name, fn in steps:
        one: dict[str, object] = {}
        deal_crypto.measure(one, f"v{version}_{name}", fn, repeats, unit_us)
        figures.update({key.replace(f"v{version}_", "belot_", 1): v for key, v in one.items()})
    return figures


def run(
    quick: bool, seats: int, whole_games: Callable[[float], dict[str, object]]
) -> dict[str, object]:
    """The deal's crypto, then ``whole_games`` (given the yardstick in milliseconds)."""
    count = 200 if quick else 2000
    unit_us = deal_crypto.yardstick_us(count)
    figures: dict[str, object] = {"yardstick_us": round(unit_us, 1)}
    figures.update(crypto_figures(seats, quick, unit_us))
    figures.update(whole_games(unit_us / 1000))
    figures["yardstick_end_us"] = round(deal_crypto.yardstick_us(count), 1)
    return figures
