"""What every game's rules engine shares: cards in play (:mod:`.play`), the rules'
one exception (:mod:`.errors`), the options' error (:mod:`.options`) and the
plumbing of JSON game records (:mod:`.recordio`).  Nothing here names a game."""
