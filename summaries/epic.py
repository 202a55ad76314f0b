"""How each epic outcome is told: one function per command, from its result record and the command sent."""

from __future__ import annotations

from typing import Any

from rules.epic import results as r
from summaries.lines import Data, Line, Lines, Term, Terms, Told, ids

LINES = Lines("epic")


def location(value: Data | None) -> Term | None:
    """`epic.at.on` "onto E1" / « sur E1 », …: where a stand is, as a phrase."""
    if value is None:
        return None
    return Term(f"epic.at.{value['kind']}", {k: v for k, v in value.items() if k != "kind"})


def phase(value: str) -> Term:
    return Term(f"epic.phase.{value}")


def target_of(command: Data) -> str:
    target: dict[str, Any] = command.get("target") or {}
    return str(target.get("section_id") or target.get("stand_id") or "–")


@LINES.kind(r.PhaseAdvance, "next")
def advance_phase(result: Data, command: Data) -> Line:
    turn = result["turn"]
    return "next", {
        "turn": turn,
        "before": phase(result["phase_before"]),
        "after": phase(result["phase_after"]),
    }


@LINES.kind(r.FortificationPlaced, "added")
def add_fortification(result: Data, command: Data) -> Line:
    section = result["section"]
    kind = Term(f"epic.kind.{section['kind']}")
    return "added", {"id": section["id"], "kind": kind, "va": section["fort_va"], "save": section["save"]}


@LINES.kind(r.StandPlaced, "added")
def add_stand(result: Data, command: Data) -> Line:
    stand = result["stand"]
    return "added", {
        "id": stand["id"],
        "type": Term(f"epic.type.{stand['stand_type']}"),
        "side": Term(f"epic.side.{stand['side']}"),
        "caf": stand["caf"],
        "where": location(stand["location"]),
    }


@LINES.kind(r.Ordered, "given")
def give_order(result: Data, command: Data) -> Line:
    return "given", {"target": result["target"], "order": Term(f"epic.order.{result['order']}")}


@LINES.kind(r.Moved, "moved", "via")
def move(result: Data, command: Data) -> Line:
    params = {
        "stand": command.get("stand_id"),
        "distance": result["distance_cm"],
        "to": location(result["to"]),
        "left": result["movement_left_cm"],
        "via": result["via"],
    }
    return ("via" if result["via"] else "moved"), params


@LINES.kind(r.Boarding, "embarked")
def embark(result: Data, command: Data) -> Line:
    return "embarked", {"stand": result["stand_id"], "transport": result["transport_id"]}


@LINES.kind(r.Boarding, "disembarked")
def disembark(result: Data, command: Data) -> Line:
    where = location(result["location"])
    return "disembarked", {"stand": result["stand_id"], "transport": result["transport_id"], "where": where}


@LINES.kind(r.ClimbMade, "foothold", "defended", "undefended")
def climb(result: Data, command: Data) -> Line:
    params = {
        "stand": result["stand_id"],
        "section": result["section_id"],
        "left": result["movement_left_cm"],
        "why": Term(f"epic.automatic.{result['automatic_reason'] or 'held'}"),
    }
    if result["result"] == "foothold":
        return "foothold", params
    return ("defended" if result["defended"] else "undefended"), params


@LINES.kind(
    r.AssaultResolved,
    "fight",
    "fight_losses",
    "undefended_success",
    "undefended_failure",
    "war_engine_success",
    "war_engine_failure",
    "automatic",
)
def assault(result: Data, command: Data) -> Line:
    attacker, defender = result["attacker"] or {}, result["defender"] or {}
    params = {
        "attacker": command.get("stand_id"),
        "section": command.get("section_id"),
        "defender": defender.get("stand_id"),
        "a": attacker.get("total"),
        "d": defender.get("total"),
        "target": result["target"],
        "verdict": Term(f"epic.verdict.{result['result']}") if result["kind"] == "fight" else None,
        "destroyed": ids(result["destroyed_stands"]),
    }
    match result["kind"]:
        case "fight":
            return ("fight_losses" if result["destroyed_stands"] else "fight"), params
        case "undefended_climb" | "war_engine" as kind:
            prefix = "undefended" if kind == "undefended_climb" else kind
            return f"{prefix}_{result['result']}", params
        case _:
            return "automatic", params


