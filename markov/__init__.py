"""Free-spin chains, solved exactly: the KEY-counter level ladder (:mod:`markov.chain`), free spins
with retrigger (:mod:`markov.retrigger`) and the whole round (:mod:`markov.round`)."""
