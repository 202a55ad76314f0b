"""What the verify page's worker calls in Pyodide: `siege verify` on the file the reader dropped (written to
the worker's own file system), its progress told back as it reads, its report as the wire form the CLI's
`--json` prints, in canonical JSON so two builds can be compared byte for byte."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rules
from eventstore.canonical import canonical_json
from replay.verify import PASSES, file_lines, verify
from rules.registry import folded_versions, ruleset_names

# the page holds the whole file already (its bytes, and their copy in this worker's file system): up to this
# size, the first pass's reading is kept for the second (some 5 to 10 times the file), not done again
KEEP_BYTES = 64 * 1024 * 1024
# exports folded once at start-up, so the reader's first file is not the one that pays for the code's first
# run (the engine compiling its hottest WebAssembly, the rules' first calls): copies of golden files
WARM_UP = Path(__file__).with_name("warm_up")


def verify_file(path: str, progress: Callable[[int, int], object]) -> str:
    """The report on the export at `path`; `progress(done, total)` in bytes over the passes that count."""
    file = Path(path)
    size = file.stat().st_size
    total, done = PASSES * size, 0

    def advance(read: int) -> None:
        nonlocal done
        done += read
        progress(done, total)

    keep = advance if size <= KEEP_BYTES else None
    return canonical_json(verify(file_lines(file, advance), keep=keep).wire())


def warm_up() -> list[str]:
    """Verify the bundled exports once, their statuses in order: each should say `verified`."""
    samples = sorted(WARM_UP.glob("*.jsonl"))
    return [verify(file_lines(sample, _ignored), keep=_ignored).status for sample in samples]


def _ignored(read: int) -> None:
    """No progress to tell: nobody waits on the warm-up's."""


def about() -> str:
    """Which code this is: the rules versions each ruleset folds, the interpreter, and the file every rules
    module was loaded from (all of them imported, the lazily imported rulesets too)."""
    for found in pkgutil.walk_packages(rules.__path__, "rules."):
        importlib.import_module(found.name)
    loaded: dict[str, Any] = {
        name: str(getattr(module, "__file__", None))
        for name, module in sorted(sys.modules.items())
        if name.split(".")[0] in ("rules", "replay", "eventstore", "orjson", "msgspec", "cloudevents")
    }
    return canonical_json(
        {
            "rules": {name: list(folded_versions(name)) for name in ruleset_names()},
            "python": sys.version.split()[0],
            "modules": loaded,
        }
    )
