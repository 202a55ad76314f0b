"""The battle viewer: one static page at /viewer/{battle id} and its files under /viewer/static/; the page
holds no data (its token comes in the URL fragment), so serving it needs no token."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint as FlaskBlueprint
from flask import Response, send_from_directory

from service.endpoints.blueprint import Blueprint

FILES = Path(__file__).parents[1] / "viewer_files"
PAGE = "viewer.html"
STATIC_PREFIX = "/viewer/static"
ASSET_MAX_AGE_S = 300  # the files change with a deployment; a page load revalidates them soon after
# self only: no inline script or style, no frame of it elsewhere, no form or base to hijack
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
STRICT = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",  # the page's own URL never leaves in a Referer
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
}

blp = Blueprint("viewer", __name__, description="Viewer: a read-only page to watch and audit a battle.")
static = FlaskBlueprint("viewer_static", __name__, url_prefix=STATIC_PREFIX)


@blp.route("/viewer/<battle_id>", methods=["GET"])
@blp.access("public")
@blp.response(200)
@blp.doc(
    responses={
        "200": {
            "description": "The viewer page (the same for every id); open it as `/viewer/{id}#token=<token>`",
            "content": {"text/html": {}},
        }
    }
)
def show_viewer(battle_id: str) -> Response:
    """The battle viewer page: map, log, timeline and audit of one battle"""
    return _strict(send_from_directory(FILES, PAGE, max_age=0))


@static.route("/<path:filename>")
def viewer_file(filename: str) -> Response:
    return _strict(send_from_directory(FILES, filename, max_age=ASSET_MAX_AGE_S))


def _strict(response: Response) -> Response:
    response.headers.update(STRICT)
    return response
