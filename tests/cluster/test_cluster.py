"""Results, boards and statistics on a real three-primary Valkey cluster."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from redis.cluster import RedisCluster

from daily import calendar
from daily.service.leaderboard import Leaderboard
from daily.service.results_stream import GROUP, ResultStream, shard_of, stream_key
from daily.service.stats import player_stats, record_keys

pytestmark = [pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
PREFIX = "tc:"
DATE = "2026-11-29"
OPENS = calendar.opens_at(dt.date(2026, 11, 29)).timestamp()
RULESETS = ("yahtzee", "maxi-yatzy")


def result(n: int) -> dict[str, object]:
    return {
        "game_id": f"g_{n:06d}", "player_id": f"p_{n:06d}", "player_name": f"P{n}",
        "date": DATE, "ruleset": RULESETS[n % 2], "total": 100 + (n * 37) % 200,
        "finished_at": OPENS + n, "code": f"DD-{n:06d}", "log": None,
    }


def finish(cluster: RedisCluster, stream: ResultStream, n: int) -> None:
    """What the finish does: the game record and the result in one transaction, in the
    slot of the game's result stream (the game key carries the stream's hash tag)."""
    game_key = f"{PREFIX}game:{{r{shard_of(f'g_{n:06d}')}}}:g_{n:06d}"
    with cluster.pipeline(transaction=True) as pipe:
        pipe.set(game_key, '{"finished": true}')
        stream.append(pipe, result(n))
        pipe.execute()


def test_results_and_boards_shard_over_three_primaries(valkey_cluster, tmp_path) -> None:
    cluster = RedisCluster(host="127.0.0.1", port=valkey_cluster[0])
    stream = ResultStream(cluster, prefix=PREFIX)
    # The keys of one stream, one board, one player share a slot; they spread over nodes.
    nodes_of_streams = {
        cluster.get_node_from_key(key).port for key in stream.stream_keys()
    }
    assert len(nodes_of_streams) == 3
    assert all(
        len({cluster.keyslot(k) for k in keys}) == 1
        for keys in ([stream_key(PREFIX, 3), f"{stream_key(PREFIX, 3)}:open"],
                     Leaderboard(cluster, DATE, "yahtzee", prefix=PREFIX).record_keys(),
                     record_keys("p_000001", prefix=PREFIX))
    )
    total = 400
    env = dict(os.environ, REDIS_URL=f"redis://127.0.0.1:{valkey_cluster[1]}",
               DAILY_REDIS_CLUSTER="on", DAILY_KEY_PREFIX=PREFIX, PYTHONPATH=str(ROOT),
               DAILY_DATA_DIR=str(tmp_path / "data"))
    consumers = [
        subprocess.Popen([sys.executable, "-m", "daily", "worker", "results", "--name", name,
                          "--quiet"], env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
        for name in ("a", "b")
    ]
    try:
        for n in range(1, total + 1):
            finish(cluster, stream, n)
            if n == total // 2:  # kill -9 one consumer mid-work: nothing lost, nothing twice
                os.kill(consumers[0].pid, signal.SIGKILL)
                consumers[0].wait(10)
        deadline = time.monotonic() + 60
        while stream.backlog():
            assert consumers[1].poll() is None, consumers[1].stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, f"{stream.backlog()} results left"
            time.sleep(0.1)
    finally:
        for proc in consumers:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                proc.wait(20)
    boards = {r: Leaderboard(cluster, DATE, r, prefix=PREFIX) for r in RULESETS}
    assert {r: b.players() for r, b in boards.items()} == {"yahtzee": 200, "maxi-yatzy": 200}
    view = boards["yahtzee"].view(limit=10, player_id="p_000002")
    assert view["players"] == 200 and len(view["top"]) == 10
    assert view["me"]["score"] == 100 + (2 * 37) % 200
    assert [row["score"] for row in view["top"]] == sorted(
        (100 + (n * 37) % 200 for n in range(2, total + 1, 2)), reverse=True)[:10]
    assert sum(b["count"] for b in view["histogram"]["bins"]) == 200
    for n in (1, 2, 199, 200, 201, 400):
        stats = player_stats(cluster, f"p_{n:06d}", prefix=PREFIX)
        assert (stats["games"], stats["best"]) == (1, 100 + (n * 37) % 200)
    assert stream.unapplied(DATE) == 0 and stream.rejected() == {}
    assert all(cluster.xpending(k, GROUP)["pending"] == 0 for k in stream.stream_keys())
    cluster.close()
