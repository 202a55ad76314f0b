"""The compiled build of rules/ (workers/rules_build.py): used only while it matches the sources, visible
in a process's log, and held to the same rules tests as the pure Python."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from workers import rules_build

ROOT = Path(__file__).resolve().parents[2]
WHICH = (
    "import logging; logging.basicConfig(level=logging.INFO)\n"
    "from workers import rules_build; rules_build.choose()\n"
    "import rules.fold; print(rules.fold.__file__)"
)


def a_build_of(sources: Path, into: Path) -> Path:
    """What choose() checks of a build, without compiling: the digest and the package's extension."""
    (into / "rules").mkdir(parents=True)
    (into / "rules" / f"__init__{sysconfig.get_config_var('EXT_SUFFIX')}").touch()
    (into / rules_build.DIGEST).write_text(rules_build.digest(sources) + "\n")
    return into


def test_a_build_stands_in_for_the_sources_it_was_compiled_from(tmp_path: Path) -> None:
    sources = shutil.copytree(
        rules_build.sources(), tmp_path / "rules", ignore=shutil.ignore_patterns("__pycache__")
    )
    build = a_build_of(sources, tmp_path / "build")
    assert rules_build.unusable(sources, build) is None


def test_an_edited_source_makes_the_build_stale(tmp_path: Path) -> None:
    sources = shutil.copytree(
        rules_build.sources(), tmp_path / "rules", ignore=shutil.ignore_patterns("__pycache__")
    )
    build = a_build_of(sources, tmp_path / "build")
    fold = sources / "fold.py"
    fold.write_text(fold.read_text() + "\n# an edit\n")
    assert "stale" in (rules_build.unusable(sources, build) or "")
    (sources / "pathfinder" / "data" / "engines.json").write_text("{}")  # data files count as sources too
    assert "stale" in (rules_build.unusable(sources, build) or "")


def test_no_build_or_one_for_another_interpreter_is_not_used(tmp_path: Path) -> None:
    sources = rules_build.sources()
    assert "no compiled build" in (rules_build.unusable(sources, tmp_path / "none") or "")
    build = a_build_of(sources, tmp_path / "build")
    next((build / "rules").glob("__init__*")).rename(build / "rules" / "__init__.cpython-399-other.so")
    assert "not for this interpreter" in (rules_build.unusable(sources, build) or "")


def which_rules(setting: str, build: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, rules_build.SETTING: setting}
    code = (
        WHICH
        if build is None
        else WHICH.replace("choose()", f"choose(build=__import__('pathlib').Path({str(build)!r}))")
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )


def test_a_process_runs_the_compiled_build_when_current_and_says_so() -> None:
    ran = which_rules("1")
    assert ran.stdout.strip().endswith(sysconfig.get_config_var("EXT_SUFFIX")), ran.stderr
    assert Path(ran.stdout.strip()).is_relative_to(rules_build.default_build())
    assert f"rules: compiled build in {rules_build.default_build()}" in ran.stderr


def test_the_default_or_a_stale_build_runs_the_pure_python_with_a_warning(tmp_path: Path) -> None:
    for setting in ("0", ""):  # unset or anything but 1: the default
        off = which_rules(setting)
        assert off.stdout.strip() == str(rules_build.sources() / "fold.py")
        assert "rules: pure Python (the default; SIEGE_COMPILED_RULES=1 runs" in off.stderr
    stale = a_build_of(rules_build.sources(), tmp_path / "build")
    (stale / rules_build.DIGEST).write_text("0" * 64 + "\n")
    ran = which_rules("1", stale)
    assert ran.stdout.strip() == str(rules_build.sources() / "fold.py")
    assert "rules: pure Python, the compiled build" in ran.stderr and "is stale" in ran.stderr
