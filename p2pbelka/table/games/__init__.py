"""Each game at the table, in a folder of its own (``games/<game>/``): its track and
its own phases (``track.py``), its own events (``events.py``), listed by
``table/registry.py``."""
