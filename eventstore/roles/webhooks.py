"""Webhooks: a battle's registrations, where each one's deliveries stand and their log, as the API keeps
and shows them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from eventstore.records import DeliveryAttempt, WebhookProgress, WebhookRecord

ATTEMPTS_KEPT = 100  # delivery attempts a webhook's log keeps, newest first


class Webhooks(Protocol):
    def add_webhook(self, battle_id: str, webhook: WebhookRecord) -> WebhookProgress:
        """Register a webhook, its cursor at the projected version (it is sent the outcomes after it), and
        list the battle among `webhook_battles`; UnknownBattle if the battle does not exist."""

    def webhooks(self, battle_id: str) -> list[WebhookRecord]:
        """The battle's webhooks, oldest first."""

    def have_webhooks(self, battle_ids: Sequence[str]) -> list[bool]:
        """Whether each battle has a webhook registered: one round trip for all on Redis."""

    def webhook(self, battle_id: str, webhook_id: str) -> WebhookRecord | None: ...

    def webhook_progress(self, battle_id: str, webhook_id: str) -> WebhookProgress | None: ...

    def delivery_attempts(self, battle_id: str, webhook_id: str, *, limit: int = 50) -> list[DeliveryAttempt]:
        """The latest attempts, newest first."""

    def delete_webhook(self, battle_id: str, webhook_id: str) -> bool:
        """Drop the webhook, its progress, attempts, claim and lock; False when there is no such webhook."""

    def replace_webhook(
        self, battle_id: str, webhook: WebhookRecord, read_secret: str, note: DeliveryAttempt | None = None
    ) -> bool:
        """Store `webhook` as the registration of its id and log `note`, in one step, only while the stored
        one's secret is still `read_secret`: False when it is gone or was rolled meanwhile (nothing is
        written)."""

    def recover_webhook(
        self, battle_id: str, webhook_id: str, cursor: int | None, note: DeliveryAttempt
    ) -> WebhookProgress | None:
        """In one step: no failures (`active`, a fresh retry window), the cursor at `cursor` (None: where it
        is), the epoch one more (a job still delivering saves nothing more), no claim, and `note` logged
        with `version` the first one to be sent. The new progress; None when there is no such webhook."""

    def webhook_battles(self) -> Iterator[str]:
        """Battles with a webhook registered (the reconciler's index): deleting a battle's last webhook
        drops it, and so does `forget_webhook_battle`; a battle listed may have none left meanwhile."""

    def forget_webhook_battle(self, battle_id: str) -> None:
        """Drop the battle from `webhook_battles` unless it has a webhook (the reconciler's cleanup)."""
