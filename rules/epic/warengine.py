"""War engines against sections (EP-WARENGINE-01/03): 2D6 + caf > VA_eff destroys it, with no save."""

from __future__ import annotations

from rules.dice import Dice
from rules.epic.board import va_eff
from rules.epic.events import AssaultMade, Event
from rules.epic.fight import assault_result, side_roll, success_or_failure
from rules.epic.saves import destroy_section, modifier
from rules.epic.state import AtFoot, EpicState, Section, Stand
from rules.errors import Rejected
from rules.ruleset import Outcome


def war_engine_assault(state: EpicState, engine: Stand, target: Section, dice: Dice) -> Outcome[Event]:
    if not engine.has_cc_weapon:
        raise Rejected("no_close_combat_weapon")
    if engine.order != "charge":
        raise Rejected("charge_order_required")
    if engine.location != AtFoot(section_id=target.id):
        raise Rejected("not_in_contact")
    if not target.intact:
        raise Rejected("section_destroyed")
    if engine.assaulted_this_turn:
        raise Rejected("already_assaulted_this_turn")
    roll = side_roll(dice.roll("attacker", 6, 2, summed=(2,)), (modifier("caf", engine.caf),))
    goal = va_eff(state, target)  # always the full VA, whoever defends the section
    success = roll.total > goal
    verdict = success_or_failure(success)
    lost, fall = destroy_section(state, target) if success else ((), ())
    made = AssaultMade(stand_id=engine.id, section_id=target.id, kind="war_engine", result=verdict)
    result = assault_result(
        "war_engine",
        None,
        verdict,
        lost,
        engine.location,
        attacker=roll,
        target=goal,
        section_destroyed=success,
    )
    return Outcome(result=result, events=(made, *fall))
