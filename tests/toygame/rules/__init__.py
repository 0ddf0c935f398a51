"""Toy's rules: the engine and its records (``game.py``), what the table's summary of a
deal holds (``summary.py``), and its spec (``spec.py``)."""
