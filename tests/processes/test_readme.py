"""Every environment variable the code reads is listed, with its default, in the table of
docs/configuration.md (the README sends readers there)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READS = re.compile(r'(?:env|environ|source)\.get\(\s*"([A-Z][A-Z0-9_]+)"|_read\(\s*env, "([A-Z][A-Z0-9_]+)"')


def variables_read_by_the_code() -> set[str]:
    names = set()
    for package in ("eventstore", "service", "workers", "launcher"):
        for path in (ROOT / package).rglob("*.py"):
            names |= {a or b for a, b in READS.findall(path.read_text())}
    return names


def test_every_variable_the_code_reads_is_in_the_configuration_table() -> None:
    table = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    found = variables_read_by_the_code()

    assert {"REDIS_URL", "SIEGE_API_KEY", "HOST", "PORT"} <= found
    assert sorted(name for name in found if f"| `{name}` |" not in table) == []
