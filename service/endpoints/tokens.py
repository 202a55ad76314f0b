"""`/battles/{id}/tokens`: the GM mints scoped tokens (shown once), lists them and revokes them."""

from __future__ import annotations

from typing import Any

from flask import Response

from eventstore.clock import utc_now
from eventstore.errors import TooManyTokens
from eventstore.records import TokenRecord
from schemas.tokens import TokenCreateSchema, TokenMintedSchema, TokenSchema, ruleset_sides, side_allowed
from service.access.tokens import SIDE_PREFIX, mint, token_view
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.json_io import NO_STORE, NO_STORE_DOC, json_response
from service.http.problems import Problem, validation_problem

blp = Blueprint(
    "tokens", __name__, url_prefix="/battles", description="Tokens: who may read or command a battle."
)
LOCATION = {"Location": {"description": "the token", "schema": {"type": "string"}}}


@blp.route("/<battle_id>/tokens", methods=["POST"])
@blp.access("gm")
@blp.json_body(TokenCreateSchema)
@blp.response(201, TokenMintedSchema, headers={**LOCATION, **NO_STORE_DOC})
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(409, response="CONFLICT")
def mint_token(battle_id: str, body: dict[str, Any]) -> Response:
    """Mint a token for this battle: `gm`, `observer` or `side:<name>`, with an optional expiry"""
    deps = services()
    _check_side(body["role"], deps.battles.created(battle_id).data["ruleset"])
    minted = mint(body["role"], body.get("expires_in"))
    try:
        deps.access.add_token(battle_id, minted.record, live_cap=deps.config.max_tokens, now=utc_now())
    except TooManyTokens as full:
        detail = (
            f"The battle has {full.live} live tokens, its cap (SIEGE_MAX_TOKENS); revoke one "
            "(DELETE /battles/{id}/tokens/{token_id}) or let one expire first."
        )
        raise Problem(
            409, "too-many-tokens", "The battle has too many tokens", detail, live=full.live
        ) from None
    view = {**token_view(minted.record), "token": minted.secret}
    return json_response(
        view, 201, {"Location": f"/battles/{battle_id}/tokens/{minted.record.id}", **NO_STORE}
    )


@blp.route("/<battle_id>/tokens", methods=["GET"])
@blp.access("gm")
@blp.response(200, TokenSchema(many=True))
@blp.alt_response(404, response="NOT_FOUND")
def list_tokens(battle_id: str) -> Response:
    """List the battle's tokens, revoked and expired ones included (never their secrets)"""
    return json_response([token_view(token) for token in services().access.tokens(battle_id)])


@blp.route("/<battle_id>/tokens/<token_id>", methods=["GET"])
@blp.access("gm")
@blp.response(200, TokenSchema)
@blp.alt_response(404, response="NOT_FOUND")
def read_token(battle_id: str, token_id: str) -> Response:
    """Read one token's role, expiry and state"""
    return json_response(token_view(_find(battle_id, token_id)))


@blp.route("/<battle_id>/tokens/<token_id>", methods=["DELETE"])
@blp.access("gm")
@blp.response(204)
@blp.alt_response(404, response="NOT_FOUND")
def revoke_token(battle_id: str, token_id: str) -> Response:
    """Revoke a token: it stops working at once (revoking it again changes nothing)"""
    deps = services()
    revoked = deps.access.revoke_token(battle_id, token_id)
    if revoked is None:
        raise _no_such_token(battle_id, token_id)
    deps.tokens.drop(battle_id, revoked.digest)
    return Response(status=204)


def _check_side(role: str, ruleset: str) -> None:
    """A side token names one of the ruleset's sides, where the ruleset lists them (a 422 otherwise)."""
    side = role.removeprefix(SIDE_PREFIX)
    if role.startswith(SIDE_PREFIX) and not side_allowed(ruleset, side):
        sides = ruleset_sides(ruleset) or ()
        raise validation_problem(
            {"role": [f"The {ruleset} sides are {', '.join(sides)}; `{side}` is none of them."]},
            "Nothing was minted.",
        )


def _find(battle_id: str, token_id: str) -> TokenRecord:
    found = next((t for t in services().access.tokens(battle_id) if t.id == token_id), None)
    if found is None:
        raise _no_such_token(battle_id, token_id)
    return found


def _no_such_token(battle_id: str, token_id: str) -> Problem:
    return Problem(404, "token-not-found", "No such token", f"Battle {battle_id} has no token {token_id}.")
