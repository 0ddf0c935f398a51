"""A third game, in the tests only: Toy, a plain trick-taking game for two.

It exists to prove that a game joins every layer through the registries alone,
touching no shared file: its rules engine (``rules.py``) and spec, its track and
phases at the table (``table.py``), its bot (``bot.py``), its screen (``screen.py``:
two functions), registered by ``register()`` and removed by ``unregister()``.
"""
