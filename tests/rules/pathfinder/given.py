"""Builders for the "given" part of pathfinder tests: wire commands with the examples' defaults."""

from __future__ import annotations

from typing import Any

from tests.conftest import TableFactory
from tests.harness import Table


def at(x: int, y: int) -> dict[str, int]:
    return {"x": x, "y": y}


def creature(cid: str, *, x: int = 0, y: int = 0, **fields: Any) -> dict[str, Any]:
    """`add_creature` with the example defaults: size M, ac 10, hp 10 at (x, y)."""
    return {
        "type": "add_creature",
        "id": cid,
        "size": "M",
        "ac": 10,
        "hp": 10,
        "position": at(x, y),
        **fields,
    }


def engine(eid: str, catalog_id: str, *, x: int = 0, y: int = 0, **fields: Any) -> dict[str, Any]:
    return {"type": "place_engine", "id": eid, "catalog_id": catalog_id, "position": at(x, y), **fields}


def skill(ranks: int, modifier: int) -> dict[str, int]:
    return {"ranks": ranks, "modifier": modifier}


def crew(engine_id: str, *creature_ids: str) -> dict[str, Any]:
    """`assign_crew` with the first creature as leader."""
    return {
        "type": "assign_crew",
        "engine_id": engine_id,
        "creature_ids": list(creature_ids),
        "leader_id": creature_ids[0],
    }


def applied(table: Table, command: dict[str, Any]) -> dict[str, Any]:
    """Send a command that must be applied and return its result."""
    outcome = table.send(command)
    assert outcome["status"] == "applied", outcome["reason"]
    result: dict[str, Any] = outcome["result"]
    return result


def rejected(table: Table, command: dict[str, Any]) -> str:
    """Send a command that must be rejected and return the reason."""
    outcome = table.send(command)
    assert outcome["status"] == "rejected", outcome["result"]
    reason: str = outcome["reason"]
    return reason


def setup(table: Table, *commands: dict[str, Any]) -> None:
    for command in commands:
        applied(table, command)


def find(state: dict[str, Any], collection: str, entity_id: str) -> dict[str, Any]:
    """An entity of the projected state by id (`creatures`, `engines` or `structures`)."""
    found: dict[str, Any] = next(e for e in state[collection] if e["id"] == entity_id)
    return found


# --- steps of the worked examples ---------------------------------------------------------------------

PROFICIENT: dict[str, Any] = {"proficiencies": ["siege_engines"]}


def aimed_engine(
    eid: str, catalog_id: str, aimed_at: dict[str, Any] | None = None, *, x: int = 0, y: int = 0, **state: Any
) -> dict[str, Any]:
    """An engine placed loaded (and aimed when `aimed_at` is given), with any further starting state."""
    assembled = state.pop("assembled", None)
    start: dict[str, Any] = {"loaded": True, **state}
    if aimed_at is not None:
        start["aimed_at"] = aimed_at
    command = engine(eid, catalog_id, x=x, y=y, state=start)
    if assembled is not None:
        command["assembled"] = assembled
    return command


def square(x: int, y: int) -> dict[str, Any]:
    return {"square": at(x, y)}


def who(creature_id: str) -> dict[str, str]:
    return {"creature_id": creature_id}


def parts(*pairs: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"creature_id": cid, "actions": n} for cid, n in pairs]


def load(engine_id: str, *pairs: tuple[str, int], **fields: Any) -> dict[str, Any]:
    return {"type": "load", "engine_id": engine_id, "contributors": parts(*pairs), **fields}


def aim(engine_id: str, target: dict[str, Any], *pairs: tuple[str, int]) -> dict[str, Any]:
    return {"type": "aim", "engine_id": engine_id, "target": target, "contributors": parts(*pairs)}


