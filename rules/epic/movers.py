"""Who may move and how far: allowances (EP-MOVE-01), moving orders, Charge movers first (EP-MOVE-03)."""

from __future__ import annotations

from rules.epic.events import AdvanceMoverActed, Event
from rules.epic.state import EpicState, Stand
from rules.epic.tables import MOVE_FACTOR, Order
from rules.errors import Rejected


def allowance(speed_cm: int, order: Order | None) -> int:
    return MOVE_FACTOR.get(order or "", 0) * speed_cm


def require_moving_order(stand: Stand) -> None:
    if stand.order not in MOVE_FACTOR:
        raise Rejected("order_forbids_move")


def require_charge_window(state: EpicState, stand: Stand) -> None:
    """Charge-order stands act before any Advance-order stand or gate has acted."""
    if stand.order == "charge" and state.advance_mover_acted:
        raise Rejected("charge_movers_first")


def mover_events(state: EpicState, order: Order | None) -> tuple[Event, ...]:
    """An applied action of an Advance-order stand or gate closes the Charge window."""
    if order == "advance" and not state.advance_mover_acted:
        return (AdvanceMoverActed(),)
    return ()
