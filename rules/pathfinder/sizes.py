"""Size categories (PF-GEN-03): index, attack/AC modifier and the French codes of seed 000."""

from __future__ import annotations

from typing import Literal, get_args

Size = Literal["F", "D", "T", "S", "M", "L", "H", "G", "C"]
SIZES: tuple[Size, ...] = get_args(Size)

SIZE_MODIFIER: dict[str, int] = {"F": 8, "D": 4, "T": 2, "S": 1, "M": 0, "L": -1, "H": -2, "G": -4, "C": -8}

# seed 000 writes "G" for Large and "Gig" for Gargantuan (D2); Fine/Diminutive/Tiny are not attested there
FRENCH_CODES: dict[str, str] = {"S": "P", "M": "M", "L": "G", "H": "TG", "G": "Gig", "C": "Col"}


SIZE_INDEX: dict[str, int] = {size: index for index, size in enumerate(SIZES)}


def size_index(size: str) -> int:
    return SIZE_INDEX[size]


def size_modifier(size: str) -> int:
    return SIZE_MODIFIER[size]


def from_french(code: str) -> Size:
    for english, french in FRENCH_CODES.items():
        if french == code:
            return english  # type: ignore[return-value]
    raise KeyError(code)
