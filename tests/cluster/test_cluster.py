"""Results, boards and statistics on a real three-primary Valkey cluster."""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster
from rq import Queue

from daily import calendar
from daily.service.config import load_config
from daily.service.connections import DAYS_QUEUE, redis_from_config
from daily.service.days.keyring import init_keys
from daily.service.keymap import game as game_key
from daily.service.keymap import par as par_key
from daily.service.keymap import passkeys as passkeys_key
from daily.service.keymap import rate_budget, rate_ceiling
from daily.service.players.standing import Policy, PublicStanding
from daily.service.results.archive import archive_path, read_archive
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.results.stats import player_stats, ranked_days, record_keys
from daily.service.results.stream import GROUP, ResultStream, stream_key
from daily.service.review.queue import ReviewQueue
from daily.service.shards import shard_of
from tests.polling import PROCESS_TIMEOUT, wait_until
from tests.service.conftest import NOON, Player, play_out
from tests.service.live import FileClockControl, start_gunicorn

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
    with cluster.pipeline(transaction=True) as pipe:
        pipe.set(game_key(PREFIX, f"g_{n:06d}"), '{"finished": true}')
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
        wait_until(lambda: not stream.backlog(),
                   message=lambda: f"{stream.backlog()} results left" if consumers[1].poll() is None
                   else consumers[1].stderr.read().decode()[-2000:],
                   alive=lambda: consumers[1].poll() is None)
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
    # the public top asks every player's keys, node by node; one player stands
    cluster.hset(passkeys_key(PREFIX, "p_000004"), "Y3JlZA", "{}")
    public = PublicStanding(cluster, PREFIX, Policy(1, True)).public_top(
        boards["yahtzee"], 10, dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC))
    assert [e.player_id for e in public.entries] == ["p_000004"] and not public.open
    assert public.counts()["games"] == 199  # a short top counts every game read
    for n in (1, 2, 199, 200, 201, 400):
        stats = player_stats(cluster, f"p_{n:06d}", prefix=PREFIX)
        assert (stats["games"], stats["best"]) == (1, 100 + (n * 37) % 200)
        assert ranked_days(cluster, f"p_{n:06d}", prefix=PREFIX)[0] == 1  # the day of play
    assert stream.unapplied(DATE) == 0 and stream.rejected() == {}
    assert all(cluster.xpending(k, GROUP)["pending"] == 0 for k in stream.stream_keys())
    cluster.close()


