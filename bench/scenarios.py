"""Representative command logs for the fold benchmarks: a busy epic siege, rounds of pathfinder fire."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

Command = dict[str, Any]


def epic_turns(turns: int, seed: int = 1) -> Iterator[Command]:
    """24 sections, 40 stands; each turn orders, moves, climbs, gates, fire, barrage, assaults, repairs
    (many refused, as at a real table: refusals run the same checks)."""
    rng = random.Random(seed)
    sections = (
        [f"W{i}" for i in range(1, 17)] + [f"G{i}" for i in range(1, 5)] + [f"T{i}" for i in range(1, 5)]
    )
    for n, sid in enumerate(sections):
        kind = {"G": "gate", "T": "tower"}.get(sid[0], "wall")
        yield {
            "type": "add_fortification",
            "id": sid,
            "kind": kind,
            "capacity": 2,
            "adjacent": sections[n - 1 : n],
        }
    attackers, defenders = [f"a{i}" for i in range(1, 25)], [f"d{i}" for i in range(1, 17)]
    for n, aid in enumerate(attackers):
        where = {"kind": "at_foot", "section_id": sections[n % 24]} if n % 2 else {"kind": "outside"}
        kind = "vehicle" if n % 6 == 5 else "infantry"
        yield _stand(aid, kind, "attacker", 3, 5, where, has_cc_weapon=True)
    for n, did in enumerate(defenders):
        yield _stand(did, "infantry", "defender", 4, 4, {"kind": "on", "section_id": sections[n % 24]})
    for _ in range(turns):
        yield from _epic_turn(rng, sections, attackers, attackers + defenders)


def _stand(sid: str, kind: str, side: str, caf: int, save: int, where: Command, **more: Any) -> Command:
    return {"type": "add_stand", "id": sid, "stand_type": kind, "side": side, "caf": caf, "speed_cm": 10,
            "save": save, "location": where, **more}  # fmt: skip


def _epic_turn(
    rng: random.Random, sections: list[str], attackers: list[str], stands: list[str]
) -> Iterator[Command]:
    orders = ("charge", "advance", "first_fire")
    gates = [s for s in sections if s.startswith("G")]
    yield from ({"type": "give_order", "stand_id": s, "order": rng.choice(orders)} for s in stands)
    yield from ({"type": "give_order", "gate_id": g, "order": rng.choice(orders[1:])} for g in gates)
    yield {"type": "advance_phase"}  # movement
    movers = {a: rng.choice(sections) for a in rng.sample(attackers, 12)}
    for a, sid in movers.items():
        yield {"type": "move", "stand_id": a, "to": {"kind": "at_foot", "section_id": sid}, "distance_cm": 5}
    yield from ({"type": "climb", "stand_id": a, "section_id": sid} for a, sid in movers.items())
    yield from (
        {"type": "operate_gate", "gate_id": g, "action": rng.choice(("open", "close"))} for g in gates[:2]
    )
    yield {"type": "advance_phase"}  # first fire
    for s in rng.sample(stands, 12):
        target = (
            {"section_id": rng.choice(sections)} if rng.random() < 0.5 else {"stand_id": rng.choice(stands)}
        )
        yield {"type": "fire", "stand_id": s, "weapon": {"id": "bolter", "to_hit": 4}, "target": target}
    yield {"type": "barrage", "stand_ids": rng.sample(attackers, 2), "weapon_id": "guns", "barrage_points": 4,
           "kind": "direct", "target_section_ids": [rng.choice(sections)]}  # fmt: skip
    yield {"type": "advance_phase"}  # close combat
    yield from (
        {"type": "assault", "stand_id": a, "section_id": rng.choice(sections)}
        for a in rng.sample(attackers, 8)
    )
    yield {"type": "advance_phase"}  # advance fire
    for s in rng.sample(stands, 8):
        target = {"stand_id": rng.choice(stands)}
        yield {"type": "fire", "stand_id": s, "weapon": {"id": "bolter", "to_hit": 4}, "target": target}
    yield {"type": "advance_phase"}  # end
    yield from ({"type": "repair", "gate_id": g} for g in gates)
    yield {"type": "advance_phase"}  # the next turn's orders


def pathfinder_rounds(rounds: int, seed: int = 1) -> Iterator[Command]:
    """Four crewed light catapults shelling sixteen creatures: fire, reload, observe, round after round."""
    rng = random.Random(seed)
    for n in range(16):
        yield {
            "type": "add_creature",
            "id": f"foe{n}",
            "size": "M",
            "ac": 12,
            "hp": 200,
            "position": _at(n * 5, 90 + n % 3),
        }
    skills = {"knowledge_engineering": {"ranks": 10, "modifier": 10}}
    lead = {
        "skills": skills,
        "feats": ["siege_engineer", "master_siege_engineer"],
        "proficiencies": ["catapult_light"],
    }
    engines = [f"lc{n}" for n in range(1, 5)]
    for n, eid in enumerate(engines):
        yield {
            "type": "add_creature",
            "id": f"{eid}-lead",
            "size": "M",
            "ac": 10,
            "hp": 10,
            "position": _at(n * 10, 0),
            **lead,
        }
        yield {
            "type": "add_creature",
            "id": f"{eid}-mate",
            "size": "M",
            "ac": 10,
            "hp": 10,
            "position": _at(n * 10 + 1, 0),
        }
        state = {"loaded": True, "aimed_at": {"square": _at(n * 10, 90)}}
        yield {
            "type": "place_engine",
            "id": eid,
            "catalog_id": "catapult_light",
            "position": _at(n * 10, 1),
            "state": state,
        }
        yield {
            "type": "assign_crew",
            "engine_id": eid,
            "creature_ids": [f"{eid}-lead", f"{eid}-mate"],
            "leader_id": f"{eid}-lead",
        }
    for _ in range(rounds):
        yield from ({"type": "fire", "engine_id": eid} for eid in engines)
        yield {"type": "advance_round", "rounds": 1}
        for eid in engines:
            crew = [
                {"creature_id": f"{eid}-lead", "actions": 1},
                {"creature_id": f"{eid}-mate", "actions": 2},
            ]
            yield {"type": "load", "engine_id": eid, "contributors": crew}
        yield {"type": "observe", "engine_id": rng.choice(engines), "observer_id": f"foe{rng.randrange(16)}"}
        yield {"type": "advance_round", "rounds": 1}


def _at(x: int, y: int) -> dict[str, int]:
    return {"x": x, "y": y}
