"""Rules version 1 (`epic-1`, `pathfinder-1`, rules/v1): today's fold gives a version 1 battle the very
outcomes the rules of commit 3d3a22b^ recorded, and leaves version 2 battles as they are (DESIGN §3.5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eventstore.canonical import canonical_json
from rules import v1
from rules.dice import commitment
from rules.fold import BATTLE_CREATED, CONCLUDE, Battle, Entry, LogEntry, Seeds, encode_battle, project
from rules.registry import get_ruleset, ruleset_names
from rules.undo import Rewinder
from tests.harness import TEST_SEED

GOLDEN = Path(__file__).parents[1] / "golden"
V1_FILES = sorted(p for version in ("epic-1", "pathfinder-1") for p in (GOLDEN / version).glob("*.jsonl"))
# each v1 golden battle's final state as 3d3a22b^ encoded it, what its workers stored (fold_elsewhere.py)
V1_STATES = {s["name"]: s for s in map(json.loads, (GOLDEN / "v1_states.jsonl").read_text().splitlines())}
# a version 1 outcome's keys (its fold at 3d3a22b^): a `summary`, no `detail`
V1_KEYS = {"version", "type", "status", "reason", "result", "rolls", "summary", "changes", "hash"}


def exported(path: Path) -> list[dict[str, Any]]:
    """Each line's entry and recorded outcome (the CloudEvent's data)."""
    return [json.loads(line)["data"] for line in path.read_bytes().splitlines()]


def folded(entries: list[LogEntry], seeds: Seeds) -> list[tuple[Battle[Any], dict[str, Any]]]:
    """Today's fold, exactly as the workers run it (a rewinder, though version 1 has no undo)."""
    rewind = Rewinder(lambda after, upto: entries[after:upto], lambda: seeds)
    return list(project(None, entries, seeds, rewind))


def refolded(entries: list[LogEntry], seeds: Seeds) -> list[dict[str, Any]]:
    return [outcome for _battle, outcome in folded(entries, seeds)]


def log_of(ruleset: str, rules_version: str, commands: list[dict[str, Any]]) -> list[LogEntry]:
    created = {
        "ruleset": ruleset,
        "rules_version": rules_version,
        "options": {},
        "dice_commitment": commitment(TEST_SEED),
        "client_seed": "",
        "name": None,
    }
    entries: list[LogEntry] = [Entry(version=1, type=BATTLE_CREATED, data=created, dice={})]
    for version, command in enumerate(commands, 2):
        body = {k: v for k, v in command.items() if k not in ("type", "dice")}
        entries.append(Entry(version=version, type=command["type"], data=body, dice=command.get("dice", {})))
    return entries


