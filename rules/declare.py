"""One declaration per command: the frozen record, its field metadata and its class-level facts.

Everything else a command needs is derived from these, generically: the JSON → record builder
(`rules.build`), the JSON Schema of its body (`rules.jsonschema`), the marshmallow schema the API validates
with (`schemas.generated`), the ids it names and acts with (`rules.references`) and its phases.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from mypy_extensions import mypyc_attr

from rules.codec import JSON

T = TypeVar("T")
WIRE = "wire"  # the field-metadata key that holds a field's `Wire`


@dataclass(frozen=True, slots=True, kw_only=True)
class WireForm:
    """A record whose wire shape is another record (pathfinder targets: `{creature_id}` or `{square}`)."""

    record: type  # the shape clients send, declared like any record
    to_record: Callable[[Any], Any]  # that shape's instance → the field's own record


@dataclass(frozen=True, slots=True, kw_only=True)
class Wire:
    """What a field's type cannot say. For a list field, the item facts (ref, choices, text) apply to its
    items and the list facts (min_items, unique, unique_by) to the list."""

    doc: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    unique: bool = False  # list items do not repeat
    unique_by: str | None = None  # list of records: this field of theirs does not repeat
    choices: tuple[Any, ...] | None = None  # allowed values (strings, integers, or a union's tags)
    text: bool = False  # free text: no id length limit
    ref: str | None = None  # the kind of existing entity this id names (`unknown_entity`)
    ref_from: str | None = None  # the sibling field whose value is this id's entity kind
    acts: bool = False  # the command acts with this entity (ownership, a destroyed actor)
    side: bool = False  # the value is a side the command acts for (`add_stand.side`)
    new: bool = False  # an id the command creates (`duplicate_id`)
    omit_only: bool = False  # None only stands for "omitted": a sent null is refused
    default_from: str | None = None  # the default copies this sibling field (or is given by this rule)
    form: WireForm | None = None  # the field is sent in another record's shape


def wire(**facts: Any) -> dict[str, Wire]:
    """Field metadata: `field(default=0, metadata=wire(minimum=0, doc="…"))`."""
    return {WIRE: Wire(**facts)}


NO_FACTS = Wire()


def facts(f: dataclasses.Field[Any]) -> Wire:
    found: Wire = f.metadata.get(WIRE, NO_FACTS)
    return found


@dataclass(frozen=True, slots=True, kw_only=True)
class CommandSpec:
    """The class-level facts of a command: its wire name, when it may be sent, its dice, its doc."""

    name: str
    doc: str
    phases: tuple[str, ...] | None = None  # None: any phase (or the ruleset has none)
    dice: tuple[str, ...] = ()  # the slots it may draw from
    referee: bool = False  # only the GM may send it, whatever it names
    example: Mapping[str, JSON] | None = None  # a body (without `type`) for the docs
    result: type | None = None  # the record its applied outcome's `result` holds (the docs read it)


SPEC = "__command__"


# a plain class: each command record is declared by a class decorator, which mypyc cannot compile
@mypyc_attr(native_class=False)
class CommandRecord:
    """The base of every command record: what only the whole record can judge."""

    __slots__ = ()

    def invalid(self) -> bool:
        """A field error only a combination of fields reveals (spec §2 `invalid_field`)."""
        return False


def command(
    name: str,
    *,
    doc: str,
    phases: tuple[str, ...] | None = None,
    dice: tuple[str, ...] = (),
    referee: bool = False,
    example: Mapping[str, JSON] | None = None,
    result: type | None = None,
) -> Callable[[type[T]], type[T]]:
    """Declare a record as the command `name` (spec §3)."""
    spec = CommandSpec(
        name=name, doc=doc, phases=phases, dice=dice, referee=referee, example=example, result=result
    )

    def declare(cls: type[T]) -> type[T]:
        setattr(cls, SPEC, spec)
        return cls

    return declare


def spec_of(record: type) -> CommandSpec:
    spec: CommandSpec = getattr(record, SPEC)
    return spec


def command_table(*records: type[T]) -> dict[str, type[T]]:
    """Wire name → record, in the order given (the spec's order)."""
    return {spec_of(record).name: record for record in records}


# ---- the shapes of field types, analysed once per record -------------------------------------------


@dataclass(frozen=True, slots=True)
class Scalar:
    kind: Literal["str", "int", "bool"]


@dataclass(frozen=True, slots=True)
class Choice:
    values: tuple[str, ...]  # a Literal of strings

    def allowed(self, facts: Wire) -> tuple[Any, ...]:
        """The values a field of this shape may take: its `choices` narrow the Literal."""
        return facts.choices or self.values


@dataclass(frozen=True, slots=True)
class Seq:
    item: Shape


@dataclass(frozen=True, slots=True)
class Rec:
    record: type


@dataclass(frozen=True, slots=True)
class Tagged:
    """A union of records told apart by their `kind` literal."""

    tag: str
    variants: Mapping[str, type]

    def allowed(self, facts: Wire) -> dict[str, type]:
        """The variants a field of this shape may hold: its `choices` name the tags allowed."""
        return {k: v for k, v in self.variants.items() if not facts.choices or k in facts.choices}


@dataclass(frozen=True, slots=True)
class Nullable:
    inner: Shape


@dataclass(frozen=True, slots=True)
class Sentinel:
    """A field whose default is a marker outside the wire values (`inside: … = "unchanged"`)."""

    inner: Shape


Shape = Scalar | Choice | Seq | Rec | Tagged | Nullable | Sentinel


@dataclass(frozen=True, slots=True)
class FieldPlan:
    name: str
    shape: Shape
    facts: Wire
    required: bool
    default: Any  # the default value (MISSING when required)


def shape_of(tp: Any) -> Shape:
    """The shape of a field type. In a union, Literal members beside other types are internal markers
    (they are defaults, never accepted on the wire)."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        nullable = type(None) in args
        markers = [a for a in args if get_origin(a) is Literal]
        others = [a for a in args if a is not type(None) and get_origin(a) is not Literal]
        if not others:
            inner: Shape = Choice(tuple(v for m in markers for v in get_args(m)))
        elif len(others) == 1:
            inner = shape_of(others[0])
        else:
            inner = _tagged(others)
        if markers and others:
            if not isinstance(inner, Rec | Tagged):  # a marker beside text could be sent as data
                raise TypeError(f"a default marker needs a record beside it, not {tp!r}")
            inner = Sentinel(inner)
        return Nullable(inner) if nullable else inner
    if origin is Literal:
        if not all(isinstance(value, str) for value in get_args(tp)):
            raise TypeError(f"only string literals have a wire shape, not {tp!r}")
        return Choice(tuple(get_args(tp)))
    if origin is tuple:
        return Seq(shape_of(get_args(tp)[0]))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return Rec(tp)
    if tp is bool:
        return Scalar("bool")
    if tp is int:
        return Scalar("int")
    if tp is str:
        return Scalar("str")
    raise TypeError(f"no wire shape for {tp!r}")


def _tagged(options: list[Any]) -> Tagged:
    variants = {kind: option for option in options for kind in get_args(_hints(option)["kind"])}
    return Tagged("kind", variants)


def record_doc(record: type) -> str | None:
    """A record's own docstring, on one line (dataclasses make one up from the signature when none)."""
    doc = record.__doc__
    if not doc or doc.startswith(record.__name__ + "("):
        return None
    return " ".join(doc.split())


def described(p: FieldPlan) -> str | None:
    """What a schema says of a field in words: its doc, a uniqueness JSON Schema cannot say, its default."""
    notes = [p.facts.doc] if p.facts.doc else []
    if p.facts.unique_by:
        notes.append(f"each `{p.facts.unique_by}` at most once")
    if p.facts.default_from:
        notes.append(f"default: {p.facts.default_from}")
    return "; ".join(notes) or None


def stated_default(p: FieldPlan) -> bool:
    """A default worth stating in a schema: not a marker, not copied or derived from elsewhere."""
    shape = p.shape.inner if isinstance(p.shape, Nullable) else p.shape
    if p.facts.default_from or isinstance(shape, Sentinel):
        return False
    return not (p.default is None and (p.facts.omit_only or not isinstance(p.shape, Nullable)))


@cache
def plan(record: type) -> tuple[FieldPlan, ...]:
    """Each field of `record` with its shape, facts and default (built once per record type)."""
    hints = _hints(record)
    plans = []
    for f in dataclasses.fields(record):
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        plans.append(FieldPlan(f.name, shape_of(hints[f.name]), facts(f), required, default))
    return tuple(plans)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)
