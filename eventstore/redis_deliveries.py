"""Deliveries in Redis, under the battle's hash tag: a delivery job's claim and lock on a webhook, and what
it writes of its progress and its deliveries log."""

from __future__ import annotations

from collections.abc import Sequence

from eventstore import keys, lua
from eventstore.config import RedisClient
from eventstore.records import DeliveryAttempt, WebhookProgress
from eventstore.roles.webhooks import ATTEMPTS_KEPT
from eventstore.stream_fields import text
from eventstore.webhook_records import dumps


class RedisDeliveries:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        self._progress_script = lua.register(client, "save_webhook_progress")
        self._claim_script = lua.register(client, "claim_webhooks")
        self._webhook_lock_script = lua.register(client, "lock")
        self._webhook_unlock_script = lua.register(client, "unlock")
        self._note_webhook_script = lua.register(client, "note_webhook")

    def claim_webhooks(
        self, battle_id: str, ttl_ms: int, webhook_ids: Sequence[str] | None = None
    ) -> list[str]:
        if webhook_ids is not None and not webhook_ids:
            return []
        script_keys = [
            keys.webhooks(battle_id),
            keys.webhook_claims(battle_id),
            keys.webhook_progress(battle_id),
        ]
        claimed = self._claim_script(keys=script_keys, args=[max(int(ttl_ms), 1), *(webhook_ids or [])])
        return [text(webhook_id) for webhook_id in claimed]

    def release_webhook(self, battle_id: str, webhook_id: str) -> None:
        self._client.hdel(keys.webhook_claims(battle_id), webhook_id)

    def try_lock_webhook(self, battle_id: str, webhook_id: str, owner: str, ttl_ms: int) -> bool:
        lock = keys.webhook_lock(battle_id, webhook_id)
        return bool(self._webhook_lock_script(keys=[lock], args=[owner, ttl_ms]))

    def unlock_webhook(self, battle_id: str, webhook_id: str, owner: str) -> None:
        self._webhook_unlock_script(keys=[keys.webhook_lock(battle_id, webhook_id)], args=[owner])

    def save_webhook_progress(
        self,
        battle_id: str,
        webhook_id: str,
        progress: WebhookProgress,
        attempt: DeliveryAttempt | None = None,
    ) -> bool:
        script_keys = [
            keys.webhooks(battle_id),
            keys.webhook_progress(battle_id),
            keys.webhook_attempts(battle_id, webhook_id),
        ]
        args = [webhook_id, dumps(progress), dumps(attempt) if attempt else "", ATTEMPTS_KEPT, progress.epoch]
        return bool(self._progress_script(keys=script_keys, args=args))

    def note_webhook(self, battle_id: str, webhook_id: str, note: DeliveryAttempt) -> bool:
        script_keys = [keys.webhooks(battle_id), keys.webhook_attempts(battle_id, webhook_id)]
        return bool(
            self._note_webhook_script(keys=script_keys, args=[webhook_id, dumps(note), ATTEMPTS_KEPT])
        )
