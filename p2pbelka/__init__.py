"""p2pbelka: Belka and Belot on a local network, dealt fairly with no trusted dealer."""

__version__ = "0.1.0"
