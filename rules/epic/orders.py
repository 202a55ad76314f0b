"""`give_order` (EP-ORDER-01): one order per stand or gate for the turn; passengers follow their transport."""

from __future__ import annotations

from rules.epic.board import find_section, find_stand
from rules.epic.commands import GiveOrder
from rules.epic.events import Event, OrderGiven
from rules.epic.results import Ordered
from rules.epic.state import EpicState
from rules.errors import Rejected
from rules.ruleset import Outcome


def give_order(command: GiveOrder, state: EpicState) -> Outcome[Event]:
    if command.stand_id is not None:
        target = command.stand_id
        stand = find_stand(state, target)
        if stand is not None and stand.location.kind == "embarked":
            raise Rejected("embarked_follows_transport")
    else:
        target = str(command.gate_id)
        gate = find_section(state, target)
        if gate is None or not gate.is_gate:
            raise Rejected("not_a_gate")
        if not gate.intact:
            raise Rejected("section_destroyed")
    return Outcome(
        result=Ordered(target=target, order=command.order),
        events=(OrderGiven(target=target, order=command.order),),
    )
