"""The dice slots of spec §4: their faces (None where the engine or ammunition decides) and their use."""

from __future__ import annotations

from rules.ruleset import Slot

SLOTS: dict[str, Slot] = {
    "attack": Slot(faces=20, doc="d20 per attack: a direct shot, each blast-shot target, a ram"),
    "confirm": Slot(faces=20, doc="d20 per threat, to confirm a critical hit"),
    "targeting": Slot(faces=20, doc="d20 per indirect shot's targeting check"),
    "operation": Slot(faces=20, doc="d20 per firedrake or firewyrm operation check"),
    "damage": Slot(faces=None, doc="the engine's or the ammunition's damage dice (4d6 for crush)"),
    "scatter_direction": Slot(faces=8, doc="d8 per indirect miss"),
    "scatter_distance": Slot(faces=4, doc="d4 per range increment of an indirect miss (no Siege Gunner)"),
    "save": Slot(faces=20, doc="d20 per creature making a saving throw"),
    "explosion_damage": Slot(faces=None, doc="the exploding engine's catalog damage dice"),
    "explosion_reflex": Slot(faces=20, doc="d20 per creature in an explosion's radius"),
    "check": Slot(faces=20, doc="d20 per skill or Strength check (per worker when assembling)"),
    "disable_rounds": Slot(faces=4, per_roll=2, doc="2d4 rounds to disable an engine"),
    "sabotage_minutes": Slot(faces=4, doc="d4 minutes before a sabotaged engine fails"),
}
DICE_SLOTS: dict[str, int | None] = {name: slot.faces for name, slot in SLOTS.items()}
