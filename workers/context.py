"""What a job needs from its surroundings: the Redis connection and the configuration.

Inside an RQ worker the job uses the worker's own connection; called directly (tests,
``daily rebuild``) it connects to ``REDIS_URL``.

>>> job_config({"DAILY_KEY_PREFIX": "t:"}).key_prefix
't:'
"""

from __future__ import annotations

from collections.abc import Mapping

import redis
from rq import get_current_job

from daily.service.config import Config, load_config
from daily.service.connections import queue_redis_from_config, redis_from_config


def job_config(env: Mapping[str, str] | None = None) -> Config:
    """The service configuration from the worker's environment."""
    return load_config(env)


def job_connection(config: Config | None = None) -> redis.Redis:
    """The Redis of the service's data: the running job's own connection when the data
    and the queues share a server, else a new one to ``REDIS_URL`` (a cluster too)."""
    config = config or job_config()
    job = get_current_job()
    if job is not None and not config.redis_cluster and config.queue_redis_url is None:
        return job.connection
    return redis_from_config(config)


def job_queue_connection(config: Config | None = None) -> redis.Redis:
    """The Redis of the RQ queues (to enqueue follow-up jobs)."""
    job = get_current_job()
    if job is not None:
        return job.connection
    return queue_redis_from_config(config or job_config())