@LINES.kind(
    r.Shot,
    "miss",
    "section_saved",
    "section_failed",
    "section_destroyed",
    "stand_saved",
    "stand_survives",
    "stand_destroyed",
)
def fire(result: Data, command: Data) -> Line:
    to_hit = result["to_hit"]
    save = result["save"] or result["unit_save"] or {}
    params = {
        "stand": command.get("stand_id"),
        "target": target_of(command),
        "die": to_hit["die"],
        "needed": to_hit["needed"],
        "total": save.get("total"),
        "save": save.get("target"),
        "failures": result["consecutive_failed_saves"],
    }
    if not to_hit["hit"]:
        return "miss", params
    if result["save"] is not None:
        if result["section_destroyed"]:
            return "section_destroyed", params
        return ("section_saved" if result["save"]["success"] else "section_failed"), params
    if result["stand_destroyed"]:
        return "stand_destroyed", params
    return ("stand_saved" if result["unit_save"] else "stand_survives"), params


@LINES.kind(r.BarrageFired, "destroyed", "nothing")
def barrage(result: Data, command: Data) -> Line:
    fallen = [*result["destroyed_stands"], *(s["section_id"] for s in result["sections"] if s["destroyed"])]
    hits = sum(1 for s in result["stands"] if s["hit"]) + sum(
        1 for s in result["sections"] if not s["save"]["success"]
    )
    params = {
        "firers": ids(command.get("stand_ids") or []),
        "weapon": command.get("weapon_id"),
        "needed": result["needed_base"],
        "hits": hits,
        "destroyed": ids(fallen),
    }
    return ("destroyed" if fallen else "nothing"), params


@LINES.kind(r.GateWorked, "open", "close", "jammed")
def operate_gate(result: Data, command: Data) -> Line:
    params = {"gate": result["gate_id"], "jam": result["jam"]}
    return ("jammed" if result["jammed"] and not result["performed"] else result["action"]), params


@LINES.kind(r.RepairTried, "repaired", "still_jammed")
def repair(result: Data, command: Data) -> Line:
    return ("repaired" if result["repaired"] else "still_jammed"), {
        "gate": result["gate_id"],
        "roll": result["repair"],
    }


def detail_params(detail: Data) -> dict[str, Any]:
    """A rejection's detail as message parameters: phases become phrases ("during the orders phase")."""
    params: dict[str, Any] = dict(detail)
    if "phase" in detail:
        params["phase"] = Term(f"epic.during.{detail['phase']}")
    if "allowed" in detail:
        params["allowed"] = Terms([Term(f"epic.during.{p}") for p in detail["allowed"]], "or")
    if "kind" in detail:
        params["kind"] = Term(f"epic.entity.{detail['kind']}")
    return params


TERMS: dict[str, tuple[str, ...]] = {
    "epic.phase": ("orders", "movement", "first_fire", "close_combat", "advance_fire", "end"),
    "epic.during": ("orders", "movement", "first_fire", "close_combat", "advance_fire", "end"),
    "epic.kind": ("wall", "tower", "gate", "blockhouse"),
    "epic.type": ("infantry", "war_engine", "vehicle", "transport_war_engine"),
    "epic.side": ("attacker", "defender"),
    "epic.order": ("charge", "advance", "first_fire"),
    "epic.at": ("outside", "at_foot", "on", "inside", "embarked"),
    "epic.automatic": ("held", "behind_undefended", "tower_undefended"),
    "epic.verdict": ("attacker_wins", "defender_wins", "tie"),
    "epic.entity": ("stand", "section", "gate", "transport", "any"),
    "epic.label": r.LABELS,  # the modifiers' labels, for the viewer's log (service/viewer_files/terms.js)
}

# the viewer shows phases and section kinds on the map, the modifiers' labels in the log
TOLD = Told(lines=LINES, detail=detail_params, terms=TERMS, viewer=("epic.phase", "epic.kind", "epic.label"))
