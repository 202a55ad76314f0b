"""How each pathfinder outcome is told: one function per command, from its result record and the command."""

from __future__ import annotations

from typing import Any

from rules.pathfinder import results as r
from rules.pathfinder.catalog import AMMUNITION, ENGINES
from rules.pathfinder.rolls import LABELS
from rules.pathfinder.shot import ShotResolved
from summaries.lines import Data, Line, Lines, Param, Term, Told, square

LINES = Lines("pathfinder")


def target_name(target: Data | None) -> Param:
    """A command's target shape (`{creature_id}`, `{square}`, …) as a name; "its target" when aimed before."""
    if not target:
        return Term("pathfinder.its_target")
    if "square" in target:
        return square(target["square"])
    return str(next(iter(target.values())))


def check(value: Data | None) -> dict[str, Param]:
    value = value or {}
    return {"total": value.get("total"), "dc": value.get("target_number")}


@LINES.kind(r.RoundsAdvance, "advanced")
def advance_round(result: Data, command: Data) -> Line:
    params = {
        "before": result["round_before"],
        "after": result["round_after"],
        "count": len(result["completed"]),
    }
    return "advanced", params


@LINES.kind(r.CreatureJoined, "added")
def add_creature(result: Data, command: Data) -> Line:
    return "added", {"id": result["creature_id"], "square": square(command.get("position"))}


@LINES.kind(r.CreatureWhereabouts, "moved", "inside")
def move_creature(result: Data, command: Data) -> Line:
    inside = result["inside"]
    params = {"id": result["creature_id"], "square": square(result["position"]), "engine": None}
    if inside:
        params["engine"] = inside["engine_id"]
        return "inside", params
    return "moved", params


@LINES.kind(r.EngineSetUp, "assembled", "unassembled")
def place_engine(result: Data, command: Data) -> Line:
    params = {
        "id": result["engine_id"],
        "catalog": Term(f"pathfinder.engine.{result['catalog_id']}"),
        "square": square(command.get("position")),
        "ac": result["ac"],
        "hardness": result["hardness"],
        "hp": result["hp"],
    }
    return ("assembled" if result["assembled"] else "unassembled"), params


@LINES.kind(r.StructureSetUp, "added")
def add_structure(result: Data, command: Data) -> Line:
    kind = Term(f"pathfinder.structure.{result['kind']}")
    params = {"id": result["structure_id"], "kind": kind, "ac": result["ac"], "hardness": result["hardness"]}
    return "added", {**params, "hp": result["hp"]}


@LINES.kind(r.CrewAtWork, "crewed", "no_status")
def assign_crew(result: Data, command: Data) -> Line:
    params = {
        "engine": command.get("engine_id"),
        "count": len(command.get("creature_ids") or ()),
        "leader": command.get("leader_id"),
        "equivalents": result["crew_equivalents"],
        "status": Term(f"pathfinder.crew.{result['crew_status']}") if result["crew_status"] else None,
    }
    return ("crewed" if result["crew_status"] else "no_status"), params


@LINES.kind(r.WindNow, "set", "tornado")
def set_wind(result: Data, command: Data) -> Line:
    params = {"wind": Term(f"pathfinder.wind.{result['wind']}"), "modifier": result["siege_modifier"]}
    return ("tornado" if result["siege_modifier"] is None else "set"), params


@LINES.kind(r.SpellCastOn, "cast")
def cast_engine_spell(result: Data, command: Data) -> Line:
    params = {
        "spell": Term(f"pathfinder.spell.{command.get('spell')}"),
        "engine": command.get("engine_id"),
        "bonus": result["spell_bonus"],
        "round": result["expires_at_round"],
    }
    return "cast", params


@LINES.kind(r.AssemblyTried, "assembled", "assembled_double_time", "failed")
def assemble(result: Data, command: Data) -> Line:
    return result["result"], {"engine": command.get("engine_id"), "round": result["completes_at_round"]}


@LINES.kind(r.EngineRelocated, "moved")
def move_engine(result: Data, command: Data) -> Line:
    params = {
        "engine": command.get("engine_id"),
        "distance": result["distance_ft"],
        "square": square(result["to"]),
    }
    return "moved", params


@LINES.kind(r.LoadProgress, "loaded", "progress")
def load(result: Data, command: Data) -> Line:
    params = {
        "engine": command.get("engine_id"),
        "ammunition": Term(f"pathfinder.ammunition.{result['ammunition']}"),
        "progress": result["load_progress"],
        "requirement": result["load_requirement"],
    }
    return ("loaded" if result["loaded"] else "progress"), params


@LINES.kind(r.AimProgress, "aimed", "progress")
def aim(result: Data, command: Data) -> Line:
    params = {
        "engine": command.get("engine_id"),
        "target": target_name(result["aim_target"]),
        "progress": result["aim_progress"],
        "requirement": result["aim_requirement"],
        "distance": result["range"]["distance_ft"],
    }
    return ("aimed" if result["aimed"] else "progress"), params


@LINES.kind(
    ShotResolved,
    "exploded",
    "misfire",
    "mishap",
    "critical",
    "hit",
    "hit_no_damage",
    "landed",
    "miss",
    "scatter",
    "scatter_short",
    "blast",
)
def fire(result: Data, command: Data) -> Line:
    return shot(result, command.get("engine_id"), target_name(command.get("target")))


@LINES.kind(ShotResolved, "hit", "critical", "miss", "mishap")
def ram(result: Data, command: Data) -> Line:
    return shot(result, command.get("engine_id"), target_name(command.get("target")))


