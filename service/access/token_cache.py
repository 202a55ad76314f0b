"""Per-process memory of the token records commands were sent with, so a command costs no token read.

Safe because the append script re-reads the record it appends under (an AppendRequest's `token_digest`): a
token revoked in another process since it was remembered still appends nothing and gets a 401."""

from __future__ import annotations

import threading

from eventstore.records import TokenRecord


class TokenCache:
    """Bounded, oldest first out; only records that were valid when read are kept."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._records: dict[tuple[str, str], TokenRecord] = {}
        self._lock = threading.Lock()

    def get(self, battle_id: str, digest: str) -> TokenRecord | None:
        return self._records.get((battle_id, digest))

    def put(self, battle_id: str, record: TokenRecord) -> None:
        with self._lock:
            if len(self._records) >= self._size:
                self._records.pop(next(iter(self._records)), None)
            self._records[(battle_id, record.digest)] = record

    def drop(self, battle_id: str, digest: str) -> None:
        """Forget a token this process revoked, so its own next answer is the revocation's 401 at once."""
        with self._lock:
            self._records.pop((battle_id, digest), None)
