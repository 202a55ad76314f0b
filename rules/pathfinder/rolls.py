"""Roll shapes of §2: attack rolls, targeting and operation checks, skill checks and saving throws.

Every d20 roll a result reports is a `Check` (`{slot, natural, modifiers, total, target_number, success}`);
every saving throw a `Save` (`{type, dc, natural, bonus, total, success}`). Zero modifiers are omitted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal, get_args

from rules.dice import Dice
from rules.pathfinder.state import Creature

SkillId = Literal[
    "craft_siege_engine", "disable_device", "knowledge_engineering", "profession_siege_engineer"
]
SaveType = Literal["ref", "fort", "will"]
# every label a modifier can carry (spec §2 and the rules naming them): `mods` takes no other, and the
# summaries' catalogs word each one for the viewer (tests/service/test_catalogs.py)
Label = Literal[
    SkillId,
    "str",
    "dex",
    "int",
    "bab",
    "attacker_size",
    "enhancement",
    "empower",
    "nonproficient",
    "siege_size_penalty",
    "range",
    "broken",
    "bombard_direct",
    "wind",
    "no_line_of_sight",
    "successive_after_hit",
    "successive_misses_seen",
    "successive_misses_reported",
    "siege_commander",
    "driving",
    "ram_base",
    "ram_assist",
    "ram_size",
    "not_charging",
    "improvised",
    "ram_head",
    "base",
    "size",
    "armor",
]
LABELS: tuple[str, ...] = get_args(Label)


@dataclass(frozen=True, slots=True, kw_only=True)
class Mod:
    label: str  # a Label when built by `mods`; str on the wire, so that a label later dropped still decodes
    value: int


def mods(*terms: tuple[Label, int]) -> tuple[Mod, ...]:
    """A labelled breakdown in the given order, zero terms omitted."""
    return tuple(Mod(label=label, value=value) for label, value in terms if value != 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class Check:
    slot: str
    natural: int
    modifiers: tuple[Mod, ...]
    target_number: int | None
    success: bool | None
    total: int = field(init=False)  # a field, not a property, so that the codec writes it with the roll

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", self.natural + self.modifier_total)

    @property
    def modifier_total(self) -> int:
        total = 0
        for m in self.modifiers:  # a loop: a generator for two or three terms costs more than the sum
            total += m.value
        return total


def attack_success(natural: int, total: int, target_number: int) -> bool:
    """PF-GEN-07: a natural 20 always succeeds and a natural 1 always fails."""
    if natural == 20:
        return True
    if natural == 1:
        return False
    return total >= target_number


def attack(dice: Dice, slot: str, modifiers: Iterable[Mod], target_number: int) -> Check:
    """An attack roll, targeting check or confirmation roll (naturals 20/1 decide)."""
    natural = dice.one(slot, 20)
    return _judged(
        slot, natural, modifiers, target_number, lambda t: attack_success(natural, t, target_number)
    )


def plain_check(
    dice: Dice, slot: str, modifiers: Iterable[Mod], dc: int | None, take_10: bool = False
) -> Check:
    """A skill, Strength or driving check (PF-GEN-13): naturals do nothing special; take 10 draws nothing."""
    natural = 10 if take_10 else dice.one(slot, 20)
    return _judged(slot, natural, modifiers, dc, lambda total: None if dc is None else total >= dc)


def _judged(
    slot: str,
    natural: int,
    modifiers: Iterable[Mod],
    target: int | None,
    success: Callable[[int], bool | None],
) -> Check:
    """A check whose success is judged on its total (natural + modifiers)."""
    terms = tuple(modifiers)
    total = natural
    for m in terms:
        total += m.value
    return Check(slot=slot, natural=natural, modifiers=terms, target_number=target, success=success(total))


def skill_check(
    dice: Dice,
    creature: Creature,
    skill: SkillId,
    dc: int,
    bonuses: Iterable[Mod] = (),
    take_10: bool = False,
) -> Check:
    """`d20 + the skill's modifier (labelled with the skill id) + listed bonuses` against the DC."""
    own: int = getattr(creature.skills, skill).modifier
    return plain_check(dice, "check", (*mods((skill, own)), *bonuses), dc, take_10)


def strength_check(
    dice: Dice, creature: Creature, dc: int, bonuses: Iterable[Mod] = (), take_10: bool = False
) -> Check:
    return plain_check(dice, "check", (*mods(("str", creature.str_mod)), *bonuses), dc, take_10)


def untrained(creature: Creature, skill: SkillId, dc: int) -> bool:
    """PF-GEN-13: Disable Device and Profession need a rank; Knowledge (engineering) too above DC 10."""
    ranks: int = getattr(creature.skills, skill).ranks
    if skill in ("disable_device", "profession_siege_engineer"):
        return ranks < 1
    if skill == "knowledge_engineering":
        return ranks < 1 and dc > 10
    return False


@dataclass(frozen=True, slots=True, kw_only=True)
class Save:
    type: SaveType
    dc: int
    natural: int
    bonus: int
    # fields, not properties, so that the codec writes them with the save
    total: int = field(init=False)
    success: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", self.natural + self.bonus)
        # PF-GEN-09: total ≥ DC; a natural 20 always succeeds and a natural 1 always fails
        object.__setattr__(self, "success", attack_success(self.natural, self.total, self.dc))


def saving_throw(dice: Dice, creature: Creature, save_type: SaveType, dc: int, slot: str = "save") -> Save:
    natural = dice.one(slot, 20)
    bonus: int = getattr(creature.saves, save_type)
    return Save(type=save_type, dc=dc, natural=natural, bonus=bonus)
