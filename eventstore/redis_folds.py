"""Folds in Redis: a battle's state and snapshots (saved with its outcomes in one script), its fold lock,
and a drain round's per-battle calls batched across its battles: every lock and read in one round trip,
every save and unlock in another; the reconciler's look at every battle, a round trip per page.
Each battle's call stays on its own slot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventstore import keys, lua
from eventstore.config import RedisClient
from eventstore.errors import UnknownBattle
from eventstore.records import FoldSave, FoldStart, Projection
from eventstore.redis_derived import save_call
from eventstore.redis_in_flight import InFlight
from eventstore.stream_fields import from_fields, text, version_of


class RedisFolds:
    def __init__(self, client: RedisClient) -> None:
        self._client = client
        self._save_script = lua.register(client, "save_projection")
        self._lock_script = lua.register(client, "lock")
        self._unlock_script = lua.register(client, "unlock")
        self._begin_fold_script = lua.register_batched(client, "begin_fold")
        self._save_fold_script = lua.register_batched(client, "save_projection")
        self._unlock_fold_script = lua.register_batched(client, "unlock")

    def projection(self, battle_id: str) -> Projection | None:
        version, state = self._client.hmget(keys.state(battle_id), ["version", "state"])
        if version is None or state is None:
            return None
        return Projection(version=int(version), state=text(state))

    def save_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> bool:
        saved = int(self._save_script(*save_call(battle_id, state, outcomes, snapshots)))
        if saved < 0:
            raise UnknownBattle(battle_id)
        return saved == 1

    def send_projection(
        self,
        battle_id: str,
        *,
        state: Projection,
        outcomes: Sequence[tuple[int, str]],
        snapshots: Sequence[Projection] = (),
    ) -> InFlight[bool]:
        script_keys, args = save_call(battle_id, state, outcomes, snapshots)
        script = self._save_fold_script

        def saved(reply: Any) -> bool:
            if int(reply) < 0:
                raise UnknownBattle(battle_id)
            return int(reply) == 1

        # run again should the reply be lost: the script's version guard refuses a write already made
        command = ("EVALSHA", script.sha, len(script_keys), *script_keys, *args)
        fallback = lambda: saved(script.alone(keys=script_keys, args=args))  # noqa: E731
        return InFlight(self._client, command, saved, fallback)

    def snapshot_at_or_before(self, battle_id: str, version: int) -> Projection | None:
        index = keys.snapshot_versions(battle_id)
        found = self._client.zrevrangebyscore(index, version, "-inf", start=0, num=1)
        if not found:
            return None
        state = self._client.hget(keys.snapshots(battle_id), found[0])
        return None if state is None else Projection(version=int(found[0]), state=text(state))

    def delete_derived(self, battle_id: str) -> None:
        self._client.delete(
            keys.outcomes(battle_id),
            keys.state(battle_id),
            keys.snapshots(battle_id),
            keys.snapshot_versions(battle_id),
        )

    def try_lock(self, battle_id: str, owner: str, ttl_ms: int) -> bool:
        return bool(self._lock_script(keys=[keys.lock(battle_id)], args=[owner, ttl_ms]))

    def unlock(self, battle_id: str, owner: str) -> None:
        self._unlock_script(keys=[keys.lock(battle_id)], args=[owner])

    def begin_folds(
        self, battle_ids: Sequence[str], owner: str, ttl_ms: int, *, limit: int
    ) -> list[FoldStart | None]:
        read: list[str | int] = [owner, ttl_ms, limit]
        script = self._begin_fold_script
        calls = [(script, [keys.lock(b), keys.state(b), keys.log(b)], read) for b in battle_ids]
        return [_started(reply) for reply in lua.run_each(self._client, calls)]

    def finish_folds(self, owner: str, folds: Sequence[tuple[str, FoldSave | None]]) -> list[bool]:
        calls: list[lua.Call] = []
        for battle_id, save in folds:
            if save is not None:
                calls.append(
                    (self._save_fold_script, *save_call(battle_id, save.state, save.outcomes, save.snapshots))
                )
            calls.append((self._unlock_fold_script, [keys.lock(battle_id)], [owner]))
        replies = iter(lua.run_each(self._client, calls))
        saved = []
        for _battle_id, save in folds:
            saved.append(save is not None and int(next(replies)) == 1)
            next(replies)  # the unlock's
        return saved

    def lagging(self, battle_ids: Sequence[str]) -> list[str]:
        pipe = self._client.pipeline(transaction=False)
        for battle_id in battle_ids:
            pipe.xrevrange(keys.log(battle_id), "+", "-", count=1)
            pipe.hget(keys.state(battle_id), "version")
        replies = pipe.execute()
        heads, projected = replies[0::2], replies[1::2]
        return [
            battle_id
            for battle_id, head, version in zip(battle_ids, heads, projected, strict=True)
            if head and int(version or 0) < version_of(head[0][0])
        ]


def _started(reply: list[Any]) -> FoldStart | None:
    if not int(reply[0]):
        return None
    version, state, rows = reply[1], reply[2], reply[3]
    saved = None if version is None or state is None else Projection(version=int(version), state=text(state))
    # a script's XRANGE comes back unparsed: [id, [field, value, field, value, ...]] per entry
    entries = [from_fields(entry_id, dict(zip(raw[::2], raw[1::2], strict=True))) for entry_id, raw in rows]
    return FoldStart(projection=saved, entries=entries)
