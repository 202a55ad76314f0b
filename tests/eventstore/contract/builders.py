"""The records the contract modules write and compare: projections and outcomes, tokens, a budget, webhooks
and their deliveries log lines."""

from __future__ import annotations

from eventstore.records import Budget, DeliveryAttempt, Projection, TokenRecord, WebhookRecord, Window
from tests.fixtures.redis_server import Backend


def versions(store: Backend, battle_id: str) -> list[int]:
    return [entry.version for entry in store.iter_entries(battle_id)]


def state(version: int) -> Projection:
    return Projection(version=version, state=f'{{"version":{version}}}')


def outcomes(first: int, last: int) -> list[tuple[int, str]]:
    return [(v, f'{{"version":{v}}}') for v in range(first, last + 1)]


def token(digest: str = "d" * 64, token_id: str = "tok-1", **fields: object) -> TokenRecord:
    values: dict[str, object] = {"role": "gm", "created_at": "2026-03-01T12:00:00.000Z", **fields}
    return TokenRecord(digest=digest, id=token_id, **values)  # type: ignore[arg-type]


BUDGET = Budget(owner="token:t1", windows=(Window(amount=2, seconds=60), Window(amount=5, seconds=3600)))


def hook(webhook_id: str = "wh_1", **fields: object) -> WebhookRecord:
    values: dict[str, object] = {
        "url": "https://hooks.example/siege",
        "types": ("siege.outcome.applied", "siege.outcome.rejected"),
        "language": "en",
        "secret": "whsec_c2VjcmV0",
        "created_at": "2026-03-01T12:00:00.000Z",
        **fields,
    }
    return WebhookRecord(id=webhook_id, **values)  # type: ignore[arg-type]


def attempt(version: int, status: str = "failed") -> DeliveryAttempt:
    return DeliveryAttempt(
        at="2026-03-01T12:00:01.000Z",
        version=version,
        status=status,
        code=500 if status == "failed" else 204,
        duration_ms=3.5,
        error="answered 500" if status == "failed" else None,
        next_retry_at="2026-03-01T12:00:05.000Z" if status == "failed" else None,
    )


def note(kind: str, version: int | None = None, text: str = "noted") -> DeliveryAttempt:
    return DeliveryAttempt(
        at="2026-03-01T12:00:02.000Z",
        version=version,
        status=None,
        code=None,
        duration_ms=0.0,
        error=None,
        next_retry_at=None,
        kind=kind,
        note=text,
    )
