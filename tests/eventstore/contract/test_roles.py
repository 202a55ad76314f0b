"""The contract's shape: seven role protocols, none of more than 15 methods and none sharing a method with
another, each implemented by every backend in a module of its own."""

from __future__ import annotations

import pytest

from eventstore import roles
from eventstore.memory_store import MemoryEventStore
from eventstore.redis_store import RedisEventStore

ROLES = [getattr(roles, name) for name in roles.__all__]
MOST_METHODS = 15  # past this a role has become the one store protocol again


def methods(role: type) -> list[str]:
    return [name for name, value in vars(role).items() if callable(value) and not name.startswith("_")]


def home(backend: type, method: str) -> str:
    """The module of the first class in the backend's MRO that defines `method`."""
    return next(cls.__module__ for cls in backend.__mro__ if method in vars(cls))


def test_no_role_has_more_than_fifteen_methods_and_none_shares_one() -> None:
    declared = [method for role in ROLES for method in methods(role)]
    assert len(ROLES) == 7
    assert all(0 < len(methods(role)) <= MOST_METHODS for role in ROLES), {
        r.__name__: len(methods(r)) for r in ROLES
    }
    assert len(declared) == len(set(declared))


@pytest.mark.parametrize("backend", [MemoryEventStore, RedisEventStore])
def test_each_role_is_implemented_by_a_module_of_its_own(backend: type) -> None:
    homes = {role.__name__: {home(backend, method) for method in methods(role)} for role in ROLES}
    assert all(len(modules) == 1 for modules in homes.values()), homes
    assert len({module for modules in homes.values() for module in modules}) == len(ROLES), homes
