"""Deliveries: what a delivery job claims, locks and writes while it sends a webhook its outcomes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from eventstore.records import DeliveryAttempt, WebhookProgress


class Deliveries(Protocol):
    def claim_webhooks(
        self, battle_id: str, ttl_ms: int, webhook_ids: Sequence[str] | None = None
    ) -> list[str]:
        """Of the given webhooks (None: all of the battle's), those not failed and no delivery job was
        claimed for within `ttl_ms`, now claimed: the caller enqueues one job for each, so a busy battle
        never queues a job per fold. The job releases its claim once it holds the webhook's lock."""

    def release_webhook(self, battle_id: str, webhook_id: str) -> None: ...

    def try_lock_webhook(self, battle_id: str, webhook_id: str, owner: str, ttl_ms: int) -> bool:
        """One delivering job per webhook at a time, as `Folds.try_lock` is for folds."""

    def unlock_webhook(self, battle_id: str, webhook_id: str, owner: str) -> None: ...

    def save_webhook_progress(
        self,
        battle_id: str,
        webhook_id: str,
        progress: WebhookProgress,
        attempt: DeliveryAttempt | None = None,
    ) -> bool:
        """Store the progress and log the attempt (newest first, ATTEMPTS_KEPT of them) in one step, only
        while the webhook is registered and its stored epoch is still `progress.epoch`: False when it was
        deleted or recovered meanwhile (nothing is written)."""

    def note_webhook(self, battle_id: str, webhook_id: str, note: DeliveryAttempt) -> bool:
        """Log one line (a test event or a redelivery sent), the progress untouched; False when it is gone."""
