"""Store configuration comes from the environment once, with the defaults DESIGN §7 names."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from eventstore.config import StoreConfig, connect
from eventstore.embedded import free_port


def test_an_empty_environment_means_the_embedded_server_under_var() -> None:
    config = StoreConfig.from_env({})
    assert config == StoreConfig(
        redis_url=None, queue_redis_url=None, data_dir=Path("./var"), durability="durable"
    )


def test_the_queue_follows_the_event_store_unless_told_otherwise() -> None:
    shared = StoreConfig.from_env({"REDIS_URL": "redis://store:6379/0"})
    split = StoreConfig.from_env(
        {"REDIS_URL": "redis://store:6379/0", "QUEUE_REDIS_URL": "redis://queue:6379/0"}
    )
    assert shared.queue_redis_url == "redis://store:6379/0"
    assert split.queue_redis_url == "redis://queue:6379/0"


@pytest.mark.parametrize(
    ("word", "profile"), [("durable", "durable"), ("fast", "fast"), (" Fast ", "fast"), ("", "durable")]
)
def test_the_durability_profile_is_durable_unless_fast_is_asked_for(word: str, profile: str) -> None:
    config = StoreConfig.from_env({"SIEGE_DURABILITY": word, "SIEGE_DATA_DIR": "/data/siege"})
    assert config.durability == profile and config.data_dir == Path("/data/siege")


def test_an_unknown_durability_profile_is_an_error_not_a_silent_default() -> None:
    with pytest.raises(ValueError, match="durable, fast"):
        StoreConfig.from_env({"SIEGE_DURABILITY": "always"})


def test_connecting_does_not_touch_the_network_until_first_use() -> None:
    client = connect(f"redis://127.0.0.1:{free_port()}/0")
    with pytest.raises(redis.ConnectionError):
        client.ping()


def test_a_cluster_store_is_named_by_siege_store_cluster_with_its_queue_elsewhere() -> None:
    config = StoreConfig.from_env(
        {
            "SIEGE_STORE_CLUSTER": "1",
            "REDIS_URL": "redis://node-a:7000/0",
            "QUEUE_REDIS_URL": "redis://q:6379/0",
        }
    )
    assert config.cluster and config.queue_redis_url == "redis://q:6379/0"
    assert not StoreConfig.from_env({"REDIS_URL": "redis://store:6379/0"}).cluster


@pytest.mark.parametrize(
    "env",
    [
        {"SIEGE_STORE_CLUSTER": "1", "REDIS_URL": "redis://node-a:7000/0"},
        {
            "SIEGE_STORE_CLUSTER": "1",
            "REDIS_URL": "redis://node-a:7000/0",
            "QUEUE_REDIS_URL": "redis://node-a:7000/0",
        },
    ],
    ids=["without a queue url", "with the queue on the cluster"],
)
def test_a_cluster_store_without_a_queue_redis_of_its_own_stops_at_start(env: dict[str, str]) -> None:
    with pytest.raises(ValueError, match="QUEUE_REDIS_URL"):
        StoreConfig.from_env(env)


def test_a_cluster_store_needs_a_node_to_start_from() -> None:
    with pytest.raises(ValueError, match="REDIS_URL"):
        StoreConfig.from_env({"SIEGE_STORE_CLUSTER": "1", "QUEUE_REDIS_URL": "redis://q:6379/0"})


def test_a_mistyped_cluster_flag_is_an_error() -> None:
    with pytest.raises(ValueError, match="SIEGE_STORE_CLUSTER"):
        StoreConfig.from_env({"SIEGE_STORE_CLUSTER": "cluster"})


def test_appends_wait_for_the_replicas_the_topology_has_unless_told_a_count() -> None:
    assert StoreConfig.from_env({}).ack_replicas is None  # auto
    assert StoreConfig.from_env({"SIEGE_ACK_REPLICAS": "auto"}).ack_replicas is None
    assert StoreConfig.from_env({"SIEGE_ACK_REPLICAS": "0"}).ack_replicas == 0
    assert StoreConfig.from_env({"SIEGE_ACK_REPLICAS": " 2 "}).ack_replicas == 2
    assert StoreConfig.from_env({}).ack_timeout_ms == 1000
    assert StoreConfig.from_env({"SIEGE_ACK_TIMEOUT_MS": "250"}).ack_timeout_ms == 250


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("SIEGE_ACK_REPLICAS", "-1"),
        ("SIEGE_ACK_REPLICAS", "all"),
        ("SIEGE_ACK_REPLICAS", "²"),
        ("SIEGE_ACK_TIMEOUT_MS", "0"),
        ("SIEGE_ACK_TIMEOUT_MS", "4001"),  # the store clients' socket timeout would cut the wait short
        ("SIEGE_ACK_TIMEOUT_MS", "1.5"),
    ],
)
def test_a_replica_setting_that_cannot_mean_anything_stops_at_start(name: str, word: str) -> None:
    with pytest.raises(ValueError, match=name):
        StoreConfig.from_env({name: word})


def test_a_cluster_url_may_list_several_nodes_so_one_down_at_start_is_no_matter(cluster_url: str) -> None:
    down = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there: the first node tried is down
    client = connect(f"{down}, {cluster_url}", cluster=True)
    try:
        assert len(client.get_primaries()) == 3  # the map was read from the live node
        client.set("siege:{probe}:x", "1")
        assert client.get("siege:{probe}:x") == b"1"
    finally:
        client.delete("siege:{probe}:x")  # type: ignore[no-untyped-call]  # types-redis leaves RedisCluster.delete unannotated
        client.close()
