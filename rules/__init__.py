"""The pure rules engine: deciders, the fold and the dice; no I/O, no clock, no global randomness."""
