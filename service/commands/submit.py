"""One command from request to answer, in order: its shape, who may send it, its key's hold, the append,
the fold scheduled, the answer (a keyed one recorded for replays); each step is another module's."""

from __future__ import annotations

from flask import Response, request

from eventstore.errors import CountedRefusal
from eventstore.records import Appended
from schemas.commands import load_command
from service.access import auth, battle_budgets
from service.commands import answers, idempotency
from service.commands.answers import Wait
from service.commands.append import Append, append
from service.deps import Services
from service.http.json_io import language, prefer_wait, read_json
from service.reading import hiding


def submit(deps: Services, battle_id: str) -> Response:
    ruleset = deps.battles.ruleset_of(battle_id)
    body = read_json()
    key = idempotency.key()
    wait_s = prefer_wait(deps.config.max_wait_s)
    command = load_command(ruleset, body)  # its shape: a 422 appends nothing
    wait = None if wait_s is None else Wait(wait_s, language())
    hold = idempotency.hold(deps, key, body, wait, salt=hiding.salt(ruleset, command.type))
    job = Append(
        battle_id=battle_id,
        ruleset=ruleset,
        command=command,
        principal=auth.current(),  # who may send it: judged by the append, at the head it lands after
        idempotency_key=hold.key,
        fingerprint=hold.fingerprint,
        lease_s=hold.lease_s,
        if_match=request.headers.get("If-Match"),
        budget=battle_budgets.budget(),
    )
    appended = _counted(deps, job)
    if appended.replayed:  # the key's first request appended it: its answer again, nothing new to fold
        first_wait = idempotency.first_wait(appended.response)
        return answers.replayed(deps, ruleset, battle_id, command.data, appended, first_wait)
    if appended.enqueue:
        deps.scheduler.enqueue()
    response, met = answers.answer(deps, ruleset, battle_id, command.data, appended, wait)
    if key and wait is not None:
        idempotency.remember(deps, battle_id, key, appended.version, met)
    return response


def _counted(deps: Services, job: Append) -> Appended:
    """The append, its rate budget noted whether it was appended or refused."""
    try:
        appended = append(deps, job)
    except CountedRefusal as refused:
        battle_budgets.note(refused.spent)
        raise
    battle_budgets.note(appended.spent)
    return appended
