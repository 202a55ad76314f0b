"""100 open SSE streams over a few battles while commands flow: the commands' latency p99 and
the delivery delay p99, from a command's 2xx to its outcome's event reaching each stream."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bench.load import percentile
from bench.measures import Row
from bench.stack import Bench

STREAMS, BATTLES = 100, 4
RATE = 50.0  # commands/s in all: 100 streams make 5,000 deliveries/s of it
COMMAND = json.dumps({"type": "advance_phase"})
OPEN_TRIES = 20  # a process past SIEGE_MAX_STREAMS answers 503; the next try may reach the other one
SETTLE_S = 30.0  # bound on waiting for the last outcomes to reach every stream


@dataclass
class Listener:
    """One stream, read on a thread of its own: when each version's event arrived."""

    battle_id: str
    token: str
    url: str
    arrived: dict[int, float] = field(default_factory=dict)
    duplicates: int = 0
    opened: threading.Event = field(default_factory=threading.Event)
    streaming: bool = False
    connection: http.client.HTTPConnection | None = None

    def run(self) -> None:
        try:
            response = self._open()
            self.streaming = True
            self.opened.set()
            last_id = None
            while line := response.readline():
                text = line.decode().rstrip("\n")
                if text.startswith("id: "):
                    last_id = int(text[4:])
                elif text == "event: outcome" and last_id is not None:
                    self.duplicates += last_id in self.arrived
                    self.arrived.setdefault(last_id, time.monotonic())
        except (OSError, ValueError, AttributeError):  # closed by the bench at the end, or never opened
            pass
        finally:
            self.opened.set()

    def _open(self) -> http.client.HTTPResponse:
        url = urlsplit(self.url)
        for _ in range(OPEN_TRIES):
            self.connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=60)
            path = f"/battles/{self.battle_id}/stream"
            self.connection.request("GET", path, headers={"Authorization": f"Bearer {self.token}"})
            response = self.connection.getresponse()
            if response.status == 200:
                return response
            response.read()
            self.connection.close()
            time.sleep(0.2)
        raise OSError(f"stream not opened after {OPEN_TRIES} tries (last {response.status})")

    def close(self) -> None:
        """Shut the socket down first: closing it would wait for the reader thread's blocked read."""
        if self.connection is not None and self.connection.sock is not None:
            with contextlib.suppress(OSError):
                self.connection.sock.shutdown(socket.SHUT_RDWR)


def measure(bench: Bench, battles: Sequence[tuple[str, str]], seconds: float) -> list[Row]:
    say(f"streams: {STREAMS} open SSE streams over {BATTLES} battles, commands at {RATE:.0f}/s")
    chosen = battles[-BATTLES:]  # not the first: the fold benchmark makes it its hot battle
    # a token of its own for each stream: a process holds only SIEGE_MAX_STREAMS_PER_TOKEN streams of one
    # token, so with the GM's token alone 68 of the 100 streams were refused
    listeners = [
        Listener(battle_id, _observer_token(bench, battle_id, gm), bench.service_url)
        for battle_id, gm in (chosen[n % len(chosen)] for n in range(STREAMS))
    ]
    threads = [threading.Thread(target=listener.run, daemon=True) for listener in listeners]
    for thread in threads:
        thread.start()
    for listener in listeners:
        listener.opened.wait(timeout=60)
    time.sleep(0.5)  # the streams' starting reads are done; what follows is live
    acked, latencies = _send(bench, chosen, seconds)
    deadline = time.monotonic() + SETTLE_S
    while time.monotonic() < deadline and not _all_arrived(listeners, acked):
        time.sleep(0.05)
    for listener in listeners:
        listener.close()
    for thread in threads:
        thread.join(timeout=10)
    delays, missing = [], 0
    for listener in listeners:
        for (battle_id, version), at in acked.items():
            if battle_id != listener.battle_id:
                continue
            if version in listener.arrived:
                delays.append(max(0.0, listener.arrived[version] - at) * 1000)
            else:
                missing += 1
    failed = sum(1 for listener in listeners if not listener.streaming)
    rows = [
        Row(
            f"commands while {STREAMS} SSE streams are open ({len(latencies)} POSTs at {RATE:.0f}/s)",
            f"p50 {percentile(latencies, 50):.1f} ms, p99 {percentile(latencies, 99):.1f} ms",
            "reported",
        ),
        Row(
            f"stream delivery delay, a command's 2xx → its event on each of {STREAMS} streams",
            f"p50 {percentile(delays, 50):.1f} ms, p99 {percentile(delays, 99):.1f} ms ({len(delays):,} "
            f"deliveries, {missing} missing, {sum(x.duplicates for x in listeners)} duplicated, "
            f"{failed} streams not opened)",
            "reported",
        ),
    ]
    for row in rows:  # on stderr too, so a run that stops later still shows them
        say(f"{row.measure}: {row.result}")
    return rows


def _observer_token(bench: Bench, battle_id: str, gm_token: str) -> str:
    """A new observer token of the battle, minted with its GM's."""
    url = urlsplit(bench.service_url)
    connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {gm_token}"}
    try:
        connection.request(
            "POST", f"/battles/{battle_id}/tokens", body='{"role": "observer"}', headers=headers
        )
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    if response.status != 201:
        raise RuntimeError(f"POST /battles/{battle_id}/tokens answered {response.status}: {body!r}")
    return str(json.loads(body)["token"])


def _send(
    bench: Bench, battles: Sequence[tuple[str, str]], seconds: float
) -> tuple[dict[tuple[str, int], float], list[float]]:
    """One paced sender per battle; when each version was acknowledged, and each command's latency."""
    acked: dict[tuple[str, int], float] = {}
    latencies: list[float] = []
    lock = threading.Lock()
    url = urlsplit(bench.service_url)
    interval = len(battles) / RATE

    def sender(battle_id: str, token: str) -> None:
        connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=30)
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        due = start = time.monotonic()
        while time.monotonic() < start + seconds:
            time.sleep(max(0.0, due - time.monotonic()))
            sent = time.monotonic()
            connection.request("POST", f"/battles/{battle_id}/commands", body=COMMAND, headers=headers)
            response = connection.getresponse()
            body = json.loads(response.read())
            done = time.monotonic()
            with lock:
                latencies.append((done - sent) * 1000)
                if response.status == 202:
                    acked[(battle_id, int(body["version"]))] = done
            due += interval

    senders = [threading.Thread(target=sender, args=battle) for battle in battles]
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join()
    return acked, latencies


def _all_arrived(listeners: Sequence[Listener], acked: dict[tuple[str, int], float]) -> bool:
    last: dict[str, int] = {}
    for battle_id, version in acked:
        last[battle_id] = max(last.get(battle_id, 0), version)
    return all(last.get(x.battle_id, 0) in x.arrived for x in listeners if x.streaming)


def say(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)
