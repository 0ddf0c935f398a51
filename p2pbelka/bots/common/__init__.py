"""What the bots of every game share: the seat bot's interface (:mod:`.seat`), bot
levels such as ``strong:3`` (:mod:`.levels`), a game's entry in the registry
(:mod:`.entry`) and the machinery of duplicate tournaments (:mod:`.tournament`).
Nothing here knows a game; the games' bots live beside it, each in its own package.
"""
