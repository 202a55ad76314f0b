"""Stream tickets in Redis: `siege:{B}:ticket:<sha256>` holds the record with its own expiry; GETDEL takes
it, so two streams can never open with one ticket."""

from __future__ import annotations

import json
import math

from eventstore import keys
from eventstore.canonical import canonical_json
from eventstore.config import RedisClient
from eventstore.records import TicketRecord
from eventstore.stream_fields import text


class RedisTickets:
    def __init__(self, client: RedisClient) -> None:
        self._client = client

    def add_ticket(self, battle_id: str, ticket: TicketRecord, ttl_s: float) -> None:
        record = {
            "token_digest": ticket.token_digest,
            "token_id": ticket.token_id,
            "role": ticket.role,
            "scope": ticket.scope,
        }
        ttl_ms = max(1, math.ceil(ttl_s * 1000))
        self._client.set(keys.ticket(battle_id, ticket.digest), canonical_json(record), px=ttl_ms)

    def take_ticket(self, battle_id: str, digest: str) -> TicketRecord | None:
        raw = self._client.getdel(keys.ticket(battle_id, digest))
        if raw is None:
            return None
        record = json.loads(text(raw))
        return TicketRecord(
            digest=digest,
            token_digest=record["token_digest"],
            token_id=record["token_id"],
            role=record["role"],
            scope=record.get("scope"),
        )
