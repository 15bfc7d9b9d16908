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
from daily.service.connections import redis_from_config


def job_config(env: Mapping[str, str] | None = None) -> Config:
    """The service configuration from the worker's environment."""
    return load_config(env)


def job_connection(config: Config | None = None) -> redis.Redis:
    """The Redis connection of the running job, or a new one to ``REDIS_URL``."""
    job = get_current_job()
    if job is not None:
        return job.connection
    return redis_from_config(config or job_config())
