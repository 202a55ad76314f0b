"""One referee (DESIGN §3.5, invariant 11): every shipped build of the rules folds the same log to the same
bytes; the logs the rules tests play are recorded here so other checks can fold them again."""
