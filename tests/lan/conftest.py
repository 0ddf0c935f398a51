"""Fixtures for whole games over sockets.  Helpers: ``helpers`` (peer processes), ``relay`` (a
faulty link), ``flood`` (strangers at the door).
"""
