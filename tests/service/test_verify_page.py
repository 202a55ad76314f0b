"""GET /verify and its files: a static page needing no token, the viewer's strict headers plus WebAssembly,
the zip and the Pyodide runtime served from this origin, and a page that says how to get a missing piece."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from replay.in_browser import bundle
from service import pyodide_runtime as runtime
from service.endpoints import verify
from service.endpoints.verify import FILES, WASM_CSP
from service.endpoints.viewer import CSP
from tests.service.helpers import assert_problem

ROOT = Path(__file__).resolve().parents[2]
BUILT = bundle.default_dir()


def built() -> None:
    """The zip and the runtime `make install` writes; missing, a failure on CI and a skip elsewhere."""
    status = verify.status(BUILT)
    problem = status["pyodide"]["problem"] or status["bundle"]["problem"]
    if problem and os.environ.get("CI"):
        pytest.fail(f"CI must build the in-browser verifier: {problem}")
    if problem:
        pytest.skip(problem)


def test_the_page_is_served_without_a_token_under_the_viewers_policy_plus_webassembly(
    client: FlaskClient,
) -> None:
    page = client.get("/verify")

    assert page.status_code == 200 and page.mimetype == "text/html"
    assert b'<script type="module" src="/verify/static/verify.js">' in page.data
    assert page.headers["Content-Security-Policy"] == WASM_CSP
    assert CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'") == WASM_CSP
    assert "'unsafe-eval'" not in WASM_CSP and "'unsafe-inline'" not in WASM_CSP
    for path in ["/verify/static/verify.js", "/verify/static/worker.js", "/verify/static/verifier.json"]:
        headers = client.get(path).headers
        assert headers["Content-Security-Policy"] == WASM_CSP, path
        assert headers["Referrer-Policy"] == "no-referrer" and headers["X-Content-Type-Options"] == "nosniff"


def test_the_loader_and_worker_are_the_clients_files(client: FlaskClient) -> None:
    for name in ("verifier.js", "worker.js"):
        served = client.get(f"/verify/static/{name}")
        assert served.status_code == 200 and served.mimetype == "text/javascript"
        assert served.data == (ROOT / "clients" / "verifier" / name).read_bytes()


def test_the_zip_and_the_runtime_are_served_with_their_digests(client: FlaskClient) -> None:
    built()
    status = client.get("/verify/static/verifier.json").get_json()
    served = client.get(f"/verify/static/{bundle.BUNDLE}")
    wasm = client.get("/verify/static/pyodide/pyodide.asm.wasm")
    pin = runtime.pinned()
    ((wheel, wheel_sha256),) = pin.wheels.items()
    msgspec = client.get(f"/verify/static/pyodide/{wheel}")

    assert status["bundle"] == {"name": bundle.BUNDLE, "sha256": bundle.digest(), "problem": None}
    runtime_status = {"version": pin.version, "files": pin.files, "wheels": pin.wheels, "problem": None}
    assert status["pyodide"] == runtime_status
    assert served.status_code == 200 and bundle.digest(served.data) == bundle.digest()
    assert wasm.status_code == 200 and wasm.mimetype == "application/wasm"
    assert msgspec.status_code == 200 and hashlib.sha256(msgspec.data).hexdigest() == wheel_sha256


def test_the_browsers_msgspec_is_the_version_the_tests_run_the_stand_in_with() -> None:
    """tests/replay/test_in_browser.py holds the stand-in to orjson and json.dumps with the msgspec installed
    here: the wheel the page loads must be that very version, built for the pinned Pyodide's Python."""
    built()
    ((wheel, _),) = runtime.pinned().wheels.items()
    project, version, python, abi, platform = runtime.wheel_tags(wheel)
    lock = json.loads((bundle.default_dir() / runtime.FOLDER / "pyodide-lock.json").read_text())

    assert (project, version) == ("msgspec", importlib.metadata.version("msgspec"))
    assert python == abi == "cp" + "".join(lock["info"]["python"].split(".")[:2])
    assert platform == f"pyemscripten_{lock['info']['abi_version']}_{lock['info']['arch']}"


