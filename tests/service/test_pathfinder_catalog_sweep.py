"""Every engine of the pathfinder catalog, used through the HTTP API (issue 3): the ruleset lists them all,
each ranged engine is placed, crewed, loaded, aimed and fired, each close-assault engine does its job, and
the legacy entries are refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from eventstore.redis_store import RedisEventStore
from tests.service.pathfinder_sweep import (
    ASSAULT,
    BY_ID,
    OTHER,
    PACKAGED,
    RANGED,
    SPRINGAL_STATS,
    UNSUPPORTED,
    ApiBattle,
    at,
    contributors,
    creature,
    crewed,
    dice_of,
    pick,
    placed,
)

rule = pytest.mark.rule
# the read-only contract folder sits beside the repository root (CI lays it there too)
SPEC = Path(__file__).resolve().parents[3] / "shared" / "spec" / "pathfinder-engines.json"
VICTIM_HP = 500
VICTIM_AC = 10
NATURAL = 18  # hits everything below and threatens nothing (ballistas threaten from 19), no misfire
AREA = ("firedrake", "firewyrm")


def spec_catalog() -> dict[str, Any]:
    """The contract's file when mounted, else the packaged copy (proven equal by tests/rules)."""
    if SPEC.exists():
        loaded: dict[str, Any] = json.loads(SPEC.read_text())
        return loaded
    return PACKAGED


@rule("PF-ENGINE-01")
def test_the_ruleset_lists_every_catalog_engine_and_ammunition(client: FlaskClient) -> None:
    described = client.get("/rulesets/pathfinder")

    assert described.status_code == 200
    catalog = described.get_json()["catalog"]
    spec = spec_catalog()
    assert [e["id"] for e in catalog["engines"]] == [e["id"] for e in spec["engines"]]
    assert [a["id"] for a in catalog["ammunition"]] == [a["id"] for a in spec["ammunition_types"]]


def test_the_sweep_covers_the_whole_catalog() -> None:
    assert OTHER == []
    assert len(RANGED) == 18 and len(ASSAULT) == 22 and len(UNSUPPORTED) == 7
    assert {family(cid) for cid in ASSAULT} == set(USE)


@rule("PF-ENGINE-01")
@pytest.mark.parametrize("catalog_id", UNSUPPORTED)
def test_a_legacy_or_unverified_entry_is_refused(
    client: FlaskClient, redis_store: RedisEventStore, catalog_id: str
) -> None:
    battle = ApiBattle(client, redis_store)
    placing = {"type": "place_engine", "id": "e", "catalog_id": catalog_id, "position": at(0, 0)}
    assert battle.rejected(placing) == "engine_not_supported"


# --- ranged engines: place, crew, load, aim, fire ------------------------------------------------------


def mode_of(catalog_id: str, direct_bombard: bool) -> str:
    if catalog_id in AREA:
        return "area"
    if BY_ID[catalog_id]["fire_mode"] == "direct" or direct_bombard:
        return "direct"
    return "indirect"


