"""Stable event names: the name an outcome stores in `changes[].event` is declared with the event, so
renaming a class never changes stored bytes (nor shows up as rules drift in an audit)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
NAME = "__event__"


def event(name: str) -> Callable[[type[T]], type[T]]:
    """Declare a record as the event stored as `name`."""

    def declare(cls: type[T]) -> type[T]:
        setattr(cls, NAME, name)
        return cls

    return declare


def event_name(value: object) -> str:
    """The stored name of an event; an undeclared event is a programming error, caught by the tests."""
    name: str = getattr(type(value), NAME)
    return name