def fire(engine_id: str, dice: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """A `fire` command; the dice object is sent only when dice are supplied."""
    return {"type": "fire", "engine_id": engine_id, **fields, **({"dice": dice} if dice else {})}


def advance(rounds: int = 1) -> dict[str, Any]:
    return {"type": "advance_round", "rounds": rounds}


def modifier(roll: dict[str, Any], label: str) -> int:
    """A roll's labelled modifier, 0 when the term is omitted."""
    return sum(m["value"] for m in roll["modifiers"] if m["label"] == label)


def labels(roll: dict[str, Any]) -> dict[str, int]:
    return {m["label"]: m["value"] for m in roll["modifiers"]}


def effect(result: dict[str, Any], entity_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in result["effects"] if e["entity_id"] == entity_id)
    return found


def hp_after(result: dict[str, Any]) -> dict[str, int]:
    return {e["entity_id"]: e["hp_after"] for e in result["effects"]}


# a loaded light ballista and its shot (test_direct, test_fire)
KNOWS: dict[str, Any] = {"skills": {"knowledge_engineering": skill(1, 1)}}


def ballista(
    rules_table: TableFactory,
    leader: dict[str, Any] | None = None,
    target: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    fields: dict[str, Any] | None = None,
    **state: Any,
) -> Table:
    """A loaded light ballista (aim 0) at (0,0) crewed by `lead`, and a dummy (ac 10, hp 30) 20 ft north."""
    t = rules_table("pathfinder", options)
    setup(
        t,
        creature("lead", **(leader if leader is not None else {**PROFICIENT, **KNOWS})),
        target or creature("dummy", hp=30, y=4),
        aimed_engine("lb", "ballista_light", **state) | (fields or {}),
        crew("lb", "lead"),
    )
    return t


def shoot(t: Table, dice: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return applied(t, fire("lb", dice, target=fields.pop("target", who("dummy")), **fields))


# medium metal armor: the slower towers, galleries and ladders (test_placement, test_movement)
ARMOR: dict[str, Any] = {"armor_bonus": 6, "category": "medium", "metal": True, "base_price_gp": 200}


# the corvus deck of EX-PF-25 (test_corvus, test_dislodge)
OCCUPANTS = ("o1", "o2", "o3")


def use(action: str, check: int | None = None, **fields: Any) -> dict[str, Any]:
    dice = {} if check is None else {"check": [check]}
    return {"type": "use_corvus", "engine_id": "cv", "action": action, **fields, "dice": dice}


def deck(rules_table: TableFactory, *more: dict[str, Any], sailor: dict[str, Any] | None = None) -> Table:
    """EX-PF-25: corvus `cv` crewed by `sailor` (Prof 1/+3); o1…o3 (ref +1), `def1` (str +4), `drv`."""
    t = rules_table("pathfinder")
    setup(
        t,
        engine("cv", "corvus"),
        creature("sailor", **(sailor or {"skills": {"profession_siege_engineer": skill(1, 3)}})),
        crew("cv", "sailor"),
        *(creature(o, saves={"ref": 1}) for o in OCCUPANTS),
        creature("def1", str_mod=4),
        creature("drv"),
        *more,
    )
    return t


def deployed(rules_table: TableFactory) -> Table:
    t = deck(rules_table)
    applied(t, use("drop", 7))
    return t


# what a creature needs to repair an engine (PF-REPAIR-01): proficiency and ranks in Craft (siege engine)
REPAIRER: dict[str, Any] = {"proficiencies": ["siege_engines"], "skills": {"craft_siege_engine": skill(1, 5)}}


def busy_repairing(table: Table, creature_id: str) -> None:
    """`creature_id` (a REPAIRER) repairs a broken light ballista placed at (3, 0), then a round passes:
    its actions are back, but the repair holds it busy (PF-TIME-04)."""
    setup(table, engine("wreck", "ballista_light", x=3, state={"broken": True}))
    repair = {"type": "repair", "engine_id": "wreck", "by": creature_id, "kind": "broken"}
    applied(table, {**repair, "dice": {"check": [15]}})
    applied(table, advance())


# the disabler of test_disable, test_checks and test_repair: Disable Device 4 ranks, +10
ROGUE: dict[str, Any] = {"skills": {"disable_device": skill(4, 10)}}


def disabling(rules_table: TableFactory, *entities: dict[str, Any]) -> Table:
    """A `rogue` (ROGUE) and an `oaf` (no ranks, +20), then the given entities."""
    t = rules_table("pathfinder")
    setup(t, creature("rogue", **ROGUE), creature("oaf", skills={"disable_device": skill(0, 20)}), *entities)
    return t


def disable(engine_id: str, mode: str, dice: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    command = {"type": "disable", "engine_id": engine_id, "by": "rogue", "mode": mode, **fields}
    return {**command, "dice": dice or {}}


def dislodge(by: str, method: str, dice: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {
        "type": "dislodge_corvus",
        "engine_id": "cv",
        "by": by,
        "method": method,
        "occupant_ids": list(OCCUPANTS),
        **fields,
        "dice": dice,
    }


def firearm(
    rules_table: TableFactory, leader: dict[str, Any], options: dict[str, Any] | None = None, **state: Any
) -> Table:
    """A cannon `cn` aimed at `ogre` (hp 60, 8 squares off), crewed by `lead` and `mate` (hp 30)."""
    t = rules_table("pathfinder", options)
    setup(
        t,
        creature("lead", **leader),
        creature("mate", hp=30, x=1),
        creature("ogre", hp=60, y=8),
        aimed_engine("cn", "cannon", who("ogre"), **state),
        crew("cn", "lead", "mate"),
    )
    return t


# the movers of test_movement and test_v1
HANDS = ("c1", "c2", "c3", "c4")


def park(rules_table: TableFactory, *entities: dict[str, Any], **options: Any) -> Table:
    """Creatures c1…c4 (Medium, speed 30) at (0,0), then the given entities."""
    t = rules_table("pathfinder", options or None)
    setup(t, *(creature(c) for c in HANDS), *entities)
    return t


def move(engine_id: str, x: int, y: int, **fields: Any) -> dict[str, Any]:
    return {"type": "move_engine", "engine_id": engine_id, "to": at(x, y), **fields}
