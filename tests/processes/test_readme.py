"""Every environment variable the code reads is listed in the README's configuration table (STYLE §10)."""

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


def test_every_variable_the_code_reads_is_in_the_readme_table() -> None:
    readme = (ROOT / "README.md").read_text()
    found = variables_read_by_the_code()

    assert {"REDIS_URL", "SIEGE_API_KEY", "HOST", "PORT"} <= found
    assert sorted(name for name in found if f"| `{name}` |" not in readme) == []
