"""What a scheduled effect does once due (PF-TIME-03): one row per kind, and per detail where it differs."""

from __future__ import annotations

from typing import get_args

import pytest

from rules.pathfinder.scheduled import NOTHING, completion
from rules.pathfinder.state import ScheduledKind

pytestmark = pytest.mark.rule("PF-TIME-03")


def test_every_kind_has_a_row_for_the_details_it_does_not_list() -> None:
    for kind in get_args(ScheduledKind):
        assert completion(kind, "a detail no row lists") == completion(kind, None)


def test_a_detail_that_differs_has_its_own_row() -> None:
    assert completion("disable", "inoperable").sets == {"disabled": True}
    assert completion("disable", "sabotage").sets == {"sabotaged": True, "sabotage_triggered": False}
    assert completion("repair", "broken").told == ("broken_by_mishap",)
    assert completion("repair", "disabled").told == ("disabled", "sabotaged")


def test_an_ended_retry_block_sets_nothing_and_a_spell_s_end_tells_the_enhancement() -> None:
    assert completion("assembly_retry_open", None) is NOTHING and NOTHING.sets == {}
    spell = completion("spell_expiry", None)
    assert spell.sets == {"spell": None} and spell.tells_enhancement and spell.told == ()
    assert not completion("assembly", None).tells_enhancement
