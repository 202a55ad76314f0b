"""`raise_bridge` (§3.20, PF-ASSAULT-05): up to four creatures a round raise an assault bridge."""

from __future__ import annotations

from fractions import Fraction

from rules.dice import Dice
from rules.errors import Rejected
from rules.pathfinder.board import creature, spec_of
from rules.pathfinder.board import engine as get_engine
from rules.pathfinder.checks import actors_check
from rules.pathfinder.commands import RaiseBridge
from rules.pathfinder.events import ActionsSpent, BridgeProgressed, Event
from rules.pathfinder.geometry import number
from rules.pathfinder.results import BridgeRaising
from rules.pathfinder.sizes import size_index
from rules.pathfinder.state import Bridge, Creature, Engine, PfState
from rules.ruleset import Outcome

BRIDGE_LENGTH_FT = {"L": 20, "H": 30, "G": 40, "C": 60}
CONTRIBUTORS_PER_ROUND = 4
SCALE = 256  # the state keeps progress in 1/256 units (state.Bridge)


def units(bridge: Engine, helper: Creature) -> Fraction:
    """½ per size category the bridge exceeds the creature; a creature as large or larger adds 1."""
    return Fraction(1, 2 ** max(0, size_index(bridge.size) - size_index(helper.size)))


def requirement(bridge: Engine) -> int:
    """Raised when progress reaches length_ft / 5 (20, 30, 40, 60 ft for L, H, G, C)."""
    return BRIDGE_LENGTH_FT[bridge.size] // 5


def raise_bridge(command: RaiseBridge, state: PfState, dice: Dice) -> Outcome[Event]:
    bridge, so_far, helpers = _checked(command, state)
    added = sum((units(bridge, h) for h in helpers), Fraction(0))
    progress = Fraction(so_far.progress_256ths, SCALE) + added
    needed = requirement(bridge)
    raised = progress >= needed
    events = (
        ActionsSpent(creature_ids=command.contributors, action="full_round"),
        BridgeProgressed(
            engine_id=bridge.id,
            progress_256ths=int(progress * SCALE),
            raised=raised,
            contributors_this_round=so_far.contributors_this_round + len(helpers),
        ),
    )
    result = BridgeRaising(
        units_added=number(added), progress=number(progress), requirement=needed, raised=raised
    )
    return Outcome(result=result, events=events)


def _checked(command: RaiseBridge, state: PfState) -> tuple[Engine, Bridge, list[Creature]]:
    """§3.20 order: engine_destroyed, not_a_bridge, bridge_already_raised, too_many_contributors, actors."""
    ids = command.contributors  # at least one, each once: the command's declaration (`check_fields`)
    bridge = get_engine(state, command.engine_id)
    if bridge.destroyed:
        raise Rejected("engine_destroyed")
    if spec_of(bridge).family != "bridge_assault":
        raise Rejected("not_a_bridge")
    so_far = bridge.bridge or Bridge()
    if so_far.raised:
        raise Rejected("bridge_already_raised")
    if so_far.contributors_this_round + len(ids) > CONTRIBUTORS_PER_ROUND:
        raise Rejected("too_many_contributors")  # counted over every raise_bridge this round
    helpers = [creature(state, c) for c in ids]
    actors_check(state, helpers, "full_round")
    return bridge, so_far, helpers
