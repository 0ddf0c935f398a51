"""Placeholder, replaced below."""

from p2pbelka.bots.belot.heuristic import HeuristicBelotBot as StrongBelotBot

__all__ = ["StrongBelotBot"]
