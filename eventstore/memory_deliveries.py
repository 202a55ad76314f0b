"""Deliveries in process memory, over the webhooks' keys: a delivery job's claim and lock on a webhook, and
what it writes of its progress and its deliveries log."""

from __future__ import annotations

import time
from collections.abc import Sequence

from eventstore.memory_webhooks import WebhookKeys
from eventstore.records import DeliveryAttempt, WebhookProgress


class MemoryDeliveries(WebhookKeys):
    def claim_webhooks(
        self, battle_id: str, ttl_ms: int, webhook_ids: Sequence[str] | None = None
    ) -> list[str]:
        now = time.monotonic()
        with self._webhooks_lock:
            held = self._webhooks.get(battle_id, {})
            asked = list(held) if webhook_ids is None else [w for w in webhook_ids if w in held]
            claimed = [w for w in asked if held[w].claimed_until <= now and not held[w].progress.failed]
            for webhook_id in claimed:
                held[webhook_id].claimed_until = now + max(ttl_ms, 1) / 1000
            return claimed

    def release_webhook(self, battle_id: str, webhook_id: str) -> None:
        with self._webhooks_lock:
            kept = self._webhooks.get(battle_id, {}).get(webhook_id)
            if kept is not None:
                kept.claimed_until = 0.0

    def try_lock_webhook(self, battle_id: str, webhook_id: str, owner: str, ttl_ms: int) -> bool:
        now = time.monotonic()
        with self._webhooks_lock:
            holder = self._webhook_locks.get((battle_id, webhook_id))
            if holder is not None and holder[1] > now and holder[0] != owner:
                return False
            self._webhook_locks[(battle_id, webhook_id)] = (owner, now + ttl_ms / 1000)
            return True

    def unlock_webhook(self, battle_id: str, webhook_id: str, owner: str) -> None:
        with self._webhooks_lock:
            holder = self._webhook_locks.get((battle_id, webhook_id))
            if holder is not None and holder[0] == owner:
                del self._webhook_locks[(battle_id, webhook_id)]

    def save_webhook_progress(
        self,
        battle_id: str,
        webhook_id: str,
        progress: WebhookProgress,
        attempt: DeliveryAttempt | None = None,
    ) -> bool:
        with self._webhooks_lock:
            kept = self._webhooks.get(battle_id, {}).get(webhook_id)
            if kept is None or kept.progress.epoch != progress.epoch:
                return False
            kept.progress = progress
            kept.note(attempt)
            return True

    def note_webhook(self, battle_id: str, webhook_id: str, note: DeliveryAttempt) -> bool:
        with self._webhooks_lock:
            kept = self._webhooks.get(battle_id, {}).get(webhook_id)
            if kept is None:
                return False
            kept.note(note)
            return True
