"""Toy's bots and their entry in the bots' registry (``seat.py``)."""
