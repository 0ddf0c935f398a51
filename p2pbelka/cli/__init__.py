"""The ``p2pbelka`` command and its screens."""