def test_only_the_pinned_runtime_files_are_served(client: FlaskClient) -> None:
    assert_problem(client.get("/verify/static/pyodide/package.json"), 404, "not-found")
    assert_problem(client.get("/verify/static/pyodide/%2e%2e"), 404, "not-found")
    assert_problem(client.get("/verify/static/%2e%2e/endpoints/verify.py"), 404, "not-found")
    assert_problem(client.get("/verify/static/nothing.js"), 404, "not-found")


def test_without_the_zip_or_the_runtime_the_status_says_how_to_get_them(tmp_path: Path) -> None:
    status = verify.status(tmp_path)

    assert "make install" in status["bundle"]["problem"] and status["bundle"]["sha256"] is None
    assert "make install" in status["pyodide"]["problem"]
    assert runtime.pinned().spec in status["pyodide"]["problem"]


def test_a_runtime_file_that_is_not_the_recorded_one_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / runtime.FOLDER
    folder.mkdir()
    for name in runtime.pinned().served:
        (folder / name).write_bytes(b"not pyodide")

    problem = runtime.problem(tmp_path)

    assert problem is not None and "not the files of" in problem and "pyodide.asm.wasm" in problem


def test_the_runtime_is_refused_for_its_wheel_alone_missing_or_not_the_pinned_bytes(tmp_path: Path) -> None:
    built()
    shutil.copytree(BUILT / runtime.FOLDER, tmp_path / runtime.FOLDER)
    ((wheel, _),) = runtime.pinned().wheels.items()
    assert runtime.problem(tmp_path) is None

    (tmp_path / runtime.FOLDER / wheel).write_bytes(b"not msgspec")
    wrong = runtime.problem(tmp_path)
    (tmp_path / runtime.FOLDER / wheel).unlink()
    missing = runtime.problem(tmp_path)

    assert wrong is not None and "not the files of" in wrong and wheel in wrong
    assert missing == runtime.how_to_get() and wheel in missing


def test_installing_over_an_earlier_pin_leaves_only_the_pinned_files(tmp_path: Path) -> None:
    """The move from 0.29.5 left its `pyodide.asm.js` (an older wheel would stay too) beside the new files."""
    built()
    node_dir = ROOT / ".venv" / "node"  # the Makefile's NODE_DIR, installed and checked: no npm or pip runs
    if not (node_dir / "node_modules" / "pyodide").is_dir():
        pytest.skip(f"no pyodide package in {node_dir}")
    folder = tmp_path / runtime.FOLDER
    shutil.copytree(BUILT / runtime.FOLDER, folder)
    (folder / "pyodide.asm.js").write_text("// pyodide 0.29.5")
    (folder / "msgspec-0.22.0-cp313-cp313-pyodide_2025_0_wasm32.whl").write_bytes(b"an older wheel")

    runtime.install(node_dir, tmp_path)

    assert sorted(path.name for path in folder.iterdir()) == sorted(runtime.pinned().served)
    assert runtime.problem(tmp_path) is None


def test_a_zip_built_before_the_sources_changed_is_stale(tmp_path: Path) -> None:
    (tmp_path / bundle.BUNDLE).write_bytes(b"PK an older zip")

    assert "stale" in str(verify.status(tmp_path)["bundle"]["problem"])


def test_the_verify_page_is_in_the_openapi_document_and_its_files_are_not(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").get_json()["paths"]

    assert "text/html" in paths["/verify"]["get"]["responses"]["200"]["content"]
    assert [p for p in paths if p.startswith("/verify/static")] == []
    assert sorted(p.name for p in FILES.iterdir()) == sorted(
        ["pyodide.json", "verifier.js", "verify.css", "verify.html", "verify.js", "worker.js"]
    )
