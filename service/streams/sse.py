"""A battle's outcomes as Server-Sent Events, resumable by version: a catch-up read, then the hub's batches.

Each outcome is one event (`id: <version>`, `event: outcome`, `data:` the outcome exactly as
`GET .../events/{v}` serves it, its summary in the stream's language), in version order: first those
already folded after the start (read from the store), then those the process's hub hands over live. A
comment line keeps an idle stream open; after the outcome of an applied `conclude`, an `end` event closes
it. While open, the stream re-reads its token's record once per heartbeat interval at most, and ends (an
`end` event with the reason) once that token is revoked or expired. An outcome hidden from the token
(service/reading/hiding.py) is sent hidden, judged when it is sent."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass

from flask import Response
from redis.exceptions import RedisError

from eventstore.roles import Access, Folds, Log
from service.access.tokens import expired
from service.deps import Services
from service.http.json_io import localized
from service.http.problems import Problem
from service.reading.hiding import HIDDEN, Reader, hidden_outcome
from service.reading.reveals import Sight
from service.streams.hub import Hub
from service.streams.subscriptions import Delivered, StreamsFull, Subscription, delivered
from summaries import summarized

log = logging.getLogger(__name__)

EVENT_STREAM = "text/event-stream"
RETRY_MS = 2000  # the reconnection delay an EventSource is told to use
KEEP_ALIVE = ": keep-alive\n\n"
PAGE = 100  # outcomes read from the store at a time while catching up
STREAMS_RETRY_AFTER_S = 5
CONCLUDE = "conclude"
TOKEN_REVOKED, TOKEN_EXPIRED = "token_revoked", "token_expired"  # the end reasons of a lapsed token


@dataclass(frozen=True, slots=True, kw_only=True)
class Opened:
    battle_id: str
    ruleset: str
    language: str
    after: int  # outcomes after this version are sent
    heartbeat_s: float
    token_digest: str  # of the token it was opened with (a ticket's: the one that minted it)
    sight: Callable[[], Sight]  # what that token may see now, read afresh for each outcome that may hide


def open_stream(
    deps: Services, battle_id: str, after: int | None, language: str, token_digest: str, reader: Reader
) -> Response:
    ruleset = deps.battles.ruleset_of(battle_id)
    try:
        # before the start is read: nothing falls between
        subscription = deps.hub.subscribe(battle_id, holder=token_digest)
    except StreamsFull as full:
        raise too_many_streams(full) from None
    try:
        start = after if after is not None else deps.store.projected_version(battle_id)
    except BaseException:
        deps.hub.unsubscribe(subscription)
        raise
    opened = Opened(
        battle_id=battle_id,
        ruleset=ruleset,
        language=language,
        after=start,
        heartbeat_s=deps.config.stream_heartbeat_s,
        token_digest=token_digest,
        sight=lambda: deps.reveals.sight(deps.store, battle_id, ruleset, reader),
    )
    body = _released(
        deps.hub, subscription, frames(deps.store, deps.folds, deps.access, subscription, opened)
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}  # no proxy may hold events back
    response = Response(body, 200, headers, mimetype=EVENT_STREAM)
    response.call_on_close(lambda: deps.hub.unsubscribe(subscription))  # even if never iterated
    return localized(response, language)


def too_many_streams(full: StreamsFull) -> Problem:
    """The process's cap is the service's trouble (503, another process may take it); a battle's or a
    token's share is the client's (429: close a stream first)."""
    headers = {"Retry-After": str(STREAMS_RETRY_AFTER_S)}
    if full.kind == "battle":
        detail = (
            f"This battle holds its {full.cap} streams in this process (SIEGE_MAX_STREAMS_PER_BATTLE); "
            "close one, or retry later."
        )
        return Problem(
            429, "battle-streams-full", "The battle has too many open streams", detail, headers=headers
        )
    if full.kind == "token":
        detail = (
            f"This token holds its {full.cap} streams in this process (SIEGE_MAX_STREAMS_PER_TOKEN); "
            "close one first: one stream follows a battle whole."
        )
        return Problem(
            429, "token-streams-full", "The token has too many open streams", detail, headers=headers
        )
    detail = f"This process holds its {full.cap} streams (SIEGE_MAX_STREAMS); retry, another may take it."
    return Problem(503, "too-many-streams", "Too many open streams", detail, headers=headers)


def _released(hub: Hub, subscription: Subscription, body: Iterator[str]) -> Iterator[str]:
    try:
        yield from body
    finally:
        hub.unsubscribe(subscription)


def frames(
    store: Log, folds: Folds, access: Access, subscription: Subscription, opened: Opened
) -> Iterator[str]:
    yield f"retry: {RETRY_MS}\n\n"
    concluded = _concluded_at(store, folds, opened.battle_id)
    if concluded is not None:  # the stream ends at the conclusion: what is left up to it, then the end
        if concluded > opened.after:
            yield from _folded(store, opened, opened.after, upto=concluded)
        else:
            yield _end(concluded)
        return
    last, ended = yield from _folded(store, opened, opened.after)
    if not ended:
        yield from _live(store, access, subscription, opened, last)


def _live(store: Log, access: Access, subscription: Subscription, opened: Opened, last: int) -> Iterator[str]:
    """What the hub hands over after `last`; a heartbeat when nothing came in time; the end once the
    token lapses (judged before what was taken is sent, so a lapsed token is sent nothing more)."""
    checked = time.monotonic()  # the token stood when the stream opened
    while True:
        taken = subscription.take(opened.heartbeat_s)
        if time.monotonic() - checked >= opened.heartbeat_s:
            checked = time.monotonic()
            lapsed = _lapsed(access, opened)
            if lapsed is not None:
                yield _lapsed_end(lapsed)
                return
        fresh = [item for item in taken.items if item.version > last]
        if taken.behind or (fresh and fresh[0].version != last + 1):  # dropped or a gap: read the store
            last, ended = yield from _folded(store, opened, last)
            if ended:
                return
            fresh = [item for item in fresh if item.version > last]
        if not taken.items and not taken.behind and not taken.closed:
            yield KEEP_ALIVE
        for item in fresh:
            yield frame(item, opened)
            last = item.version
            if _concludes(item):
                yield _end(last)
                return
        if taken.closed:  # the process stops: no `end`, so the client reconnects (Last-Event-ID) elsewhere
            return


def _folded(
    store: Log, opened: Opened, after: int, upto: int | None = None
) -> Generator[str, None, tuple[int, bool]]:
    """The outcomes in the store after `after` (up to `upto`), a page at a time; answers the last version
    sent and whether the stream ended (an applied `conclude` was among them)."""
    last = after
    while upto is None or last < upto:
        limit = PAGE if upto is None else min(PAGE, upto - last)
        rows = store.outcomes(opened.battle_id, after=last, limit=limit)
        for item in delivered(store, opened.battle_id, rows):
            yield frame(item, opened)
            last = item.version
            if _concludes(item):
                yield _end(last)
                return last, True
        if len(rows) < limit:
            break
    return last, False


def _concluded_at(store: Log, folds: Folds, battle_id: str) -> int | None:
    """The version of the applied `conclude` of a concluded battle (None while it is not concluded)."""
    projection = folds.projection(battle_id)
    state = json.loads(projection.state) if projection is not None else {}
    if not state.get("concluded"):
        return None
    # after a conclude every command is rejected, so the last one an undo would cancel is the conclude
    undoable = int(state.get("undoable") or 0)
    if undoable and _concludes_raw(store.outcome(battle_id, undoable)):
        return undoable
    after = 0
    while rows := store.outcomes(battle_id, after=after, limit=PAGE):
        for version, outcome in rows:
            if _concludes_raw(outcome):
                return version
        after = rows[-1][0]
    return None


def _concludes_raw(outcome: str | None) -> bool:
    if outcome is None:
        return False
    parsed = json.loads(outcome)
    return bool(parsed.get("type") == CONCLUDE and parsed.get("status") == "applied")


def frame(item: Delivered, opened: Opened) -> str:
    """The SSE event of one outcome in the stream's language, shown whole or hidden as the stream's token
    may see it; rendered once per language and view per process (a hidden frame is every hidden reader's)."""
    hidden = opened.sight().hides(item.version, str(item.outcome.get("type")), item.actor)
    view = f"{opened.language}/{HIDDEN}" if hidden else opened.language
    found = item.frames.get(view)
    if found is None:
        outcome, command = (hidden_outcome(item.outcome), {}) if hidden else (item.outcome, item.command)
        told = summarized(opened.ruleset, outcome, command, opened.language)
        data = json.dumps(told, ensure_ascii=False, separators=(",", ":"))
        found = item.frames[view] = f"id: {item.version}\nevent: outcome\ndata: {data}\n\n"
    return found


def _concludes(item: Delivered) -> bool:
    return item.outcome.get("type") == CONCLUDE and item.outcome.get("status") == "applied"


def _end(version: int) -> str:
    return f'event: end\ndata: {{"version": {version}, "reason": "concluded"}}\n\n'


def _lapsed(store: Access, opened: Opened) -> str | None:
    """Why the stream's token no longer stands (a reason of the end event), None while it does. The record
    is read from the store: the token cache serves commands only, and is not told of another process's
    revocation. A store that does not answer keeps the stream open, to check again an interval later."""
    try:
        record = store.token(opened.battle_id, opened.token_digest)
    except (RedisError, OSError) as error:
        log.warning("a stream could not re-check its token: %s: %s", type(error).__name__, error)
        return None
    if record is None or record.revoked:  # gone: as good as revoked
        return TOKEN_REVOKED
    return TOKEN_EXPIRED if expired(record) else None


def _lapsed_end(reason: str) -> str:
    """No id: a reconnecting client resumes from its last outcome, and meets the 401."""
    return f'event: end\ndata: {{"reason": "{reason}"}}\n\n'
