"""The request class that caps a chunked body: over the cap a 413, broken chunk framing a 400, never a 500."""

from __future__ import annotations

import io
from typing import IO

from flask import Request
from gunicorn.http.errors import ParseException  # type: ignore[import-untyped]
from werkzeug.exceptions import BadRequest, ClientDisconnected, RequestEntityTooLarge
from werkzeug.utils import cached_property


class CappedRequest(Request):
    """werkzeug reads a body without Content-Length (chunked) up to MAX_CONTENT_LENGTH and silently stops
    there, so an oversized body arrived cut short: a 400 for bad JSON, or a truncated body that parses."""

    @cached_property
    def stream(self) -> IO[bytes]:
        cap = self.max_content_length
        if self.content_length is not None or cap is None or "wsgi.input_terminated" not in self.environ:
            return super().stream  # werkzeug answers 413 for a Content-Length over the cap
        try:
            body = self.environ["wsgi.input"].read(cap + 1)  # one byte past the cap tells "over" from "at"
        except ParseException as error:  # gunicorn found the chunk framing broken
            raise BadRequest(f"The chunked body is malformed ({type(error).__name__}).") from None
        except OSError:  # the client went away, or the body ended before its last chunk
            raise ClientDisconnected() from None
        if len(body) > cap:
            raise RequestEntityTooLarge()
        return io.BytesIO(body)
