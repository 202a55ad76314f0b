"""Coalesced projection scheduling in Redis: the pending set and the scheduled flag."""

from __future__ import annotations

from collections.abc import Sequence

from eventstore import keys
from eventstore.config import RedisClient
from eventstore.roles.schedule import SCHEDULED_TTL_S
from eventstore.stream_fields import text


class RedisSchedule:
    """The pending set and the scheduled flag span battles: they live on `schedule_client` when given (the
    queue's server, beside a cluster store)."""

    def __init__(
        self,
        client: RedisClient,
        *,
        scheduled_ttl_s: float = SCHEDULED_TTL_S,
        schedule_client: RedisClient | None = None,
    ) -> None:
        self._pending_client = schedule_client or client
        self._scheduled_ttl_ms = ttl_ms(scheduled_ttl_s)

    def mark_pending(self, battle_id: str) -> bool:
        return mark_pending(self._pending_client, battle_id, self._scheduled_ttl_ms)

    def mark_pending_again(self, battle_ids: Sequence[str]) -> bool:
        return bool(battle_ids) and mark_all_pending(self._pending_client, battle_ids, self._scheduled_ttl_ms)

    def take_pending(self, count: int) -> list[str]:
        if count <= 0:
            return []
        taken = self._pending_client.spop(keys.PENDING, count)
        return [text(battle_id) for battle_id in taken or []]

    def clear_scheduled(self) -> None:
        self._pending_client.delete(keys.SCHEDULED)


def ttl_ms(seconds: float) -> int:
    return max(int(seconds * 1000), 1)


def mark_pending(client: RedisClient, battle_id: str, scheduled_ttl_ms: int) -> bool:
    return mark_all_pending(client, [battle_id], scheduled_ttl_ms)


def mark_all_pending(client: RedisClient, battle_ids: Sequence[str], scheduled_ttl_ms: int) -> bool:
    """One round trip; the keys span battles, so on a cluster this cannot join a battle's script."""
    pipe = client.pipeline(transaction=False)
    pipe.sadd(keys.PENDING, *battle_ids)
    pipe.set(keys.SCHEDULED, 1, nx=True, px=scheduled_ttl_ms)
    _added, scheduled = pipe.execute()
    return bool(scheduled)
