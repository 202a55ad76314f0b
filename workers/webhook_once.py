"""One event sent to a webhook because the GM asked (`POST .../test`, `POST .../deliveries/{v}/redeliver`):
signed and checked like every delivery, tried once and logged. It is outside the ordered delivery: the
webhook's lock is not taken, its cursor, failures and retries are left as they are, nothing is retried."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from eventstore import clock
from eventstore.paging import with_entries
from eventstore.records import DeliveryAttempt
from summaries import summarized
from webhooks import event
from workers.webhooks import Deliverer, current, post_signed, ruleset_of

Kind = Literal["test", "redelivery"]
Ending = Literal["delivered", "failed", "refused", "gone", "no_outcome"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Sent:
    ending: Ending
    code: int | None = None


def send_once(
    run: Deliverer,
    battle_id: str,
    webhook_id: str,
    *,
    kind: Kind,
    event_id: str,
    requested_at: str,
    version: int | None = None,
) -> Sent:
    """A `test` event (its id and time chosen by the API), or the outcome of `version` again (a
    `redelivery`, the id of its first delivery: a receiver that kept it dedupes it as a repeat)."""
    store = run.store
    hook = run.webhooks.webhook(battle_id, webhook_id)
    if hook is None:
        return Sent(ending="gone")
    hook = current(run, battle_id, hook)
    source = run.settings.source(battle_id)
    if kind == event.TEST:
        built = event.probe_body(source, event_id, battle_id, webhook_id, requested_at)
    else:
        assert version is not None, "a redelivery names its version"
        found = with_entries(store, battle_id, store.outcomes(battle_id, after=version - 1, limit=1))
        if not found or found[0][0].version != version:
            return Sent(ending="no_outcome")  # the API checked it was folded: only a lost battle gets here
        entry, raw = found[0]
        told = summarized(ruleset_of(store, battle_id), json.loads(raw), entry.data, hook.language)
        built = event.body(source, battle_id, told, entry.recorded_at)
    moment = run.now()
    answer, status = post_signed(run, hook, built, moment)
    line = DeliveryAttempt(
        at=clock.iso(moment),
        version=version,
        status=status,
        code=answer.code,
        duration_ms=answer.duration_ms,
        error=answer.error,
        next_retry_at=None,
        kind=kind,
        event_id=built[0],
    )
    if not run.deliveries.note_webhook(battle_id, webhook_id, line):
        return Sent(ending="gone", code=answer.code)
    return Sent(ending=status, code=answer.code)
