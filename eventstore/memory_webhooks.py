"""Webhooks in process memory, with the Redis backend's semantics: the registrations' keys (which the
deliveries role writes too: eventstore/memory_deliveries.py), and the webhooks role over them."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from eventstore.records import DeliveryAttempt, Head, WebhookProgress, WebhookRecord
from eventstore.roles.webhooks import ATTEMPTS_KEPT


@dataclass(slots=True)
class Kept:
    """One webhook's keys: its registration, progress, deliveries log and claim."""

    record: WebhookRecord
    progress: WebhookProgress
    attempts: list[DeliveryAttempt] = field(default_factory=list)
    claimed_until: float = 0.0

    def note(self, line: DeliveryAttempt | None) -> None:
        if line is not None:
            self.attempts = [line, *self.attempts][:ATTEMPTS_KEPT]


class WebhookKeys:
    """Every battle's webhooks and their delivery locks, and the lock around them (claims and locks
    expire on the monotonic clock)."""

    def __init__(self) -> None:
        self._webhooks_lock = threading.Lock()
        self._webhooks: dict[str, dict[str, Kept]] = {}
        self._webhook_locks: dict[tuple[str, str], tuple[str, float]] = {}

    def _kept(self, battle_id: str, webhook_id: str) -> Kept | None:
        with self._webhooks_lock:
            return self._webhooks.get(battle_id, {}).get(webhook_id)


class MemoryWebhooks(WebhookKeys):
    if TYPE_CHECKING:  # what it asks of the store's log: UnknownBattle when there is no battle, the cursor

        def head(self, battle_id: str) -> Head: ...

        def projected_version(self, battle_id: str) -> int: ...

    def add_webhook(self, battle_id: str, webhook: WebhookRecord) -> WebhookProgress:
        self.head(battle_id)
        progress = WebhookProgress(cursor=self.projected_version(battle_id))
        kept = dataclasses.replace(webhook, start_version=progress.cursor)
        with self._webhooks_lock:
            self._webhooks.setdefault(battle_id, {})[webhook.id] = Kept(kept, progress)
        return progress

    def webhooks(self, battle_id: str) -> list[WebhookRecord]:
        with self._webhooks_lock:
            found = [kept.record for kept in self._webhooks.get(battle_id, {}).values()]
        return sorted(found, key=lambda webhook: (webhook.created_at, webhook.id))

    def have_webhooks(self, battle_ids: Sequence[str]) -> list[bool]:
        return [bool(self.webhooks(battle_id)) for battle_id in battle_ids]

    def webhook(self, battle_id: str, webhook_id: str) -> WebhookRecord | None:
        kept = self._kept(battle_id, webhook_id)
        return kept.record if kept else None

    def delete_webhook(self, battle_id: str, webhook_id: str) -> bool:
        with self._webhooks_lock:
            self._webhook_locks.pop((battle_id, webhook_id), None)
            held = self._webhooks.get(battle_id, {})
            existed = held.pop(webhook_id, None) is not None
            if not held:
                self._webhooks.pop(battle_id, None)  # its last webhook gone: the reconciler skips it
            return existed

    def forget_webhook_battle(self, battle_id: str) -> None:
        with self._webhooks_lock:
            if not self._webhooks.get(battle_id, True):
                del self._webhooks[battle_id]

    def webhook_progress(self, battle_id: str, webhook_id: str) -> WebhookProgress | None:
        kept = self._kept(battle_id, webhook_id)
        return kept.progress if kept else None

    def replace_webhook(
        self, battle_id: str, webhook: WebhookRecord, read_secret: str, note: DeliveryAttempt | None = None
    ) -> bool:
        with self._webhooks_lock:
            kept = self._webhooks.get(battle_id, {}).get(webhook.id)
            if kept is None or kept.record.secret != read_secret:
                return False
            kept.record = webhook
            kept.note(note)
            return True

    def recover_webhook(
        self, battle_id: str, webhook_id: str, cursor: int | None, note: DeliveryAttempt
    ) -> WebhookProgress | None:
        with self._webhooks_lock:
            kept = self._webhooks.get(battle_id, {}).get(webhook_id)
            if kept is None:
                return None
            start = kept.progress.cursor if cursor is None else cursor
            kept.progress = WebhookProgress(cursor=start, epoch=kept.progress.epoch + 1)
            kept.claimed_until = 0.0
            kept.note(dataclasses.replace(note, version=start + 1))
            return kept.progress

    def delivery_attempts(self, battle_id: str, webhook_id: str, *, limit: int = 50) -> list[DeliveryAttempt]:
        kept = self._kept(battle_id, webhook_id)
        return kept.attempts[: max(limit, 0)] if kept else []

    def webhook_battles(self) -> Iterator[str]:
        with self._webhooks_lock:
            ids = list(self._webhooks)
        yield from ids
