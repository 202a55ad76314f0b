"""`/battles/{id}/webhooks`: the GM registers URLs to be sent each outcome (signed CloudEvents), lists them,
removes them and reads their delivery attempts; the webhook worker delivers (workers/webhooks.py)."""

from __future__ import annotations

from flask import Response
from marshmallow import RAISE

from schemas.webhooks import (
    DeliveriesQuerySchema,
    WebhookCreatedSchema,
    WebhookCreateSchema,
    WebhookDeliveriesSchema,
    WebhookSchema,
)
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.httpio import NO_STORE, NO_STORE_DOC, json_response, read_json
from service.webhooks import deliveries_view, no_such_webhook, register, webhook_view

blp = Blueprint(
    "webhooks", __name__, url_prefix="/battles", description="Webhooks: each outcome posted to a URL, signed."
)
_create_schema = WebhookCreateSchema()
LOCATION = {"Location": {"description": "the webhook", "schema": {"type": "string"}}}


@blp.route("/<battle_id>/webhooks", methods=["POST"])
@blp.access("gm")
@blp.doc(requestBody={"required": True, "content": {"application/json": {"schema": WebhookCreateSchema}}})
@blp.response(201, WebhookCreatedSchema, headers={**LOCATION, **NO_STORE_DOC})
@blp.alt_response(400, response="BAD_REQUEST")
@blp.alt_response(404, response="NOT_FOUND")
@blp.alt_response(413, response="REQUEST_ENTITY_TOO_LARGE")
@blp.alt_response(415, response="UNSUPPORTED_MEDIA_TYPE")
@blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
def register_webhook(battle_id: str) -> Response:
    """Register a URL to be sent every later outcome as a signed CloudEvent (the secret is shown once)"""
    body = _create_schema.load(read_json())
    deps = services()
    deps.battles.created(battle_id)  # a 404 for an unknown battle before any name is resolved
    view = register(deps.store, battle_id, body, deps.config.webhooks)
    return json_response(view, 201, {"Location": f"/battles/{battle_id}/webhooks/{view['id']}", **NO_STORE})


@blp.route("/<battle_id>/webhooks", methods=["GET"])
@blp.access("gm")
@blp.response(200, WebhookSchema(many=True))
@blp.alt_response(404, response="NOT_FOUND")
def list_webhooks(battle_id: str) -> Response:
    """List the battle's webhooks and how far each got (never their secrets)"""
    deps = services()
    deps.battles.created(battle_id)
    store = deps.store
    views = [webhook_view(w, store.webhook_progress(battle_id, w.id)) for w in store.webhooks(battle_id)]
    return json_response(views)


@blp.route("/<battle_id>/webhooks/<webhook_id>", methods=["DELETE"])
@blp.access("gm")
@blp.response(204)
@blp.alt_response(404, response="NOT_FOUND")
def delete_webhook(battle_id: str, webhook_id: str) -> Response:
    """Remove a webhook: nothing more is sent to it, its attempts are forgotten"""
    deps = services()
    deps.battles.created(battle_id)
    if not deps.store.delete_webhook(battle_id, webhook_id):
        raise no_such_webhook(battle_id, webhook_id)
    return Response(status=204)


@blp.route("/<battle_id>/webhooks/<webhook_id>/deliveries", methods=["GET"])
@blp.access("gm")
@blp.arguments(DeliveriesQuerySchema, location="query", as_kwargs=True, unknown=RAISE)
@blp.response(200, WebhookDeliveriesSchema)
@blp.alt_response(404, response="NOT_FOUND")
def list_deliveries(battle_id: str, webhook_id: str, limit: int = 50) -> Response:
    """The webhook's state and its latest delivery attempts, newest first"""
    deps = services()
    deps.battles.created(battle_id)
    return json_response(deliveries_view(deps.store, battle_id, webhook_id, limit))
