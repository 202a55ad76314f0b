"""Webhooks in Redis, all under the battle's hash tag: registrations, progress and attempts as the API
keeps and shows them (eventstore/redis_deliveries.py writes the same keys as a delivery job does)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from eventstore import keys, lua
from eventstore.config import RedisClient
from eventstore.errors import UnknownBattle
from eventstore.records import DeliveryAttempt, WebhookProgress, WebhookRecord
from eventstore.roles.webhooks import ATTEMPTS_KEPT
from eventstore.stream_fields import text
from eventstore.webhook_records import attempt_from, dumps, progress_from, webhook_from


class RedisWebhooks:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        self._add_webhook_script = lua.register(client, "add_webhook")
        self._delete_webhook_script = lua.register(client, "delete_webhook")
        self._replace_webhook_script = lua.register(client, "replace_webhook")
        self._recover_webhook_script = lua.register(client, "recover_webhook")

    def add_webhook(self, battle_id: str, webhook: WebhookRecord) -> WebhookProgress:
        script_keys = [
            keys.log(battle_id),
            keys.webhooks(battle_id),
            keys.webhook_progress(battle_id),
            keys.state(battle_id),
        ]
        cursor = int(self._add_webhook_script(keys=script_keys, args=[webhook.id, dumps(webhook)]))
        if cursor < 0:
            raise UnknownBattle(battle_id)
        # a global key cannot join the battle's script on a cluster; listed after, so a registration the
        # reconciler does not know yet is at worst one pass late
        self._client.sadd(keys.WEBHOOK_BATTLES, battle_id)
        return WebhookProgress(cursor=cursor)

    def webhooks(self, battle_id: str) -> list[WebhookRecord]:
        found = [webhook_from(raw) for raw in self._client.hvals(keys.webhooks(battle_id))]
        return sorted(found, key=lambda webhook: (webhook.created_at, webhook.id))

    def have_webhooks(self, battle_ids: Sequence[str]) -> list[bool]:
        pipe = self._client.pipeline(transaction=False)
        for battle_id in battle_ids:
            pipe.exists(keys.webhooks(battle_id))
        return [bool(found) for found in pipe.execute()]

    def webhook(self, battle_id: str, webhook_id: str) -> WebhookRecord | None:
        raw = self._client.hget(keys.webhooks(battle_id), webhook_id)
        return None if raw is None else webhook_from(raw)

    def delete_webhook(self, battle_id: str, webhook_id: str) -> bool:
        script_keys = [
            keys.webhooks(battle_id),
            keys.webhook_progress(battle_id),
            keys.webhook_claims(battle_id),
            keys.webhook_attempts(battle_id, webhook_id),
            keys.webhook_lock(battle_id, webhook_id),
        ]
        existed, left = self._delete_webhook_script(keys=script_keys, args=[webhook_id])
        if int(left) == 0:
            self.forget_webhook_battle(battle_id)
        return bool(existed)

    def forget_webhook_battle(self, battle_id: str) -> None:
        # the index is a global key, so not in the battle's script on a cluster: removed after it, then
        # put back if a registration landed meanwhile (its own SADD comes after its script, so either this
        # check sees its webhook or its SADD follows our SREM): the index never misses a battle for long
        self._client.srem(keys.WEBHOOK_BATTLES, battle_id)
        if self._client.hlen(keys.webhooks(battle_id)):
            self._client.sadd(keys.WEBHOOK_BATTLES, battle_id)

    def webhook_progress(self, battle_id: str, webhook_id: str) -> WebhookProgress | None:
        raw = self._client.hget(keys.webhook_progress(battle_id), webhook_id)
        return None if raw is None else progress_from(raw)

    def replace_webhook(
        self, battle_id: str, webhook: WebhookRecord, read_secret: str, note: DeliveryAttempt | None = None
    ) -> bool:
        script_keys = [keys.webhooks(battle_id), keys.webhook_attempts(battle_id, webhook.id)]
        args = [webhook.id, read_secret, dumps(webhook), dumps(note) if note else "", ATTEMPTS_KEPT]
        return bool(self._replace_webhook_script(keys=script_keys, args=args))

    def recover_webhook(
        self, battle_id: str, webhook_id: str, cursor: int | None, note: DeliveryAttempt
    ) -> WebhookProgress | None:
        script_keys = [
            keys.webhooks(battle_id),
            keys.webhook_progress(battle_id),
            keys.webhook_claims(battle_id),
            keys.webhook_attempts(battle_id, webhook_id),
        ]
        args = [webhook_id, "" if cursor is None else cursor, dumps(note), ATTEMPTS_KEPT]
        fresh = self._recover_webhook_script(keys=script_keys, args=args)
        return None if fresh is None else progress_from(fresh)

    def delivery_attempts(self, battle_id: str, webhook_id: str, *, limit: int = 50) -> list[DeliveryAttempt]:
        if limit <= 0:
            return []
        rows = self._client.lrange(keys.webhook_attempts(battle_id, webhook_id), 0, limit - 1)
        return [attempt_from(raw) for raw in rows]

    def webhook_battles(self) -> Iterator[str]:
        for battle_id in self._client.sscan_iter(keys.WEBHOOK_BATTLES, count=500):
            yield text(battle_id)
