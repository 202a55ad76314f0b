"""The `pathfinder` ruleset: Pathfinder 1e siege engines (its rule ids: docs/rules.md)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.codec import JSON, decode
from rules.dice import Dice
from rules.pathfinder.commands import COMMANDS, Command
from rules.pathfinder.decide import decide
from rules.pathfinder.describe import extra
from rules.pathfinder.dice_slots import SLOTS
from rules.pathfinder.events import Event
from rules.pathfinder.evolve import evolve
from rules.pathfinder.reasons import REASONS
from rules.pathfinder.refs import owner
from rules.pathfinder.results import EveryResult
from rules.pathfinder.state import Options, PfState
from rules.ruleset import Ruleset


def initial_state(options: Mapping[str, JSON]) -> PfState:
    known = {k: v for k, v in options.items() if k in Options.__dataclass_fields__}
    return PfState(options=decode(Options, known))


def finish_result(state: PfState, dice: Dice) -> EveryResult:
    """Every applied result carries its round and the supplied slots it never drew (PF-GEN-06)."""
    return EveryResult(round=state.round, unused_dice=tuple(sorted(dice.unused())))


RULESET: Ruleset[Command, Event, PfState] = Ruleset(
    name="pathfinder",
    rules_version="pathfinder-2",
    earlier_versions=("pathfinder-1",),  # folded as recorded: rules/v1
    title="Pathfinder 1e siege engines",
    commands=COMMANDS,
    slots=SLOTS,
    options=Options,
    reasons=REASONS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    every_result=EveryResult,
    finish_result=finish_result,
    state=PfState,
    owner=owner,
    extra=extra,
)
