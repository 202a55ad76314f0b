"""What a crew amounts to (PF-CREW-02..06, PF-AIM-02, PF-LOAD-01): its Medium equivalents, its status and
what that status requires; crew.py, the `assign_crew` handler, reports these, and the checks read them."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Literal

from rules.pathfinder.board import crew_of, leader_of, spec_of
from rules.pathfinder.feats import master_siege_engineer
from rules.pathfinder.sizes import size_index
from rules.pathfinder.state import Creature, Engine, PfState

CrewStatus = Literal["full", "diminished", "insufficient"]

WEIGHTS = {
    "aon": {
        "S": Fraction(1, 2),
        "M": Fraction(1),
        "L": Fraction(4),
        "H": Fraction(8),
        "G": Fraction(16),
        "C": Fraction(20),
    },
    # the printed order seed 000 copies (D1): Gargantuan 20, Colossal 16
    "printed": {
        "S": Fraction(1, 2),
        "M": Fraction(1),
        "L": Fraction(4),
        "H": Fraction(8),
        "G": Fraction(20),
        "C": Fraction(16),
    },
}


def weight(creature: Creature, equivalence: str) -> Fraction:
    """Medium equivalents of one member; Tiny and smaller count 0."""
    return WEIGHTS[equivalence].get(creature.size, Fraction(0))


def equivalents(state: PfState, engine: Engine) -> Fraction:
    return _total(_sizes(state, engine), state.options.crew_equivalence)


def crew_status(state: PfState, engine: Engine) -> CrewStatus | None:
    """PF-CREW-03; None for engines with no catalog crew (assault bridges)."""
    required = spec_of(engine).crew
    if required is None:
        return None
    return _status(_sizes(state, engine), state.options.crew_equivalence, required)


def _sizes(state: PfState, engine: Engine) -> tuple[str, ...]:
    return tuple(c.size for c in crew_of(state, engine))


# a battle has a handful of crew make-ups and every check of a crewed engine asks: summed and judged once
@cache
def _total(sizes: tuple[str, ...], equivalence: str) -> Fraction:
    return sum((WEIGHTS[equivalence].get(size, Fraction(0)) for size in sizes), Fraction(0))


@cache
def _status(sizes: tuple[str, ...], equivalence: str, required: int) -> CrewStatus:
    total = _total(sizes, equivalence)
    if total >= required:
        return "full"
    return "diminished" if total >= 1 else "insufficient"


def aim_requirement(state: PfState, engine: Engine) -> int | None:
    """PF-AIM-02: catalog aim, doubled for a diminished crew."""
    aim = spec_of(engine).aim
    if aim is None:
        return None
    return aim * (2 if crew_status(state, engine) == "diminished" else 1)


def load_requirement(state: PfState, engine: Engine) -> int | None:
    """PF-LOAD-01: catalog load, doubled for a diminished crew only under `diminished_doubles_load`."""
    load = spec_of(engine).load
    if load is None:
        return None
    doubled = state.options.diminished_doubles_load and crew_status(state, engine) == "diminished"
    return load * (2 if doubled else 1)


def action_unit(state: PfState, engine: Engine) -> Literal["full_round", "move"]:
    """PF-FEAT-03: one unit is a move action when the leader is a Master Siege Engineer."""
    return "move" if master_siege_engineer(leader_of(state, engine)) else "full_round"


def size_penalty_helpers(state: PfState, engine: Engine) -> int:
    """PF-DIRECT-02: crew other than the leader no more than three sizes smaller than the engine."""
    floor = size_index(engine.size) - 3
    return sum(1 for c in crew_of(state, engine) if c.id != engine.leader_id and size_index(c.size) >= floor)


def aimed(state: PfState, engine: Engine) -> bool | None:
    """PF-AIM-02 with the current crew; None for engines with no aiming step."""
    requirement = aim_requirement(state, engine)
    if not requirement:
        return None
    return engine.aim_target is not None and engine.aim_progress >= requirement
