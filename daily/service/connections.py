"""Connections to Redis and the RQ queues (the keys are named in :mod:`daily.service.keymap`).
"""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster
from rq import Queue

from daily.service.config import Config, ConfigError

#: What ``daily worker results`` runs: the results stream consumer (not an RQ queue;
#: see :mod:`daily.service.results.stream`).
RESULTS_STREAM = "results"
#: Queue for day rollover, archives and par computation.
DAYS_QUEUE = "days"
#: The RQ queues.
ALL_QUEUES = (DAYS_QUEUE,)
#: Seconds to wait for a connection to Redis before giving up.
CONNECT_TIMEOUT = 3.0


def redis_from_config(config: Config) -> redis.Redis:
    """A Redis client for ``config.redis_url`` (``daily serve`` sets it when embedded);
    a cluster client when ``DAILY_REDIS_CLUSTER=on``.

    >>> from daily.service.config import load_config
    >>> redis_from_config(load_config({}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: REDIS_URL: is not set; run `daily serve` to start ...
    """
    if not config.redis_url:
        raise ConfigError(
            "is not set; run `daily serve` to start an embedded Redis, or point it at one",
            field="REDIS_URL",
        )
    if config.redis_cluster:
        return RedisCluster.from_url(  # type: ignore[return-value]
            config.redis_url, socket_connect_timeout=CONNECT_TIMEOUT
        )
    # A connect timeout: an unreachable server is a quick 503, not a hung request.
    return redis.Redis.from_url(
        config.redis_url, health_check_interval=30, socket_connect_timeout=CONNECT_TIMEOUT
    )


def queue_redis_from_config(config: Config) -> redis.Redis:
    """The Redis of the RQ queues: ``DAILY_QUEUE_REDIS_URL``, else ``REDIS_URL``.

    RQ needs one standalone server (its queues, jobs and registries are keys without a
    common hash tag that its transactions touch together), so with
    ``DAILY_REDIS_CLUSTER=on`` the queues need a URL of their own.

    >>> from daily.service.config import load_config
    >>> queue_redis_from_config(load_config({"REDIS_URL": "redis://h:7000",
    ...     "DAILY_REDIS_CLUSTER": "on"}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    daily.service.config.ConfigError: DAILY_QUEUE_REDIS_URL: must name a standalone Redis ...
    """
    url = config.queue_redis_url
    if url is None and config.redis_cluster:
        raise ConfigError(
            "must name a standalone Redis for the RQ queues when DAILY_REDIS_CLUSTER=on",
            field="DAILY_QUEUE_REDIS_URL",
        )
    if url is None:
        return redis_from_config(config)
    return redis.Redis.from_url(
        url, health_check_interval=30, socket_connect_timeout=CONNECT_TIMEOUT
    )


def queue(conn: redis.Redis, name: str) -> Queue:
    """The RQ queue ``name`` on ``conn``."""
    return Queue(name, connection=conn)


def as_text(value: bytes | str) -> str:
    """Redis replies as text, whether or not the client decodes responses.

    >>> as_text(b"g_1"), as_text("g_1")
    ('g_1', 'g_1')
    """
    return value.decode() if isinstance(value, bytes) else value
