"""Who is acting: the service key may create battles; a battle's own tokens, by role, the rest.

Every endpoint declares its access with `@access(...)`; a battle route that declares none is the GM's, so a
new endpoint is closed until someone opens it on purpose."""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from flask import Flask, current_app, g, request

from eventstore.records import TokenRecord
from schemas.tokens import ROLE, side_allowed
from service.access.tokens import GM, OBSERVER, SIDE, SIDE_PREFIX, digest, expired, is_token_id, role_of
from service.deps import Services, services
from service.http.problems import Problem
from service.reading.hiding import Reader, reader_of

Access = Literal["public", "create", "read", "stream", "command", "gm"]
ROLES_FOR: dict[Access, frozenset[str]] = {
    "read": frozenset({GM, SIDE, OBSERVER}),
    "stream": frozenset({GM, SIDE, OBSERVER}),  # a read token, or a ticket one minted (?ticket=)
    "command": frozenset({GM, SIDE}),  # a side's commands are then held to its own units (ownership.py)
    "gm": frozenset({GM}),
}
ATTRIBUTE = "siege_access"
REMEMBERED = "siege_token_remembered"  # set by judged_again_by_append
TICKET = "ticket"  # the query parameter of a stream opened with a ticket (an EventSource sends no header)
SERVICE, ANONYMOUS = "service", "anonymous"
REALM = 'Bearer realm="siege"'
View = TypeVar("View", bound=Callable[..., object])


@dataclass(frozen=True, slots=True, kw_only=True)
class Principal:
    role: str  # gm | side | observer | service | anonymous
    side: str | None = None
    token_id: str | None = None
    digest: str | None = None  # of the token: its append re-checks that it still stands

    @property
    def actor(self) -> str:
        """What log entries record as `actor`: the role and, for a token, its id."""
        role = f"{SIDE}:{self.side}" if self.role == SIDE else self.role
        return f"{role}/{self.token_id}" if self.token_id else role


def is_actor(text: str, ruleset: str) -> bool:
    """Whether `text` is an `actor` as Principal.actor writes it for a battle of `ruleset`: `service` or
    `anonymous` (no token), or a token's role as tokens are minted (`gm`, `observer`, `side:<name>` of the
    ruleset's sides) with, after `/`, a token id as `mint` draws it; a role alone is what releases before
    tokens and the golden corpus's writer recorded."""
    role, slash, token_id = text.partition("/")
    if role in (SERVICE, ANONYMOUS):
        return not slash
    if re.match(ROLE, role) is None or (slash and not is_token_id(token_id)):
        return False
    return not role.startswith(SIDE_PREFIX) or side_allowed(ruleset, role.removeprefix(SIDE_PREFIX))


def judged_again_by_append(view: View) -> View:
    """The view appends with the token's digest, and the append script re-reads the record: only such a
    view may be judged on this process's memory of the token (service/access/token_cache.py)."""
    setattr(view, REMEMBERED, True)
    return view


def access(level: Access) -> Callable[[View], View]:
    def declare(view: View) -> View:
        setattr(view, ATTRIBUTE, level)
        return view

    return declare


def install(app: Flask) -> None:
    app.before_request(authenticate)


def current() -> Principal:
    found: Principal | None = g.get("siege_principal")
    return found or Principal(role=ANONYMOUS)


def reader() -> Reader:
    """What the request's token may see of what a ruleset hides (service/reading/hiding.py)."""
    principal = current()
    return reader_of(principal.role, principal.side)


def authenticate() -> None:
    if request.method == "OPTIONS":
        return  # a CORS preflight carries no credentials; flask-cors answers it
    battle_id = (request.view_args or {}).get("battle_id")
    view = current_app.view_functions.get(request.endpoint or "")
    level: Access = getattr(view, ATTRIBUTE, "gm" if battle_id is not None else "public")
    if level == "create":
        g.siege_principal = _service_key()
    elif level == "stream" and TICKET in request.args:
        g.siege_principal = _ticket(str(battle_id), request.args[TICKET])
    elif level != "public":
        g.siege_principal = _battle_token(str(battle_id), level, remembered=getattr(view, REMEMBERED, False))


