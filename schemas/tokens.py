"""Access tokens on the wire: what a GM asks for when minting one, and what is shown of tokens."""

from __future__ import annotations

from functools import cache

from marshmallow import fields, validate

from rules.declare import Choice, Nullable, plan
from rules.registry import get_ruleset
from schemas.base import StrictSchema, integer
from schemas.views import ViewSchema

SIDE_NAME = r"[a-z0-9][a-z0-9_.\-]{0,63}"  # lowercase id characters: no spaces, no control characters
ROLE = rf"^(gm|observer|side:{SIDE_NAME})\Z"  # \Z: `$` would let a trailing newline through
ROLE_HELP = (
    "`gm`, `observer` or `side:<name>`: one of the ruleset's sides where it names them (epic: `attacker`, "
    "`defender`), else a side name of lowercase letters, digits, `_`, `.` or `-` (pathfinder's sides are "
    "the free `side` strings of `add_creature` and `place_engine`)"
)
MAX_EXPIRY_S = 10 * 366 * 24 * 3600


@cache
def ruleset_sides(ruleset: str) -> tuple[str, ...] | None:
    """The sides the ruleset's commands can name (fields declared `side=True`), or None when one of those
    fields takes any string: then only SIDE_NAME's format is checked."""
    sides: list[str] = []
    records: list[type] = list(get_ruleset(ruleset).commands.values())
    for record in records:
        for p in plan(record):
            if not p.facts.side:
                continue
            shape = p.shape.inner if isinstance(p.shape, Nullable) else p.shape
            if not isinstance(shape, Choice) and not p.facts.choices:
                return None
            choices = p.facts.choices or (shape.values if isinstance(shape, Choice) else ())
            sides.extend(str(c) for c in choices if str(c) not in sides)
    return tuple(sides)


def side_allowed(ruleset: str, side: str) -> bool:
    """Whether a side token of the ruleset may name `side` (its format is ROLE's)."""
    sides = ruleset_sides(ruleset)
    return sides is None or side in sides


class TokenCreateSchema(StrictSchema):
    role = fields.String(
        required=True,
        validate=validate.Regexp(ROLE, error="One of gm, observer or side:<name> (lowercase id characters)."),
        metadata={"description": ROLE_HELP, "example": "side:attacker"},
    )
    expires_in = integer(
        validate=validate.Range(min=1, max=MAX_EXPIRY_S),
        metadata={"description": "seconds until the token stops working; omitted: it never expires"},
    )


class TokenSchema(ViewSchema):
    id = fields.String(
        required=True, metadata={"description": "names the token for revocation and in `actor`"}
    )
    role = fields.String(required=True, metadata={"description": ROLE_HELP})
    expires_at = fields.String(allow_none=True, required=True, metadata={"description": "UTC; null: never"})
    created_at = fields.String(required=True)
    revoked = fields.Boolean(required=True)
    active = fields.Boolean(required=True, metadata={"description": "neither revoked nor expired"})


class TokenMintedSchema(TokenSchema):
    token = fields.String(required=True, metadata={"description": "the bearer token, shown this once"})
