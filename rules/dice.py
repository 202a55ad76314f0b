"""Named dice slots: client-supplied values first, then the battle's HMAC-derived stream
(docs/export-format.md §5 specifies it for verifiers)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from rules.errors import Rejected

MAX_VALUES_PER_SLOT = 1000  # far above any roll the rules make; bounds the work of a hostile body


@dataclass(frozen=True, slots=True, kw_only=True)
class Roll:
    slot: str
    sides: int
    value: int
    source: Literal["client", "stream"]

    def to_wire(self) -> dict[str, object]:
        return {"slot": self.slot, "die": f"d{self.sides}", "value": self.value, "source": self.source}


MAX_STREAM_FACES = 256  # each draw takes one byte of the HMAC


def stream_key(server_seed: bytes, client_seed: str = "") -> bytes:
    """The HMAC key of a battle's dice stream: sha256(server_seed || client_seed)."""
    return hashlib.sha256(server_seed + client_seed.encode()).digest()


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def stream_die(key: bytes, version: int, n: int, sides: int) -> int:
    """The n-th stream die (n from 0) of version `version`, uniform on 1..sides by byte rejection."""
    if not 1 <= sides <= MAX_STREAM_FACES:
        raise ValueError(f"no stream die has {sides} faces")  # no byte would ever be accepted
    limit = 256 - (256 % sides)
    counter = 0
    while True:
        message = f"{version}:{n}" if counter == 0 else f"{version}:{n}:{counter}"
        mac = _keyed(key).copy()  # the key's HMAC pads hashed once per key, not once per die
        mac.update(message.encode())
        for byte in mac.digest():
            if byte < limit:
                return byte % sides + 1
        counter += 1  # 32 rejected bytes in a row: extend the stream deterministically


@lru_cache(maxsize=1024)  # one per battle folding in this process (and the preview's own key)
def _keyed(key: bytes) -> hmac.HMAC:
    return hmac.new(key, digestmod=hashlib.sha256)


class Dice:
    """The dice of one command: supplied slots are consumed in order, others draw from the stream."""

    def __init__(self, *, key: bytes, version: int, supplied: Mapping[str, int | Sequence[int]]) -> None:
        self._key = key
        self._version = version
        self._supplied = {slot: [v] if isinstance(v, int) else list(v) for slot, v in supplied.items()}
        self._taken: dict[str, int] = {}
        self._stream_n = 0
        self.rolls: list[Roll] = []

    def roll(self, slot: str, sides: int, count: int = 1, *, summed: tuple[int, ...] = ()) -> list[int]:
        """Draw `count` dice of `sides` faces from `slot`; a short or out-of-range supply is rejected.
        `summed` (group sizes adding up to `count`) says the rules read the values only as the sums of
        those consecutive groups: the draw is the same, a preview branches on each sum (rules/preview.py)."""
        if slot in self._supplied:
            values = self._take_supplied(slot, sides, count)
        else:
            values = [self._next_stream(sides) for _ in range(count)]
        source: Literal["client", "stream"] = "client" if slot in self._supplied else "stream"
        self.rolls.extend(Roll(slot=slot, sides=sides, value=v, source=source) for v in values)
        return values

    def one(self, slot: str, sides: int) -> int:
        return self.roll(slot, sides, 1)[0]

    @property
    def supplied_any(self) -> bool:
        """Whether the entry supplied any die (most draw every die from the stream)."""
        return bool(self._supplied)

    def check_ranges(self, sides_of: Mapping[str, int | None]) -> None:
        """Reject supplied values above their slot's die (slots of varying size are checked when drawn)."""
        for slot, values in self._supplied.items():
            sides = sides_of.get(slot)
            too_high = [v for v in values if sides is not None and v > sides]
            if too_high:
                raise Rejected("dice_value_out_of_range", slot=slot, faces=sides, value=too_high[0])

    def check_counts(self) -> None:
        """Every supplied slot the action drew from must have been used up exactly."""
        for slot, taken in self._taken.items():
            if taken != len(self._supplied[slot]):
                raise Rejected(
                    "dice_count_mismatch", slot=slot, expected=taken, given=len(self._supplied[slot])
                )

    def unused(self) -> dict[str, list[int]]:
        return {slot: list(v) for slot, v in self._supplied.items() if slot not in self._taken}

    def used(self) -> dict[str, list[int]]:
        by_slot: dict[str, list[int]] = {}
        for roll in self.rolls:
            by_slot.setdefault(roll.slot, []).append(roll.value)
        return by_slot

    def _take_supplied(self, slot: str, sides: int, count: int) -> list[int]:
        start = self._taken.get(slot, 0)
        values = self._supplied[slot][start : start + count]
        if len(values) < count:
            given = len(self._supplied[slot])
            raise Rejected("dice_count_mismatch", slot=slot, expected=start + count, given=given)
        too_high = [v for v in values if v > sides]
        if too_high:
            raise Rejected("dice_value_out_of_range", slot=slot, faces=sides, value=too_high[0])
        self._taken[slot] = start + count
        return values

    def _next_stream(self, sides: int) -> int:
        value = stream_die(self._key, self._version, self._stream_n, sides)
        self._stream_n += 1
        return value