def test_ranked_games_played_finished_and_ranked_through_the_cluster(
    valkey_cluster, redis_url, tmp_path
) -> None:
    """The real app on a RedisCluster client: players, ranked games (start script,
    moves, finish transaction), real consumer processes, boards read through the API;
    then the day's rollover by a real RQ worker whose queue is on a standalone Redis."""
    env = {"REDIS_URL": f"redis://127.0.0.1:{valkey_cluster[2]}", "DAILY_REDIS_CLUSTER": "on",
           "DAILY_QUEUE_REDIS_URL": redis_url, "DAILY_PAR_JOBS": "off",
           "DAILY_KEY_PREFIX": PREFIX, "DAILY_DATA_DIR": str(tmp_path / "data"),
           "DAILY_RATE_LIMIT": "100/minute", "DAILY_RATE_LIMIT_IP": "900/minute",
           "DAILY_PUBLIC_URL": "https://dice.example"}
    config = load_config(env)
    init_keys(config.keys_dir)
    # The live server: real gunicorn, two workers taking consecutive requests in turn.
    env["DAILY_TEST_CLOCK_FILE"] = str(tmp_path / "clock")
    FileClockControl(tmp_path / "clock", NOON)
    with start_gunicorn(env, tmp_path) as server:
        client = server.client()
        conn = redis_from_config(config)
        assert isinstance(conn, RedisCluster)
        players = [Player(client, f"P{n}") for n in range(10)]
        finals = {}
        for player in players:
            state = player.call("POST", "/games", {"ruleset": "yahtzee", "date": DATE,
                                                   "mode": "ranked"}).get_json()
            assert shard_of(state["id"]) == shard_of(player.id)  # the game is in its player's shard
            assert conn.exists(game_key(PREFIX, state["id"]))
            finals[player.id] = play_out(player, state)
        assert len({conn.get_node_from_key(game_key(PREFIX, f["id"])).port
                    for f in finals.values()}) >= 2  # 10 games all on one node: p < 1e-4
        # The rate limits counted every move, each counter in its own slot.
        moves = [int(conn.get(rate_budget(PREFIX, "write", "player", p.id)) or 0) for p in players]
        assert all(13 < n <= 100 for n in moves), moves  # 13 scores, rolls, the start
        assert int(conn.get(rate_ceiling(PREFIX, "127.0.0.1"))) >= sum(moves)
        stream = ResultStream(conn, prefix=PREFIX)
        assert stream.unapplied(DATE) == 10
        consumer = subprocess.run(
            [sys.executable, "-m", "daily", "worker", "results", "--burst", "--quiet"],
            env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, capture_output=True,
            text=True, timeout=PROCESS_TIMEOUT, check=False,
        )
        assert consumer.returncode == 0, consumer.stderr[-2000:]
        assert stream.backlog() == 0 and stream.unapplied(DATE) == 0
        board = players[0].call("GET", f"/leaderboards/{DATE}/yahtzee").get_json()
        assert board["players"] == 10
        totals = sorted(f["total"] for f in finals.values())
        assert sorted(r["score"] for r in board["top"]) == totals
        assert board["me"]["score"] == finals[players[0].id]["total"]
        code = finals[players[0].id]["result"]["code"]
        shared = client.get(f"/api/v1/results/{code}").get_json()
        assert (shared["rank"], shared["players"]) == (board["me"]["rank"], 10)
        # The finishing transaction stored the receipt signed once the code was drawn.
        finished = finals[players[0].id]["result"]
        assert shared["receipt"] == finished["receipt"] and finished["accepted"]["code"] == code
        me = players[0].call("GET", "/players/me").get_json()
        assert me["stats"]["games"] == 1 and me["stats"]["best"] == finals[players[0].id]["total"]
        again = players[0].call("POST", "/games", {"ruleset": "yahtzee", "date": DATE,
                                                   "mode": "ranked"})
        assert again.status_code == 409  # one ranked game per player and day, on a cluster too
        other_paths_through_the_cluster(conn, players, finals)

        queue_conn = redis.Redis.from_url(redis_url)
        job = Queue(DAYS_QUEUE, connection=queue_conn).enqueue(
            "workers.rollover.rollover", "2026-11-30T12:10:00+00:00")
        worker = subprocess.run(
            [sys.executable, "-m", "daily", "worker", "days", "--burst", "--quiet"],
            env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, capture_output=True,
            text=True, timeout=PROCESS_TIMEOUT, check=False,
        )
        assert worker.returncode == 0, worker.stderr[-2000:]
        job.refresh()
        assert job.get_status() == "finished", job.latest_result().exc_string
        board = players[0].call("GET", f"/leaderboards/{DATE}/yahtzee").get_json()
        assert board["frozen"] is True and board["players"] == 10
        summary, rows = read_archive(archive_path(config.archive_dir, DATE, "yahtzee"))
        assert summary.players == 10 and len(list(rows)) == 10
        # the data is on the cluster
        assert not [k for k in queue_conn.keys("*") if k.startswith(PREFIX.encode())]
        queue_conn.close()
        conn.close()


