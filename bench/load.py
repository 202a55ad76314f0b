"""Load generators: wrk for throughput (as the reference figures were measured), a paced Python client
for latency at a fixed rate, and a closed-loop Python fallback when wrk is missing."""

from __future__ import annotations

import http.client
import json
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit


@dataclass(frozen=True, slots=True)
class Target:
    """One POST endpoint: a path and the bearer token that may use it."""

    path: str
    token: str


@dataclass(frozen=True, slots=True)
class Run:
    requests: int
    seconds: float
    errors: int
    tool: str
    answered_ms: dict[int, list[float]] = field(default_factory=dict)  # latencies by status (paced only)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def throughput(base_url: str, targets: Sequence[Target], body: dict[str, object], seconds: float) -> Run:
    """Maximum request rate, 2 threads / 16 connections, round-robin over the targets."""
    if shutil.which("wrk"):
        return _wrk(base_url, targets, body, seconds)
    return paced(base_url, targets, body, seconds, rate=None, threads=16)


def paced(
    base_url: str,
    targets: Sequence[Target],
    body: dict[str, object],
    seconds: float,
    *,
    rate: float | None,
    threads: int = 16,
    headers: dict[str, str] | None = None,
) -> Run:
    """`threads` keep-alive clients sending at `rate` requests/s in all (None: as fast as they can)."""
    url = urlsplit(base_url)
    payload = json.dumps(body).encode()
    by_status: dict[int, list[float]] = {}
    errors = [0]
    lock = threading.Lock()
    start = time.monotonic()

    def client(index: int) -> None:
        connection = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port or 80, timeout=30)
        interval = threads / rate if rate else 0.0
        due, n = start + index * interval / threads, index
        while (now := time.monotonic()) < start + seconds:
            if interval and now < due:
                time.sleep(due - now)
            target = targets[n % len(targets)]
            sent = time.monotonic()
            status = _post(connection, target, payload, headers or {})
            took = (time.monotonic() - sent) * 1000
            with lock:
                by_status.setdefault(status, []).append(took)
                errors[0] += status >= 300
            due, n = due + interval, n + threads

    workers = [threading.Thread(target=client, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    answered = sum(len(times) for times in by_status.values())
    return Run(answered, time.monotonic() - start, errors[0], "python", by_status)


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def _post(
    connection: http.client.HTTPConnection, target: Target, payload: bytes, extra: dict[str, str]
) -> int:
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {target.token}", **extra}
    connection.request("POST", target.path, body=payload, headers=headers)
    response = connection.getresponse()
    response.read()
    return response.status


WRK_SCRIPT = """
local targets = {%s}
local body = %s
local n = 0
request = function()
  n = n %% #targets + 1
  local t = targets[n]
  return wrk.format("POST", t[1], {["Content-Type"] = "application/json",
                                   ["Authorization"] = "Bearer " .. t[2]}, body)
end
"""


def _wrk(base_url: str, targets: Sequence[Target], body: dict[str, object], seconds: float) -> Run:
    rows = ",".join(f"{{{_lua(t.path)}, {_lua(t.token)}}}" for t in targets)
    with tempfile.NamedTemporaryFile("w", suffix=".lua") as script:
        script.write(WRK_SCRIPT % (rows, _lua(json.dumps(body))))
        script.flush()
        command = ["wrk", "-t2", "-c16", f"-d{max(1, round(seconds))}s", "-s", script.name, base_url]
        out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60).stdout
    requests = int(_find(r"(\d+) requests in", out))
    elapsed = _duration(_find(r"requests in ([\d.]+\w+),", out))
    errors = int(_find(r"Non-2xx or 3xx responses: (\d+)", out, "0"))
    return Run(requests, elapsed, errors, "wrk -t2 -c16")


def _lua(text: str) -> str:
    return json.dumps(text)  # a JSON string literal is a valid Lua string literal for these inputs


def _find(pattern: str, text: str, default: str | None = None) -> str:
    match = re.search(pattern, text)
    if match:
        return match.group(1)
    if default is None:
        raise RuntimeError(f"unexpected wrk output:\n{text}")
    return default


def _duration(text: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", text).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0}[unit]
