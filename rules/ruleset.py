"""What every ruleset provides to the fold, the API and the workers: one frozen record of pure functions,
generic over the ruleset's command (C), event (E) and state (S) types: `get_ruleset("epic")` is typed with
epic's own (rules/registry.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from mypy_extensions import mypyc_attr

from rules.build import build
from rules.codec import JSON, decode, encode
from rules.dice import Dice
from rules.errors import Rejected
from rules.references import acting_sides

C = TypeVar("C")
E = TypeVar("E")
S = TypeVar("S")
# what a result record is typed as: a compiled dataclass cannot name `object` in a field's annotation
Result = object


@mypyc_attr(native_class=False)  # a generic dataclass cannot be a compiled class (mypyc#827)
@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome(Generic[E]):
    """What `decide` returns for an applied command: its result record (spec §3's Outcome, written with
    `rules.codec.encode`) and the events; the API renders the summary from the result (summaries/).

    `state` is the ruleset's state after `events`, given only by a handler that evolved them anyway (a
    `fire` reports its engine after the shot): exactly what `evolve` makes of them, one after the other,
    which the fold then takes instead of evolving them again. None: the fold evolves them."""

    result: Result
    events: tuple[E, ...] = ()
    state: object | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Slot:
    """A dice slot of spec §4: its die (None where the roll decides), values per roll, what it is for."""

    faces: int | None
    per_roll: int = 1
    doc: str = ""


@mypyc_attr(native_class=False)  # a generic dataclass cannot be a compiled class (mypyc#827)
@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset(Generic[C, E, S]):
    """A ruleset's pure functions. `decide` raises `Rejected(reason)` for a refused command."""

    name: str
    rules_version: str  # what a new battle is created with
    title: str
    # command type -> its record, the one declaration of the command (rules/declare.py)
    commands: Mapping[str, type[C]]
    slots: Mapping[str, Slot]
    # the house rules of spec §5 as a record of defaults (fields carry their facts like commands)
    options: type
    phases: tuple[str, ...] = ()
    # reason code -> its meaning, every code the rules can answer
    reasons: Mapping[str, str]
    initial_state: Callable[[Mapping[str, JSON]], S]
    decide: Callable[[C, S, Dice], Outcome[E]]
    evolve: Callable[[S, E], S]
    # the record of the members every applied result carries besides its own (turn/phase, round, the dice
    # it used or left), which `finish_result` builds from the state after the command and its dice: the
    # fold adds them to the result (`applied_result`), the API documents them from the record (schemas/)
    every_result: type
    finish_result: Callable[[S, Dice], Result]
    # the state record: `encode_state` and `decode_state` write and read it, the same for every ruleset
    state: type[S]
    # (state, entity kind, id) -> the sides owning it: empty for an unknown id, None for the GM's alone
    owner: Callable[[S, str, str], frozenset[str] | None]
    # what only this ruleset describes (the pathfinder catalog), added to GET /rulesets/{name}
    extra: Callable[[], Mapping[str, JSON]] = dict
    # the rules versions written before `rules_version` that this release still folds as recorded
    earlier_versions: tuple[str, ...] = ()
    default_options: Mapping[str, JSON] = field(init=False)

    def __post_init__(self) -> None:
        # derived once: battle creation and every fold's first step read them
        object.__setattr__(self, "default_options", encode(self.options()))

    @property
    def rules_versions(self) -> tuple[str, ...]:
        """Every rules version this release folds exactly as recorded, the current one last."""
        return (*self.earlier_versions, self.rules_version)

    def applied_result(self, state: S, result: dict[str, JSON], dice: Dice) -> dict[str, JSON]:
        """An applied command's encoded `result` followed by the members of `every_result`."""
        return {**result, **encode(self.finish_result(state, dice))}

    def encode_state(self, state: S) -> JSON:
        """The state as plain JSON, as the projections and exports store it (`rules.codec.encode`)."""
        return encode(state)

    def decode_state(self, data: JSON) -> S:
        """The state `encode_state` wrote."""
        state: S = decode(self.state, data)
        return state

    def parse(self, command_type: str, data: Mapping[str, JSON]) -> C:
        """The record for a logged command; a field the API's schema would refuse is `invalid_field`."""
        record = self.commands.get(command_type)
        if record is None:
            raise Rejected("unknown_command")
        return build(record, data)

    def acting_sides(self, command: C, state: S) -> frozenset[str] | None:
        """The sides owning the entities `command` acts with; None when only the referee may send it."""
        return acting_sides(command, state, self.owner)
