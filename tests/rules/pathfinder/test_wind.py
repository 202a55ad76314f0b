"""Wind (PF-GEN-12): `set_wind` and the siege modifier of each level."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import applied, rejected


@pytest.mark.rule("PF-GEN-12")
@pytest.mark.parametrize(
    ("level", "modifier"),
    [
        ("none", 0),
        ("light", 0),
        ("moderate", 0),
        ("strong", 0),
        ("severe", 0),
        ("windstorm", -4),
        ("storm", -4),
        ("hurricane", -8),
        ("tornado", None),
    ],
)
def test_wind_levels_and_their_siege_modifier(
    rules_table: TableFactory, level: str, modifier: int | None
) -> None:
    table = rules_table("pathfinder")
    result = applied(table, {"type": "set_wind", "level": level})
    assert (result["wind"], result["siege_modifier"]) == (level, modifier)
    assert table.state()["wind"] == level


@pytest.mark.rule("PF-GEN-12")
@pytest.mark.parametrize("level", ["gale", "", "Storm", None, 3])
def test_a_level_the_spec_does_not_name_is_invalid(rules_table: TableFactory, level: object) -> None:
    table = rules_table("pathfinder")
    assert rejected(table, {"type": "set_wind", "level": level}) == "invalid_field"
    assert table.state()["wind"] == "none"
