"""What the storage contract (eventstore/roles/) raises: a refusal a caller answers, or a broken log."""

from __future__ import annotations

from eventstore.records import Head, Spent


class UnknownBattle(LookupError):
    pass


class BattleExists(Exception):
    pass


class BrokenHistory(ValueError):
    """An imported history does not start at version 1 or does not chain: nothing was kept."""

    def __init__(self, version: int, reason: str) -> None:
        super().__init__(f"version {version}: {reason}")
        self.version, self.reason = version, reason


class CountedRefusal(Exception):
    """An append refused after it was counted against its budget; `spent` says how (None: no budget)."""

    spent: Spent | None = None


class RateLimited(CountedRefusal):
    """The budget is spent for this window: nothing was appended."""

    def __init__(self, spent: Spent) -> None:
        super().__init__(f"{spent.window.amount} per {spent.window.seconds} s spent")
        self.spent = spent


class VersionConflict(CountedRefusal):
    """The expected version is not the head: nothing was appended."""

    def __init__(self, current: int) -> None:
        super().__init__(f"current version is {current}")
        self.current = current


class AppendContention(VersionConflict):
    """No expected version was given, yet the head kept moving for every bounded retry: nothing appended."""


class IdempotencyMismatch(CountedRefusal):
    """The idempotency key was used before with a different body."""

    def __init__(self, version: int) -> None:
        super().__init__(f"key already used for version {version}")
        self.version = version


class IdempotencyInFlight(CountedRefusal):
    """The idempotency key's first request appended `version` and has not recorded its response yet."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the request that appended version {version} is still in flight")
        self.version = version


class TooManyTokens(Exception):
    """The battle has its cap of live tokens: nothing was kept."""

    def __init__(self, live: int) -> None:
        super().__init__(f"{live} live tokens")
        self.live = live


class TokenRefused(Exception):
    """The token an append was made with is no longer stored, or revoked: nothing was appended."""


class StoreUnavailable(Exception):
    """The store could not vouch for the write in time; it may have landed, so a retry must carry the same
    Idempotency-Key (the store then answers the first attempt's outcome)."""


class ReplicasBehind(StoreUnavailable):
    """The entry is on the battle's master, but fewer replicas than wanted confirmed it in time: not
    acknowledged, since a failover now could lose it."""

    def __init__(self, confirmed: int, wanted: int, why: str = "") -> None:
        super().__init__(why or f"{confirmed} of {wanted} replicas confirmed the write in time")
        self.confirmed, self.wanted = confirmed, wanted


class HeadRegressed(StoreUnavailable):
    """The log's head is behind one this process saw acknowledged (a failover or a crash lost entries):
    refused once, recorded in the battle for its audit, so no version is reused silently."""

    def __init__(self, battle_id: str, acknowledged: Head, found: Head) -> None:
        super().__init__(
            f"battle {battle_id}: head {found.version} is behind acknowledged version {acknowledged.version}"
        )
        self.battle_id, self.acknowledged, self.found = battle_id, acknowledged, found
