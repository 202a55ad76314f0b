"""The service's Prometheus metrics, each declared once (how they are exposed: telemetry/exposition.py).
The API records appends, the workers what they fold; queue depth is read at scrape (service/metrics.py)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)  # one Redis round trip
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 1800.0)  # a job, a lag

COMMANDS = Counter(
    "siege_commands",
    "Commands folded, by ruleset, command type and outcome status (applied or rejected by the rules)",
    ["ruleset", "type", "status"],
)
APPEND_SECONDS = Histogram(
    "siege_append_seconds",
    "Time the API spent appending one command to the log (the store's script round trip)",
    ["ruleset"],
    buckets=FAST,
)
HEAD_REGRESSIONS = Counter(
    "siege_head_regressions",
    "Appends that found a battle's log head behind one acknowledged before (entries lost by the store: "
    "a failover to a replica that lacked them, or a crash without fsync); each is refused and audited",
)
REPLICA_ACK_TIMEOUTS = Counter(
    "siege_replica_ack_timeouts",
    "Appends answered 503 because fewer replicas than SIEGE_ACK_REPLICAS confirmed them in time",
)
PROJECTION_LAG_SECONDS = Histogram(
    "siege_projection_lag_seconds",
    "Age of the oldest command of each batch of outcomes a worker writes: append to outcome, worst case",
    buckets=SLOW,
)
JOB_SECONDS = Histogram(
    "siege_job_seconds", "Duration of worker jobs, by job and outcome", ["job", "outcome"], buckets=SLOW
)
STREAMS_OPEN = Gauge(
    "siege_streams_open",
    "Server-Sent Events streams open now (GET /battles/{id}/stream), summed over the API processes",
    multiprocess_mode="livesum",
)
GC_PAUSE_SECONDS = Histogram(
    "siege_gc_pause_seconds",
    "Elapsed time of Python's garbage collections of generations 1 and 2 (each holds the GIL: no other "
    "thread of the process runs meanwhile), by the process's role (api, worker) and the generation",
    ["process", "generation"],
    buckets=FAST,
)
