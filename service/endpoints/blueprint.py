"""flask-smorest's Blueprint with typed decorators (the library ships no types), so endpoints stay typed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar, cast

from flask_smorest import Blueprint as SmorestBlueprint

View = TypeVar("View", bound=Callable[..., Any])


class Decorator(Protocol):
    def __call__(self, view: View, /) -> View: ...


class Blueprint(SmorestBlueprint):  # type: ignore[misc]
    def route(self, rule: str, **options: Any) -> Decorator:
        return cast(Decorator, super().route(rule, **options))

    def doc(self, **kwargs: Any) -> Decorator:
        return cast(Decorator, super().doc(**kwargs))

    def arguments(self, schema: Any, **kwargs: Any) -> Decorator:
        return cast(Decorator, super().arguments(schema, **kwargs))

    def response(self, status_code: int, schema: Any = None, **kwargs: Any) -> Decorator:
        return cast(Decorator, super().response(status_code, schema, **kwargs))

    def alt_response(self, status_code: int, **kwargs: Any) -> Decorator:
        return cast(Decorator, super().alt_response(status_code, **kwargs))
