"""`advance_phase` (EP-TIME-01..05): what leaving each phase does, and the start of a new turn."""

from __future__ import annotations

from rules.dice import Dice
from rules.epic.board import find_stand
from rules.epic.commands import AdvancePhase
from rules.epic.events import ClimbsLapsed, Event, OrdersRevealed, PhaseAdvanced, TurnStarted
from rules.epic.gates import auto_close
from rules.epic.movers import allowance
from rules.epic.results import PhaseAdvance
from rules.epic.state import EpicState
from rules.epic.tables import Order, next_phase
from rules.errors import Rejected
from rules.frozen import replace
from rules.ruleset import Outcome


def advance_phase(command: AdvancePhase, state: EpicState, dice: Dice) -> Outcome[Event]:
    before = state.phase
    after = next_phase(before)
    turn = state.turn + 1 if before == "end" else state.turn
    result = PhaseAdvance(turn=turn, phase_before=before, phase_after=after)
    events: tuple[Event, ...] = ()
    if before == "orders":
        revealed, allowances, events = _reveal_orders(state)
        result = replace(result, revealed_orders=revealed, movement_allowances=allowances)
    elif before == "close_combat":
        lapsed = tuple(s.id for s in state.stands if s.pending_climb is not None and not s.destroyed)
        result = replace(result, lapsed_climbs=lapsed)
        events = (ClimbsLapsed(stand_ids=lapsed),) if lapsed else ()
    elif before == "advance_fire":
        closed, events = auto_close(state, dice)
        result = replace(result, auto_closed_gates=closed)
    elif before == "end":
        events = (TurnStarted(turn=turn),)
    return Outcome(
        result=result,
        events=(*events, PhaseAdvanced(turn=turn, phase=after)),
    )


def _reveal_orders(state: EpicState) -> tuple[dict[str, Order], dict[str, int], tuple[Event, ...]]:
    """EP-ORDER-03..05, EP-TIME-03: gates need orders; passengers take their transport's; allowances."""
    if any(g.is_gate and g.intact and g.order is None for g in state.sections):
        raise Rejected("gate_without_order")
    passenger_orders: dict[str, Order | None] = {}
    for stand in state.stands:
        if stand.location.kind == "embarked" and not stand.destroyed:
            transport = find_stand(state, stand.location.transport_id)
            passenger_orders[stand.id] = transport.order if transport else None
    living = [s for s in state.stands if not s.destroyed]
    orders = {s.id: passenger_orders.get(s.id, s.order) for s in living}
    allowances = {s.id: allowance(s.speed_cm, orders[s.id]) for s in living}
    revealed = {sid: order for sid, order in orders.items() if order is not None}
    revealed |= {g.id: g.order for g in state.sections if g.is_gate and g.intact and g.order is not None}
    events = (OrdersRevealed(passenger_orders=passenger_orders, movement_allowances=allowances),)
    return revealed, dict(allowances), events
