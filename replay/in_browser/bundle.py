"""The zip of Python the verify page runs, built from the very sources this installation runs: all of rules/,
the verifier and what it reads exports with, the pure-Python libraries it needs as installed here (their
licences with them), and the orjson stand-in. Its bytes depend on those files alone (stored, not deflated;
fixed times and modes; sorted), so its SHA-256 names the code: the page shows the digest of the bytes it
ran, and `python -m replay.in_browser.bundle --digest` on any checkout of the same release computes it again.

`python -m replay.in_browser.bundle [DIR]` writes DIR/siege-verifier.zip and its manifest (default: build/
verifier beside the sources, where the service serves it from)."""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import sys
import zipfile
from collections.abc import Iterator
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

BUNDLE = "siege-verifier.zip"
MANIFEST = "siege-verifier.json"
# the modules of ours the verifier imports beyond rules/ (all of it: the rulesets are imported on first use)
OURS = (
    "eventstore/__init__.py",
    "eventstore/canonical.py",
    "eventstore/chain.py",
    "eventstore/errors.py",
    "eventstore/paging.py",
    "eventstore/records.py",
    "replay/__init__.py",
    "replay/audit_dice.py",
    "replay/export_format.py",
    "replay/folds.py",
    "replay/supported_rules.py",
    "replay/verify.py",
    "replay/in_browser/__init__.py",
    "replay/in_browser/entry.py",
)
RULES_FILES = (".py", ".json")
WARM_UP = "replay/in_browser/warm_up"  # the exports entry.warm_up folds at start-up
# the pure-Python distributions the verifier imports (cloudevents reads times with dateutil)
LIBRARIES = ("cloudevents", "python-dateutil", "mypy-extensions")
STAND_INS = {"orjson.py": "replay/in_browser/orjson.py"}  # what the zip holds at the top, from where
MOMENT = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip records: no build's clock in the bytes
MODE = 0o644 << 16


def root() -> Path:
    """The directory holding our packages, found without importing them (the installed sources)."""
    spec = importlib.util.find_spec("rules")
    assert spec is not None and spec.submodule_search_locations is not None
    return Path(next(iter(spec.submodule_search_locations))).parent


def default_dir() -> Path:
    return root() / "build" / "verifier"


def members() -> Iterator[tuple[str, bytes]]:
    """Every file of the zip, by its name in the zip, sorted."""
    base = root()
    found: dict[str, bytes] = {}
    for path in (base / "rules").rglob("*"):
        if path.suffix in RULES_FILES and "__pycache__" not in path.parts:
            found[path.relative_to(base).as_posix()] = path.read_bytes()
    for name in OURS:
        found[name] = (base / name).read_bytes()
    for path in (base / WARM_UP).glob("*.jsonl"):
        found[path.relative_to(base).as_posix()] = path.read_bytes()
    for name, source in STAND_INS.items():
        found[name] = (base / source).read_bytes()
    for library in LIBRARIES:
        found.update(_library(library))
    yield from sorted(found.items())


def _library(name: str) -> Iterator[tuple[str, bytes]]:
    dist = distribution(name)
    for file in dist.files or ():
        path = str(file)
        if path.endswith(".py") or "/licenses/" in path:
            yield path, Path(str(dist.locate_file(file))).read_bytes()


def zipped() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members():
            info = zipfile.ZipInfo(name, date_time=MOMENT)
            info.external_attr, info.create_system = MODE, 3  # a regular file, as Unix would say
            archive.writestr(info, data)
    return out.getvalue()


def digest(data: bytes | None = None) -> str:
    return hashlib.sha256(zipped() if data is None else data).hexdigest()


def manifest(data: bytes) -> dict[str, Any]:
    """What the zip holds, for the page to show before it runs it (it shows the digest it computes itself)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = archive.namelist()
    return {
        "sha256": digest(data),
        "bytes": len(data),
        "files": len(names),
        "libraries": {name: distribution(name).version for name in LIBRARIES},
    }


def build(directory: Path) -> dict[str, Any]:
    """Write the zip and its manifest to `directory`; the manifest."""
    data = zipped()
    directory.mkdir(parents=True, exist_ok=True)
    described = manifest(data)
    (directory / BUNDLE).write_bytes(data)
    (directory / MANIFEST).write_text(json.dumps(described, indent=2, sort_keys=True) + "\n")
    return described


def main(argv: list[str]) -> None:
    if argv == ["--digest"]:
        print(digest())
        return
    directory = Path(argv[0]) if argv else default_dir()
    described = build(directory)
    print(f"{directory / BUNDLE}: {described['files']} files, sha256 {described['sha256']}")


if __name__ == "__main__":
    main(sys.argv[1:])
