"""The Dockerfile builds a slim, pinned, non-root image of every package, installed as the tests ran it."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def pins() -> dict[str, str]:
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    found = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {_name(name): pinned for name, pinned in found}


def runtime_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["dashboard"]]
    return [Requirement(r) for r in declared]


def test_the_base_image_is_slim_and_pinned_to_a_full_python_version() -> None:
    assert re.search(r"^FROM python:3\.11\.\d+-slim-\w+$", DOCKERFILE, re.MULTILINE)


def test_the_image_runs_as_an_unprivileged_user_with_a_healthcheck() -> None:
    assert re.search(r"^USER siege$", DOCKERFILE, re.MULTILINE)
    assert "HEALTHCHECK" in DOCKERFILE and "/readyz" in DOCKERFILE


def test_every_package_of_ours_is_copied_into_the_image() -> None:
    # the import contracts' roots: every package the service runs (mypy also checks bench/, which never ships)
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["root_packages"]
    assert [p for p in packages if f"COPY {p} ./{p}" not in DOCKERFILE] == []
    assert 'pip install -c constraints.txt ".[dashboard]"' in DOCKERFILE


def test_every_runtime_dependency_is_pinned_to_a_version_it_allows() -> None:
    pinned = pins()
    assert [str(r) for r in runtime_requirements() if _name(r.name) not in pinned] == []
    assert [str(r) for r in runtime_requirements() if pinned[_name(r.name)] not in r.specifier] == []


def test_the_pins_are_the_versions_this_suite_runs_on() -> None:
    differ = {name: (pinned, version(name)) for name, pinned in pins().items() if version(name) != pinned}
    assert differ == {}


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_image_carries_the_checked_pyodide_runtime_and_the_zip_of_its_own_sources() -> None:
    assert re.search(r"^FROM node:\d+\.\d+\.\d+-bookworm-slim AS pyodide$", DOCKERFILE, re.MULTILINE)
    assert "COPY service/verify_files/pyodide.json" in DOCKERFILE  # the pin, and the digests checked
    assert "python -m service.pyodide_runtime /tmp/npm /app/build/verifier" in DOCKERFILE
    assert "python -m replay.in_browser.bundle /app/build/verifier" in DOCKERFILE
    # built after the sources are copied in and after setuptools' own build/ is removed
    assert DOCKERFILE.index("rm -rf build") < DOCKERFILE.index("replay.in_browser.bundle")
