"""What a ram adds to its attack, damage and break check (PF-ASSAULT-01/02/04, PF-STRUCT-07): charging,
improvised, head, the crew's Strength and the assisting equivalents; ram.py and breaching.py apply them."""

from __future__ import annotations

from fractions import Fraction

from rules.pathfinder.board import crew_of, spec_of
from rules.pathfinder.crew_status import weight
from rules.pathfinder.feats import proficient
from rules.pathfinder.magic import effective_enhancement
from rules.pathfinder.rolls import Mod, mods
from rules.pathfinder.sizes import size_modifier
from rules.pathfinder.state import Creature, Engine, PfState, RamSetup, Structure

RAM_SIZE_BONUS = {"L": 4, "H": 8, "G": 12, "C": 16}  # PF-STRUCT-07
HEAD_MATERIAL = {"pick": "stone", "screw": "earth"}  # PF-ASSAULT-01: the head's +2 applies to these


def setup_of(engine: Engine) -> RamSetup:
    return engine.ram or RamSetup()


def variant_terms(engine: Engine, charging: bool, structure: Structure | None) -> tuple[Mod, ...]:
    """`not_charging` (never for a gallery ram), `improvised` and `ram_head`, shared by all three uses."""
    setup = setup_of(engine)
    head = structure is not None and HEAD_MATERIAL.get(setup.ram_head) == structure.material
    return mods(
        ("not_charging", 0 if charging or setup.gallery_ram else -4),
        ("improvised", -4 if setup.improvised else 0),
        ("ram_head", 2 if head else 0),
    )


def attack_terms(
    state: PfState, engine: Engine, leader: Creature, charging: bool, structure: Structure | None
) -> tuple[Mod, ...]:
    """PF-ASSAULT-01, in the spec's order; no wind (PF-GEN-12), zero terms omitted."""
    always = state.options.ram_always_nonproficient
    return (
        *mods(
            ("bab", leader.bab),
            ("str", leader.str_mod),
            ("attacker_size", size_modifier(leader.size)),
            ("enhancement", effective_enhancement(engine)),
            ("nonproficient", -4 if always or not proficient(leader, spec_of(engine)) else 0),
        ),
        *variant_terms(engine, charging, structure),
        *mods(("broken", -2 if engine.broken else 0)),
    )


def crew_strength(state: PfState, engine: Engine) -> int:
    """PF-ASSAULT-02: S, the sum of every crew member's str_mod, the leader counted once."""
    return sum(member.str_mod for member in crew_of(state, engine))


def damage_static(state: PfState, engine: Engine, charging: bool, structure: Structure | None) -> int:
    """PF-ASSAULT-02: S + enhancement + the variant terms − 2 broken (no proficiency term on damage)."""
    variants = sum(m.value for m in variant_terms(engine, charging, structure))
    broken = -2 if engine.broken else 0
    return crew_strength(state, engine) + effective_enhancement(engine) + variants + broken


def assisting_equivalents(state: PfState, engine: Engine) -> Fraction:
    """PF-ASSAULT-04: the other members' equivalents, capped at crew − 1 (crew + 3 for a gallery ram)."""
    others = sum(
        (
            weight(c, state.options.crew_equivalence)
            for c in crew_of(state, engine)
            if c.id != engine.leader_id
        ),
        Fraction(0),
    )
    required = spec_of(engine).crew or 0
    cap = required + 3 if setup_of(engine).gallery_ram else required - 1
    return min(others, Fraction(cap))


def break_terms(
    state: PfState, engine: Engine, leader: Creature, charging: bool, structure: Structure
) -> tuple[Mod, ...]:
    """PF-STRUCT-07: str, ram_base +2, ram_assist +2 per assisting equivalent, ram_size, then the variants."""
    return (
        *mods(
            ("str", leader.str_mod),
            ("ram_base", 2),
            ("ram_assist", int(2 * assisting_equivalents(state, engine))),
            ("ram_size", RAM_SIZE_BONUS.get(engine.size, 0)),
        ),
        *variant_terms(engine, charging, structure),
    )
