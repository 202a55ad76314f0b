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


def verify_file(path: str, progress: Callable[[int, int], object]) -> str:
    """The report on the export at `path`; `progress(done, total)` in bytes over the passes that count."""
    file = Path(path)
    total, done = PASSES * file.stat().st_size, 0

    def advance(read: int) -> None:
        nonlocal done
        done += read
        progress(done, total)

    return canonical_json(verify(file_lines(file, advance)).wire())


def about() -> str:
    """Which code this is: the rules versions each ruleset folds, the interpreter, and the file every rules
    module was loaded from (all of them imported, the lazily imported rulesets too)."""
    for found in pkgutil.walk_packages(rules.__path__, "rules."):
        importlib.import_module(found.name)
    loaded: dict[str, Any] = {
        name: str(getattr(module, "__file__", None))
        for name, module in sorted(sys.modules.items())
        if name.split(".")[0] in ("rules", "replay", "eventstore", "orjson", "cloudevents")
    }
    return canonical_json(
        {
            "rules": {name: list(folded_versions(name)) for name in ruleset_names()},
            "python": sys.version.split()[0],
            "modules": loaded,
        }
    )
