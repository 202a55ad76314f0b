"""`python -m bench.replay_rss URL BATTLE`: rebuild a battle as a replay job does; print time and peak RSS."""

from __future__ import annotations

import json
import resource
import sys
import time

from eventstore.config import connect
from eventstore.redis_store import RedisEventStore
from workers.replay import rebuild


def main(redis_url: str, battle_id: str) -> None:
    store = RedisEventStore(connect(redis_url))
    start = time.perf_counter()
    folded = rebuild(store, store, battle_id)
    seconds = time.perf_counter() - start
    max_rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB
    print(json.dumps({"entries": folded.to_version, "seconds": seconds, "max_rss_mb": max_rss_mb}))


if __name__ == "__main__":
    main(*sys.argv[1:3])
