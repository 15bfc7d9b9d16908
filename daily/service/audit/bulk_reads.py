"""Many small reads in one round trip: the values of many keys, one field of many hashes.

On one server: ``MGET``, and a short Lua script for the hashes (one command each, however
many keys: what a pipeline of a thousand ``GET`` costs in the client is most of a
close's time). On a Redis Cluster the keys lie in many slots, so a pipeline (one per
node, as redis-py's cluster pipeline sends it).

>>> get_many(None, []), hget_many(None, [], "name")  # type: ignore[arg-type]
([], [])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import redis
from redis.cluster import RedisCluster

#: HGET of one field (ARGV[1]) of every key (a missing one: false, a nil in the reply).
_HGET_MANY = """
local out = {}
for i, key in ipairs(KEYS) do out[i] = redis.call('HGET', key, ARGV[1]) end
return out
"""


def get_many(conn: redis.Redis, keys: Sequence[str]) -> list[bytes | None]:
    """The value of each key (``None`` where missing), in the order of ``keys``."""
    if not keys:
        return []
    if isinstance(conn, RedisCluster):
        with conn.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.get(key)
            return list(pipe.execute())
    return cast("list[bytes | None]", conn.mget(keys))


def hget_many(conn: redis.Redis, keys: Sequence[str], field: str) -> list[bytes | None]:
    """The ``field`` of each hash (``None`` where missing), in the order of ``keys``."""
    if not keys:
        return []
    if isinstance(conn, RedisCluster):
        with conn.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.hget(key, field)
            return list(pipe.execute())
    found = conn.register_script(_HGET_MANY)(keys=list(keys), args=[field])
    return cast("list[bytes | None]", found)
