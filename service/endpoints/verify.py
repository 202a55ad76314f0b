"""The verify page's routes: /verify, one static page, and under /verify/static/ its files, the zip of this
service's own Python and the Pyodide runtime, all from this origin, with which the page re-folds an export
in the reader's browser. A missing or stale piece is said in /verify/static/verifier.json,
so the page tells the reader how to get it rather than failing."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint as FlaskBlueprint
from flask import Response, abort, jsonify, send_from_directory

from replay.in_browser import bundle
from service import pyodide_runtime as runtime
from service.endpoints.blueprint import Blueprint
from service.endpoints.viewer import CSP, STRICT

FILES = Path(__file__).parents[1] / "verify_files"
PAGE = "verify.html"
STATIC_PREFIX = "/verify/static"
ASSET_MAX_AGE_S = 300
# the viewer's policy and the one thing Pyodide needs beyond it: compiling its WebAssembly
WASM_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
VERIFY_STRICT = {**STRICT, "Content-Security-Policy": WASM_CSP}

blp = Blueprint("verify", __name__, description="Verify: re-fold an export in the reader's own browser.")
static = FlaskBlueprint("verify_static", __name__, url_prefix=STATIC_PREFIX)


@blp.route("/verify", methods=["GET"])
@blp.access("public")
@blp.response(200)
@blp.doc(
    responses={
        "200": {
            "description": "The verify page: drop an export on it, or open it as "
            "`/verify#battle=<id>&token=<token>` to fetch one; nothing leaves the page",
            "content": {"text/html": {}},
        }
    }
)
def show_verify() -> Response:
    """The in-browser verifier: `siege verify` run by this browser on an export, with no install"""
    return _strict(send_from_directory(FILES, PAGE, max_age=0))


@static.route("/verifier.json")
def verifier_status() -> Response:
    return _strict(jsonify(status(bundle.default_dir())))


@static.route(f"/{bundle.BUNDLE}")
def verifier_zip() -> Response:
    directory = bundle.default_dir()
    if _bundle_problem(directory) is not None:
        abort(404)
    return _strict(send_from_directory(directory, bundle.BUNDLE, max_age=0))


@static.route(f"/{runtime.FOLDER}/<name>")
def pyodide_file(name: str) -> Response:
    directory = bundle.default_dir()
    if name not in runtime.pinned().served or runtime.checked_problem(directory) is not None:
        abort(404)
    return _strict(send_from_directory(directory / runtime.FOLDER, name, max_age=ASSET_MAX_AGE_S))


@static.route("/<path:filename>")
def verify_file(filename: str) -> Response:
    return _strict(send_from_directory(FILES, filename, max_age=ASSET_MAX_AGE_S))


def status(directory: Path) -> dict[str, Any]:
    """What the page needs before it starts: whether the zip and the runtime are here, and if not why."""
    pin = runtime.pinned()
    built = _bundle_digest(directory)
    zipped = {"name": bundle.BUNDLE, "sha256": built, "problem": _bundle_problem(directory)}
    pyodide = {
        "version": pin.version,
        "files": pin.files,
        "wheels": pin.wheels,  # the worker installs each before it unpacks the zip
        "problem": runtime.checked_problem(directory),
    }
    return {"bundle": zipped, "pyodide": pyodide}


@cache
def _bundle_digest(directory: Path) -> str | None:
    try:
        return bundle.digest((directory / bundle.BUNDLE).read_bytes())
    except OSError:
        return None


@cache
def _bundle_problem(directory: Path) -> str | None:
    """The zip is missing, or not the one these sources give (built before an edit): once per process."""
    built = _bundle_digest(directory)
    if built is None:
        return f"{bundle.BUNDLE} is not built: run `make install` (or `python -m replay.in_browser.bundle`)"
    if built != bundle.digest():
        return f"{bundle.BUNDLE} is stale: the sources changed since it was built; run `make install`"
    return None


def _strict(response: Response) -> Response:
    response.headers.update(VERIFY_STRICT)
    return response
