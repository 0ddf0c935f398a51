"""What every game's rules engine shares: cards in play (:mod:`.play`), the rules'
one exception (:mod:`.errors`), the options' error (:mod:`.options`) and the
plumbing of JSON game records (:mod:`.recordio`) and the entries each layer's registry
keeps by game name (:mod:`.byname`).  Nothing here names a game."""
