"""Toy at the table: its track and its place in the schedule (``track.py``)."""
