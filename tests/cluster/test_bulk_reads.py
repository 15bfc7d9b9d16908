"""The close's batched reads on a real cluster (keys in many slots: pipelines) and on
one server (MGET and the Lua script) give the same answers."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

from daily.service import keymap
from daily.service.audit.bulk_reads import get_many, hget_many

PREFIX = "tb:"


def _fill_and_read(conn: redis.Redis) -> tuple[list[bytes | None], list[bytes | None]]:
    games = [keymap.game(PREFIX, f"g_{n:04d}") for n in range(40)]
    accounts = [keymap.account(PREFIX, f"p_{n:04d}") for n in range(40)]
    for n, (game, account) in enumerate(zip(games, accounts, strict=True)):
        if n % 3:
            conn.set(game, f"record {n}")
        if n % 4:
            conn.hset(account, "name", f"Player {n}")
    return get_many(conn, games), hget_many(conn, accounts, "name")


def _expected() -> tuple[list[bytes | None], list[bytes | None]]:
    return ([f"record {n}".encode() if n % 3 else None for n in range(40)],
            [f"Player {n}".encode() if n % 4 else None for n in range(40)])


@pytest.mark.spawns
def test_batched_reads_on_a_cluster(valkey_cluster) -> None:
    cluster = RedisCluster(host="127.0.0.1", port=valkey_cluster[0])
    slots = {cluster.keyslot(keymap.game(PREFIX, f"g_{n:04d}")) for n in range(40)}
    assert len(slots) > 1
    assert _fill_and_read(cluster) == _expected()  # type: ignore[arg-type]
    cluster.close()


@pytest.mark.redis
def test_batched_reads_on_one_server(redis_client: redis.Redis) -> None:
    assert _fill_and_read(redis_client) == _expected()
    assert get_many(redis_client, []) == hget_many(redis_client, [], "name") == []
