"""A small HTTP client (stdlib only) and a bounded wait, for tests that talk to real processes."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tests.fixtures.processes import LiveService


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    headers: Mapping[str, str]
    body: Any


def call(method: str, url: str, body: Any = None, headers: Mapping[str, str] | None = None) -> Reply:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return Reply(response.status, dict(response.headers), _json(response.read()))
    except urllib.error.HTTPError as error:
        return Reply(error.code, dict(error.headers), _json(error.read()))


def create_battle(live: LiveService) -> tuple[str, str]:
    """A new epic battle through the API: (battle id, GM token)."""
    reply = call("POST", f"{live.base_url}/battles", {"ruleset": "epic"}, _bearer(live.api_key))
    assert reply.status == 201, reply.body
    return str(reply.body["id"]), str(reply.body["gm_token"])


def send(live: LiveService, battle_id: str, token: str, command: Mapping[str, Any], wait_s: int = 0) -> Reply:
    headers = {**_bearer(token), **({"Prefer": f"wait={wait_s}"} if wait_s else {})}
    return call("POST", f"{live.base_url}/battles/{battle_id}/commands", command, headers)


def eventually(condition: Callable[[], bool], timeout_s: float, what: str) -> None:
    """Poll until `condition` holds; a bound on a wait, not a measurement (nothing asserts speed)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"gave up after {timeout_s}s waiting for {what}"
        time.sleep(0.05)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _json(raw: bytes) -> Any:
    return json.loads(raw) if raw else None
