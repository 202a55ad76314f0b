"""Outcome summaries at the API's edge: the request's language (`Accept-Language`, q-values honoured,
default en) and the headers that say it; the rendering is the pure `summaries` package, the workers' too."""

from __future__ import annotations

from flask import Response, request

from summaries import COMMON, DEFAULT, LANGUAGES, LINES, TERMS, summarized, summary

__all__ = [
    "COMMON", "DEFAULT", "LANGUAGES", "LINES", "TERMS", "language", "localized", "summarized", "summary"
]  # fmt: skip


def language() -> str:
    """The request's language among the catalogs' (werkzeug's parsed Accept-Language, q-values first)."""
    best: str = request.accept_languages.best_match(LANGUAGES, default=DEFAULT)
    return best


def localized(response: Response, lang: str) -> Response:
    """Say which language the answer is in, and that it varies with the request's Accept-Language."""
    response.headers["Content-Language"] = lang
    response.vary.add("Accept-Language")
    return response
