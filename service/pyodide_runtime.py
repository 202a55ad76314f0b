"""The Pyodide runtime the verify page loads: the files of one pinned version of the `pyodide` npm package
and the compiled wheels it runs beside them (msgspec, the browser's JSON: the npm package carries no
compiled library), each checked against the SHA-256 recorded in service/verify_files/pyodide.json, copied
beside the zip.

`python -m service.pyodide_runtime NODE_DIR [DIR]` installs the pinned package with npm into NODE_DIR and
downloads the pinned wheels with pip into NODE_DIR/wheels (once: what is there already is only checked
again), and copies the checked files to DIR/pyodide (default: build/verifier beside the sources, where the
service serves them from), where any other file, an earlier pin's, is removed."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from replay.in_browser.bundle import default_dir

PIN = Path(__file__).parent / "verify_files" / "pyodide.json"
FOLDER = "pyodide"  # in the verifier's directory
WHEELS = "wheels"  # in NODE_DIR: where pip downloads the pinned wheels
NPM_TIMEOUT_S = 300
PIP_TIMEOUT_S = 300


@dataclass(frozen=True, slots=True, kw_only=True)
class Pin:
    package: str
    version: str
    files: dict[str, str]  # the npm package's files: name -> sha256
    wheels: dict[str, str]  # wheels for this Pyodide, from the Python package index: file name -> sha256

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"

    @property
    def served(self) -> dict[str, str]:
        """Every file of the runtime's folder: the package's and the wheels."""
        return {**self.files, **self.wheels}


@cache  # the pin ships with the code: read once, not on every runtime file the page asks for
def pinned() -> Pin:
    found = json.loads(PIN.read_text())
    files, wheels = dict(found["files"]), dict(found["wheels"])
    return Pin(package=found["package"], version=found["version"], files=files, wheels=wheels)


def how_to_get() -> str:
    pin = pinned()
    return (
        f"the Pyodide runtime ({pin.spec}, {', '.join(pin.wheels)}) is not installed: run `make install` "
        f"where npm is, or `python -m service.pyodide_runtime NODE_DIR` with npm on the PATH "
        f"(pip downloads the wheels)"
    )


def problem(directory: Path) -> str | None:
    """Why the runtime in `directory` cannot be served (missing or not the recorded bytes); None: it can."""
    pin = pinned()
    folder = directory / FOLDER
    missing = [name for name in pin.served if not (folder / name).is_file()]
    if missing:
        return how_to_get()
    wrong = [name for name, sha in pin.served.items() if _sha256(folder / name) != sha]
    if wrong:
        return f"{', '.join(wrong)} in {FOLDER}/ are not the files of {pin.spec} recorded in {PIN.name}"
    return None


@cache
def checked_problem(directory: Path) -> str | None:
    """`problem`, worked out once per process: the files change only with a deployment."""
    return problem(directory)


def install(node_dir: Path, directory: Path) -> None:
    pin = pinned()
    package = node_dir / "node_modules" / pin.package
    if _installed_version(package) != pin.version:
        command = ["npm", "install", "--silent", "--no-audit", "--no-fund", "--save-exact"]
        subprocess.run([*command, "--prefix", str(node_dir), pin.spec], check=True, timeout=NPM_TIMEOUT_S)
    wrong = [name for name, sha in pin.files.items() if _sha256(package / name) != sha]
    if wrong:
        raise SystemExit(f"{pin.spec} from npm does not match {PIN}: {', '.join(wrong)}")
    wheels = node_dir / WHEELS
    for name, sha in pin.wheels.items():
        if _sha256(wheels / name) == sha:
            continue
        (wheels / name).unlink(missing_ok=True)  # pip would keep a file of that name as downloaded
        _download(name, wheels)
        if _sha256(wheels / name) != sha:
            raise SystemExit(f"the wheel pip downloaded does not match {PIN}: {name}")
    folder = directory / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name in pin.files:
        shutil.copyfile(package / name, folder / name)
    for name in pin.wheels:
        shutil.copyfile(wheels / name, folder / name)
    _drop_unpinned(folder, pin)


def _drop_unpinned(folder: Path, pin: Pin) -> None:
    """An earlier pin's files go (0.29.5's `pyodide.asm.js`, a wheel of another version): never served, they
    would still ship in a copy of the folder and mislead whoever reads it."""
    for path in folder.iterdir():
        if path.name not in pin.served and (path.is_file() or path.is_symlink()):
            path.unlink()


def wheel_tags(wheel: str) -> tuple[str, str, str, str, str]:
    """A wheel file name's project, version, Python, ABI and platform (none of ours has a build tag)."""
    project, version, python, abi, platform = wheel.removesuffix(".whl").split("-")
    return project, version, python, abi, platform


def _download(wheel: str, into: Path) -> None:
    """pip fetches the very wheel the file name names: its project and version, for its Python, ABI and
    platform (not this machine's), nothing else."""
    project, version, python, abi, platform = wheel_tags(wheel)
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"]
    command += ["--implementation", python[:2], "--python-version", f"{python[2]}.{python[3:]}"]
    command += ["--abi", abi, "--platform", platform, "--dest", str(into), f"{project}=={version}"]
    subprocess.run(command, check=True, timeout=PIP_TIMEOUT_S)


def _installed_version(package: Path) -> str | None:
    try:
        version = json.loads((package / "package.json").read_text()).get("version")
    except (OSError, ValueError):
        return None
    return str(version) if version else None


def _sha256(path: Path) -> str | None:
    try:
        with path.open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError:
        return None


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    directory = Path(argv[1]) if len(argv) > 1 else default_dir()
    install(Path(argv[0]), directory)
    pin = pinned()
    print(f"{directory / FOLDER}: {pin.spec} and {', '.join(pin.wheels)}, {len(pin.served)} files checked")


if __name__ == "__main__":
    main(sys.argv[1:])
