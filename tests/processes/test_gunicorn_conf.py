"""The API under real gunicorn with service/gunicorn_conf.py, on loopback: held `Prefer: wait` answers
leave `/healthz` answering, chunked bodies over the cap are a 413 and broken framing a 400 with no
traceback, every answer carries a request id that every JSON log line of its request repeats."""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from eventstore.config import connect
from launcher.probes import answers_200, free_port, wait_until
from launcher.stack import Stack, child_env
from tests.fixtures.processes import with_db_offset
from tests.processes.client import Reply, call, eventually

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]

DB_OFFSET = 12  # clear of the tests' databases and of the live service's (8)
MAX_WAIT_S = 4  # the server's cap: each `Prefer: wait=10` below holds its thread this long
API = ["gunicorn", "-c", "python:service.gunicorn_conf"]
WALL = {"type": "add_fortification", "id": "W1", "kind": "wall"}


@dataclass
class Api:
    base_url: str
    api_key: str
    log_path: Path

    def log_lines(self) -> list[str]:
        return self.log_path.read_text(errors="replace").splitlines()

    def battle(self) -> tuple[str, dict[str, str]]:
        created = call("POST", f"{self.base_url}/battles", {"ruleset": "epic"}, _bearer(self.api_key))
        assert created.status == 201, created.body
        return created.body["id"], _bearer(created.body["gm_token"])


