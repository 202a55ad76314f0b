"""SIGTERM to the API under real gunicorn (service/gunicorn_conf.py) while an SSE stream is open: the
stream ends at once without an `end` event (so an EventSource reconnects, to another process, with
Last-Event-ID) and gunicorn exits cleanly, instead of holding the worker for its whole graceful timeout."""

from __future__ import annotations

import secrets
import signal
import threading
import time
from pathlib import Path

import pytest

from eventstore.config import connect
from launcher.probes import answers_200, free_port, wait_until
from launcher.stack import Stack, child_env
from service import gunicorn_conf
from tests.fixtures.processes import with_db_offset
from tests.processes.client import call
from tests.processes.streams import LiveStream

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("processes")]

DB_OFFSET = 13  # clear of the other process tests' databases
API = ["gunicorn", "-c", "python:service.gunicorn_conf"]
# well under gunicorn's graceful_timeout: without the hubs closing, the exit would take all of it
EXIT_BOUND_S = gunicorn_conf.graceful_timeout - 5


def test_sigterm_ends_open_streams_without_an_end_event_and_gunicorn_exits_cleanly(
    redis_url: str, tmp_path: Path
) -> None:
    url = with_db_offset(redis_url, DB_OFFSET)
    connect(url).flushdb()
    key = secrets.token_urlsafe(16)
    env = {**child_env(url, url, key), "SIEGE_RATE_LIMIT": "off"}
    base_url = f"http://127.0.0.1:{free_port()}"
    log_path = tmp_path / "api.log"
    with log_path.open("ab") as log:
        stack = Stack(output=log)
        try:
            api = stack.start("api", [*API, "-b", base_url.removeprefix("http://"), "service.wsgi:app"], env)
            if not wait_until(lambda: answers_200(f"{base_url}/readyz"), stack, threading.Event(), 60):
                pytest.fail(f"gunicorn did not become ready:\n{log_path.read_text()}")
            created = call(
                "POST", f"{base_url}/battles", {"ruleset": "epic"}, {"Authorization": f"Bearer {key}"}
            )
            gm = {"Authorization": f"Bearer {created.body['gm_token']}"}
            stream = LiveStream(base_url, f"/battles/{created.body['id']}/stream", gm)
            assert stream.status == 200
            assert stream.events.next() is not None  # the retry hint: the stream is served, and held

            api.process.send_signal(signal.SIGTERM)  # the master, which stops its workers
            stopped = time.monotonic()
            rest = []
            while (frame := stream.events.next()) is not None:
                rest.append(frame)
            code = api.process.wait(timeout=EXIT_BOUND_S)
            took_s = time.monotonic() - stopped
        finally:
            stack.stop()

    assert [frame.event for frame in rest if frame.event is not None] == []  # no `end`: reconnect
    assert code == 0, log_path.read_text()
    # a bound on behaviour, not a speed: held streams kept the worker until graceful_timeout killed it
    assert took_s < EXIT_BOUND_S
