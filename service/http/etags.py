"""Entity tags (RFC 9110 §8.8.3): each names the chain hash of the log version a representation reflects.

A representation that also shows pending outcomes adds a qualifier after `/`, so it changes when they land.
`If-Match` on a command holds when the chain hash in any of its tags is the battle's head, or names its
version number: a client sends back whichever ETag it read."""

from __future__ import annotations

from flask import Response, request

from eventstore.records import Head

QUALIFIER = "/"


def etag(chain_hash: str, qualifier: str | None = None) -> str:
    return f'"{chain_hash}{QUALIFIER}{qualifier}"' if qualifier else f'"{chain_hash}"'


def tags(header: str | None, *, strong: bool = False) -> list[str] | None:
    """The opaque tags of an If-Match / If-None-Match header, unquoted; None when absent, ["*"] for any.

    `strong` leaves weak tags (`W/"…"`) out: they never match in a strong comparison (RFC 9110 §8.8.3.2)."""
    if header is None:
        return None
    found = [tag.strip() for tag in header.split(",") if tag.strip()]
    if strong:
        return [tag.strip('"') for tag in found if not tag.startswith("W/")]
    return [tag.removeprefix("W/").strip('"') for tag in found]


def matches_head(header: str | None, head: Head) -> bool | None:
    """Whether If-Match names the head (None when the header is absent or `*`); If-Match compares strongly
    (RFC 9110 §13.1.1), so a weak tag names nothing and the answer is a 412."""
    given = tags(header, strong=True)
    if given is None or "*" in given:
        return None
    heads = {tag.partition(QUALIFIER)[0] for tag in given}
    return head.hash in heads or str(head.version) in heads


def not_modified(tag: str) -> Response | None:
    """A 304 when If-None-Match names this representation's tag (weak comparison, RFC 9110 §13.1.2)."""
    given = tags(request.headers.get("If-None-Match"))
    if given is None or ("*" not in given and tag.strip('"') not in given):
        return None
    return Response(status=304, headers={"ETag": tag})
