"""Belot at the table: its track and its phases over the fair deck (``track.py``), its
events (``events.py``)."""
