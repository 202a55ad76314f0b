"""The fold's own checks (rules/fold.py): entries in version order, and a refusal that names what is behind
it (DESIGN §5: a rejection carries `reason` and `detail`)."""

from __future__ import annotations

import pytest

from rules.errors import UnfoldableRules
from rules.fold import BATTLE_CREATED, Entry, Seeds, step
from rules.registry import get_ruleset
from tests.harness import RulesTable

SEEDS = Seeds(server_seed=bytes(32))
CREATED = {"ruleset": "pathfinder", "dice_commitment": "", "client_seed": "", "name": None}


def test_a_history_starts_with_battle_created_at_version_1() -> None:
    battle, outcome = step(None, Entry(version=1, type=BATTLE_CREATED, data=CREATED, dice={}), SEEDS)
    assert (battle.version, outcome["status"]) == (1, "applied")
    for version, kind in ((2, BATTLE_CREATED), (1, "advance_round"), (2, "advance_round")):
        data = CREATED if kind == BATTLE_CREATED else {}
        with pytest.raises(ValueError, match=r"^a battle's history starts with battle_created at version 1$"):
            step(None, Entry(version=version, type=kind, data=data, dice={}), SEEDS)


def test_an_entry_out_of_order_is_refused_naming_the_version_expected() -> None:
    table = RulesTable("pathfinder")
    table.send({"type": "advance_round"})
    head = table.battle  # version 2
    for version in (1, 2, 4):
        entry = Entry(version=version, type="advance_round", data={}, dice={})
        with pytest.raises(ValueError, match=rf"^fold expected version 3, got {version}$"):
            step(head, entry, table.seeds)


@pytest.mark.parametrize("ruleset", ["pathfinder", "epic"])
def test_an_unknown_command_is_rejected_with_its_type_as_detail(ruleset: str) -> None:
    outcome = RulesTable(ruleset).send({"type": "fly"})
    assert (outcome["status"], outcome["reason"], outcome["detail"]) == (
        "rejected",
        "unknown_command",
        {"command": "fly"},
    )
    assert outcome["result"] is None and outcome["rolls"] == [] and outcome["changes"] == []


def test_a_battle_created_with_its_ruleset_alone_takes_the_current_rules_and_no_commitment() -> None:
    battle, _ = step(
        None, Entry(version=1, type=BATTLE_CREATED, data={"ruleset": "pathfinder"}, dice={}), SEEDS
    )
    ruleset = get_ruleset("pathfinder")
    assert (battle.rules_version, battle.dice_commitment, battle.options) == (
        ruleset.rules_version,
        "",
        ruleset.default_options,
    )


@pytest.mark.parametrize("ruleset", ["pathfinder", "epic"])
def test_a_battle_pinned_to_rules_this_release_does_not_fold_is_refused_as_such(ruleset: str) -> None:
    """DESIGN §3.5: never folded with other rules; the refusal names the ruleset, the version pinned and
    those this release folds."""
    data = {**CREATED, "ruleset": ruleset, "rules_version": "0.0-never"}
    with pytest.raises(
        UnfoldableRules, match=rf"^the battle needs rules version 0\.0-never of {ruleset}$"
    ) as refused:
        step(None, Entry(version=1, type=BATTLE_CREATED, data=data, dice={}), SEEDS)
    assert (refused.value.ruleset, refused.value.rules_version, refused.value.supported) == (
        ruleset,
        "0.0-never",
        get_ruleset(ruleset).rules_versions,
    )
