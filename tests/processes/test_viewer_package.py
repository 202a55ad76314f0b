"""The viewer's files ship in the built package and the image: siege.js as a file, not as the link the
checkout holds (service/viewer_files/siege.js → clients/js/siege.js)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from service.endpoints.verify import FILES as VERIFY_FILES
from service.endpoints.viewer import FILES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    "pyproject.toml",
    "rules",
    "eventstore",
    "schemas",
    "service",
    "workers",
    "launcher",
    "telemetry",
    "clients",
]
BUILD_TIMEOUT_S = 120


def built_package(tmp_path: Path) -> Path:
    """setuptools' build_py on a copy of the sources, links kept as links: what `pip install .` packs."""
    source = tmp_path / "src"
    source.mkdir()
    for name in SOURCES:
        found = ROOT / name
        if found.is_dir():
            shutil.copytree(found, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(found, source / name)
    out = tmp_path / "lib"
    command = [
        sys.executable,
        "-c",
        "import setuptools; setuptools.setup()",
        "build_py",
        "--build-lib",
        str(out),
    ]
    subprocess.run(command, cwd=source, check=True, capture_output=True, timeout=BUILD_TIMEOUT_S)
    return out / "service" / FILES.name


def test_the_built_package_holds_every_viewer_file_and_siege_js_itself(tmp_path: Path) -> None:
    shipped = built_package(tmp_path)

    assert sorted(p.name for p in shipped.iterdir()) == sorted(p.name for p in FILES.iterdir())
    assert not (shipped / "siege.js").is_symlink()
    assert (shipped / "siege.js").read_bytes() == (ROOT / "clients" / "js" / "siege.js").read_bytes()


def test_the_image_copies_the_client_the_viewer_links_to() -> None:
    assert "COPY clients ./clients" in (ROOT / "Dockerfile").read_text()
    assert (FILES / "siege.js").resolve() == (ROOT / "clients" / "js" / "siege.js").resolve()


def test_the_built_package_holds_every_verify_file_the_loader_and_the_worker_as_files(tmp_path: Path) -> None:
    shipped = built_package(tmp_path).parent / VERIFY_FILES.name

    assert sorted(p.name for p in shipped.iterdir()) == sorted(p.name for p in VERIFY_FILES.iterdir())
    for name in ("verifier.js", "worker.js"):
        assert not (shipped / name).is_symlink()
        assert (shipped / name).read_bytes() == (ROOT / "clients" / "verifier" / name).read_bytes()