@pytest.fixture(scope="module")
def api(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """gunicorn as `gunicorn -c python:service.gunicorn_conf -b … service.wsgi:app`, and no RQ worker: a
    `Prefer: wait` is held for the whole of its wait."""
    url = with_db_offset(redis_url, DB_OFFSET)
    connect(url).flushdb()
    key = secrets.token_urlsafe(16)
    env = {**child_env(url, url, key), "SIEGE_MAX_WAIT_S": str(MAX_WAIT_S), "SIEGE_RATE_LIMIT": "off"}
    base_url = f"http://127.0.0.1:{free_port()}"
    log_path = tmp_path_factory.mktemp("gunicorn") / "api.log"
    with log_path.open("ab") as log:
        stack = Stack(output=log)
        try:
            stack.start("api", [*API, "-b", base_url.removeprefix("http://"), "service.wsgi:app"], env)
            if not wait_until(lambda: answers_200(f"{base_url}/readyz"), stack, threading.Event(), 60):
                pytest.fail(f"gunicorn did not become ready:\n{log_path.read_text()}")
            yield Api(base_url, key, log_path)
        finally:
            stack.stop()


def test_healthz_answers_at_once_while_two_waits_are_held(api: Api) -> None:
    battle_id, gm = api.battle()
    waits: list[Reply] = []

    def wait() -> None:
        waits.append(
            call("POST", f"{api.base_url}/battles/{battle_id}/commands", WALL, {**gm, "Prefer": "wait=10"})
        )

    held = [threading.Thread(target=wait) for _ in range(2)]
    for thread in held:
        thread.start()
    eventually(lambda: _version(api, battle_id, gm) == 3, 10, "both waiting commands to be appended")
    latencies = [_timed_healthz(api) for _ in range(5)]
    still_held = all(thread.is_alive() for thread in held)
    for thread in held:
        thread.join()

    print(f"/healthz with two waits held: max {max(latencies) * 1000:.1f} ms, {latencies}")
    assert still_held, "the waits ended before /healthz was measured"
    assert max(latencies) < 1.0  # a bound, not a benchmark: with sync workers it waited the whole wait
    assert [reply.status for reply in waits] == [202, 202]  # no worker: the waits ran out


def test_a_chunked_body_over_the_cap_is_a_413_and_appends_nothing(api: Api) -> None:
    battle_id, gm = api.battle()
    body = b'{"type": "add_fortification", "id": "W1", "kind": "wall", "pad": "' + b"x" * 70_000 + b'"}'

    status, answer = _chunked(api, f"/battles/{battle_id}/commands", gm, _chunks(body))

    assert status == 413, answer
    assert json.loads(answer)["type"].endswith("/body-too-large")
    assert json.loads(answer)["max_bytes"] == 65536  # the default SIEGE_MAX_BODY_BYTES
    assert _version(api, battle_id, gm) == 1


def test_a_chunked_body_within_the_cap_is_read_whole(api: Api) -> None:
    battle_id, gm = api.battle()

    status, answer = _chunked(
        api, f"/battles/{battle_id}/commands", gm, _chunks(json.dumps(WALL).encode(), 7)
    )

    assert status == 202, answer
    assert json.loads(answer)["version"] == 2


@pytest.mark.parametrize(
    "framing",
    [b"zz\r\n{}\r\n0\r\n\r\n", b"2\r\n{}XX0\r\n\r\n", b"2;\x01\r\n{}\r\n0\r\n\r\n"],
    ids=["a chunk size that is no number", "a chunk missing its CRLF", "a control byte in an extension"],
)
def test_broken_chunk_framing_is_a_400_without_a_traceback(api: Api, framing: bytes) -> None:
    battle_id, gm = api.battle()
    before = len(api.log_lines())

    status, answer = _chunked(api, f"/battles/{battle_id}/commands", gm, framing)

    assert status == 400, answer
    time.sleep(0.2)  # the access line is written after the answer
    logged = "\n".join(api.log_lines()[before:])
    assert "Traceback" not in logged
    assert _version(api, battle_id, gm) == 1


@pytest.mark.parametrize(
    ("request_head", "status", "slug"),
    [
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri-too-long"),
        (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % n for n in range(120)) + b"\r\n", 431,
         "headers-too-large"),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n", 431, "headers-too-large"),
        (b"NOT A REQUEST LINE\r\n\r\n", 400, "bad-request"),
        (b"GET / HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n", 400, "bad-request"),
        (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", 400, "bad-request"),
    ],
    ids=["a request line too long", "too many headers", "a header too large", "no request line",
         "a header name with a space", "an unknown HTTP version"],
)  # fmt: skip
def test_what_gunicorn_refuses_itself_is_a_problem_json_too(
    api: Api, request_head: bytes, status: int, slug: str
) -> None:
    """Issue 22: gunicorn answered these before the app saw them, in HTML."""
    before = len(api.log_lines())

    status_line, headers, body = _raw(api, request_head)

    assert status_line.startswith(f"HTTP/1.1 {status} "), status_line  # gunicorn answered, not a reset
    assert headers["content-type"] == "application/problem+json", headers
    assert int(headers["content-length"]) == len(body)
    problem = json.loads(body)
    assert problem["type"] == f"https://siege.example/problems/{slug}"
    assert problem["status"] == status
    assert problem["title"] and problem.get("detail")
    time.sleep(0.2)
    assert "Traceback" not in "\n".join(api.log_lines()[before:])


def test_a_sane_request_id_is_echoed_and_repeated_in_each_json_line_of_its_request(api: Api) -> None:
    battle_id, gm = api.battle()
    request_id = f"it-{secrets.token_hex(4)}"

    answer = call(
        "POST",
        f"{api.base_url}/battles/{battle_id}/commands",
        {"type": "nope"},
        {**gm, "X-Request-ID": request_id},
    )

    assert answer.status == 422
    assert answer.headers["X-Request-ID"] == request_id
    eventually(lambda: any(request_id in line for line in api.log_lines()), 10, "the access line")
    lines = [json.loads(line) for line in api.log_lines() if request_id in line]
    assert [line["request_id"] for line in lines] == [request_id] * len(lines)
    access = [line for line in lines if line["logger"] == "siege.access"]
    assert len(access) == 1
    assert access[0]["http"]["status"] == 422
    assert access[0]["http"]["path"] == f"/battles/{battle_id}/commands"


@pytest.mark.parametrize("given", [None, "has spaces", "x" * 129, "ünïcode"])
def test_a_missing_or_insane_request_id_is_replaced_by_a_fresh_one(api: Api, given: str | None) -> None:
    headers = {} if given is None else {"X-Request-ID": given}

    answer = call("GET", f"{api.base_url}/healthz", headers=headers)

    assert answer.status == 200
    assert answer.headers["X-Request-ID"] != given
    assert len(answer.headers["X-Request-ID"]) == 16


def test_every_line_gunicorn_and_the_app_write_is_json(api: Api) -> None:
    call("GET", f"{api.base_url}/healthz")

    for line in api.log_lines():
        assert isinstance(json.loads(line), dict), line


def _timed_healthz(api: Api) -> float:
    started = time.perf_counter()
    assert call("GET", f"{api.base_url}/healthz").status == 200
    return time.perf_counter() - started


def _chunks(body: bytes, size: int = 4096) -> bytes:
    parts = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts) + b"0\r\n\r\n"


def _chunked(api: Api, path: str, headers: dict[str, str], framed: bytes) -> tuple[int, str]:
    """Send a chunked POST as raw bytes (no client library frames a body wrongly); the status and body."""
    host, port = api.base_url.removeprefix("http://").split(":")
    head = [f"POST {path} HTTP/1.1", f"Host: {host}", "Content-Type: application/json"]
    head += ["Transfer-Encoding: chunked", "Connection: close", *(f"{k}: {v}" for k, v in headers.items())]
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall("\r\n".join(head).encode() + b"\r\n\r\n" + framed)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    status_line, _, rest = received.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2].decode(errors="replace")


def _raw(api: Api, data: bytes) -> tuple[str, dict[str, str], bytes]:
    """Send bytes as they are (no client library sends a malformed request); the status line, the headers
    (names lowercased) and the body of the answer."""
    host, port = api.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (x.partition(":") for x in lines)}
    return status_line, headers, body


def _version(api: Api, battle_id: str, gm: dict[str, str]) -> int:
    return int(call("GET", f"{api.base_url}/battles/{battle_id}", headers=gm).body["version"])


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
