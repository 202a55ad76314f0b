"""Webhooks in Redis, all under the battle's hash tag: registrations, progress, claims, attempts, locks."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from eventstore import keys, lua
from eventstore.config import RedisClient
from eventstore.errors import UnknownBattle
from eventstore.protocol import ATTEMPTS_KEPT
from eventstore.records import DeliveryAttempt, RequestRecord, WebhookProgress, WebhookRecord
from eventstore.stream_fields import text
from eventstore.webhook_records import attempt_from, dumps, progress_from, request_from, webhook_from


class RedisWebhooks:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        self._add_webhook_script = lua.register(client, "add_webhook")
        self._progress_script = lua.register(client, "save_webhook_progress")
        self._claim_script = lua.register(client, "claim_webhooks")
        self._delete_webhook_script = lua.register(client, "delete_webhook")
        self._webhook_lock_script = lua.register(client, "lock")
        self._webhook_unlock_script = lua.register(client, "unlock")
        self._replace_webhook_script = lua.register(client, "replace_webhook")
        self._recover_webhook_script = lua.register(client, "recover_webhook")
        self._note_webhook_script = lua.register(client, "note_webhook")

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

    def note_webhook(self, battle_id: str, webhook_id: str, note: DeliveryAttempt) -> bool:
        script_keys = [keys.webhooks(battle_id), keys.webhook_attempts(battle_id, webhook_id)]
        return bool(
            self._note_webhook_script(keys=script_keys, args=[webhook_id, dumps(note), ATTEMPTS_KEPT])
        )

    def delivery_attempts(self, battle_id: str, webhook_id: str, *, limit: int = 50) -> list[DeliveryAttempt]:
        if limit <= 0:
            return []
        rows = self._client.lrange(keys.webhook_attempts(battle_id, webhook_id), 0, limit - 1)
        return [attempt_from(raw) for raw in rows]

    def webhook_battles(self) -> Iterator[str]:
        for battle_id in self._client.sscan_iter(keys.WEBHOOK_BATTLES, count=500):
            yield text(battle_id)

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

    def hold_request(self, battle_id: str, key: str, fingerprint: str, lease_ms: int) -> RequestRecord | None:
        name = _request_key(battle_id, key)
        for _ in range(3):  # what was held may expire between the SET and the GET: then try to take it again
            if self._client.set(name, fingerprint, nx=True, px=max(lease_ms, 1)):
                return None
            held = self._client.get(name)
            if held is not None:
                return request_from(held)
        raise RuntimeError(f"the Idempotency-Key record of battle {battle_id} kept changing")

    def answer_request(self, battle_id: str, key: str, fingerprint: str, answer: str, ttl_ms: int) -> None:
        self._client.set(_request_key(battle_id, key), f"{fingerprint} {answer}", px=max(int(ttl_ms), 1))

    def release_request(self, battle_id: str, key: str, fingerprint: str) -> None:
        # only while it still holds our in-flight fingerprint: past its lease it may be another request's
        self._webhook_unlock_script(keys=[_request_key(battle_id, key)], args=[fingerprint])


def _request_key(battle_id: str, key: str) -> str:
    return keys.webhook_request(battle_id, hashlib.sha256(key.encode()).hexdigest())