def other_paths_through_the_cluster(
    conn: RedisCluster, players: list[Player], finals: dict[str, dict]
) -> None:
    """The reads and writes that touch keys of several slots: the day descriptors and
    their par (``/days``, ``/today``), groups (a group's members and each player's
    groups), challenges, and the review queue (a board's review hash and the global
    index and queue)."""
    # /days over revealed, open and future dates: descriptors and par, many slots
    first = players[0].call("GET", "/days?from=2026-11-25&to=2026-12-02").get_json()
    assert [d["date"] for d in first["days"] if d["ruleset"] == "yahtzee"] == [
        f"2026-11-{n}" for n in range(25, 31)] + ["2026-12-01", "2026-12-02"]
    statuses = {d["date"]: d["status"] for d in first["days"]}
    assert statuses["2026-11-25"] == "revealed" and statuses[DATE] == "open"
    revealed = [d for d in first["days"] if d["status"] == "revealed"]
    assert revealed and all(len(d["seed"]) == 64 for d in revealed)
    assert all("seed" not in d for d in first["days"] if d["status"] != "revealed")
    conn.set(par_key(PREFIX, "2026-11-25", "yahtzee"), '{"easy": 1, "medium": 2, "hard": 3}')
    again = players[1].call("GET", "/days?from=2026-11-25&to=2026-12-02").get_json()
    assert again["days"][0]["par"] == {"easy": 1, "medium": 2, "hard": 3}
    assert [d.get("signature") for d in again["days"]] == [
        d.get("signature") for d in first["days"]]  # stored once, served the same
    today = players[0].call("GET", "/today").get_json()
    mine = next(s for s in today["sets"] if (s["date"], s["ruleset"]) == (DATE, "yahtzee"))
    assert mine["played"]["total"] == finals[players[0].id]["total"]
    assert mine["played"]["code"] == finals[players[0].id]["result"]["code"]

    # groups: the group's members and the player's groups, in two slots
    made = players[0].call("POST", "/groups", {"name": "Cluster club"})
    assert made.status_code == 201, made.get_json()
    code = made.get_json()["code"]
    joined = players[1].call("POST", f"/groups/{code}/members", {})
    assert joined.status_code == 200, joined.get_json()
    assert len(joined.get_json()["members"]) == 2
    board = players[1].call("GET", f"/groups/{code}?date={DATE}")
    assert board.status_code == 200, board.get_json()
    assert [g["code"] for g in players[1].call("GET", "/groups").get_json()["groups"]] == [code]
    assert players[1].call("DELETE", f"/groups/{code}/members/me").status_code == 204
    assert players[1].call("GET", "/groups").get_json()["groups"] == []
    assert players[1].call("DELETE", f"/groups/{code}/members/me").status_code == 404

    # a challenge from a result code
    result_code = finals[players[2].id]["result"]["code"]
    link = players[2].call("POST", "/challenges", {"code": result_code})
    assert link.status_code == 201, link.get_json()
    shown = players[3].call("GET", f"/challenges/{link.get_json()['code']}")
    assert shown.status_code == 200, shown.get_json()

    # the review queue: hold (twice: a redelivery), list, decide, restore
    queue = ReviewQueue(conn, prefix=PREFIX)
    held = Result.from_json({
        "game_id": "g_review1", "player_id": "p_review1", "player_name": "R",
        "date": DATE, "ruleset": "yatzy", "total": 250, "finished_at": OPENS + 5,
        "code": "DD-REVIEW1", "log": None})
    assert queue.hold(held, {"reason": "test"}) is True
    conn.zrem(queue.open_key, held.game_id)  # as if the first delivery died half-way
    assert queue.hold(held, {"reason": "test"}) is False  # completes it
    assert [e.result.game_id for e in queue.held()] == [held.game_id]
    assert queue.decide(held.game_id, "disqualified") == "disqualified"
    assert queue.held() == [] and queue.get(held.game_id).state == "disqualified"
    assert queue.hold(held, {"reason": "again"}) is False and queue.held() == []
    entry = queue.get(held.game_id)
    conn.delete(queue.index_key)
    assert queue.restore([entry]) == 1 and queue.get(held.game_id).state == "disqualified"
