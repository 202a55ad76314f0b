"""Webhooks in process memory, with the Redis backend's semantics (claims and locks expire)."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from eventstore.protocol import ATTEMPTS_KEPT
from eventstore.records import DeliveryAttempt, Head, RequestRecord, WebhookProgress, WebhookRecord

REQUESTS_KEPT = 10_000  # Idempotency-Keys held before the expired ones are swept


@dataclass(slots=True)
class _Kept:
    record: WebhookRecord
    progress: WebhookProgress
    attempts: list[DeliveryAttempt] = field(default_factory=list)
    claimed_until: float = 0.0

    def note(self, line: DeliveryAttempt | None) -> None:
        if line is not None:
            self.attempts = [line, *self.attempts][:ATTEMPTS_KEPT]


class MemoryWebhooks:
    def __init__(self) -> None:
        self._webhooks_lock = threading.Lock()
        self._webhooks: dict[str, dict[str, _Kept]] = {}
        self._webhook_locks: dict[tuple[str, str], tuple[str, float]] = {}
        # (battle, Idempotency-Key) -> (what it holds, until when on the monotonic clock)
        self._requests: dict[tuple[str, str], tuple[RequestRecord, float]] = {}

    def head(self, battle_id: str) -> Head:
        raise NotImplementedError  # the store's log answers; UnknownBattle when there is no battle

    def projected_version(self, battle_id: str) -> int:
        raise NotImplementedError  # the store's projection answers

    def add_webhook(self, battle_id: str, webhook: WebhookRecord) -> WebhookProgress:
        self.head(battle_id)
        progress = WebhookProgress(cursor=self.projected_version(battle_id))
        kept = dataclasses.replace(webhook, start_version=progress.cursor)
        with self._webhooks_lock:
            self._webhooks.setdefault(battle_id, {})[webhook.id] = _Kept(kept, progress)
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

    def note_webhook(self, battle_id: str, webhook_id: str, note: DeliveryAttempt) -> bool:
        with self._webhooks_lock:
            kept = self._webhooks.get(battle_id, {}).get(webhook_id)
            if kept is None:
                return False
            kept.note(note)
            return True

    def delivery_attempts(self, battle_id: str, webhook_id: str, *, limit: int = 50) -> list[DeliveryAttempt]:
        kept = self._kept(battle_id, webhook_id)
        return kept.attempts[: max(limit, 0)] if kept else []

    def webhook_battles(self) -> Iterator[str]:
        with self._webhooks_lock:
            ids = list(self._webhooks)
        yield from ids

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

    def hold_request(self, battle_id: str, key: str, fingerprint: str, lease_ms: int) -> RequestRecord | None:
        now = time.monotonic()
        with self._webhooks_lock:
            if len(self._requests) > REQUESTS_KEPT:  # expired keys go, as Redis lets them
                self._requests = {k: v for k, v in self._requests.items() if v[1] > now}
            held = self._requests.get((battle_id, key))
            if held is not None and held[1] > now:
                return held[0]
            self._requests[(battle_id, key)] = (RequestRecord(fingerprint=fingerprint), now + lease_ms / 1000)
            return None

    def answer_request(self, battle_id: str, key: str, fingerprint: str, answer: str, ttl_ms: int) -> None:
        record = RequestRecord(fingerprint=fingerprint, answer=answer)
        with self._webhooks_lock:
            self._requests[(battle_id, key)] = (record, time.monotonic() + ttl_ms / 1000)

    def release_request(self, battle_id: str, key: str, fingerprint: str) -> None:
        with self._webhooks_lock:
            held = self._requests.get((battle_id, key))
            if held is not None and held[0] == RequestRecord(fingerprint=fingerprint):
                del self._requests[(battle_id, key)]

    def _kept(self, battle_id: str, webhook_id: str) -> _Kept | None:
        with self._webhooks_lock:
            return self._webhooks.get(battle_id, {}).get(webhook_id)
