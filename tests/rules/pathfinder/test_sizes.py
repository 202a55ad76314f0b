"""Size categories (PF-GEN-03): index, attack/AC modifier and the French codes."""

from __future__ import annotations

import pytest

from rules.pathfinder.sizes import from_french, size_index, size_modifier


@pytest.mark.rule("PF-GEN-03")
def test_size_categories_have_their_index_modifier_and_french_code() -> None:
    assert [size_index(s) for s in "FDTSMLHGC"] == list(range(9))
    assert [size_modifier(s) for s in "FDTSMLHGC"] == [8, 4, 2, 1, 0, -1, -2, -4, -8]
    assert from_french("G") == "L" and from_french("Gig") == "G" and from_french("TG") == "H"


@pytest.mark.rule("PF-GEN-03")
def test_a_french_code_seed_000_does_not_write_is_refused_by_name() -> None:
    with pytest.raises(KeyError, match="'Min'"):
        from_french("Min")  # Fine to Tiny are not attested in seed 000
