"""The first use of a sabotaged engine (PF-DISABLE-02): `sabotage_minutes`, drawn last, schedules failure."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.events import EffectScheduled, Event, SabotageTriggered
from rules.pathfinder.results import SabotageDrawn
from rules.pathfinder.state import Engine, PfState
from rules.pathfinder.time import ROUNDS_PER_MINUTE


def after_use(state: PfState, engine: Engine, dice: Dice) -> tuple[SabotageDrawn | None, list[Event]]:
    """Call at the end of fire, ram, break with a ram, crush and use_corvus; returns the `sabotage` field."""
    if not engine.sabotaged or engine.sabotage_triggered or engine.destroyed:
        return None, []
    minutes = dice.one("sabotage_minutes", 4)
    at_round = state.round + ROUNDS_PER_MINUTE * minutes
    events: list[Event] = [
        SabotageTriggered(engine_id=engine.id),
        EffectScheduled(kind="sabotage_failure", due_round=at_round, entity_id=engine.id),
    ]
    return SabotageDrawn(minutes=minutes, disabled_at_round=at_round), events
