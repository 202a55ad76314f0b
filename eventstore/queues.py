"""The RQ queues and jobs the API and the workers share: queue names, job paths, timeouts and TTLs.

They live in eventstore, beside the rest of the Redis-side configuration, because the API enqueues, the
workers run and the launcher starts workers for these jobs, and none of the three may import another
(the import contracts in pyproject.toml). A job is named by the dotted path of its entry point in
workers/jobs.py, a string, so this module imports neither rq nor the workers."""

from __future__ import annotations

from dataclasses import dataclass

# jobs take JSON-simple arguments: readable by any worker of any release
SERIALIZER = "rq.serializers.JSONSerializer"
# a webhook's delivery job claimed but lost before it ran is enqueued again by the reconciler after this
WEBHOOK_CLAIM_TTL_MS = 60_000
REPLAY_KEEP_S = 24 * 3600  # how long a finished or failed replay answers `GET .../replays/{job}`


@dataclass(frozen=True, slots=True, kw_only=True)
class JobSpec:
    """One kind of job: the queue it waits on, the function RQ imports, and how long RQ keeps it."""

    queue: str
    path: str
    timeout_s: int
    result_ttl_s: int
    failure_ttl_s: int | None = None  # None: RQ's default

    def options(self) -> dict[str, int]:
        """The keyword arguments of `Queue.enqueue` every job of this kind is enqueued with."""
        found = {"job_timeout": self.timeout_s, "result_ttl": self.result_ttl_s}
        return found if self.failure_ttl_s is None else {**found, "failure_ttl": self.failure_ttl_s}


PROJECT_PENDING = JobSpec(
    queue="siege-projection",
    path="workers.jobs.project_pending",
    timeout_s=180,  # above the drain's budget, so a long drain hands off instead of being killed
    result_ttl_s=60,  # projection results are counters for humans, not data: keep the queue Redis small
)
REPLAY = JobSpec(
    queue="siege-replay",
    path="workers.jobs.replay_battle",
    timeout_s=1800,  # a million-entry rebuild at the projection's 20,000 entries/s, with room to spare
    result_ttl_s=REPLAY_KEEP_S,
    failure_ttl_s=REPLAY_KEEP_S,
)
DELIVER_WEBHOOK = JobSpec(
    queue="siege-webhooks",
    path="workers.jobs.deliver_webhook",
    timeout_s=180,  # above the delivery's budget (60 s) plus one attempt's timeouts
    result_ttl_s=60,
)
SEND_WEBHOOK = JobSpec(
    queue=DELIVER_WEBHOOK.queue,  # the webhook worker's: the API never posts to a receiver itself
    path="workers.jobs.send_webhook",
    timeout_s=60,  # one attempt: resolving, then the delivery's timeouts
    result_ttl_s=60,
)
# the webhook worker's queue: a slow receiver holds up only other deliveries, never a fold
WEBHOOK_QUEUES = (DELIVER_WEBHOOK.queue,)
# the queues every worker listens on, in the order it takes them: a long rebuild never delays live battles
WORKER_QUEUES = (PROJECT_PENDING.queue, REPLAY.queue)
