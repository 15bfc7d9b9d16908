"""The close-time re-check of the final top (:mod:`daily.service.review.recheck`) and
taking a game off a board, against a real Redis.

Without the keys the stricter test cannot run: every game on the top with a complete
log is then held pending, one at a time, and the games it uncovers are checked in turn;
a game without a complete log is not tested and stands.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import redis

from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.service.config import load_config
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.review.queue import ReviewQueue
from daily.service.review.recheck import recheck_top

pytestmark = pytest.mark.redis
PREFIX = "tw:"
DATE = "2026-11-29"


def complete_log() -> dict[str, Any]:
    """A finished Yahtzee game of the day (no rerolls, the first open box each turn)."""
    rules = get_ruleset("yahtzee")
    game = Game.from_seed(rules, bytes(32))
    while not game.over:
        game.score(game.choices().legal()[0].box)
    return MoveLog.of_game(game, day=dt.date(2026, 11, 29)).to_json()


def test_remove_takes_a_game_off_every_part_of_the_board(redis_client, make_result) -> None:
    board = Leaderboard(redis_client, DATE, "yahtzee", prefix=PREFIX)
    for n, total in ((1, 250), (2, 255), (3, 180)):
        board.record(Result.from_json(make_result(n, total=total)))
    assert board.result_of("g_000001") is not None
    assert board.remove("g_000001") is True
    assert board.remove("g_000001") is False  # idempotent
    assert board.players() == 2 and board.game_of("p_000001") is None
    assert board.result_of("g_000001") is None
    bins = {b["from"]: b["count"] for b in board.histogram()["bins"]}
    assert bins.get(250) == 1 and bins.get(180) == 1
    assert [e.game_id for e in board.top(10)] == ["g_000002", "g_000003"]


def test_the_close_time_recheck_checks_ties_and_uncovered_games_once(
    redis_client: redis.Redis, make_result: Any, tmp_path: Path,
) -> None:
    config = load_config({"DAILY_KEY_PREFIX": PREFIX, "DAILY_DATA_DIR": str(tmp_path),
                          "DAILY_RECHECK_TOP": "1"})
    board = Leaderboard(redis_client, DATE, "yahtzee", prefix=PREFIX)
    log = complete_log()
    rows = [make_result(1, total=300, log=log), make_result(2, total=300, log=log),
            make_result(3, total=250, log=log), make_result(4, total=200)]  # 4: no moves
    for row in rows:
        board.record(Result.from_json(row))
    day = dt.date(2026, 11, 29)
    first = recheck_top(redis_client, config, day, "yahtzee")
    # 1 and 2 tie for the first place; once held, 3 stands there, then 4.
    assert first == {"checked": 4, "held": ["g_000001", "g_000002", "g_000003"]}
    assert [e.game_id for e in board.top(10)] == ["g_000004"]
    queue = ReviewQueue(redis_client, PREFIX)
    entry = queue.get("g_000002")
    assert entry.state == "pending" and entry.reason_code == "unchecked"
    assert entry.verdict["recheck"] == "close"
    assert "re-check could not run" in entry.reason
    assert queue.decision("g_000003").to_json() == {"status": "pending", "reason": "unchecked"}
    # A rerun changes nothing.
    assert recheck_top(redis_client, config, day, "yahtzee") == {"checked": 0, "held": []}
    assert board.players() == 1

    # A game held by a run that died before taking it off the board is taken off.
    redis_client.delete(board.key("rechecked"))
    board.record(Result.from_json(rows[0]))
    again = recheck_top(redis_client, config, day, "yahtzee")
    assert again["held"] == ["g_000001"] and board.game_of("p_000001") is None
    outcomes = {k.decode(): json.loads(v)
                for k, v in redis_client.hgetall(board.key("rechecked")).items()}
    assert outcomes["g_000001"] == {"outcome": "pending", "reason_code": "unchecked"}


def test_no_recheck_when_it_is_off(redis_client, make_result, tmp_path) -> None:
    config = load_config({"DAILY_KEY_PREFIX": PREFIX, "DAILY_DATA_DIR": str(tmp_path),
                          "DAILY_RECHECK_TOP": "0"})
    board = Leaderboard(redis_client, DATE, "yahtzee", prefix=PREFIX)
    board.record(Result.from_json(make_result(1, total=300, log=complete_log())))
    assert recheck_top(redis_client, config, dt.date(2026, 11, 29), "yahtzee") == {
        "checked": 0, "held": []}
    assert board.players() == 1


def test_a_copy_is_of_the_game_that_finished_first_whatever_the_order_taken(
    redis_client: redis.Redis, make_result: Any,
) -> None:
    from daily.service.review.evidence import copied_games

    log = complete_log()
    first = Result.from_json(make_result(1, total=300, log=log, finished_at=1.0e9))
    later = Result.from_json(make_result(2, total=300, log=log, finished_at=1.0e9 + 60))
    other = Result.from_json(make_result(3, total=300, log=complete_log() | {"turns": [
        {"holds": ["00000"], "category": t["category"]} for t in log["turns"]]},
        finished_at=1.0e9 + 90))
    # One batch, taken out of order: the later game is the copy.
    found = copied_games(redis_client, PREFIX, [later, first, other])
    assert found[1] == [] and found[2] == []
    assert found[0] == [{"game_id": "g_000001", "player_id": "p_000001", "share": 1.0}]
    # Two batches out of order: the index comes to point at the first; asked again (the
    # close-time re-check), the later one is the copy.
    redis_client.flushdb()
    assert copied_games(redis_client, PREFIX, [later]) == [[]]
    assert copied_games(redis_client, PREFIX, [first]) == [[]]
    Leaderboard(redis_client, DATE, "yahtzee", prefix=PREFIX).record(first)
    assert copied_games(redis_client, PREFIX, [later])[0][0]["game_id"] == "g_000001"
