"""Rules version 1 (`epic-1`, `pathfinder-1`, rules/v1): today's fold gives a version 1 battle the very
outcomes the rules of commit 3d3a22b^ recorded, and leaves version 2 battles as they are (DESIGN §3.5)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from eventstore.canonical import canonical_json
from rules import v1
from rules.dice import commitment
from rules.fold import BATTLE_CREATED, CONCLUDE, Battle, Entry, LogEntry, Seeds, encode_battle, project, step
from rules.registry import get_ruleset, ruleset_names
from rules.undo import Rewinder
from tests.harness import TEST_SEED, Table
from tests.rules.epic import given as epic
from tests.rules.pathfinder import given as pf

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


def log_of(
    ruleset: str, rules_version: str, commands: list[dict[str, Any]], options: Mapping[str, Any] | None = None
) -> list[LogEntry]:
    created = {
        "ruleset": ruleset,
        "rules_version": rules_version,
        "options": dict(options or {}),
        "dice_commitment": commitment(TEST_SEED),
        "client_seed": "",
        "name": None,
    }
    entries: list[LogEntry] = [Entry(version=1, type=BATTLE_CREATED, data=created, dice={})]
    entries += [entry_of(version, command) for version, command in enumerate(commands, 2)]
    return entries


def entry_of(version: int, command: Mapping[str, Any]) -> Entry:
    body = {k: v for k, v in command.items() if k not in ("type", "dice")}
    return Entry(version=version, type=command["type"], data=body, dice=command.get("dice", {}))


class V1Table:
    """A version 1 battle folded one command at a time, as `tests.harness.RulesTable` folds today's."""

    def __init__(self, ruleset: str, options: Mapping[str, Any] | None = None) -> None:
        self.seeds = Seeds(server_seed=TEST_SEED)
        self.battle, created = step(None, log_of(ruleset, f"{ruleset}-1", [], options)[0], self.seeds)
        self.outcomes: list[dict[str, Any]] = [created]

    def send(self, command: Mapping[str, Any]) -> dict[str, Any]:
        self.battle, outcome = step(self.battle, entry_of(self.battle.version + 1, command), self.seeds)
        self.outcomes.append(outcome)
        return outcome

    def state(self) -> dict[str, Any]:
        game: dict[str, Any] = encode_battle(self.battle)["game"]
        return game


