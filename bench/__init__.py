"""`make bench`: bounded benchmarks of ingest, Prefer-wait latency, folding, time travel and replay memory.

The folds run the rules the workers run: the compiled build where it matches rules/ (SIEGE_COMPILED_RULES=0:
the pure Python), chosen here, before any benchmark imports rules."""

from workers import rules_build

COMPILED_RULES = rules_build.choose()
RULES_BUILD = "rules/ compiled with mypyc" if COMPILED_RULES else "rules/ in pure Python"
