"""The battles the viewer tests watch, played through the live API with supplied dice so every roll is exact:
the seed's east-wall assault (EX-EP-01) and a scattered light-catapult shot (EX-PF-09)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.fixtures.processes import LiveService
from tests.processes.client import call
from tests.rules.pathfinder.given import PROFICIENT, aimed_engine, at, creature, crew, fire, square

EAST_WALL: list[dict[str, Any]] = [
    {"type": "add_fortification", "id": "E1", "kind": "wall"},
    {
        "type": "add_stand",
        "id": "goff",
        "stand_type": "infantry",
        "side": "defender",
        "caf": 2,
        "speed_cm": 10,
        "location": {"kind": "on", "section_id": "E1"},
    },
    {
        "type": "add_stand",
        "id": "csm",
        "stand_type": "infantry",
        "side": "attacker",
        "caf": 3,
        "speed_cm": 10,
        "location": {"kind": "at_foot", "section_id": "E1"},
    },
    {"type": "climb", "stand_id": "csm", "section_id": "E1"},  # v5: too early, rejected wrong_phase
    {"type": "give_order", "stand_id": "csm", "order": "charge"},
    {"type": "advance_phase"},
    {"type": "climb", "stand_id": "csm", "section_id": "E1"},
    {"type": "advance_phase"},
    {"type": "advance_phase"},
    {
        "type": "assault",
        "stand_id": "csm",
        "section_id": "E1",
        "dice": {"attacker": [6, 6], "defender": [1, 2]},
    },  # v11
    {"type": "conclude"},  # v12: reveals the seed, so the audit checks the dice too
]
EAST_WALL_REJECTED, EAST_WALL_ASSAULT = 5, 11

SCATTER_DICE = {
    "targeting": [5],
    "scatter_direction": [5],
    "scatter_distance": [3, 4],
    "damage": [1, 2, 3, 4],
}
SCATTERED_SHOT: list[dict[str, Any]] = [
    creature("c1", **PROFICIENT),
    creature("c2", x=1),
    creature("orc", x=3, y=44, hp=20),
    {
        "type": "add_structure",
        "id": "g1",
        "kind": "gate",
        "material": "wood",
        "size": "H",
        "position": at(-3, 44),
    },
    aimed_engine("lc", "catapult_light", square(0, 40)),
    crew("lc", "c1", "c2"),
    fire("lc", SCATTER_DICE),  # v8: total 3 vs 15, a miss; N 7 squares → (0, 47)
]
SHOT_VERSION = 8


@dataclass(frozen=True, slots=True)
class Played:
    battle_id: str
    gm_token: str
    observer_token: str
    head: int


def play(live: LiveService, ruleset: str, name: str, commands: list[dict[str, Any]]) -> Played:
    """Create the battle, send each command and wait for its outcome, then mint an observer token."""
    created = call(
        "POST", f"{live.base_url}/battles", {"ruleset": ruleset, "name": name}, _bearer(live.api_key)
    )
    assert created.status == 201, created.body
    battle_id, gm = created.body["id"], created.body["gm_token"]
    version = 1
    for command in commands:
        reply = send_waiting(live, battle_id, gm, command)
        version = reply["version"]
    minted = call("POST", f"{live.base_url}/battles/{battle_id}/tokens", {"role": "observer"}, _bearer(gm))
    assert minted.status == 201, minted.body
    return Played(battle_id, gm, minted.body["token"], version)


def send_waiting(live: LiveService, battle_id: str, token: str, command: dict[str, Any]) -> dict[str, Any]:
    headers = {**_bearer(token), "Prefer": "wait=10"}
    reply = call("POST", f"{live.base_url}/battles/{battle_id}/commands", command, headers)
    assert reply.status == 200, reply.body  # the outcome, so the viewer finds it projected
    outcome: dict[str, Any] = reply.body
    return outcome


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _stand(
    stand_id: str, stand_type: str, side: str, location: dict[str, Any], **fields: Any
) -> dict[str, Any]:
    base = {"type": "add_stand", "id": stand_id, "stand_type": stand_type, "side": side, "caf": 1}
    return {**base, "speed_cm": 10, "location": location, **fields}


OUTSIDE = {"kind": "outside"}
BOLTER = {"id": "bolter", "to_hit": 4, "save_modifier": 0}
# a wall, a gate and a tower side by side, stands everywhere a stand can be, a transport with a passenger,
# a gate jammed on opening (EX-EP-15) and a wall failing its save (EX-EP-10)
FORTRESS: list[dict[str, Any]] = [
    {"type": "add_fortification", "id": "W1", "kind": "wall"},
    {"type": "add_fortification", "id": "T1", "kind": "tower", "capacity": 2},
    {"type": "add_fortification", "id": "G1", "kind": "gate", "adjacent": ["W1", "T1"]},
    _stand("goff", "infantry", "defender", {"kind": "on", "section_id": "W1"}, caf=2),
    _stand("nob", "infantry", "defender", {"kind": "on", "section_id": "T1"}, caf=2),
    _stand("boyz", "infantry", "defender", {"kind": "inside"}),
    _stand("grot", "infantry", "defender", OUTSIDE),
    _stand("lev", "transport_war_engine", "attacker", OUTSIDE, caf=6, capacity=2),
    _stand("tac", "infantry", "attacker", {"kind": "embarked", "transport_id": "lev"}, caf=3),
    _stand("d1", "infantry", "attacker", OUTSIDE),
    _stand("csm", "infantry", "attacker", {"kind": "at_foot", "section_id": "G1"}, caf=3),
    {"type": "give_order", "stand_id": "d1", "order": "first_fire"},
    {"type": "give_order", "gate_id": "G1", "order": "charge"},
    {"type": "advance_phase"},
    {"type": "operate_gate", "gate_id": "G1", "action": "open", "dice": {"jam": [6]}},  # jammed, still closed
    {"type": "advance_phase"},
    {
        "type": "fire",
        "stand_id": "d1",
        "weapon": BOLTER,
        "target": {"section_id": "W1"},
        "dice": {"to_hit": [4], "save": [1, 1]},
    },
]
