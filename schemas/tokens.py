"""Access tokens on the wire: what a GM asks for when minting one, and what is shown of tokens."""

from __future__ import annotations

from marshmallow import fields, validate

from schemas.base import StrictSchema, integer
from schemas.views import ViewSchema

ROLE = r"^(gm|observer|side:[A-Za-z0-9_.\-]{1,64})$"
ROLE_HELP = "`gm`, `observer` or `side:<name>` (a side's name as the ruleset's units carry it)"
MAX_EXPIRY_S = 10 * 366 * 24 * 3600


class TokenCreateSchema(StrictSchema):
    role = fields.String(
        required=True,
        validate=validate.Regexp(ROLE, error="One of gm, observer or side:<name>."),
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
