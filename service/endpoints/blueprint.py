"""flask-smorest's Blueprint with typed decorators (the library ships no types), so endpoints stay typed;
one of them declares who may call an endpoint, another the JSON body it reads, each with its refusals."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar, cast

from flask_smorest import Blueprint as SmorestBlueprint
from marshmallow import Schema

from service.access import auth
from service.http.json_io import JSON_MIMETYPE, read_json, read_json_or_empty

View = TypeVar("View", bound=Callable[..., Any])
BEARER = "bearerAuth"  # a battle's token
SERVICE_KEY = "serviceKey"  # SIEGE_API_KEY
# the refusals each access level can meet, documented with it: 403 only where some token is refused, 503
# (`store-unavailable`) wherever the event store is read
STORE_DOWN = (503, "SERVICE_UNAVAILABLE")
REFUSALS: dict[auth.Access, tuple[tuple[int, str], ...]] = {
    "public": ((429, "TOO_MANY_REQUESTS"),),
    "create": ((401, "UNAUTHORIZED"), (429, "TOO_MANY_REQUESTS"), STORE_DOWN),
    "read": ((401, "UNAUTHORIZED"), (429, "TOO_MANY_REQUESTS"), STORE_DOWN),
    "stream": ((401, "UNAUTHORIZED"), (429, "TOO_MANY_REQUESTS"), STORE_DOWN),
    "command": ((401, "UNAUTHORIZED"), (403, "FORBIDDEN"), (429, "TOO_MANY_REQUESTS"), STORE_DOWN),
    "gm": ((401, "UNAUTHORIZED"), (403, "FORBIDDEN"), (429, "TOO_MANY_REQUESTS"), STORE_DOWN),
}
# reading a JSON body (service/http/json_io.py): not I-JSON, over the cap, not JSON, not the shape
BODY_REFUSALS = (
    (400, "BAD_REQUEST"),
    (413, "REQUEST_ENTITY_TOO_LARGE"),
    (415, "UNSUPPORTED_MEDIA_TYPE"),
    (422, "UNPROCESSABLE_ENTITY"),
)


class Decorator(Protocol):
    def __call__(self, view: View, /) -> View: ...


class Blueprint(SmorestBlueprint):  # type: ignore[misc]
    def route(self, rule: str, **options: Any) -> Decorator:
        """Registers the view; its `operationId` is its name in camelCase (`send_command` → `sendCommand`),
        so views are named verb_noun and a generated client's methods read the same."""
        register = super().route(rule, **options)

        def declare(view: View) -> View:
            if "operationId" not in getattr(view, "_apidoc", {}).get("manual_doc", {}):
                view = self.doc(operationId=operation_id(view.__name__))(view)
            return cast(View, register(view))

        return cast(Decorator, declare)

    def doc(self, **kwargs: Any) -> Decorator:
        return _doc_only(super().doc(**kwargs))

    def arguments(self, schema: Any, **kwargs: Any) -> Decorator:
        return cast(Decorator, super().arguments(schema, **kwargs))

    def response(self, status_code: int, schema: Any = None, **kwargs: Any) -> Decorator:
        return cast(Decorator, super().response(status_code, schema, **kwargs))

    def alt_response(self, status_code: int, **kwargs: Any) -> Decorator:
        return _doc_only(super().alt_response(status_code, **kwargs))

    def access(self, level: auth.Access) -> Decorator:
        """Who may call the endpoint (service/access/auth.py), documented as its security and its refusals."""

        def declare(view: View) -> View:
            documented = view
            if level != "public":
                scheme = SERVICE_KEY if level == "create" else BEARER
                documented = self.doc(security=[{scheme: []}])(documented)
            for status, response in REFUSALS[level]:
                documented = self.alt_response(status, response=response)(documented)
            return auth.access(level)(documented)

        return cast(Decorator, declare)

    def json_body(self, schema: type[Schema] | Mapping[str, Any], *, required: bool = True) -> Decorator:
        """The JSON request body, documented with the refusals reading it can meet (BODY_REFUSALS).

        Given a Schema class, the view is passed `body`, the request's JSON loaded by it, before the view
        runs (a body left out reads as `{}` where none is required). Given the documentation of a body (a
        media type object) whose schema the battle's ruleset decides, as a command's, the view reads the
        body itself with `read_json` and loads it with that ruleset's schema."""
        media = {"schema": schema} if isinstance(schema, type) else dict(schema)
        documented = self.doc(requestBody={"required": required, "content": {JSON_MIMETYPE: media}})

        def declare(view: View) -> View:
            if isinstance(schema, type):
                view = _loading(view, schema(), required)
            view = documented(view)
            for status, response in BODY_REFUSALS:
                view = self.alt_response(status, response=response)(view)
            return view

        return cast(Decorator, declare)


def _loading(view: View, schema: Schema, required: bool) -> View:
    read = read_json if required else read_json_or_empty

    @functools.wraps(view)
    def with_body(*args: Any, **kwargs: Any) -> Any:
        return view(*args, body=schema.load(read()), **kwargs)

    return cast(View, with_body)


def operation_id(view_name: str) -> str:
    first, *rest = view_name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def _doc_only(decorator: Callable[[View], Any]) -> Decorator:
    """Keep what flask-smorest's documenting decorator records, drop the pass-through wrapper it adds: a
    command endpoint carried a dozen of them, ~0.2 ms of every request."""

    def document(view: View) -> View:
        view._apidoc = decorator(view)._apidoc  # type: ignore[attr-defined]
        return view

    return cast(Decorator, document)
