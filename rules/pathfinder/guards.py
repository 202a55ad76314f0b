"""The §2 "actor checks" and "engine checks" every area handler runs, in the spec's order."""

from __future__ import annotations

from collections.abc import Iterable

from rules.errors import Rejected
from rules.pathfinder import crewing
from rules.pathfinder.events import ActionKind
from rules.pathfinder.state import Creature, Engine, PfState
from rules.pathfinder.time import can_spend, creature_busy, engine_busy


def actor_checks(state: PfState, actor: Creature, action: ActionKind | None, count: int = 1) -> None:
    """Not down, not busy, and (unless a free action) the action still available this round."""
    if actor.down:
        raise Rejected("creature_down")
    if creature_busy(state, actor):
        raise Rejected("creature_busy")
    if action is not None and not can_spend(actor.actions, action, count):
        raise Rejected("action_unavailable")


def actors_check(
    state: PfState, actors: Iterable[Creature], action: ActionKind | None, count: int = 1
) -> None:
    for actor in actors:
        actor_checks(state, actor, action, count)


def engine_checks(state: PfState, engine: Engine) -> None:
    """Not destroyed, assembled, not busy, not disabled, has a crew that is not insufficient."""
    if engine.destroyed:
        raise Rejected("engine_destroyed")
    if not engine.assembled:
        raise Rejected("engine_not_assembled")
    if engine_busy(state, engine):
        raise Rejected("engine_busy")
    if engine.disabled:
        raise Rejected("engine_disabled")
    if crewing.crew_status(state, engine) is None:
        return  # no crew status (assault bridges, PF-CREW-03)
    if not engine.crew_ids:
        raise Rejected("no_crew")
    if crewing.crew_status(state, engine) == "insufficient":
        raise Rejected("crew_insufficient")
