"""Which build of `rules/` a process runs: the pure Python, the source of truth and the default, or, with
`SIEGE_COMPILED_RULES=1`, the mypyc-compiled one that `make compiled-rules` (and `make test`) writes to
build/mypyc/.

Both are one referee: tests/referee folds the same logs through each in its own process and compares the
bytes. `python -m workers.rules_build` compiles a copy of the sources out of the tree and records their
digest; `choose()`, called at a process's start before anything imports `rules`, puts that build first on
`sys.path` only when asked to and when the digest still matches the sources, so an edit to rules/*.py never
runs stale compiled code: a missing or stale build is a warning and the pure Python runs."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import logging
import os
import shutil
import sys
import sysconfig
import typing
from pathlib import Path
from typing import Any

SETTING = "SIEGE_COMPILED_RULES"
DIGEST = "rules.sha256"  # in the build: the digest of the sources it was compiled from
# frozen.py writes its copiers with exec() behind a TYPE_CHECKING switch mypyc cannot compile
INTERPRETED = frozenset({"rules.frozen"})
log = logging.getLogger("siege.rules_build")


def sources() -> Path:
    """The rules package's source directory, found without importing it."""
    spec = importlib.util.find_spec("rules")
    assert spec is not None and spec.submodule_search_locations is not None
    return Path(next(iter(spec.submodule_search_locations)))


def default_build() -> Path:
    return sources().parent / "build" / "mypyc"


def digest(package: Path) -> str:
    """SHA-256 over every source and data file of the package (paths and bytes), caches left out, and over
    this module: a change to how the build is made (which modules stay interpreted) makes it stale too."""
    sha = hashlib.sha256(Path(__file__).read_bytes())
    for path in sorted(p for p in package.rglob("*") if p.is_file() and _is_source(p)):
        sha.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def _is_source(path: Path) -> bool:
    return "__pycache__" not in path.parts and not path.name.endswith((".so", ".pyd", ".pyc"))


def unusable(package: Path, build: Path) -> str | None:
    """Why `build` cannot stand in for the sources in `package` (None: it can)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    if not (build / DIGEST).is_file():
        return f"no compiled build in {build} (`make compiled-rules` builds it)"
    if not (build / "rules" / f"__init__{suffix}").is_file():
        return f"the compiled build in {build} is not for this interpreter ({suffix})"
    if (build / DIGEST).read_text().strip() != digest(package):
        return f"the compiled build in {build} is stale: rules/ or its recipe changed (`make compiled-rules`)"
    return None


def choose(*, required: bool = False, build: Path | None = None) -> bool:
    """Run the compiled build from here on when it matches the sources; True if it does. Logged either
    way. `required`: the compiled build or an error (the setting is not consulted)."""
    if not required and os.environ.get(SETTING, "0") != "1":
        log.info("rules: pure Python (the default; %s=1 runs the compiled build)", SETTING)
        return False
    build = build or default_build()
    problem = unusable(sources(), build)
    if problem is None and "rules" in sys.modules:  # a module imported it first: too late to switch
        problem = "rules was imported before the build was chosen"
    if problem is not None:
        if required:
            raise RuntimeError(problem)
        log.warning("rules: pure Python, %s", problem)
        return False
    sys.path.insert(0, str(build))
    log.info("rules: compiled build in %s", build)
    return True


def hinted_modules() -> set[str]:
    """The modules defining records that are read by their annotations at run time (states and options
    decoded, commands planned: rules.codec, rules.declare), and their base classes' modules: mypyc keeps
    a compiled class's field types only roughly (`int | None` becomes `type`), so these stay interpreted."""
    from rules.registry import get_ruleset, ruleset_names

    seen: set[type] = set()
    for name in ruleset_names():
        ruleset = get_ruleset(name)
        roots = [
            *ruleset.commands.values(),
            ruleset.options,
            ruleset.state,
        ]
        for root in roots:
            _records(root, seen)
    # and the modules of their base classes: mypyc binds a method of a class it compiled early, so an
    # interpreted record's override (`CommandRecord.invalid`) would never be called from compiled code
    bases = {base for record in seen for base in record.__mro__[1:] if base.__module__.startswith("rules")}
    return {cls.__module__ for cls in seen | bases}


def _records(tp: Any, seen: set[type]) -> None:
    """Every dataclass reachable from the type `tp` through field annotations, into `seen`."""
    for arg in typing.get_args(tp):
        _records(arg, seen)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp) and tp not in seen:
        seen.add(tp)
        for hint in typing.get_type_hints(tp).values():
            _records(hint, seen)


def _module(root: Path, path: Path) -> str:
    return ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")


def compile_build(build: Path) -> None:
    """Compile a copy of rules/ with mypyc into `build` (replaced whole once done, never half written)."""
    from mypyc.build import mypycify  # a dev tool: only the build needs it
    from setuptools import setup

    work = build.with_name(build.name + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(sources(), work / "rules", ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    interpreted = INTERPRETED | hinted_modules()
    compiled = sorted(p for p in (work / "rules").rglob("*.py") if _module(work, p) not in interpreted)
    recorded = digest(work / "rules")
    here = Path.cwd()
    os.chdir(work)  # mypyc names modules by their paths relative to the working directory
    try:
        modules = mypycify([str(p.relative_to(work)) for p in compiled], opt_level="3", multi_file=True)
        quiet_in_place = ["--quiet", "build_ext", "--inplace", "-j", "2"]
        # mypycify's list is typed as distutils' or setuptools' Extension; setup takes either
        setup(name="rules-compiled", ext_modules=modules, script_args=quiet_in_place)  # type: ignore[arg-type]
    finally:
        os.chdir(here)
    for path in compiled:  # the compiled module alone: no .py beside it to fall back on silently
        path.unlink()
    shutil.rmtree(work / "build")
    (work / DIGEST).write_text(recorded + "\n")
    shutil.rmtree(build, ignore_errors=True)
    work.rename(build)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else default_build()
    if unusable(sources(), target) is None:  # touched, not changed (a checkout): no need to compile again
        (target / DIGEST).touch()
        print(f"rules: the compiled build in {target} matches the sources")
    else:
        compile_build(target)
        print(f"rules compiled into {target}")
