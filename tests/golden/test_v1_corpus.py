"""The version 1 corpus (`epic-1/`, `pathfinder-1/`) shows everything version 1 could record, so that its
verification and import (test_golden.py) prove rules/v1 against all of it."""

from __future__ import annotations

import pytest

from rules.fold import CONCLUDE, UNDO
from rules.registry import get_ruleset
from tests.golden.corpus import Feature, features
from tests.golden.test_golden import GOLDEN, carried

# the reason codes version 1 could not answer: it had no undo (measured: its rulesets' lists at 3d3a22b^
# are today's without this one)
NOT_IN_V1 = {"nothing_to_undo"}


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_the_v1_corpus_covers_every_command_reason_and_kind_of_dice(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    shown: set[Feature] = set()
    for path in sorted((GOLDEN / f"{ruleset}-1").glob("*.jsonl")):
        events = carried(path)
        shown |= features({"ruleset": ruleset, "entries": events}, [event["outcome"] for event in events])

    commands = {*rules.commands, CONCLUDE}
    assert {f[1] for f in shown if f[0] == "applied"} >= commands
    assert {f[1] for f in shown if f[0] == "rejected"} >= {*commands, UNDO}  # undo: an unknown command
    assert {f[1] for f in shown if f[0] == "reason"} == set(rules.reasons) - NOT_IN_V1
    assert {("dice", "client"), ("dice", "stream"), ("dice", "supplied"), ("client_seed",)} <= shown
    assert {f[1] for f in shown if f[0] == "option"} == set(rules.default_options)
    assert ("undo", "applied") not in shown