def told(table: Table) -> str:
    """The summary of a version 1 table's last outcome."""
    assert isinstance(table, V1Table)
    summary: str = table.outcomes[-1]["summary"]
    return summary


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
    commands: list[dict[str, Any]] = [
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
    commands: list[dict[str, Any]] = [
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
    commands: list[dict[str, Any]] = [
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


@pytest.mark.rule("EP-ASSAULT-06", "EP-CLIMB-05")
def test_a_v1_undefended_climb_is_told_with_its_verdict() -> None:
    """An assault whose defender was shot meanwhile is an undefended climb: `{stand} climbs {section}: …`."""
    t = V1Table("epic")
    epic.section(t, "S")
    epic.stand(t, "goff", side="defender", caf=2, location=epic.on("S"))
    epic.stand(t, "csm", caf=3, location=epic.at_foot("S"))
    epic.stand(t, "gun")
    epic.order(t, "csm", "charge")
    epic.order(t, "gun", "first_fire")
    epic.advance(t)
    epic.climb(t, "csm", "S")
    assert told(t) == "csm will have to fight for S"
    epic.advance(t)
    t.send(epic.fire_at_stand("gun", "goff", epic.weapon("las", 3), to_hit=[6]))
    epic.advance(t)
    assert epic.assault(t, "csm", "S", attacker=[2, 2])["kind"] == "undefended_climb"
    assert told(t) == "csm climbs S: success"


@pytest.mark.rule("EP-WARENGINE-01", "EP-WARENGINE-03")
def test_a_v1_war_engine_assault_is_told_with_its_verdict() -> None:
    t = V1Table("epic")
    epic.section(t, "G", "gate", capacity=2)
    epic.stand(t, "g1", side="defender", caf=2, location=epic.on("G"))
    epic.stand(t, "titan", "war_engine", caf=1, has_cc_weapon=True, location=epic.at_foot("G"))
    epic.order(t, "titan", "charge")
    epic.gate_order(t, "G", "first_fire")
    epic.advance_to(t, "close_combat")
    assert epic.assault(t, "titan", "G", attacker=[2, 3])["kind"] == "war_engine"
    assert told(t) == "titan attacks G: failure"


@pytest.mark.rule("EP-ASSAULT-06", "EP-BEHIND-01")
def test_a_v1_automatic_assault_is_told_unopposed() -> None:
    """A climb from behind onto a section whose defender was shot meanwhile is taken without a fight."""
    t = V1Table("epic")
    epic.section(t, "S")
    epic.stand(t, "goff", side="defender", caf=2, location=epic.on("S"))
    epic.stand(t, "csm", caf=3, location=epic.INSIDE)
    epic.stand(t, "gun")
    epic.order(t, "csm", "charge")
    epic.order(t, "gun", "first_fire")
    epic.advance(t)
    epic.climb(t, "csm", "S")
    epic.advance(t)
    t.send(epic.fire_at_stand("gun", "goff", epic.weapon("las", 3), to_hit=[6]))
    epic.advance(t)
    assert epic.assault(t, "csm", "S")["kind"] == "automatic"
    assert told(t) == "csm climbs onto S unopposed"


@pytest.mark.rule("EP-SHOOT-03", "EP-SHOOT-04")
def test_a_v1_stand_hit_that_saves_is_told_hit() -> None:
    t = V1Table("epic")
    epic.stand(t, "gun", "vehicle")
    epic.stand(t, "gs", side="defender", save=4, location=epic.INSIDE)
    epic.order(t, "gun", "first_fire")
    epic.advance_to(t, "first_fire")
    shot = t.send(epic.fire_at_stand("gun", "gs", epic.weapon("las", 3), to_hit=[3], unit_save=[4]))
    assert (shot["result"]["to_hit"]["hit"], shot["result"]["stand_destroyed"]) == (True, False)
    assert told(t) == "gun fires at gs: hit"


@pytest.mark.rule("PF-MOVE-02", "PF-MOVE-05")
def test_a_v1_engine_moved_is_told_carried_as_cargo_or_under_its_own_speed() -> None:
    t = pf.park(V1Table, pf.engine("cs", "catapult_standard"), pf.engine("bs", "bombard_standard"))
    pf.applied(t, pf.move("cs", 50, 50))
    assert told(t) == "cs moved 375 ft as cargo"
    pf.applied(t, pf.move("bs", 0, 2, carried=True))
    assert told(t) == "bs moved 10 ft carried"


@pytest.mark.rule("PF-MISFIRE-03")
def test_a_v1_shot_that_explodes_is_told_exploded() -> None:
    t = pf.firearm(V1Table, {**pf.PROFICIENT, "hp": 40}, broken=True)
    pf.applied(t, pf.fire("cn", {"attack": [2], "explosion_damage": [6] * 6, "explosion_reflex": [20, 1]}))
    assert told(t) == "cn fired (direct): exploded"


@pytest.mark.rule("PF-DISABLE-01")
def test_a_v1_disable_is_told_when_it_takes_effect_or_that_it_fails() -> None:
    t = pf.disabling(V1Table, pf.engine("lc", "catapult_light"), pf.engine("lb", "ballista_light"))
    pf.applied(t, pf.disable("lc", "inoperable", {"disable_rounds": [2, 3], "check": [12]}))
    assert told(t) == "rogue works 5 rounds to inoperable lc: takes effect at round 6"
    pf.applied(t, pf.advance(6))
    pf.applied(t, pf.disable("lb", "inoperable", {"disable_rounds": [1, 1], "check": [9]}))
    assert told(t) == "rogue works 2 rounds to inoperable lb: fails"


@pytest.mark.rule("PF-ASSAULT-07")
def test_a_v1_corvus_dislodged_is_told_holds_dislodged_or_destroyed() -> None:
    t = pf.deployed(V1Table)
    pf.applied(t, pf.dislodge("def1", "strength", {"check": [20]}))
    assert told(t) == "cv holds (24 vs DC 30)"
    pf.applied(t, pf.advance())
    pf.applied(t, pf.dislodge("drv", "driving", {"check": [18], "save": [14, 15, 3]}, driving_modifier=12))
    assert told(t) == "cv dislodged (30 vs DC 30)"
    t = pf.deployed(V1Table)
    pf.applied(t, pf.dislodge("drv", "driving", {"check": [20], "save": [10, 10, 10]}, driving_modifier=15))
    assert told(t) == "cv destroyed (35 vs DC 30)"
