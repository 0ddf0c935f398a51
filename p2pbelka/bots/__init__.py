"""Bots: choose what one seat does, from what that seat may know.

A bot is asked three kinds of question, each with the game state *as the seat
sees it* (``GameState`` whose current deal has every other hand unknown):

- ``play(game, seat) -> Card``: a legal card (``game.deal.legal_cards(seat)``);
- ``claim_redeal(game, seat) -> bool``: ask for a re-deal when the hand allows;
- ``choose_eggs(game, seat) -> str``: ``"plus4"`` or ``"title"``.

``make_bot(level, seed)`` builds one by name: ``random``, ``heuristic`` (a club
player's rules of thumb), ``strong`` (search over the hidden cards, valued in
the game it is played in), ``strong:N`` (the same thinking N times as long,
``--think N``) or ``strong+`` (``strong:3``); see docs/bots.md.
``p2pbelka tournament`` measures one level against another.

Belot (2 or 3 players) has its own interface and levels in
:mod:`p2pbelka.bots.belot` (``make_belot_bot``, ``decide``).
"""

from p2pbelka.bots.base import BOT_LEVELS, Bot, make_bot

__all__ = ["BOT_LEVELS", "Bot", "make_bot"]
