"""The free-spin level ladder as an absorbing Markov chain over KEY-counter states."""
