"""A static site on a loopback port of its own: another origin than the API's, serving a page and siege.js."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".css": "text/css; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
}


@dataclass(frozen=True, slots=True)
class Site:
    origin: str  # http://127.0.0.1:<port>, what the browser sends as Origin


@contextlib.contextmanager
def static_site(files: Mapping[str, Path]) -> Iterator[Site]:
    """Serve `files` ({"/": page, "/siege.js": module}) until the block ends; anything else is a 404."""
    served = {path: (file.read_bytes(), CONTENT_TYPES[file.suffix]) for path, file in files.items()}
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(served))
    thread = threading.Thread(target=server.serve_forever, name="static-site", daemon=True)
    thread.start()
    try:
        yield Site(origin=f"http://127.0.0.1:{server.server_address[1]}")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _handler(served: Mapping[str, tuple[bytes, str]]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            found = served.get(self.path.split("?", 1)[0])
            if found is None:
                self.send_error(404)
                return
            body, content_type = found
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: pytest shows the test's own output."""

    return Handler
