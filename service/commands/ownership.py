"""Holding side tokens to their own units: the ruleset says which sides a command acts for,
judged on the battle's state at the head the command is appended after."""

from __future__ import annotations

from typing import Any

from rules.errors import Rejected
from rules.fold import CONCLUDE, UNDO
from rules.registry import get_ruleset
from schemas.commands import LoadedCommand
from service.access.auth import Principal, forbidden
from service.access.tokens import SIDE


def permit(principal: Principal, ruleset_name: str, command: LoadedCommand, game: Any) -> None:
    """Raise a 403 unless a side token's command acts only with its own side's entities."""
    if principal.role != SIDE:
        return  # a GM acts for everyone; observers are refused before the body is read
    ruleset = get_ruleset(ruleset_name)
    if command.type in (CONCLUDE, UNDO):
        raise forbidden(f"Only a GM token may send `{command.type}`.")
    try:
        parsed = ruleset.parse(command.type, command.data)
    except Rejected:
        return  # the fold refuses it alike for everyone: a rejected outcome changes nothing
    sides = ruleset.acting_sides(parsed, game)
    if sides is None:
        raise forbidden(f"`{command.type}` here is the referee's: only a GM token may send it.")
    others = sorted(sides - {principal.side})
    if others:
        raise forbidden(
            f"This command acts for side {', '.join(others)}; a side:{principal.side} token acts "
            "only with its own side's units. Nothing was appended."
        )
