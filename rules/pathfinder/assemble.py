"""Assembly (PF-ASSEMBLE-01..04, PF-FEAT-04): `assemble`, by workers' Craft checks or telekinesis."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.dice import Dice
from rules.errors import Rejected
from rules.frozen import replace
from rules.pathfinder.board import creature
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.checks import actors_check
from rules.pathfinder.commands import Assemble
from rules.pathfinder.events import (
    AssemblyStarted,
    CreaturesBecameBusy,
    EffectScheduled,
    EngineBecameBusy,
    Event,
)
from rules.pathfinder.results import AssemblyTried
from rules.pathfinder.rolls import Check, mods, skill_check
from rules.pathfinder.shapes import TelekineticAssembly
from rules.pathfinder.state import Engine, PfState
from rules.pathfinder.time import ROUNDS_PER_HOUR, ROUNDS_PER_MINUTE
from rules.ruleset import Outcome

# PF-ASSEMBLE-01: workers and rounds by engine size
TABLE = {
    "S": (1, 1 * ROUNDS_PER_MINUTE),
    "M": (2, 10 * ROUNDS_PER_MINUTE),
    "L": (4, 1 * ROUNDS_PER_HOUR),
    "H": (6, 2 * ROUNDS_PER_HOUR),
    "G": (8, 4 * ROUNDS_PER_HOUR),
    "C": (12, 8 * ROUNDS_PER_HOUR),
}
ASSEMBLY_DC = 10
COMMANDER_BONUS = 4


@dataclass(frozen=True, slots=True, kw_only=True)
class Attempt:
    """What an `assemble` command achieved: its §3.9 outcome and who is busy for how long."""

    required: int
    replaced: int
    result: Literal["assembled", "assembled_double_time", "failed"]
    rounds: int
    checks: tuple[Check, ...] = ()
    successes: int | None = None  # None when the spell did the work (no checks)
    workers: tuple[str, ...] = ()


def assemble(command: Assemble, state: PfState, dice: Dice) -> Outcome[Event]:
    engine = get_engine(state, command.engine_id)
    _check_fields(command)
    if engine.destroyed:
        raise Rejected("engine_destroyed")
    if engine.assembled:
        raise Rejected("already_assembled")
    blocked = engine.assembly_blocked_until_round
    if blocked is not None and state.round < blocked:
        raise Rejected("assembly_in_progress")
    required, table_rounds = TABLE.get(engine.size, TABLE["S"])  # the table starts at Small
    replaced = replaced_by_spell(command.telekinetic_assembly)
    if replaced >= required:
        # PF-ASSEMBLE-04: the spell does all the work; listed workers (and their leader) are ignored
        attempt = Attempt(required=required, replaced=replaced, result="assembled", rounds=table_rounds)
    else:
        attempt = _by_workers(command, state, dice, required, table_rounds, replaced)
    return _outcome(state, engine, attempt)


def _by_workers(
    command: Assemble, state: PfState, dice: Dice, required: int, table_rounds: int, replaced: int
) -> Attempt:
    """PF-ASSEMBLE-01..03: one Craft check per listed worker; successes set the time or fail it."""
    workers = [creature(state, wid) for wid in command.worker_ids]
    actors_check(state, workers, None)
    if len(workers) * 2 < required:
        raise Rejected("too_few_workers")
    if any(w.skills.craft_siege_engine.ranks < 1 for w in workers if w.id in command.take_10):
        raise Rejected("untrained_cannot_take_10")
    commanded = _commander(state, command.leader_id)
    bonus = mods(("siege_commander", COMMANDER_BONUS if commanded else 0))
    checks = tuple(
        skill_check(dice, w, "craft_siege_engine", ASSEMBLY_DC, bonus, take_10=w.id in command.take_10)
        for w in workers
    )
    successes = sum(1 for c in checks if c.success)
    done = Attempt(
        required=required,
        replaced=replaced,
        result="failed",
        rounds=ROUNDS_PER_HOUR,  # the hour before a retry is never halved
        checks=checks,
        successes=successes,
        workers=tuple(w.id for w in workers),
    )
    if successes * 2 < required:  # fewer than ceil(w / 2) successes
        return done
    result: Literal["assembled", "assembled_double_time"] = (
        "assembled" if successes >= required else "assembled_double_time"
    )
    rounds = table_rounds if result == "assembled" else 2 * table_rounds
    if commanded:
        rounds //= 2
    return replace(done, result=result, rounds=rounds)


def _check_fields(command: Assemble) -> None:
    """Workers listed once; the leader and those taking 10 must be listed workers."""
    listed = set(command.worker_ids)
    if len(listed) != len(command.worker_ids) or len(set(command.take_10)) != len(command.take_10):
        raise Rejected("invalid_field")
    if command.leader_id is not None and command.leader_id not in listed:
        raise Rejected("invalid_field")
    if not listed.issuperset(command.take_10):
        raise Rejected("invalid_field")


def replaced_by_spell(spell: TelekineticAssembly | None) -> int:
    """PF-ASSEMBLE-04: floor(CL / 2) + 1 with a rank of Knowledge (engineering) + floor(ranks / 5)."""
    if spell is None:
        return 0
    ranks = spell.knowledge_engineering_ranks
    return spell.caster_level // 2 + (1 if ranks >= 1 else 0) + ranks // 5


def _commander(state: PfState, leader_id: str | None) -> bool:
    """PF-FEAT-04: a leader with Siege Commander gives +4 to every worker and halves the time."""
    return leader_id is not None and creature(state, leader_id).has_feat("siege_commander")


def _outcome(state: PfState, engine: Engine, attempt: Attempt) -> Outcome[Event]:
    """Workers busy for the time; the engine assembled when it ends (or open to a retry after a failure)."""
    ends = state.round + attempt.rounds
    events: list[Event] = []
    if attempt.workers:
        events.append(CreaturesBecameBusy(creature_ids=attempt.workers, until_round=ends))
    events.append(AssemblyStarted(engine_id=engine.id, blocked_until_round=ends))
    if attempt.result == "failed":
        events.append(EffectScheduled(kind="assembly_retry_open", due_round=ends, entity_id=engine.id))
    else:
        # PF-TIME-04: an engine being assembled is busy
        busy_until = max(ends, engine.busy_until_round or 0)
        events.append(EngineBecameBusy(engine_id=engine.id, until_round=busy_until))
        events.append(EffectScheduled(kind="assembly", due_round=ends, entity_id=engine.id))
    result = AssemblyTried(
        required_workers=attempt.required,
        replaced_by_spell=attempt.replaced,
        checks=attempt.checks,
        successful_workers=attempt.successes,
        result=attempt.result,
        duration_rounds=attempt.rounds,
        completes_at_round=ends,
    )
    return Outcome(result=result, events=tuple(events))
