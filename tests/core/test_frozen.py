"""rules.frozen.replace makes the very record dataclasses.replace makes, and by_id finds the first record."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from rules.frozen import by_id, replace
from rules.pathfinder.state import Engine, Square, Successive


def an_engine() -> Engine:
    return Engine(
        id="lc", catalog_id="catapult_light", position=Square(x=1, y=2), size="L", ac=10, hardness=5,
        max_hp=50, hp=50,
    )  # fmt: skip


def test_a_copy_with_changes_equals_what_dataclasses_replace_makes_and_leaves_the_original() -> None:
    engine = an_engine()
    copied = replace(engine, loaded=True, load_progress=2, successive=Successive(seen_misses=1))
    assert copied == dataclasses.replace(
        engine, loaded=True, load_progress=2, successive=Successive(seen_misses=1)
    )
    assert hash(copied.position) == hash(engine.position) and copied.position is engine.position
    assert (engine.loaded, engine.load_progress, copied.hp) == (False, 0, 50)
    assert replace(engine) == engine and replace(engine) is not engine


def test_a_copy_is_as_frozen_as_the_original() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(an_engine(), hp=3).hp = 4  # type: ignore[misc]


def test_a_field_the_record_does_not_have_is_refused() -> None:
    with pytest.raises(TypeError):
        replace(an_engine(), no_such_field=1)  # type: ignore[call-arg]


@dataclass(frozen=True, slots=True, kw_only=True)
class Derived:
    base: int
    double: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", self.base * 2)


def test_a_record_that_derives_fields_is_built_again_so_they_follow() -> None:
    assert replace(Derived(base=2), base=5).double == 10


@dataclass(frozen=True, slots=True, kw_only=True)
class Normalised:
    name: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", self.name.strip())


@dataclass(frozen=True, slots=True, kw_only=True)
class Counted:
    base: int
    seen: int = field(default=0, init=False)


@dataclass(frozen=True, kw_only=True)
class Unslotted:
    base: int
    label: str = "x"


def test_a_record_whose_post_init_adjusts_its_own_fields_runs_it_again() -> None:
    """A `__post_init__` alone (every field set by `__init__`) still sends the copy through `__init__`."""
    assert replace(Normalised(name="a"), name="  b  ").name == "b"


def test_a_field_init_does_not_set_is_left_to_its_default_as_dataclasses_replace_leaves_it() -> None:
    counted = Counted(base=1)
    object.__setattr__(counted, "seen", 5)
    assert replace(counted, base=2) == dataclasses.replace(counted, base=2) == Counted(base=2)
    assert replace(counted, base=2).seen == 0


def test_a_record_without_slots_is_copied_as_dataclasses_replace_copies_it() -> None:
    record = Unslotted(base=1)
    assert replace(record, base=3) == Unslotted(base=3, label="x") and replace(record) == record


def test_by_id_finds_the_first_record_with_that_id_or_none() -> None:
    first, other = an_engine(), replace(an_engine(), id="tb")
    records = (first, other, replace(first, hp=1))
    assert by_id(records, "lc") is first and by_id(records, "tb") is other
    assert by_id(records, "nobody") is None
