"""Commands sent through the HTTP API while a fault test breaks things, the tally of what was answered,
and the checks that follow: every acknowledged command present, projections converged and clean."""

from __future__ import annotations

import http.client
import json
import threading
import time
import uuid
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from eventstore.redis_store import RedisEventStore
from tests.processes.client import eventually
from tests.workers.logs import FILLER, fresh_state, projected_version
from workers.replay import verify

NO_ANSWER = 0  # the status tallied when the connection failed or was cut
RETRY_FOR_S = 60.0  # how long one command is resent before the writer gives up on it


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    headers: Mapping[str, str]
    body: Any


def request(
    base_url: str,
    method: str,
    path: str,
    body: Any = None,
    headers: Mapping[str, str] | None = None,
    *,
    timeout_s: float = 30,
) -> Answer:
    """One request on a fresh connection; a refused, cut or timed-out one is an Answer with status 0."""
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout_s)
    data = None if body is None else json.dumps(body)
    try:
        connection.request(method, path, data, {"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        raw = response.read()
        return Answer(response.status, dict(response.getheaders()), json.loads(raw) if raw else None)
    except (OSError, http.client.HTTPException):
        return Answer(NO_ANSWER, {}, None)
    finally:
        connection.close()


def create_battles(base_url: str, api_key: str, count: int) -> list[tuple[str, str]]:
    """`count` epic battles: (battle id, GM token) each."""
    found = []
    for _ in range(count):
        created = request(base_url, "POST", "/battles", {"ruleset": "epic"}, bearer(api_key))
        assert created.status == 201, created
        found.append((str(created.body["id"]), str(created.body["gm_token"])))
    return found


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass(frozen=True, slots=True)
class Receipt:
    """One acknowledgement as the client holds it: where it was told its command is, and when."""

    battle_id: str
    version: int
    hash: str
    key: str | None  # the command's Idempotency-Key, if it had one
    at: float  # time.monotonic() when the answer arrived


@dataclass(frozen=True, slots=True)
class Heard:
    at: float
    battle_id: str
    status: int


@dataclass
class Tally:
    """What the writers sent and what the API answered; `acknowledged` holds (battle, version) → hash (a
    version acknowledged twice keeps the last), `receipts` every acknowledgement, `heard` every answer."""

    sent: int = 0
    acknowledged: dict[tuple[str, int], str] = field(default_factory=dict)
    receipts: list[Receipt] = field(default_factory=list)
    heard: list[Heard] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    retry_after_missing: int = 0  # 503 answers without a Retry-After header
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answered(self, answer: Answer, battle_id: str, key: str | None = None) -> None:
        at = time.monotonic()
        with self.lock:
            self.statuses[answer.status] += 1
            self.heard.append(Heard(at, battle_id, answer.status))
            if answer.status == 503 and "Retry-After" not in answer.headers:
                self.retry_after_missing += 1
            if answer.status in (200, 202):
                version, digest = int(answer.body["version"]), str(answer.body.get("hash", ""))
                self.acknowledged[(battle_id, version)] = digest
                self.receipts.append(Receipt(battle_id, version, digest, key, at))

    def present(self, store: RedisEventStore) -> int:
        """Acknowledged commands found in the log at their version (and hash, where the 202 gave one)."""
        found = 0
        for (battle_id, version), digest in self.acknowledged.items():
            entry = store.entry(battle_id, version)
            found += entry is not None and (not digest or entry.hash == digest)
        return found

    def report(self, name: str, store: RedisEventStore) -> int:
        present = self.present(store)
        statuses = dict(sorted(self.statuses.items()))
        print(
            f"\n[{name}] sent={self.sent} acknowledged={len(self.acknowledged)} present={present} "
            f"answers={statuses}",
            flush=True,
        )
        return present


class Writers:
    """`threads` writers, each sending FILLER commands round-robin over `battles` until `stop()` or
    `per_thread` commands. `idempotent`: every command carries its own Idempotency-Key and is resent
    until acknowledged; else only a 409 (nothing appended) is resent. `pinned`: thread n writes battle n
    alone, so a battle whose store is down holds up its own writer and no other battle's."""

    def __init__(
        self,
        base_url: str,
        battles: Sequence[tuple[str, str]],
        *,
        threads: int,
        per_thread: int = 10_000,
        idempotent: bool = False,
        wait_s: int = 0,
        pinned: bool = False,
    ) -> None:
        self.base_url, self.battles, self.per_thread = base_url, battles, per_thread
        self.idempotent, self.wait_s, self.pinned = idempotent, wait_s, pinned
        self.tally = Tally()
        self.keys: list[str] = []
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._write, args=(n,), daemon=True) for n in range(threads)]

    def __enter__(self) -> Writers:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def stop(self, timeout_s: float = 120) -> Tally:
        """Each writer ends after the command it is sending (resent until answered, if idempotent)."""
        self._stop.set()
        return self.finish(timeout_s)

    def finish(self, timeout_s: float = 120) -> Tally:
        """Wait for every writer to send all its commands."""
        deadline = time.monotonic() + timeout_s
        for thread in self._threads:
            thread.join(max(deadline - time.monotonic(), 0))
        assert not any(t.is_alive() for t in self._threads), f"writers still busy after {timeout_s}s"
        return self.tally

    def _write(self, n: int) -> None:
        for i in range(self.per_thread):
            if self._stop.is_set():
                return
            battle_id, token = self.battles[(n if self.pinned else n + i) % len(self.battles)]
            self._send(battle_id, token)

    def _send(self, battle_id: str, token: str) -> None:
        headers = bearer(token) | ({"Prefer": f"wait={self.wait_s}"} if self.wait_s else {})
        if self.idempotent:
            headers["Idempotency-Key"] = key = uuid.uuid4().hex
            with self.tally.lock:
                self.keys.append(key)
        with self.tally.lock:
            self.tally.sent += 1
        deadline = time.monotonic() + RETRY_FOR_S
        while time.monotonic() < deadline:
            answer = request(
                self.base_url, "POST", f"/battles/{battle_id}/commands", {"type": FILLER}, headers
            )
            self.tally.answered(answer, battle_id, headers.get("Idempotency-Key"))
            if not self._resend(answer):
                return
            time.sleep(min(float(answer.headers.get("Retry-After", "0.2")), 1.0))

    def _resend(self, answer: Answer) -> bool:
        if answer.status in (200, 202):
            return False
        if answer.status in (409, 429):
            return True  # contention or a key still in flight: nothing new was appended
        return self.idempotent and (answer.status == NO_ANSWER or answer.status >= 500)


