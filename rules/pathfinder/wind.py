"""Wind (PF-GEN-12): the siege modifier of each level and `set_wind`."""

from __future__ import annotations

from rules.dice import Dice
from rules.pathfinder.commands import SetWind
from rules.pathfinder.events import Event, WindSet
from rules.pathfinder.results import WindNow
from rules.pathfinder.state import PfState
from rules.ruleset import Outcome

# None: no siege engine can fire at all (tornado)
SIEGE_MODIFIER: dict[str, int | None] = {
    "none": 0,
    "light": 0,
    "moderate": 0,
    "strong": 0,
    "severe": 0,
    "windstorm": -4,
    "storm": -4,
    "hurricane": -8,
    "tornado": None,
}


def wind_modifier(level: str) -> int:
    """The `wind` term of attack rolls and targeting checks; firing in a tornado is rejected before this."""
    return SIEGE_MODIFIER[level] or 0


def can_fire(level: str) -> bool:
    return SIEGE_MODIFIER[level] is not None


def set_wind(command: SetWind, state: PfState, dice: Dice) -> Outcome[Event]:
    # every level the command's Literal admits has a modifier (an unknown one is `invalid_field` at parse)
    result = WindNow(wind=command.level, siege_modifier=SIEGE_MODIFIER[command.level])
    return Outcome(result=result, events=(WindSet(level=command.level),))
