"""The dependency direction of DESIGN §2 and the purity of rules/ (invariant 8) are checked, not hoped for."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMPURE = {
    "time",
    "datetime",
    "random",
    "secrets",
    "os",
    "socket",
    "redis",
    "flask",
    "rq",
    "marshmallow",
    "uuid",
}


def test_import_contracts_hold() -> None:
    lint_imports = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    done = subprocess.run([lint_imports], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_rules_import_nothing_that_reads_the_clock_randomness_or_io() -> None:
    offenders = []
    for path in (ROOT / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.split(".")[0] in IMPURE]
    assert offenders == []


def test_rules_open_no_files_at_decision_time() -> None:
    # the catalog is package data read once at import; no decider may call open()
    calls = []
    for path in (ROOT / "rules").rglob("*.py"):
        if "catalog" in path.name:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open":
                calls.append(str(path.relative_to(ROOT)))
    assert calls == []
