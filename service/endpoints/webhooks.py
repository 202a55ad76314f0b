"""`/battles/{id}/webhooks`: the GM registers URLs to be sent each outcome (signed CloudEvents), lists them,
removes them and reads their deliveries log; rolls a secret, recovers a webhook, sends one outcome again or
a test event (service/webhooks/upkeep.py). The webhook worker delivers (workers/webhooks.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response
from marshmallow import RAISE

from schemas.webhooks import (
    DEFAULT_OVERLAP_S,
    DeliveriesQuerySchema,
    EmptySchema,
    RecoverSchema,
    SecretRollSchema,
    WebhookCreatedSchema,
    WebhookCreateSchema,
    WebhookDeliveriesSchema,
    WebhookSchema,
    WebhookSendSchema,
)
from service.deps import services
from service.endpoints.blueprint import Blueprint
from service.http.json_io import NO_STORE, NO_STORE_DOC, json_response
from service.webhooks import keyed, upkeep
from service.webhooks.registration import deliveries_view, no_such_webhook, register, webhook_view

View = TypeVar("View", bound=Callable[..., Any])
blp = Blueprint(
    "webhooks", __name__, url_prefix="/battles", description="Webhooks: each outcome posted to a URL, signed."
)
LOCATION = {"Location": {"description": "the webhook", "schema": {"type": "string"}}}
LOG = {
    "Location": {
        "description": "the webhook's deliveries log, where the send is logged",
        "schema": {"type": "string"},
    }
}
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "schema": {"type": "string", "minLength": 1, "maxLength": 255},
    "description": "the same key and request (path and body) answer the first response again and do "
    "nothing more; the key used for another request is a 422, a repeat while the first is still being "
    "answered a 409; kept SIEGE_IDEMPOTENCY_TTL_S (24 h) per battle, apart from the commands' keys",
}
# beyond the body's (Blueprint.json_body): no such webhook, its key in flight; when queued, the queue down
KEYED_REFUSALS = {404: "NOT_FOUND", 409: "CONFLICT"}


def _keyed(*, queued: bool = False) -> Callable[[View], View]:
    """What every keyed operation on a webhook documents: its Idempotency-Key and the refusals it adds."""
    refusals = {**KEYED_REFUSALS, **({503: "SERVICE_UNAVAILABLE"} if queued else {})}

    def documented(view: View) -> View:
        view = blp.doc(parameters=[IDEMPOTENCY_KEY])(view)
        for status, name in refusals.items():
            view = blp.alt_response(status, response=name)(view)
        return view

    return documented


@blp.route("/<battle_id>/webhooks", methods=["POST"])
@blp.access("gm")
@blp.json_body(WebhookCreateSchema)
@blp.response(201, WebhookCreatedSchema, headers={**LOCATION, **NO_STORE_DOC})
@blp.alt_response(404, response="NOT_FOUND")
def register_webhook(battle_id: str, body: dict[str, Any]) -> Response:
    """Register a URL to be sent every later outcome as a signed CloudEvent (the secret is shown once)"""
    deps = services()
    deps.battles.created(battle_id)  # a 404 for an unknown battle before any name is resolved
    view = register(deps.webhooks, battle_id, body, deps.config.webhooks)
    return json_response(view, 201, {"Location": f"/battles/{battle_id}/webhooks/{view['id']}", **NO_STORE})


@blp.route("/<battle_id>/webhooks", methods=["GET"])
@blp.access("gm")
@blp.response(200, WebhookSchema(many=True))
@blp.alt_response(404, response="NOT_FOUND")
def list_webhooks(battle_id: str) -> Response:
    """List the battle's webhooks and how far each got (never their secrets)"""
    deps = services()
    deps.battles.created(battle_id)
    store = deps.webhooks
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
    if not deps.webhooks.delete_webhook(battle_id, webhook_id):
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
    return json_response(deliveries_view(deps.webhooks, battle_id, webhook_id, limit))


@blp.route("/<battle_id>/webhooks/<webhook_id>/secret", methods=["POST"])
@blp.access("gm")
@blp.json_body(SecretRollSchema, required=False)
@_keyed()
@blp.response(
    200, WebhookCreatedSchema, headers=NO_STORE_DOC, description="rolled: the new secret, shown once"
)
def roll_webhook_secret(battle_id: str, webhook_id: str, body: dict[str, Any]) -> Response:
    """Roll the webhook's secret: the new one is shown once, the old one signs beside it for the overlap"""
    deps = services()
    deps.battles.created(battle_id)
    overlap_s = int(body.get("overlap_s", DEFAULT_OVERLAP_S))
    answered = keyed.once(
        deps, battle_id, body, lambda: upkeep.roll_secret(deps.webhooks, battle_id, webhook_id, overlap_s)
    )
    answered.headers.update(NO_STORE)
    return answered


@blp.route("/<battle_id>/webhooks/<webhook_id>/recover", methods=["POST"])
@blp.access("gm")
@blp.json_body(RecoverSchema, required=False)
@_keyed()
@blp.response(200, WebhookSchema, description="recovered: delivery resumes from the cursor shown")
def recover_webhook(battle_id: str, webhook_id: str, body: dict[str, Any]) -> Response:
    """Resume a failed or retrying webhook from its cursor, or any webhook from `from_version`"""
    deps = services()
    deps.battles.created(battle_id)
    return keyed.once(
        deps,
        battle_id,
        body,
        lambda: upkeep.recover(
            deps.store,
            deps.webhooks,
            deps.deliveries,
            deps.queue_redis,
            battle_id,
            webhook_id,
            body.get("from_version"),
            bool(body.get("before_registration", False)),
        ),
    )


@blp.route("/<battle_id>/webhooks/<webhook_id>/deliveries/<int:version>/redeliver", methods=["POST"])
@blp.access("gm")
@blp.json_body(EmptySchema, required=False)
@_keyed(queued=True)
@blp.response(202, WebhookSendSchema, headers=LOG, description="queued: the webhook worker sends it once")
def redeliver_outcome(battle_id: str, webhook_id: str, version: int, body: dict[str, Any]) -> Response:
    """Send one outcome to the webhook again, once, with the id of its first delivery"""
    deps = services()
    deps.battles.created(battle_id)
    return keyed.once(
        deps,
        battle_id,
        body,
        lambda: upkeep.redeliver(deps.store, deps.webhooks, deps.queue_redis, battle_id, webhook_id, version),
    )


@blp.route("/<battle_id>/webhooks/<webhook_id>/test", methods=["POST"])
@blp.access("gm")
@blp.json_body(EmptySchema, required=False)
@_keyed(queued=True)
@blp.response(202, WebhookSendSchema, headers=LOG, description="queued: the webhook worker sends it once")
def send_webhook_test(battle_id: str, webhook_id: str, body: dict[str, Any]) -> Response:
    """Send the webhook a signed `siege.webhook.test` event, to check a receiver and its signature code"""
    deps = services()
    deps.battles.created(battle_id)
    return keyed.once(
        deps,
        battle_id,
        body,
        lambda: upkeep.send_test(deps.webhooks, deps.queue_redis, battle_id, webhook_id),
    )
