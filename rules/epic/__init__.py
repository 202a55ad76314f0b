"""The `epic` ruleset: fortress sieges for Epic Space Marine 2nd ed. / Titan Legions (docs/rules.md)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.codec import JSON
from rules.dice import Dice
from rules.epic.commands import COMMANDS, Command
from rules.epic.decide import decide
from rules.epic.events import Event
from rules.epic.evolve import evolve
from rules.epic.reasons import REASONS
from rules.epic.refs import owner
from rules.epic.results import EveryResult
from rules.epic.state import EpicState, Options
from rules.epic.tables import PHASES, SLOTS
from rules.ruleset import Ruleset


def initial_state(options: Mapping[str, JSON]) -> EpicState:
    """Turn 1, orders phase, no fortress and no army yet."""
    return EpicState(turn=1, phase="orders", options=Options.from_mapping(options))


def finish_result(state: EpicState, dice: Dice) -> EveryResult:
    """Spec §2: every applied result tells the turn and phase after it and the dice it used or left."""
    return EveryResult(turn=state.turn, phase=state.phase, dice_used=dice.used(), unused_dice=dice.unused())


RULESET: Ruleset[Command, Event, EpicState] = Ruleset(
    name="epic",
    rules_version="epic-2",
    earlier_versions=("epic-1",),  # folded as recorded: rules/v1
    title="Epic fortress siege (Space Marine 2 / Titan Legions)",
    commands=COMMANDS,
    slots=SLOTS,
    options=Options,
    phases=PHASES,
    reasons=REASONS,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    every_result=EveryResult,
    finish_result=finish_result,
    state=EpicState,
    owner=owner,
)
