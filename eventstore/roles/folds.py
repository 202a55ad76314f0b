"""Folds: a battle's stored projection and snapshots, and the lock and batched calls a folder writes them
under."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from eventstore.records import FoldSave, FoldStart, Projection


def require_consecutive(outcomes: Sequence[tuple[int, str]]) -> None:
    """Outcomes handed to `save_projection` must be one run of versions; anything else is a caller bug."""
    versions = [version for version, _ in outcomes]
    if any(later != earlier + 1 for earlier, later in itertools.pairwise(versions)):
        raise ValueError(f"outcomes must have consecutive versions, got {versions}")


class SaveInFlight(Protocol):
    """A `save_projection` in flight: `answer()` once for its reply (raising as the call would), or `drop()`
    when the fold stops before it needs one."""

    def answer(self) -> bool: ...

    def drop(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Saved:
    """A save made at once: a store with nothing to send ahead answers this."""

    saved: bool

    def answer(self) -> bool:
        return self.saved

    def drop(self) -> None:
        return None


class Folds(Protocol):
    def projection(self, battle_id: str) -> Projection | None: ...

    def save_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> bool:
        """Atomically write outcomes (version, JSON), state and snapshots, only if state.version is
        newer than the stored one and the outcomes continue the stored ones; False when guarded out."""

    def send_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> SaveInFlight:
        """`save_projection`, sent now and answered later: a fold folds its next batch while the store
        writes this one. Where nothing can be sent ahead, it is saved at once."""

    def snapshot_at_or_before(self, battle_id: str, version: int) -> Projection | None: ...

    def delete_derived(self, battle_id: str) -> None:
        """Drop outcomes, state and snapshots; the log and secret stay."""

    def try_lock(self, battle_id: str, owner: str, ttl_ms: int) -> bool:
        """One folder per battle at a time; the lock expires so a crashed worker never blocks it.
        The owner that holds it renews it (a long fold does, between batches)."""

    def unlock(self, battle_id: str, owner: str) -> None: ...

    def begin_folds(
        self, battle_ids: Sequence[str], owner: str, ttl_ms: int, *, limit: int
    ) -> list[FoldStart | None]:
        """For each battle, `try_lock` and, when it is ours, what its fold starts from (up to `limit`
        entries); None where another folder holds the lock. One round trip for all on Redis."""

    def finish_folds(self, owner: str, folds: Sequence[tuple[str, FoldSave | None]]) -> list[bool]:
        """For each battle, `save_projection` its last write (when there is one), then `unlock` it; whether
        each write was saved (False: guarded out, nothing to save, or no such battle). One round trip."""

    def lagging(self, battle_ids: Sequence[str]) -> list[str]:
        """Those of the battles whose projection is behind their log head, in order (a battle that does not
        exist does not lag). One round trip for all on Redis."""
