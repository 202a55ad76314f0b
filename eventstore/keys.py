"""Every Redis key name, defined once; all keys of a battle share the hash tag {B}."""


def log(battle_id: str) -> str:
    return f"siege:{{{battle_id}}}:log"


def outcomes(battle_id: str) -> str:
    return f"siege:{{{battle_id}}}:outcomes"


def state(battle_id: str) -> str:
    return f"siege:{{{battle_id}}}:state"


def snapshots(battle_id: str) -> str:
    return f"siege:{{{battle_id}}}:snapshots"


def snapshot_versions(battle_id: str) -> str:
    """Sorted set of the versions held in `snapshots`, so "latest at or before v" is O(log n)."""
    return f"siege:{{{battle_id}}}:snapshots:versions"


def secret(battle_id: str) -> str:
    return f"siege:{{{battle_id}}}:secret"


def idem(battle_id: str) -> str:
    return f"siege:{{{battle_id}}}:idem"


def idem_expiry(battle_id: str) -> str:
    """Sorted set of idempotency keys by expiry (ms), so expired records in `idem` are pruned."""
    return f"siege:{{{battle_id}}}:idem:expiry"


def append_claim(battle_id: str) -> str:
    """Set by an append that lost the race for the head: the next append is its own (lua/append.lua)."""
    return f"siege:{{{battle_id}}}:append:claim"


def regressions(battle_id: str) -> str:
    """List of JSON records, one per time an append found the head behind an acknowledged one."""
    return f"siege:{{{battle_id}}}:regressions"


def rate(battle_id: str, owner: str, window_s: int) -> str:
    """A rate budget's counter for one window (eventstore/lua/rate.lua), beside the battle it spends on."""
    return f"siege:{{{battle_id}}}:rate:{owner}:{window_s}"


def tokens(battle_id: str) -> str:
    """Hash of SHA-256(token) → JSON record {id, role, scope, expires_at, revoked, created_at}."""
    return f"siege:{{{battle_id}}}:tokens"


def lock(battle_id: str) -> str:
    return f"siege:{{{battle_id}}}:lock"


def webhooks(battle_id: str) -> str:
    """Hash of webhook id → JSON registration (its secret included: deliveries are signed with it)."""
    return f"siege:{{{battle_id}}}:webhooks"


def webhook_progress(battle_id: str) -> str:
    """Hash of webhook id → JSON {cursor, failures, failing_since, next_retry_at, failed, epoch}."""
    return f"siege:{{{battle_id}}}:webhooks:progress"


def webhook_claims(battle_id: str) -> str:
    """Hash of webhook id → the time (ms) until which a delivery job is claimed for it."""
    return f"siege:{{{battle_id}}}:webhooks:claims"


def webhook_attempts(battle_id: str, webhook_id: str) -> str:
    """List of JSON delivery attempts, newest first, capped."""
    return f"siege:{{{battle_id}}}:webhooks:attempts:{webhook_id}"


def webhook_lock(battle_id: str, webhook_id: str) -> str:
    return f"siege:{{{battle_id}}}:webhooks:lock:{webhook_id}"


def webhook_request(battle_id: str, digest: str) -> str:
    """An Idempotency-Key of the battle's webhook operations, by SHA-256: `<fingerprint>` while its first
    request is in flight, then `<fingerprint> <answer>`; it expires on its own."""
    return f"siege:{{{battle_id}}}:webhooks:request:{digest}"


BATTLES = "siege:battles"  # sorted set of battle ids by creation time (the reconciler's index)
PENDING = "siege:pending"  # set of battles whose projection lags their log
SCHEDULED = "siege:projector:scheduled"  # flag: a projection job is queued or running
WEBHOOK_BATTLES = "siege:webhooks:battles"  # set of battles with webhooks (the reconciler's index)


def follow_alarm(process: str) -> str:
    """A process's own stream, written to end its stream reader's blocking read (redis_follow.py)."""
    return f"siege:follow:alarm:{process}"


def ticket(battle_id: str, digest: str) -> str:
    """A stream ticket, stored by SHA-256 with its own expiry; taken (deleted) by the one stream it opens."""
    return f"siege:{{{battle_id}}}:ticket:{digest}"