@dataclass(frozen=True, slots=True)
class Losses:
    """Receipts held against the logs as they are now."""

    lost: list[Receipt]  # acknowledged, but the log has no entry at that version with that hash
    # versions handed out twice: acknowledged to two commands, or now holding another command than the
    # one acknowledged there; each with the first receipt that named it
    reused: dict[tuple[str, int], Receipt]
    keys_twice: dict[str, int]  # Idempotency-Keys the logs hold more than once (a retry appended again)


def losses(receipts: Sequence[Receipt], store: RedisEventStore, battle_ids: Sequence[str]) -> Losses:
    """Reads each battle's whole log once; every receipt is looked up in it."""
    logs = {b: {e.version: e for e in store.iter_entries(b)} for b in battle_ids}
    lost: list[Receipt] = []
    reused: dict[tuple[str, int], Receipt] = {}
    told: dict[tuple[str, int], Receipt] = {}
    for receipt in receipts:
        where = (receipt.battle_id, receipt.version)
        entry = logs[receipt.battle_id].get(receipt.version)
        if entry is None or entry.hash != receipt.hash:
            lost.append(receipt)
        first = told.setdefault(where, receipt)
        if (entry is not None and entry.hash != receipt.hash) or first.hash != receipt.hash:
            reused.setdefault(where, first)
    keys = Counter(e.idempotency_key for log in logs.values() for e in log.values() if e.idempotency_key)
    return Losses(lost, reused, {k: n for k, n in keys.items() if n > 1})


def converged(store: RedisEventStore, battle_ids: Sequence[str]) -> bool:
    return all(projected_version(store, b) == store.head(b).version for b in battle_ids)


def check_clean(base_url: str, store: RedisEventStore, battles: Sequence[tuple[str, str]]) -> int:
    """Every projection reaches its log head, equals a fresh replay byte for byte, verifies and audits ok;
    returns how many battles were checked."""
    ids = [b for b, _ in battles]
    eventually(lambda: converged(store, ids), 30, "every projection to reach its log head")
    for battle_id, token in battles:
        saved = store.projection(battle_id)
        assert saved is not None and saved.state == fresh_state(store, battle_id), battle_id
        assert verify(store, store, battle_id).ok, battle_id
        audited = request(base_url, "GET", f"/battles/{battle_id}/audit", headers=bearer(token))
        assert audited.status == 200 and audited.body["ok"], audited
    print(f"converged={len(ids)} battles, each equal to a fresh replay, verified and audited ok", flush=True)
    return len(ids)
