"""The `dice` member of a command: slot name → one die value or a list of them."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from marshmallow import ValidationError, fields

from rules.dice import MAX_VALUES_PER_SLOT
from rules.registry import get_ruleset

BAD_VALUE = f"Dice values are integers ≥ 1: one, or a list of at most {MAX_VALUES_PER_SLOT}."


class Dice(fields.Field[dict[str, Any]]):
    """Slots come from the ruleset's `slots`; values must be integers ≥ 1. Whether a value fits the
    die, and whether the count fits the roll, is judged by the rules (a rejected outcome, not a 422)."""

    default_error_messages = {"invalid": "Dice are an object: slot name → an integer or a list of integers."}

    def __init__(self, *, ruleset: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ruleset = ruleset

    def slots(self) -> Collection[str]:
        return get_ruleset(self.ruleset).slots.keys()

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        slots = self.slots()
        errors: dict[str, list[str]] = {}
        for slot, values in value.items():
            if slot not in slots:
                errors[slot] = [f"Unknown dice slot; one of: {', '.join(sorted(slots))}."]
            elif not _valid_values(values):
                errors[slot] = [BAD_VALUE]
        if errors:
            raise ValidationError(errors)
        return dict(value)


def _valid_values(values: Any) -> bool:
    if isinstance(values, list):
        return len(values) <= MAX_VALUES_PER_SLOT and all(_is_die(v) for v in values)
    return _is_die(values)


def _is_die(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1
