"""The dice slots of spec §4 and their die faces (None where the die depends on the roll)."""

from __future__ import annotations

DICE_SLOTS: dict[str, int | None] = {
    "attack": 20,
    "confirm": 20,
    "targeting": 20,
    "operation": 20,
    "damage": None,
    "scatter_direction": 8,
    "scatter_distance": 4,
    "save": 20,
    "explosion_damage": None,
    "explosion_reflex": 20,
    "check": 20,
    "disable_rounds": 4,
    "sabotage_minutes": 4,
}
