"""Slow clients against the exposed deployment (issue 22): 1,000 connections from one address, each sending
a request head one line a second, while other clients probe `/healthz` and send commands. `make run`
exposed (`SIEGE_FRONT=on`, as any HOST not loopback sets it) puts nginx before gunicorn, which reads each
request whole with a 5 s head timeout: the slow ones never reach a gunicorn thread, and everyone else is
answered. Without the front (SIEGE_FRONT=off) the same run times most probes out."""

from __future__ import annotations

import resource
import selectors
import socket
import statistics
import threading
import time
from pathlib import Path

import pytest

from launcher import front
from tests.faults.traffic import bearer, create_battles, request
from tests.fixtures.launched import launched

pytestmark = [pytest.mark.faults]
SLOW = 1_000  # connections held open by the slow client
ATTACKER = "127.0.0.2"  # another loopback address: its own per-address share at the front
HOLD_S = 12.0  # longer than the front's 5 s head timeout: each slow connection is cut and comes back
PROBE_EVERY_S = 0.05
ANSWER_WITHIN_S = 2.0  # a probe not answered by then counts as starved (the bar is 100 ms at p99)


class SlowHeads:
    """`count` connections from `ATTACKER`, each writing one more header line a second, reopened when the
    other side closes them; never a whole request head."""

    def __init__(self, port: int, count: int) -> None:
        self.port, self.count = port, count
        self.opened = self.cut = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> SlowHeads:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join(10)

    def _open(self, selector: selectors.BaseSelector) -> None:
        sock = socket.socket()
        sock.bind((ATTACKER, 0))
        sock.setblocking(False)
        try:
            sock.connect_ex(("127.0.0.1", self.port))
            selector.register(sock, selectors.EVENT_READ, data=0)
            self.opened += 1
        except OSError:
            sock.close()

    def _run(self) -> None:
        with selectors.DefaultSelector() as selector:
            for _ in range(self.count):
                self._open(selector)
            next_line = time.monotonic()
            while not self._stop.is_set():
                for key, _events in selector.select(timeout=0.1):  # readable: answered (408) or closed
                    selector.unregister(key.fileobj)
                    key.fileobj.close()  # type: ignore[union-attr]
                    self.cut += 1
                    self._open(selector)
                if time.monotonic() >= next_line:
                    next_line += 1.0
                    for key in list(selector.get_map().values()):
                        line = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" if key.data == 0 else b"X-Slow: 1\r\n"
                        try:
                            key.fileobj.send(line)  # type: ignore[union-attr]
                            selector.modify(key.fileobj, selectors.EVENT_READ, data=key.data + 1)
                        except OSError:
                            pass
            for key in list(selector.get_map().values()):
                key.fileobj.close()  # type: ignore[union-attr]


def _probe(base_url: str, battle: tuple[str, str], until: float) -> list[float | None]:
    """/healthz and a command in turn; the seconds each took, None for one not answered in time."""
    took: list[float | None] = []
    n = 0
    while time.monotonic() < until:
        started = time.monotonic()
        if n % 2:
            answer = request(base_url, "GET", "/healthz", timeout_s=ANSWER_WITHIN_S)
            ok = answer.status == 200
        else:
            body = {"type": "advance_phase"}
            answer = request(base_url, "POST", f"/battles/{battle[0]}/commands", body, bearer(battle[1]),
                             timeout_s=ANSWER_WITHIN_S)  # fmt: skip
            ok = answer.status == 202
        took.append(time.monotonic() - started if ok else None)
        n += 1
        time.sleep(PROBE_EVERY_S)
    return took


def _run(tmp_path: Path, front: str) -> tuple[list[float | None], SlowHeads, str]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * SLOW)), hard))
    with launched(tmp_path, {"SIEGE_FRONT": front}) as run:
        battle = create_battles(run.base_url, run.api_key, 1)[0]
        with SlowHeads(int(run.base_url.rsplit(":", 1)[1]), SLOW) as slow:
            time.sleep(1.5)  # every slow connection open and sending before the probes start
            took = _probe(run.base_url, battle, time.monotonic() + HOLD_S)
        return took, slow, run.log_path.read_text(errors="replace")


def test_a_thousand_slow_heads_from_one_address_starve_no_one_behind_the_front(tmp_path: Path) -> None:
    try:
        front.binary()
    except ValueError as missing:
        pytest.skip(f"no nginx here (make install puts it in as root): {missing}")
    took, slow, log = _run(tmp_path, "on")

    answered = sorted(t for t in took if t is not None)
    p99 = answered[int(len(answered) * 0.99) - 1] if answered else float("nan")
    print(
        f"\n[slow heads, front on] slow connections opened={slow.opened} cut by the front={slow.cut}; "
        f"probes={len(took)} answered={len(answered)} p50={statistics.median(answered) * 1000:.1f} ms "
        f"p99={p99 * 1000:.1f} ms",
        flush=True,
    )
    assert "front (nginx) at" in log  # the deployment under test is the exposed one, nginx before gunicorn
    assert slow.opened >= SLOW and slow.cut >= SLOW  # they were held, and the head timeout cut them
    assert len(answered) == len(took) > 100  # every probe answered within ANSWER_WITHIN_S
