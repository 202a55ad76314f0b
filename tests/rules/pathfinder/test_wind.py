"""Wind (PF-GEN-12): `set_wind` and the siege modifier of each level."""

from __future__ import annotations

import pytest

from tests.conftest import TableFactory
from tests.rules.pathfinder.given import applied


@pytest.mark.rule("PF-GEN-12")
@pytest.mark.parametrize(
    ("level", "modifier"),
    [("none", 0), ("severe", 0), ("windstorm", -4), ("storm", -4), ("hurricane", -8), ("tornado", None)],
)
def test_wind_levels_and_their_siege_modifier(
    rules_table: TableFactory, level: str, modifier: int | None
) -> None:
    table = rules_table("pathfinder")
    result = applied(table, {"type": "set_wind", "level": level})
    assert (result["wind"], result["siege_modifier"]) == (level, modifier)
    assert table.state()["wind"] == level
