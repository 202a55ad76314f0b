"""What the pathfinder catalog sweep shares: the catalog grouped by how an engine is used, full crews,
and a battle played over the HTTP API as its GM, folded in-process after every step."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from rules.pathfinder.catalog import raw_catalog
from tests.fixtures.redis_server import Backend
from tests.service.helpers import accepted, fold, outcome

PACKAGED: dict[str, Any] = raw_catalog()
CATALOG: list[dict[str, Any]] = PACKAGED["engines"]
BY_ID = {e["id"]: e for e in CATALOG}
UNSUPPORTED = [e["id"] for e in CATALOG if not e["supported"]]  # legacy and unverified (PF-ENGINE-01, §6)
RANGED = [e["id"] for e in CATALOG if e["supported"] and e["fire_mode"] is not None]  # PF-LOAD-01
ASSAULT = [e["id"] for e in CATALOG if e["supported"] and e["category"] == "close_assault"]
OTHER = [e["id"] for e in CATALOG if e["id"] not in (*UNSUPPORTED, *RANGED, *ASSAULT)]

# the crew leader of every sweep: proficient, 1 rank of Knowledge (engineering) so no siege size penalty
# (PF-DIRECT-02); a rank of Profession (siege engineer) for the corvus; str +1 like every crew member
LEADER: dict[str, Any] = {
    "bab": 10,
    "str_mod": 1,
    "proficiencies": ["siege_engines"],
    "skills": {
        "knowledge_engineering": {"ranks": 1, "modifier": 2},
        "profession_siege_engineer": {"ranks": 1, "modifier": 3},
    },
}
HUGE_EQUIVALENTS = 8  # PF-CREW-02: a Huge member counts 8 Medium ones, which keeps big crews short
SPRINGAL_STATS = {"targeting_dc": 20, "hardness": 5, "hp": 100}  # PF-DEF-02: the catalog has none


def at(x: int, y: int) -> dict[str, int]:
    return {"x": x, "y": y}


def creature(cid: str, *, x: int = 0, y: int = 0, **fields: Any) -> dict[str, Any]:
    return {
        "type": "add_creature",
        "id": cid,
        "size": "M",
        "ac": 10,
        "hp": 10,
        "position": at(x, y),
        **fields,
    }


def placed(catalog_id: str) -> dict[str, Any]:
    """Engine `e` at (0,0), assembled (PF-ASSEMBLE-05 leaves some unassembled), springals with stats."""
    command: dict[str, Any] = {"type": "place_engine", "id": "e", "catalog_id": catalog_id}
    command |= {"position": at(0, 0), "assembled": True}
    if catalog_id.startswith("springal"):
        command["stat_overrides"] = SPRINGAL_STATS
    return command


def crew_members(required: int) -> list[dict[str, Any]]:
    """`lead` then helpers worth exactly `required` − 1 Medium equivalents: Huge ones, then Medium."""
    huge, medium = divmod(required - 1, HUGE_EQUIVALENTS)
    helpers = [creature(f"h{n}", size="H", str_mod=1) for n in range(huge)]
    helpers += [creature(f"m{n}", str_mod=1) for n in range(medium)]
    return [creature("lead", **LEADER), *helpers]


def crewed(engine: dict[str, Any]) -> list[dict[str, Any]]:
    """The engine, a full crew (PF-CREW-03) and the crew assignment with `lead` as leader."""
    members = crew_members(BY_ID[engine["catalog_id"]]["crew"])
    ids = [m["id"] for m in members]
    assign = {"type": "assign_crew", "engine_id": engine["id"], "creature_ids": ids, "leader_id": "lead"}
    return [engine, *members, assign]


def contributors(ids: list[str], units: int) -> list[dict[str, Any]]:
    """The first `units` crew members, one action each (PF-LOAD-02)."""
    return [{"creature_id": cid, "actions": 1} for cid in ids[:units]]


def pick(record: dict[str, Any], *names: str) -> dict[str, Any]:
    return {name: record[name] for name in names}


def dice_of(expr: str, start: int = 0) -> list[int]:
    """`n` faces of a "nds" expression, cycling 1…s from `start`: a supply that is easy to add up."""
    count, sides = (int(part) for part in expr.split("d"))
    return [(start + n) % sides + 1 for n in range(count)]


class ApiBattle:
    """A pathfinder battle created with POST /battles; every command is posted, folded, then read back."""

    def __init__(self, client: FlaskClient, store: Backend) -> None:
        self.client, self.store = client, store
        created = client.post("/battles", json={"ruleset": "pathfinder"})
        assert created.status_code == 201, created.get_json()
        self.id: str = created.get_json()["id"]
        self.outcomes: list[dict[str, Any]] = []

    def send(self, command: dict[str, Any]) -> dict[str, Any]:
        version = accepted(self.client, self.id, command)
        fold(self.store, self.id)
        found = outcome(self.client, self.id, version)
        self.outcomes.append(found)
        return found

    def applied(self, command: dict[str, Any]) -> dict[str, Any]:
        found = self.send(command)
        assert found["status"] == "applied", (command, found["reason"])
        result: dict[str, Any] = found["result"]
        return result

    def rejected(self, command: dict[str, Any]) -> str:
        found = self.send(command)
        assert found["status"] == "rejected", (command, found["result"])
        reason: str = found["reason"]
        return reason

    def setup(self, *commands: dict[str, Any]) -> None:
        for command in commands:
            self.applied(command)

    def advance(self) -> dict[str, Any]:
        return self.applied({"type": "advance_round", "rounds": 1})

    def state(self) -> dict[str, Any]:
        read = self.client.get(f"/battles/{self.id}/state")
        assert read.status_code == 200, read.get_json()
        game: dict[str, Any] = read.get_json()["game"]
        return game