def _service_key() -> Principal:
    key = services().config.api_key
    if key is None:
        return Principal(role=ANONYMOUS)  # no key configured: creation is open (local use only)
    given = _bearer()
    if given is None or not hmac.compare_digest(given.encode(), key.encode()):
        raise unauthorized("Creating a battle needs `Authorization: Bearer <SIEGE_API_KEY>`.", given)
    return Principal(role=SERVICE)


def _battle_token(battle_id: str, level: Access, *, remembered: bool) -> Principal:
    given = _bearer()
    deps = services()
    record = _token_record(deps, battle_id, digest(given), remembered) if given else None
    refusal = _refusal(record, battle_id)
    if refusal is not None or record is None:
        deps.battles.created(battle_id)  # no such battle: a 404 (its id is 96 random bits, nothing to guess)
        raise unauthorized(refusal or "", given)
    if record.role not in ROLES_FOR[level]:
        role = role_of(record)
        article = "An" if role[0] in "aeiou" else "A"
        raise forbidden(f"{article} {role} token cannot do this; it needs one of: {_roles(level)}.")
    return Principal(role=record.role, side=record.scope, token_id=record.id, digest=record.digest)


def _ticket(battle_id: str, presented: str) -> Principal:
    """A stream ticket opens one stream, with the role of the token it was minted with, while that token
    stands: taken (deleted) here whatever follows, so it never opens a second one."""
    deps = services()
    deps.battles.created(battle_id)  # no such battle: a 404, as with a token
    held = deps.access.take_ticket(battle_id, digest(presented)) if presented else None
    if held is None:
        raise unauthorized(
            f"This ticket is unknown, used already, expired or not battle {battle_id}'s: "
            "mint a fresh one with POST /battles/{id}/stream-tickets.",
            presented,
        )
    refusal = _refusal(deps.access.token(battle_id, held.token_digest), battle_id)
    if refusal is not None:
        raise unauthorized(f"The token this ticket was minted with no longer stands. {refusal}", presented)
    return Principal(role=held.role, side=held.scope, token_id=held.token_id, digest=held.token_digest)


def _token_record(deps: Services, battle_id: str, token_digest: str, remembered: bool) -> TokenRecord | None:
    """A command may be judged on a remembered record: its append re-checks the stored one atomically
    (service/access/token_cache.py). Every other request (a preview too, which appends nothing) reads the
    record each time, so a token revoked in another process is refused at once."""
    known = deps.tokens.get(battle_id, token_digest) if remembered else None
    if known is not None:
        return known
    record = deps.access.token(battle_id, token_digest)
    if remembered and record is not None and not record.revoked:
        deps.tokens.put(battle_id, record)
    return record


def _refusal(record: TokenRecord | None, battle_id: str) -> str | None:
    if record is None:
        return f"Send `Authorization: Bearer <token>` with a token of battle {battle_id}."
    if record.revoked:
        return "This token was revoked."
    if expired(record):
        return f"This token expired at {record.expires_at}."
    return None


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _roles(level: Access) -> str:
    return ", ".join(sorted(ROLES_FOR[level]))


def unauthorized(detail: str, presented: str | None) -> Problem:
    """401 with the RFC 6750 challenge; `invalid_token` only when a token was sent."""
    challenge = f'{REALM}, error="invalid_token"' if presented else REALM
    title = "A valid token is needed"
    return Problem(401, "unauthorized", title, detail, headers={"WWW-Authenticate": challenge})


def forbidden(detail: str) -> Problem:
    challenge = f'{REALM}, error="insufficient_scope"'
    title = "The token does not allow this"
    return Problem(403, "forbidden", title, detail, headers={"WWW-Authenticate": challenge})