def shot(result: Data, engine: str | None, target: Param) -> Line:
    damage = result["damage"]
    landing = result["landing"] or {}
    scatter = landing.get("scatter")
    params: dict[str, Param] = {
        "engine": engine,
        "target": target,
        **check(result["roll"]),
        "damage": damage["total"] if damage else None,
        "multiplier": result["critical_multiplier"],
        "square": square(landing.get("square")),
        "squares": scatter["distance_squares"] if scatter else None,
        "direction": Term(f"pathfinder.compass.{scatter['direction']}") if scatter else None,
    }
    if result["per_target"] is not None:
        hits = sum(1 for t in result["per_target"] if t["hit"])
        return "blast", {**params, "hits": hits, "count": len(result["per_target"])}
    return _verdict(result, scatter is not None), params


def _verdict(result: Data, scattered: bool) -> str:
    if result["exploded"]:
        return "exploded"
    if result["misfire"]:
        return "misfire"
    if result["mishap"] and not result["hit"]:
        return "mishap"
    if not result["hit"]:
        if scattered:
            return "scatter_short" if result["landing"]["scatter"]["d8"] == 1 else "scatter"
        return "miss"
    if result["critical_multiplier"] > 1 and result["damage"]:
        return "critical"
    if result["kind"] == "indirect" and result["landing"]:
        return "landed"
    return "hit" if result["damage"] else "hit_no_damage"


@LINES.kind(r.Observation, "reported")
def observe(result: Data, command: Data) -> Line:
    params = {
        "observer": command.get("observer_id"),
        "engine": command.get("engine_id"),
        "misses": result["reported_now"],
        "modifier": result["next_successive_modifier"],
    }
    return "reported", params


@LINES.kind(r.RepairTried, "success", "failure")
def repair(result: Data, command: Data) -> Line:
    params = {
        "by": command.get("by"),
        "engine": command.get("engine_id"),
        "round": result["completes_at_round"],
    }
    return ("success" if result["success"] else "failure"), {**params, **check(result["check"])}


@LINES.kind(r.DisableTried, "success", "failure")
def disable(result: Data, command: Data) -> Line:
    params = {
        "by": command.get("by"),
        "engine": command.get("engine_id"),
        "rounds": result["rounds"],
        "round": result["effective_at_round"],
        "mode": Term(f"pathfinder.disable_mode.{result['mode']}"),
        **check(result["check"]),
    }
    return ("success" if result["success"] else "failure"), params


@LINES.kind(r.BreakTried, "broken", "holds")
def break_(result: Data, command: Data) -> Line:
    params = {
        "who": command.get("by") or command.get("engine_id"),
        "structure": command.get("structure_id"),
        **check(result["check"]),
        "dc": result["dc"],
    }
    return ("broken" if result["success"] else "holds"), params


@LINES.kind(r.GateWorked, "opened", "closed", "progress")
def operate_gate(result: Data, command: Data) -> Line:
    params = {
        "gate": command.get("structure_id"),
        "progress": result["progress"],
        "requirement": result["requirement"],
    }
    if not result["toggled"]:
        return "progress", params
    return ("opened" if result["open"] else "closed"), params


@LINES.kind(r.BridgeRaising, "raised", "progress")
def raise_bridge(result: Data, command: Data) -> Line:
    params = {
        "engine": command.get("engine_id"),
        "progress": result["progress"],
        "requirement": result["requirement"],
    }
    return ("raised" if result["raised"] else "progress"), params


@LINES.kind(r.CorvusUsed, "reset", "dropped", "failed")
def use_corvus(result: Data, command: Data) -> Line:
    params = {"engine": command.get("engine_id"), **check(result["check"])}
    if result["check"] is None:
        return "reset", params
    return ("dropped" if result["success"] else "failed"), params


@LINES.kind(r.CorvusDislodged, "destroyed", "dislodged", "holds")
def dislodge_corvus(result: Data, command: Data) -> Line:
    params = {"engine": command.get("engine_id"), "by": command.get("by"), **check(result["check"])}
    params["dc"] = result["dc"]
    if result["corvus_destroyed"]:
        return "destroyed", params
    return ("dislodged" if result["success"] else "holds"), params


@LINES.kind(r.WheelCrushed, "crushed")
def crush(result: Data, command: Data) -> Line:
    params = {
        "engine": command.get("engine_id"),
        "count": len(command.get("target_ids") or ()),
        "damage": result["damage"]["total"],
    }
    return "crushed", params


def detail_params(detail: Data) -> dict[str, Any]:
    params: dict[str, Any] = dict(detail)
    if "kind" in detail:
        params["kind"] = Term(f"pathfinder.entity.{detail['kind']}")
    if "action" in detail:
        params["action"] = Term(f"pathfinder.action.{detail['action']}")
    return params


TERMS: dict[str, tuple[str, ...]] = {
    "pathfinder.structure": ("wall", "gate", "building"),
    "pathfinder.crew": ("full", "diminished", "insufficient"),
    "pathfinder.wind": (
        "none",
        "light",
        "moderate",
        "strong",
        "severe",
        "windstorm",
        "storm",
        "hurricane",
        "tornado",
    ),
    "pathfinder.spell": ("magic_siege_engine", "greater_magic_siege_engine"),
    "pathfinder.compass": ("N", "NE", "E", "SE", "S", "SW", "W", "NW"),
    "pathfinder.disable_mode": ("inoperable", "sabotage"),
    "pathfinder.entity": ("creature", "engine", "structure", "any"),
    "pathfinder.action": ("standard", "move", "full_round"),
    "pathfinder.engine": tuple(ENGINES),
    "pathfinder.ammunition": tuple(AMMUNITION),
    "pathfinder.label": LABELS,  # the modifiers' labels, for the viewer's log (service/viewer_files/terms.js)
}

# the viewer shows the wind on the map, the modifiers' labels in the log
TOLD = Told(lines=LINES, detail=detail_params, terms=TERMS, viewer=("pathfinder.wind", "pathfinder.label"))
