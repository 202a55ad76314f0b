"""Nothing ever trims a battle log (DESIGN §3.1): no code path caps, trims or deletes log entries."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# XADD's MAXLEN/MINID options, XTRIM and XDEL are the only ways Redis drops stream entries
TRIMS = re.compile(r"\b(xtrim|xdel|maxlen|minid)\b", re.IGNORECASE)


def test_no_code_trims_or_deletes_a_stream_entry() -> None:
    sources = [p for d in ("eventstore", "service", "workers") for p in (ROOT / d).rglob("*") if p.is_file()]
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sources
        if path.suffix in (".py", ".lua")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if TRIMS.search(line)
    ]
    assert found == []
