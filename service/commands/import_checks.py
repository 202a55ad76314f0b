"""What an import adds to the verifier: every entry of the file is input the API itself would have taken, so
an import can bring in nothing `POST /battles` and the command endpoint refuse (docs/export-format.md §7.5).

Each check is the API's own: version 1's name, ruleset, client seed and options go through the schema of
`POST /battles`, every command's type, fields and dice through the command endpoint's loader, every key
through the `Idempotency-Key` header's check; the actor is one `Principal.actor` writes and `recorded_at`
the clock's form; each body, as a client would send it, is JSON the API reads (`parse_json`) within its
body cap. Run by the verifier between its passes (`verify(..., admit=refusal)`), after the chain
held and before any entry is folded: the rules never see an input the API would refuse."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Final

from marshmallow import ValidationError

from eventstore.clock import iso, now, parse_iso
from eventstore.records import StoredEntry
from replay.export_format import read_line
from replay.verify import Finding, Lines
from schemas.battles import BattleCreateSchema
from schemas.commands import load_command
from service.access.auth import is_actor
from service.commands import idempotency
from service.http.json_io import parse_json

REFUSED: Final = "refused"  # the finding's kind
# the reason codes, each an entry the API would not have logged so
BATTLE = "battle_refused"  # version 1's name, ruleset, client seed or options: POST /battles refuses them
COMMAND = "command_refused"  # a command's type, fields or dice: the command endpoint refuses them
ACTOR = "actor_refused"  # not an `actor` the service writes
KEY = "idempotency_key_refused"  # not a key the Idempotency-Key header may carry (or one on version 1)
TIME_FORM = "recorded_at_malformed"  # not UTC ISO 8601 as the service's clock writes it
TIME_BACKWARDS = "recorded_at_backwards"  # more than CLOCK_SKEW before a time earlier in the log
TIME_FUTURE = "recorded_at_future"  # more than CLOCK_SKEW after this server's clock
# `recorded_at` is read before the append, so concurrent commands can land a little out of clock order,
# and another deployment's clock may run a little ahead of this one's
CLOCK_SKEW = timedelta(minutes=5)
# written by the service beside what the creator sent (service/commands/creation.py): no part of the body
SERVICE_WRITTEN = frozenset({"rules_version", "dice_commitment"})
SHOWN = 300  # characters of the schema's messages a refusal quotes: they may name a field of any length
_create = BattleCreateSchema()
Fault = tuple[str, str]  # a reason code and what it refuses


def refusal(lines: Lines, ruleset: str, *, max_body_bytes: int) -> Finding | None:
    """The first entry the API would not have taken as it stands, or None; `max_body_bytes` is the API's
    body cap (SIEGE_MAX_BODY_BYTES). The verifier's first pass read every line already: line n holds
    version n."""
    horizon, latest = now() + CLOCK_SKEW, None
    for number, raw in enumerate(lines(), 1):
        entry = read_line(raw, number, number, checked=True).entry
        moment = _moment(entry.recorded_at)
        fault = (
            _body_fault(entry, ruleset, max_body_bytes)
            or _actor_fault(entry.actor, ruleset)
            or _key_fault(entry)
            or _time_fault(entry.recorded_at, moment, latest, horizon)
        )
        if fault is not None:
            code, why = fault
            return Finding(version=entry.version, kind=REFUSED, reason=code, line=number, detail=why)
        if moment is not None:  # it is: an unreadable time is a fault
            latest = moment if latest is None else max(latest, moment)
    return None


def _body_fault(entry: StoredEntry, ruleset: str, cap: int) -> Fault | None:
    if entry.version == 1:  # battle_created: the first pass made sure of it
        if entry.dice:
            return BATTLE, "a creation carries no dice"
        body = {name: value for name, value in entry.data.items() if name not in SERVICE_WRITTEN}
        return _as_sent(BATTLE, body, cap) or _loads(BATTLE, lambda: _create.load(body))
    clash = sorted({"type", "dice"} & entry.data.keys())
    if clash:  # the loader keeps these apart from the command's fields: no command of the API has them
        return COMMAND, f"its data holds {', '.join(clash)}, which no command's fields are"
    body = {**entry.data, "type": entry.type, "dice": entry.dice}
    return _as_sent(COMMAND, body, cap) or _loads(COMMAND, lambda: load_command(ruleset, body))


def _as_sent(code: str, body: dict[str, object], cap: int) -> Fault | None:
    """The body as a client would have sent it at its most compact: JSON the API reads, within its cap."""
    try:
        parse_json(json.dumps(body, separators=(",", ":")).encode())  # unsafe integers, depth, surrogates
        size = len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())
    except (ValueError, RecursionError) as error:
        return code, _bounded(f"not a JSON body the API reads: {error}")
    if size > cap:
        return code, f"{size} bytes of JSON at the most compact, over the API's body cap of {cap}"
    return None


def _loads(code: str, load: Callable[[], object]) -> Fault | None:
    try:
        load()
    except ValidationError as error:
        return code, _bounded(json.dumps(error.messages, sort_keys=True, default=str))
    return None


def _actor_fault(actor: str, ruleset: str) -> Fault | None:
    if is_actor(actor, ruleset):
        return None
    return ACTOR, "not service, anonymous, nor gm, observer or one of its sides with a token id"


def _key_fault(entry: StoredEntry) -> Fault | None:
    key = entry.idempotency_key
    if key is None:
        return None
    if entry.version == 1:
        return KEY, "a creation is written without one"
    return None if idempotency.well_formed(key) else (KEY, idempotency.KEY_FORM)


def _time_fault(
    text: str, moment: datetime | None, latest: datetime | None, horizon: datetime
) -> Fault | None:
    if moment is None:
        return TIME_FORM, f"{_quoted(text)} is not YYYY-MM-DDTHH:MM:SS.mmmZ"
    if latest is not None and moment < latest - CLOCK_SKEW:
        return TIME_BACKWARDS, f"{text} is more than {_skew()} before {iso(latest)}, earlier in the log"
    if moment > horizon:
        return TIME_FUTURE, f"{text} is more than {_skew()} after this server's clock"
    return None


def _moment(text: str) -> datetime | None:
    """The instant of a `recorded_at` in exactly the clock's form, else None."""
    try:
        moment = parse_iso(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None and iso(moment) == text else None


def _quoted(text: str) -> str:
    return _bounded(json.dumps(text))


def _bounded(said: str) -> str:
    """At most SHOWN characters of it. What the file holds comes through `json.dumps` first, in ASCII: no
    control or bidirectional text of the file reaches the answer."""
    return said if len(said) <= SHOWN else said[:SHOWN] + "…"


def _skew() -> str:
    return f"{int(CLOCK_SKEW.total_seconds() // 60)} minutes"
