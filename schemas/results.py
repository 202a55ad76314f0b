"""Which result record each command type's applied outcome holds, and the members every result of a ruleset
carries besides (its `finish_result`), read into JSON Schema components for the OpenAPI document.

The handlers return `Outcome[Event]` whose `result` is any record, so the command → record table is declared
here; a test fails when a command has no entry, and the worked examples check every result against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from rules.epic import results as epic
from rules.epic.tables import Phase
from rules.fold import CONCLUDE
from rules.pathfinder import results as pathfinder
from rules.pathfinder.shot import ShotResolved
from schemas.records import JSONSchema, RecordSchemas

REF = "#/components/schemas/"


@dataclass(frozen=True, slots=True, kw_only=True)
class Concluded:
    """`conclude` (rules/fold.py): the revealed seed, so anyone can recompute every roll."""

    server_seed: str
    client_seed: str | None
    dice_commitment: str


@dataclass(frozen=True, slots=True, kw_only=True)
class EpicEveryResult:
    """Spec §2: every applied epic result tells the turn and phase after it and the dice it used or left."""

    turn: int
    phase: Phase
    dice_used: Mapping[str, tuple[int, ...]]
    unused_dice: Mapping[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True, kw_only=True)
class PathfinderEveryResult:
    """PF-GEN-06: every applied pathfinder result carries its round and the supplied slots it never drew."""

    round: int
    unused_dice: tuple[str, ...]


RESULTS: dict[str, dict[str, type]] = {
    "epic": {
        "advance_phase": epic.PhaseAdvance,
        "add_fortification": epic.FortificationPlaced,
        "add_stand": epic.StandPlaced,
        "give_order": epic.Ordered,
        "move": epic.Moved,
        "embark": epic.Boarding,
        "disembark": epic.Boarding,
        "climb": epic.ClimbMade,
        "assault": epic.AssaultResolved,
        "fire": epic.Shot,
        "barrage": epic.BarrageFired,
        "operate_gate": epic.GateWorked,
        "repair": epic.RepairTried,
        CONCLUDE: Concluded,
    },
    "pathfinder": {
        "advance_round": pathfinder.RoundsAdvance,
        "add_creature": pathfinder.CreatureJoined,
        "move_creature": pathfinder.CreatureWhereabouts,
        "place_engine": pathfinder.EngineSetUp,
        "add_structure": pathfinder.StructureSetUp,
        "assign_crew": pathfinder.CrewAtWork,
        "set_wind": pathfinder.WindNow,
        "cast_engine_spell": pathfinder.SpellCastOn,
        "assemble": pathfinder.AssemblyTried,
        "move_engine": pathfinder.EngineRelocated,
        "load": pathfinder.LoadProgress,
        "aim": pathfinder.AimProgress,
        "fire": ShotResolved,
        "observe": pathfinder.Observation,
        "repair": pathfinder.RepairTried,
        "disable": pathfinder.DisableTried,
        "ram": ShotResolved,
        "break": pathfinder.BreakTried,
        "operate_gate": pathfinder.GateWorked,
        "raise_bridge": pathfinder.BridgeRaising,
        "use_corvus": pathfinder.CorvusUsed,
        "dislodge_corvus": pathfinder.CorvusDislodged,
        "crush": pathfinder.WheelCrushed,
        CONCLUDE: Concluded,
    },
}
EVERY_RESULT: dict[str, type] = {"epic": EpicEveryResult, "pathfinder": PathfinderEveryResult}


def result_component(ruleset: str, command: str | None = None) -> str:
    """`EpicResult`: any epic result; `EpicClimbResult`: the result of an applied epic `climb`."""
    kind = "".join(word.capitalize() for word in (command or "").split("_"))
    return f"{ruleset.capitalize()}{kind}Result"


def _record_component(ruleset: str) -> RecordSchemas:
    prefix = ruleset.capitalize()
    return RecordSchemas(lambda record: f"{prefix}Result{record.__name__.removeprefix(prefix)}")


@cache
def result_components(ruleset: str) -> dict[str, JSONSchema]:
    """Every component the ruleset's results need: one per record reached, one per command type (its record
    and the members every result carries), and the ruleset's union of them."""
    records = _record_component(ruleset)
    every = REF + records.record(EVERY_RESULT[ruleset])
    per_type: dict[str, JSONSchema] = {}
    for command, record in RESULTS[ruleset].items():
        per_type[result_component(ruleset, command)] = {
            "description": f"The `result` of an applied {ruleset} `{command}`: a {record.__name__} record "
            "and the members every result of the ruleset carries.",
            "allOf": [{"$ref": REF + records.record(record)}, {"$ref": every}],
        }
    union = {
        "description": f"The `result` of an applied {ruleset} command: the outcome's `type` names which.",
        "anyOf": [{"$ref": REF + name} for name in per_type],
    }
    return {**records.components, **per_type, result_component(ruleset): union}
