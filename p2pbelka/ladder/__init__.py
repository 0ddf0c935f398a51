"""The club's ladder: result certificates, the ledger that keeps them, and ratings.

Above the table (a certificate is checked with the table's own code: the envelopes'
signatures, the opening checks, ``verify_bytes`` for a proof) and below the peer, which
writes a certificate beside every saved game.  Everything here but ``ledger.py`` (sqlite,
the one piece of I/O) is a pure function of bytes.
"""
