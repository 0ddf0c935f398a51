"""What the bots of every game share: the seat bot's interface (:mod:`.seat`), bot
levels such as ``strong:3`` (:mod:`.levels`), a game's entry in the registry
(:mod:`.entry`), the machinery of duplicate tournaments (:mod:`.tournament`), and what
the games' compiled exact searches share (:mod:`.jitkit`, loaded or not by :mod:`.compiled`).
Nothing here knows a game; the games' bots live beside it, each in its own package.
"""
