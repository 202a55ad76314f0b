"""`make bench`: bounded benchmarks of ingest, Prefer-wait latency, folding, time travel and replay memory.

The folds run the rules the workers run: the pure Python by default, the compiled build with
SIEGE_COMPILED_RULES=1 (where it matches rules/), chosen here, before any benchmark imports rules; the
report says which."""

from workers import rules_build

COMPILED_RULES = rules_build.choose()
RULES_BUILD = "rules/ compiled with mypyc" if COMPILED_RULES else "rules/ in pure Python"