def victim_square(catalog_id: str, mode: str) -> dict[str, int]:
    """Direct and area targets at 25 ft; squares at the minimum range, inside the first increment."""
    if mode == "indirect":
        return at(0, BY_ID[catalog_id]["min_range_ft"] // 5)
    return at(0, 5)


def load_fully(battle: ApiBattle, crew_ids: list[str], requirement: int) -> None:
    """PF-LOAD-01/02: one full-round action per crew member and round until loaded."""
    progress = 0
    while progress < requirement:
        units = min(requirement - progress, len(crew_ids))
        loading = {"type": "load", "engine_id": "e", "contributors": contributors(crew_ids, units)}
        result = battle.applied(loading)
        progress += units
        expected = (units, progress, requirement, progress == requirement, "standard")
        fields = ("units_added", "load_progress", "load_requirement", "loaded", "ammunition")
        assert tuple(result[f] for f in fields) == expected
        battle.advance()


def aim_fully(battle: ApiBattle, crew_ids: list[str], target: dict[str, Any], mode: str, need: int) -> None:
    """PF-AIM-01/02/05: aim at the target until the progress meets the (full crew) requirement."""
    progress = 0
    while progress < need:
        units = min(need - progress, len(crew_ids))
        aiming = {
            "type": "aim",
            "engine_id": "e",
            "target": target,
            "contributors": contributors(crew_ids, units),
        }
        result = battle.applied(aiming)
        progress += units
        assert (result["mode"], result["aim_progress"], result["aimed"]) == (mode, progress, progress == need)
        assert (result["range"]["penalty"], result["range"]["increments"] in (1, None)) == (0, True)
        battle.advance()


def fire_dice(catalog_id: str, mode: str) -> dict[str, list[int]]:
    slot = {"direct": "attack", "indirect": "targeting", "area": "operation"}[mode]
    dice = {slot: [NATURAL], "damage": dice_of(BY_ID[catalog_id]["damage"], start=2)}
    if mode == "area" or (mode == "indirect" and catalog_id.startswith("catapult")):
        dice["save"] = [1]  # PF-ENGINE-03, PF-INDIRECT-08: a failed Reflex save, full damage
    return dice


def sweep(battle: ApiBattle, catalog_id: str, direct_bombard: bool = False) -> tuple[dict[str, Any], str]:
    """Everything up to the shot; returns the `fire` outcome and the mode."""
    spec, mode = BY_ID[catalog_id], mode_of(catalog_id, direct_bombard)
    square = victim_square(catalog_id, mode)
    setup = crewed(placed(catalog_id))
    battle.setup(*setup, creature("victim", hp=VICTIM_HP, **square))
    crew_ids = setup[-1]["creature_ids"]
    target = {"creature_id": "victim"} if mode == "direct" else {"square": square}
    load_fully(battle, crew_ids, spec["load"])
    if spec["aim"]:
        aim_fully(battle, crew_ids, target, mode, spec["aim"])
    shot: dict[str, Any] = {"type": "fire", "engine_id": "e", "dice": fire_dice(catalog_id, mode)}
    if not spec["aim"]:
        shot["target"] = target  # PF-AIM-03
    if mode == "area":
        shot["area"] = {"shape": "line", "target_ids": ["victim"]}
    return battle.send(shot), mode


def expected_roll(catalog_id: str, mode: str, direct_bombard: bool) -> tuple[list[dict[str, Any]], Any]:
    """PF-DIRECT-01 / PF-INDIRECT-01 terms of the leader (bab 10, Knowledge 1 rank +2) and the number."""
    if mode == "area":
        return [], None  # PF-MISHAP-03: the operation check has no modifiers and no number
    terms = [{"label": "bab", "value": 10}]
    if mode == "indirect":
        dc = BY_ID[catalog_id]["targeting_dc"] or SPRINGAL_STATS["targeting_dc"]
        return [*terms, {"label": "knowledge_engineering", "value": 2}], dc
    if direct_bombard:
        terms.append({"label": "bombard_direct", "value": -4})
    return terms, VICTIM_AC


def check_shot(fired: dict[str, Any], catalog_id: str, mode: str, direct_bombard: bool = False) -> None:
    """A hit for exactly the supplied damage dice (no static modifier: PF-DIRECT-05, PF-ENGINE-03)."""
    assert fired["status"] == "applied", fired["reason"]
    result, dice = fired["result"], fire_dice(catalog_id, mode)
    modifiers, number = expected_roll(catalog_id, mode, direct_bombard)
    flags = pick(result, "kind", "mode", "hit", "threat", "critical_multiplier", "mishap", "misfire")
    assert flags == {
        "kind": mode,
        "mode": mode,
        "hit": True,
        "threat": False,
        "critical_multiplier": 1,
        "mishap": False,
        "misfire": False,
    }
    total = NATURAL + sum(m["value"] for m in modifiers)
    assert pick(result["roll"], "natural", "modifiers", "total", "target_number") == {
        "natural": NATURAL,
        "modifiers": modifiers,
        "total": total,
        "target_number": number,
    }
    if mode == "indirect":
        assert result["landing"] == {"square": victim_square(catalog_id, mode), "scatter": None}
    damage = sum(dice["damage"])
    assert result["damage"] == {"dice": dice["damage"], "static": 0, "total": damage, "base": damage}
    [hit] = result["effects"]
    assert pick(hit, "entity_id", "damage_in", "damage_after_save", "hp_loss", "hp_before", "hp_after") == {
        "entity_id": "victim",
        "damage_in": damage,
        "damage_after_save": damage,  # PF-ENGINE-03, PF-INDIRECT-08: the save failed
        "hp_loss": damage,
        "hp_before": VICTIM_HP,
        "hp_after": VICTIM_HP - damage,
    }
    assert (hit["save"] is None, hit["conditions_added"]) == (
        "save" not in dice,
        ["on_fire"] * (mode == "area"),
    )
    assert (result["engine_after"]["loaded"], result["unused_dice"]) == (False, [])
    assert [r["slot"] for r in fired["rolls"]] == [slot for slot, values in dice.items() for _ in values]


RANGED_RULES = {
    "direct": ("PF-DIRECT-01", "PF-DIRECT-02", "PF-DIRECT-03", "PF-DIRECT-05"),
    "indirect": ("PF-INDIRECT-01", "PF-INDIRECT-02", "PF-INDIRECT-03", "PF-INDIRECT-07"),
    "area": ("PF-ENGINE-03", "PF-MISHAP-03"),
}


def ranged_case(catalog_id: str) -> Any:
    rules = RANGED_RULES[mode_of(catalog_id, False)]
    return pytest.param(catalog_id, marks=rule("PF-LOAD-01", "PF-LOAD-02", "PF-AIM-01", "PF-AIM-02", *rules))


@rule("PF-ENGINE-01", "PF-CREW-01", "PF-CREW-03", "PF-AIM-05", "PF-LOAD-04", "PF-TIME-05")
@pytest.mark.parametrize("catalog_id", [ranged_case(cid) for cid in RANGED])
def test_every_ranged_engine_is_loaded_aimed_and_fired_over_the_api(
    client: FlaskClient, redis_store: RedisEventStore, catalog_id: str
) -> None:
    battle = ApiBattle(client, redis_store)

    fired, mode = sweep(battle, catalog_id)

    check_shot(fired, catalog_id, mode)
    victim = next(c for c in battle.state()["creatures"] if c["id"] == "victim")
    assert victim["hp"] == VICTIM_HP - fired["result"]["damage"]["total"]


@rule("PF-ENGINE-08", "PF-AIM-01", "PF-DIRECT-01")
@pytest.mark.parametrize("catalog_id", [cid for cid in RANGED if cid.startswith("bombard")])
def test_every_bombard_also_fires_direct_at_a_creature(
    client: FlaskClient, redis_store: RedisEventStore, catalog_id: str
) -> None:
    battle = ApiBattle(client, redis_store)

    fired, mode = sweep(battle, catalog_id, direct_bombard=True)

    check_shot(fired, catalog_id, mode, direct_bombard=True)


# --- close-assault engines: each through its own command -----------------------------------------------

SIZES = ("large", "huge", "gargantuan", "colossal")
RAM_SIZE_BONUS = {"L": 4, "H": 8, "G": 12, "C": 16}  # PF-STRUCT-07
BRIDGE_SQUARES = {"L": 4, "H": 6, "G": 8, "C": 12}  # PF-ASSAULT-05: length_ft / 5
GATE = {  # PF-STRUCT-03: a Colossal wooden gate, ac 0, hardness 5, hp 540, with an easy break DC
    "type": "add_structure",
    "id": "gate",
    "kind": "gate",
    "material": "wood",
    "size": "C",
    "position": at(0, 1),
    "stat_overrides": {"break_dc": 20},
}


def family(catalog_id: str) -> str:
    stem, _, size = catalog_id.rpartition("_")
    return stem if size in SIZES else catalog_id


def ram_and_break_a_gate(battle: ApiBattle, catalog_id: str) -> None:
    """A charging, proficient leader (bab 10, str 1) rams the gate, then the crew breaks it open."""
    spec = BY_ID[catalog_id]
    setup = crewed(placed(catalog_id))
    battle.setup(*setup, GATE)
    dice = dice_of(spec["damage"], start=2)
    ram = {"type": "ram", "engine_id": "e", "target": {"structure_id": "gate"}}
    rammed = battle.applied({**ram, "dice": {"attack": [NATURAL], "damage": dice}})
    assert pick(rammed["roll"], "modifiers", "total", "target_number", "success") == {
        "modifiers": [{"label": "bab", "value": 10}, {"label": "str", "value": 1}],
        "total": NATURAL + 11,
        "target_number": 0,
        "success": True,
    }
    strength = len(setup[-1]["creature_ids"])  # PF-ASSAULT-02: every member's str +1, the leader once
    damage = sum(dice) + strength
    assert rammed["damage"] == {"dice": dice, "static": strength, "total": damage, "base": damage}
    [gate] = rammed["effects"]
    assert pick(gate, "entity_id", "hardness_applied", "hp_loss", "hp_after") == {
        "entity_id": "gate",
        "hardness_applied": 5,
        "hp_loss": damage - 5,
        "hp_after": 540 - (damage - 5),
    }
    battle.advance()  # PF-ASSAULT-03: the charge took every member's full-round action
    broke = battle.applied({"type": "break", "structure_id": "gate", "engine_id": "e", "dice": {"check": 10}})
    assist, size = 2 * (spec["crew"] - 1), RAM_SIZE_BONUS[spec["size"]]
    terms = {"str": 1, "ram_base": 2, "ram_assist": assist, "ram_size": size}
    assert broke["check"]["modifiers"] == [{"label": k, "value": v} for k, v in terms.items()]
    assert (broke["dc"], broke["check"]["total"], broke["success"]) == (20, 13 + assist + size, True)
    assert broke["structure_after"] == {"broken": True, "breached": True, "hardness": 2}


def move_at_full_speed(battle: ApiBattle, catalog_id: str) -> None:
    """Galleries and towers at 15 ft (PF-ASSAULT-08/10), ladders at their crew's 30 ft (PF-ASSAULT-09)."""
    speed = 30 if catalog_id.startswith("ladder") else 15
    battle.setup(*crewed(placed(catalog_id)))
    moved = battle.applied({"type": "move_engine", "engine_id": "e", "to": at(speed // 5, 0)})
    assert pick(moved, "from", "to", "distance_ft", "speed_ft", "aim_reset") == {
        "from": at(0, 0),
        "to": at(speed // 5, 0),
        "distance_ft": speed,
        "speed_ft": speed,
        "aim_reset": True,
    }
    assert battle.state()["engines"][0]["position"] == at(speed // 5, 0)


def raise_a_bridge(battle: ApiBattle, catalog_id: str) -> None:
    """Four lifters the bridge's size add a unit each per round until it spans its length."""
    size = BY_ID[catalog_id]["size"]
    lifters = [f"l{n}" for n in range(4)]
    battle.setup(placed(catalog_id), *(creature(lifter, size=size) for lifter in lifters))
    requirement, progress = BRIDGE_SQUARES[size], 0
    while progress < requirement:
        units = min(4, requirement - progress)
        lifted = battle.applied({"type": "raise_bridge", "engine_id": "e", "contributors": lifters[:units]})
        progress += units
        assert pick(lifted, "units_added", "progress", "requirement", "raised") == {
            "units_added": units,
            "progress": progress,
            "requirement": requirement,
            "raised": progress == requirement,
        }
        battle.advance()
    assert battle.state()["engines"][0]["bridge"]["raised"] is True


def drop_and_dislodge_a_corvus(battle: ApiBattle, catalog_id: str) -> None:
    """The leader drops it (Profession +3 vs DC 10); a brute (str 4) heaves it off its one rider."""
    rider = creature("rider", y=1, saves={"ref": 1})
    battle.setup(*crewed(placed(catalog_id)), creature("brute", str_mod=4), rider)
    drop = {"type": "use_corvus", "engine_id": "e", "action": "drop", "dice": {"check": 10}}
    dropped = battle.applied(drop)
    assert (dropped["check"]["total"], dropped["check"]["target_number"]) == (13, 10)
    assert pick(dropped, "success", "deployed", "needs_reset") == {
        "success": True,
        "deployed": True,
        "needs_reset": False,
    }
    heave = {"type": "dislodge_corvus", "engine_id": "e", "by": "brute", "method": "strength"}
    loose = battle.applied({**heave, "occupant_ids": ["rider"], "dice": {"check": NATURAL, "save": 1}})
    assert pick(loose, "dc", "success", "margin", "corvus_destroyed") == {
        "dc": 20,  # 15 + 5 per Small or Medium occupant
        "success": True,
        "margin": 2,
        "corvus_destroyed": False,
    }
    save = {"type": "ref", "dc": 15, "natural": 1, "bonus": 1, "total": 2, "success": False}
    assert loose["occupants"] == [{"id": "rider", "save": save, "fell": True}]


def crush_a_creature(battle: ApiBattle, catalog_id: str) -> None:
    """One 4d6 roll; the victim fails its Reflex save: full damage and prone."""
    battle.setup(*crewed(placed(catalog_id)), creature("victim", hp=VICTIM_HP, y=1))
    dice = dice_of(BY_ID[catalog_id]["damage"], start=2)
    crush = {"type": "crush", "engine_id": "e", "target_ids": ["victim"]}
    crushed = battle.applied({**crush, "dice": {"damage": dice, "save": 1}})
    damage = sum(dice)
    assert crushed["damage"] == {"dice": dice, "static": 0, "total": damage, "base": damage}
    [hit] = crushed["effects"]
    assert pick(hit, "entity_id", "hp_loss", "hp_after", "conditions_added") == {
        "entity_id": "victim",
        "hp_loss": damage,
        "hp_after": VICTIM_HP - damage,
        "conditions_added": ["prone"],
    }
    assert hit["save"]["success"] is False


USE: dict[str, tuple[Callable[[ApiBattle, str], None], tuple[str, ...]]] = {
    "ram": (ram_and_break_a_gate, ("PF-ASSAULT-01", "PF-ASSAULT-02", "PF-ASSAULT-03", "PF-STRUCT-07")),
    "siege_tower": (move_at_full_speed, ("PF-ASSAULT-10", "PF-MOVE-01", "PF-MOVE-03")),
    "gallery": (move_at_full_speed, ("PF-ASSAULT-08", "PF-MOVE-01")),
    "ladder_escalade": (move_at_full_speed, ("PF-ASSAULT-09", "PF-MOVE-01", "PF-MOVE-03")),
    "bridge_assault": (raise_a_bridge, ("PF-ASSAULT-05",)),
    "corvus": (drop_and_dislodge_a_corvus, ("PF-ASSAULT-06", "PF-ASSAULT-07")),
    "crushing_wheel": (crush_a_creature, ("PF-ASSAULT-11",)),
}


def assault_case(catalog_id: str) -> Any:
    return pytest.param(catalog_id, marks=rule(*USE[family(catalog_id)][1]))


@rule("PF-ENGINE-01", "PF-CREW-01", "PF-CREW-03")
@pytest.mark.parametrize("catalog_id", [assault_case(cid) for cid in ASSAULT])
def test_every_close_assault_engine_is_used_through_its_command(
    client: FlaskClient, redis_store: RedisEventStore, catalog_id: str
) -> None:
    battle = ApiBattle(client, redis_store)

    USE[family(catalog_id)][0](battle, catalog_id)