@pytest.mark.parametrize("path", V1_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_v1_golden_battle_folds_today_to_the_outcomes_and_state_3d3a22b_parent_recorded(path: Path) -> None:
    lines = exported(path)
    entries: list[LogEntry] = [
        Entry(version=e["version"], type=e["type"], data=e["data"], dice=e["dice"], hash=e["hash"])
        for e in lines
    ]
    # every golden battle is concluded, which reveals its seeds
    (revealed,) = [e["outcome"]["result"] for e in lines if e["type"] == CONCLUDE and e["outcome"]["result"]]
    seeds = Seeds(server_seed=bytes.fromhex(revealed["server_seed"]), client_seed=revealed["client_seed"])

    steps = folded(entries, seeds)

    assert [canonical_json(o) for _b, o in steps] == [canonical_json(e["outcome"]) for e in lines]
    assert all(set(e["outcome"]) == V1_KEYS for e in lines)
    final, recorded = steps[-1][0], V1_STATES[path.stem]
    assert (final.version, canonical_json(encode_battle(final))) == (recorded["version"], recorded["state"])


def test_a_v1_battle_differs_from_the_same_log_at_v2_only_by_summary_and_detail() -> None:
    commands = [
        {"type": "add_fortification", "id": "W1", "kind": "wall"},
        {"type": "add_stand", "id": "s1", "stand_type": "infantry", "side": "attacker", "caf": 2,
         "speed_cm": 15, "location": {"kind": "at_foot", "section_id": "W9"}},
        {"type": "advance_phase"},
        {"type": "conclude"},
    ]  # fmt: skip
    seeds = Seeds(server_seed=TEST_SEED)
    old = refolded(log_of("epic", "epic-1", commands), seeds)
    new = refolded(log_of("epic", "epic-2", commands), seeds)

    assert [o["summary"] for o in old] == [
        "Epic fortress siege (Space Marine 2 / Titan Legions) battle created",
        "wall W1 added",
        "rejected: unknown_entity",
        "turn 1: orders → movement",
        "battle concluded; the dice seed is revealed",
    ]
    assert new[2]["detail"] == {"field": "section_id", "id": "W9", "kind": "section"}
    assert old[0]["result"]["rules_version"] == "epic-1"  # what the battle is pinned to, as created
    old[0]["result"]["rules_version"] = "epic-2"
    for before, after in zip(old, new, strict=True):
        assert set(before) == V1_KEYS and "summary" not in after
        assert {k: v for k, v in before.items() if k != "summary"} == {
            k: v for k, v in after.items() if k != "detail"
        }


@pytest.mark.parametrize("ruleset", ["epic", "pathfinder"])
def test_undo_in_a_v1_battle_is_an_unknown_command_as_v1_had_none(ruleset: str) -> None:
    seeds = Seeds(server_seed=TEST_SEED)
    outcomes = refolded(log_of(ruleset, f"{ruleset}-1", [{"type": "undo"}]), seeds)

    assert (outcomes[1]["status"], outcomes[1]["reason"]) == ("rejected", "unknown_command")
    assert outcomes[1]["summary"] == "rejected: unknown_command" and "detail" not in outcomes[1]


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_earlier_version_is_folded_by_v1_which_tells_every_command_of_the_ruleset(ruleset: str) -> None:
    rules = get_ruleset(ruleset)
    assert set(rules.earlier_versions) <= v1.VERSIONS
    assert f"{ruleset}-1" in rules.earlier_versions
    # a command added after version 1 would be applied to a v1 battle, which answered unknown_command:
    # such a command must be refused for version 1 first (rules/v1), then listed here
    assert set(v1.summaries(ruleset)) == set(rules.commands)


def test_a_v1_shot_is_told_hit_miss_or_destroyed_as_version_1_told_it() -> None:
    """The corpus shows `gun fires at W1: hit` and `gun fires at victim: destroyed`; a miss is told the same
    way, at a section or at a stand."""
    las = {"id": "las", "to_hit": 3, "save_modifier": 0}

    def shot(gun: str, target: dict[str, str], to_hit: int) -> dict[str, Any]:
        return {
            "type": "fire",
            "stand_id": gun,
            "weapon": las,
            "target": target,
            "dice": {"to_hit": [to_hit]},
        }

    stands = [
        {"type": "add_stand", "id": g, "stand_type": "infantry", "side": "attacker", "caf": 1, "speed_cm": 10,
         "location": {"kind": "outside"}}
        for g in ("g1", "g2", "g3")
    ]  # fmt: skip
    target = {"type": "add_stand", "id": "goff", "stand_type": "infantry", "side": "defender", "caf": 1,
              "speed_cm": 10, "location": {"kind": "on", "section_id": "W1"}}  # fmt: skip
    commands = [
        {"type": "add_fortification", "id": "W1", "kind": "wall"},
        *stands,
        target,
        *({"type": "give_order", "stand_id": g, "order": "first_fire"} for g in ("g1", "g2", "g3")),
        {"type": "advance_phase"},
        {"type": "advance_phase"},
        shot("g1", {"section_id": "W1"}, 1),
        shot("g2", {"stand_id": "goff"}, 2),
        shot("g3", {"stand_id": "goff"}, 6),
    ]
    told = [o["summary"] for o in refolded(log_of("epic", "epic-1", commands), Seeds(server_seed=TEST_SEED))]
    assert told[-3:] == ["g1 fires at W1: miss", "g2 fires at goff: miss", "g3 fires at goff: destroyed"]


def test_a_v1_pathfinder_battle_tells_a_failed_break_and_a_gate_closed_as_version_1_told_them() -> None:
    """Version 1 told a break `broken` or `holds` and a gate worked to its toggle `now open` or `now closed`
    (the corpus shows `broken` and `now open`); the shape is the corpus's."""
    gate = {"type": "add_structure", "id": "lwg", "kind": "gate", "material": "wood", "size": "L",
            "position": {"x": 0, "y": 0}}  # fmt: skip
    hands = [
        {"type": "add_creature", "id": f"p{n}", "size": "M", "ac": 10, "hp": 10, "position": {"x": 0, "y": 0}}
        for n in range(1, 4)
    ]
    commands = [
        gate,
        *hands,
        {"type": "operate_gate", "structure_id": "lwg", "contributors": ["p1", "p2", "p3"]},
        {"type": "advance_round"},
        {"type": "operate_gate", "structure_id": "lwg", "contributors": ["p1"]},
        {"type": "operate_gate", "structure_id": "lwg", "contributors": ["p2", "p3"]},
        {"type": "advance_round"},
        {"type": "break", "structure_id": "lwg", "by": "p1", "dice": {"check": [1]}},
    ]
    told = [
        o["summary"]
        for o in refolded(log_of("pathfinder", "pathfinder-1", commands), Seeds(server_seed=TEST_SEED))
    ]
    assert told[5] == "lwg: 3/3, now open"
    assert told[7:9] == ["lwg: 1/3", "lwg: 3/3, now closed"]
    assert told[10].startswith("break lwg: ") and told[10].endswith(", holds")
