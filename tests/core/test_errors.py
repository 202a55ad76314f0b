"""A refusal's detail (rules.errors.Rejected) and which rulesets a release lists (rules.registry)."""

from __future__ import annotations

import pytest

from rules import registry
from rules.errors import Rejected


def test_naming_adds_only_what_the_refusal_does_not_say_yet() -> None:
    """An inner check names the entity it refused; an outer one adds what it knows besides, never over it."""
    refused = Rejected("creature_busy", id="smith")
    assert refused.naming(id="lead", action="full_round") is refused
    assert (refused.reason, refused.detail) == ("creature_busy", {"id": "smith", "action": "full_round"})


def test_a_release_lists_the_rulesets_it_can_import_and_leaves_out_one_it_cannot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert registry.ruleset_names() == ["epic", "pathfinder"]
    monkeypatch.setitem(registry.RULESET_MODULES, "chess", "rules.no_such_ruleset")
    assert registry.ruleset_names() == ["epic", "pathfinder"]
    with pytest.raises(ImportError):
        registry.get_ruleset("chess")
