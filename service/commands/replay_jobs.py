"""The queue side of replay jobs: `workers.jobs.replay_battle` enqueued by name, a job read back by id."""

from __future__ import annotations

from typing import Any

from redis import Redis
from redis.exceptions import RedisError
from rq import Queue
from rq.exceptions import DeserializationError, NoSuchJobError
from rq.job import Job, JobStatus

from eventstore.queues import REPLAY, REPLAY_KEEP_S, SERIALIZER
from service.http.problems import RETRY_SOON as RETRY
from service.http.problems import Problem

STATUS = {  # rq's statuses, as few as a client needs
    JobStatus.CREATED: "queued",
    JobStatus.QUEUED: "queued",
    JobStatus.DEFERRED: "queued",
    JobStatus.SCHEDULED: "queued",
    JobStatus.STARTED: "started",
    JobStatus.FINISHED: "finished",
    JobStatus.FAILED: "failed",
    JobStatus.STOPPED: "failed",
    JobStatus.CANCELED: "failed",
}


def start(queue_redis: Redis[Any], battle_id: str, mode: str) -> str:
    """Enqueue one replay of the battle; its job id."""
    queue = Queue(REPLAY.queue, connection=queue_redis, serializer=SERIALIZER)
    try:
        job = queue.enqueue(REPLAY.path, battle_id, mode, **REPLAY.options())
    except (RedisError, OSError) as error:
        detail = f"The job queue is unreachable ({type(error).__name__}); nothing was started."
        raise Problem(
            503, "queue-unavailable", "The job queue is unavailable", detail, headers=RETRY
        ) from None
    return str(job.id)


def view(queue_redis: Redis[Any], battle_id: str, job_id: str) -> dict[str, Any]:
    """The job as `{job_id, mode, status, result, error}`; 404 unless it is a replay of this battle."""
    job = _replay_of(queue_redis, battle_id, job_id)
    status = STATUS.get(job.get_status(refresh=False) or JobStatus.QUEUED, "queued")
    return {
        "job_id": job_id,
        "mode": str(job.args[1]),
        "status": status,
        "result": job.return_value(refresh=False) if status == "finished" else None,
        "error": _error(job) if status == "failed" else None,
    }


def _replay_of(queue_redis: Redis[Any], battle_id: str, job_id: str) -> Job:
    try:
        job = Job.fetch(job_id, connection=queue_redis, serializer=SERIALIZER)
        args = list(job.args)
        ours = job.func_name == REPLAY.path and len(args) == 2 and args[0] == battle_id
    except (NoSuchJobError, DeserializationError, ValueError):
        ours = False
    if not ours:
        detail = f"Battle {battle_id} has no replay job {job_id} (finished jobs are kept {REPLAY_KEEP_S} s)."
        raise Problem(404, "replay-not-found", "No such replay job", detail)
    return job


def _error(job: Job) -> str:
    """The exception's last line: what went wrong, without the worker's traceback."""
    result = job.latest_result()
    trace = (result.exc_string if result is not None else None) or ""
    lines = [line for line in trace.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "the job failed"
