"""Belka at the table: its track and its three phases (``track.py``), its events and
standing (``events.py``)."""
