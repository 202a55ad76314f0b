"""Structure statistics (PF-STRUCT-01..04): AC, hardness, hit points, break DC and magic treatment cost."""

from __future__ import annotations

SIZE_COLUMN = {"L": 0, "H": 1, "G": 2, "C": 3}
HARDNESS = {"wood": 5, "stone": 8, "iron": 10, "adamantine": 20}
# printed Gargantuan/Colossal headers are swapped; values rise with size (PF-STRUCT-02)
BUILDING_HP = {
    "wood": (120, 270, 960, 3240),
    "stone": (200, 450, 1600, 5400),
    "iron": (400, 900, 3200, 10800),
    "adamantine": (560, 1260, 4480, 15120),
}
GATE_HP = {
    "wood": (60, 135, 240, 540),
    "stone": (100, 225, 400, 900),
    "iron": (200, 500, 800, 1800),
    "adamantine": (280, 630, 1120, 2520),
}
GATE_BREAK_DC = {"wood": 35, "stone": 38, "iron": 24, "adamantine": 48}
BREAK_DC_SIZE_BONUS = (0, 5, 10, 15)
ARCANE_LOCK_BONUS = 10
MAGIC_COST = {"building": (5000, 10000, 20000, 40000), "gate": (2000, 4000, 8000, 16000)}
WALL_MAGIC_COST = 500
IRON_WALL_HARDNESS, IRON_WALL_HP = 10, 90


def structure_ac(kind: str, size: str | None) -> int:
    """PF-STRUCT-01: a wall square 5; gates and buildings by size."""
    if kind == "wall" or size is None:
        return 5
    return (4, 3, 0, 0)[SIZE_COLUMN[size]]


def table_hardness(kind: str, material: str) -> int | None:
    if kind == "wall":
        return IRON_WALL_HARDNESS if material == "iron" else None
    return HARDNESS.get(material)


def table_hp(kind: str, material: str, size: str | None) -> int | None:
    if kind == "wall":
        return IRON_WALL_HP if material == "iron" else None
    table = BUILDING_HP if kind == "building" else GATE_HP
    if material not in table or size is None:
        return None
    return table[material][SIZE_COLUMN[size]]


def gate_break_dc(material: str, size: str, arcane_lock: bool) -> int | None:
    """PF-STRUCT-03: barred and locked gate; +5 per size above Large; +10 with arcane lock."""
    base = GATE_BREAK_DC.get(material)
    if base is None:
        return None
    return base + BREAK_DC_SIZE_BONUS[SIZE_COLUMN[size]] + (ARCANE_LOCK_BONUS if arcane_lock else 0)


def magic_cost(kind: str, size: str | None) -> int:
    if kind == "wall" or size is None:
        return WALL_MAGIC_COST
    return MAGIC_COST[kind][SIZE_COLUMN[size]]
