"""The seat change: a seat whose player is gone for good played by a bot, and handed
back, without touching the fair deal (protocol/SPEC.md section 9).

``stages.py`` its stages as data (each with what is valid in it, and the stages
each may lead to), ``machine.py`` every decision (``SeatChange``, sans-IO),
``offer.py`` its pure pieces, ``effects.py`` its terms with the runner, ``runner.py``
the trio runner (``SeatChangeRunner``), ``drivers.py`` a segment's drivers,
``state.py`` what the runner and the return share, ``reclaim.py`` the return (the
way back for a returning player).  Its wire messages are ``protocol/seatchange.py``.
"""
