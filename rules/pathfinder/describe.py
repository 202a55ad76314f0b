"""What only pathfinder adds to GET /rulesets/pathfinder: the engine catalog (the rest is derived)."""

from __future__ import annotations

from rules.codec import JSON
from rules.pathfinder.catalog import raw_catalog


def extra() -> dict[str, JSON]:
    """What only pathfinder describes: the engine catalog (rules/pathfinder/data/engines.json)."""
    catalog = raw_catalog()
    return {
        "catalog": {
            "catalog_version": catalog["catalog_version"],
            "conventions": catalog["conventions"],
            "engines": catalog["engines"],
            "ammunition": catalog["ammunition_types"],
        },
    }
