"""Every Redis key name, defined once; all keys of a battle share the hash tag {B} (DESIGN §3.1)."""


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


def tokens(battle_id: str) -> str:
    """Hash of SHA-256(token) → JSON record {id, role, scope, expires_at, revoked, created_at}."""
    return f"siege:{{{battle_id}}}:tokens"


def lock(battle_id: str) -> str:
    return f"siege:{{{battle_id}}}:lock"


BATTLES = "siege:battles"  # sorted set of battle ids by creation time (the reconciler's index)
PENDING = "siege:pending"  # set of battles whose projection lags their log
SCHEDULED = "siege:projector:scheduled"  # flag: a projection job is queued or running


def ticket(battle_id: str, digest: str) -> str:
    """A stream ticket, stored by SHA-256 with its own expiry; taken (deleted) by the one stream it opens."""
    return f"siege:{{{battle_id}}}:ticket:{digest}"
