"""Who acts in an epic command (DESIGN §4.9): stands belong to their side, gates to the defender."""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from rules.epic.commands import (
    AddFortification,
    AddStand,
    AdvancePhase,
    Assault,
    Barrage,
    Climb,
    Command,
    Disembark,
    Embark,
    Fire,
    GiveOrder,
    Move,
    OperateGate,
    Repair,
)
from rules.epic.state import EpicState

GATE_OWNER = "defender"  # the fortress owner works its gates


def acting_sides(command: Command, state: EpicState) -> frozenset[str] | None:
    """The sides whose stands or gates `command` acts with; None for the referee's setup and phases.

    Targets (an assault's defender, a shot's target, a transport boarded) are acted upon, not with; ids the
    state does not know count for no side, since the fold rejects them."""
    match command:
        case AdvancePhase() | AddFortification():
            return None
        case AddStand(side=side):
            return frozenset({side})
        case GiveOrder(stand_id=stand_id, gate_id=gate_id):
            gates = {GATE_OWNER} if gate_id is not None else set()
            return _sides(state, [stand_id] if stand_id is not None else []) | gates
        case Move(stand_id=s) | Embark(stand_id=s) | Disembark(stand_id=s) | Climb(stand_id=s):
            return _sides(state, [s])
        case Assault(stand_id=s) | Fire(stand_id=s):
            return _sides(state, [s])
        case Barrage(stand_ids=stand_ids):
            return _sides(state, stand_ids)
        case OperateGate() | Repair():
            return frozenset({GATE_OWNER})
        case _:
            assert_never(command)


def _sides(state: EpicState, stand_ids: Iterable[str]) -> frozenset[str]:
    wanted = set(stand_ids)
    return frozenset(stand.side for stand in state.stands if stand.id in wanted)
