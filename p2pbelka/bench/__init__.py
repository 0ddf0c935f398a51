"""Benchmarks behind ``p2pbelka bench TOPIC``: each topic module has ``run() -> dict``."""
