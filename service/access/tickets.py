"""Stream tickets (issue 10): an EventSource cannot send `Authorization`, so a read token mints a ticket
that opens one stream: random, kept only as SHA-256, single use, short-lived, bound to the battle and to
the token's role, and void once that token is revoked. The token itself never goes in a URL."""

from __future__ import annotations

import secrets

from eventstore.records import TicketRecord
from service.access.auth import Principal
from service.access.tokens import digest
from service.deps import Services

TICKET_BYTES = 32  # 256 random bits, as a token


def mint_ticket(deps: Services, battle_id: str, principal: Principal) -> str:
    """The ticket's secret, shown once; the store keeps its digest for `stream_ticket_ttl_s`."""
    assert principal.digest is not None and principal.token_id is not None, "a battle token minted it"
    secret = secrets.token_urlsafe(TICKET_BYTES)
    record = TicketRecord(
        digest=digest(secret),
        token_digest=principal.digest,
        token_id=principal.token_id,
        role=principal.role,
        scope=principal.side,
    )
    deps.access.add_ticket(battle_id, record, deps.config.stream_ticket_ttl_s)
    return secret
