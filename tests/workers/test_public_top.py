"""The public top of a board against a real Redis: who stands, what is left out and
counted, the new-deployment exemption, the days of play counted up to the close."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
import redis

from daily import calendar
from daily.service import keymap
from daily.service.clock import DemoClock
from daily.service.players import standing as standing_module
from daily.service.players.standing import Policy, PublicStanding
from daily.service.refusals import NotFound
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.results.stats import play_day, ranked_days, record_game

pytestmark = pytest.mark.redis
PREFIX = "tpt:"
DATE = dt.date(2026, 11, 29)
#: While the 29th is open (its day of play is the 30th).
NOW = dt.datetime(2026, 11, 29, 11, 0, tzinfo=dt.UTC)
DAYS_ON_DEMO = 4


def put(conn: redis.Redis, make_result: Callable[..., dict[str, Any]], n: int, total: int,
        days: int = 0, passkey: bool = True) -> Result:
    """Player ``n``'s game of the 29th, after ``days`` earlier days of play."""
    result = Result.from_json(make_result(n, total=total))
    Leaderboard(conn, DATE, "yahtzee", prefix=PREFIX).record(result)
    record_game(conn, result, prefix=PREFIX)
    for k in range(1, days + 1):
        earlier = DATE - dt.timedelta(days=k)
        old = make_result(n, game_id=f"g_{n:06d}_{k}", date=earlier.isoformat(),
                          finished_at=calendar.opens_at(earlier).timestamp() + 60,
                          log=None)
        record_game(conn, Result.from_json(old), prefix=PREFIX)
    if passkey:
        conn.hset(keymap.passkeys(PREFIX, result.player_id), "Y3JlZA", "{}")
    return result


def public(conn: redis.Redis, days: int = 3, passkey: bool = True) -> PublicStanding:
    return PublicStanding(conn, PREFIX, Policy(days, passkey))


def names(top: standing_module.PublicTop) -> list[str]:
    return [entry.player_id for entry in top.entries]


def test_only_standing_games_fill_the_top_and_those_above_its_last_row_are_counted(
    redis_client: redis.Redis, make_result: Any
) -> None:
    put(redis_client, make_result, 1, 300)                   # provisional
    put(redis_client, make_result, 2, 290, days=2)           # stands
    put(redis_client, make_result, 3, 280, days=5, passkey=False)
    put(redis_client, make_result, 4, 270, days=2)           # stands
    put(redis_client, make_result, 5, 260)                   # provisional, below the top
    board = Leaderboard(redis_client, DATE, "yahtzee", prefix=PREFIX)
    top = public(redis_client).public_top(board, 2, NOW)
    assert names(top) == ["p_000002", "p_000004"] and not top.open
    assert [e.rank for e in top.entries] == [2, 4]  # the board's ranks
    assert top.counts() == {"games": 2, "provisional": 1, "no_passkey": 1}
    # a top longer than the standing games: every game that does not stand is counted
    assert public(redis_client).public_top(board, 10, NOW).counts()["games"] == 3
    # private deployments: no passkey needed; no gate at all: the plain top
    assert names(public(redis_client, passkey=False).public_top(board, 2, NOW)) == [
        "p_000002", "p_000003"]
    assert names(public(redis_client, 0, False).public_top(board, 2, NOW)) == [
        "p_000001", "p_000002"]
    assert public(redis_client).public_top(board, 0, NOW).rows == []


def test_nothing_stands_the_top_shows_every_game_marked(
    redis_client: redis.Redis, make_result: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    put(redis_client, make_result, 1, 300)
    put(redis_client, make_result, 2, 290, passkey=False)
    board = Leaderboard(redis_client, DATE, "yahtzee", prefix=PREFIX)
    top = public(redis_client).public_top(board, 10, NOW)
    assert top.open and names(top) == ["p_000001", "p_000002"]
    assert [s.marks for _, s in top.rows] == [("provisional",), ("provisional", "no_passkey")]
    assert top.counts()["games"] == 0
    # a standing game beyond the rows read is not looked for
    put(redis_client, make_result, 3, 100, days=4)
    assert not public(redis_client).public_top(board, 10, NOW).open
    monkeypatch.setattr(standing_module, "SCAN_LIMIT", 2)
    assert public(redis_client).public_top(board, 10, NOW).open


def test_days_of_play_count_once_per_service_day_and_up_to_the_close(
    redis_client: redis.Redis, make_result: Any
) -> None:
    result = put(redis_client, make_result, 1, 300, days=1)  # finished as the 29th opened
    # two more dates finished at the same moment: the same day of play
    for k, date in enumerate(("2026-11-30", "2026-11-28"), start=10):
        record_game(redis_client, Result.from_json(make_result(
            1, game_id=f"g_same_{k}", date=date, finished_at=result.finished_at, log=None)),
            prefix=PREFIX)
    assert ranked_days(redis_client, "p_000001", prefix=PREFIX) == (2, play_day(
        calendar.opens_at(DATE - dt.timedelta(days=1)).timestamp() + 60))
    games = [(result.game_id, result.player_id)]
    verdict = public(redis_client).of_games(DATE, "yahtzee", games, NOW)[result.game_id]
    assert verdict.provisional and verdict.ranked_days == 2
    # a day of play after the 29th closed does not count for its board, but for the player
    late = calendar.closes_at(DATE) + dt.timedelta(days=1)
    record_game(redis_client, Result.from_json(make_result(
        1, game_id="g_late", date="2026-12-01", finished_at=late.timestamp(), log=None)),
        prefix=PREFIX)
    after = late + dt.timedelta(hours=1)
    verdict = public(redis_client).of_games(DATE, "yahtzee", games, after)[result.game_id]
    assert verdict.provisional and verdict.ranked_days == 2
    profile = public(redis_client).of_player("p_000001", after)
    assert profile["ranked_days"] == 3 and profile["stands"] and profile["days_left"] == 0


def test_a_cleared_game_stands_and_only_a_game_on_the_board_can_be_cleared(
    redis_client: redis.Redis, make_result: Any
) -> None:
    put(redis_client, make_result, 1, 300)
    put(redis_client, make_result, 2, 200, days=3)
    board = Leaderboard(redis_client, DATE, "yahtzee", prefix=PREFIX)
    rule = public(redis_client)
    assert names(rule.public_top(board, 10, NOW)) == ["p_000002"]
    assert rule.clear(DATE, "yahtzee", "g_000001") is True
    assert rule.clear(DATE, "yahtzee", "g_000001") is False
    top = rule.public_top(board, 10, NOW)
    assert names(top) == ["p_000001", "p_000002"] and top.counts()["games"] == 0
    with pytest.raises(NotFound, match="not on the board"):
        rule.clear(DATE, "yahtzee", "g_nobody")


def test_on_the_demo_clock_a_day_of_play_passes_in_minutes(
    redis_client: redis.Redis, make_result: Any
) -> None:
    """``daily serve --demo-day-minutes 0.1``: a game every 6 real seconds is a new day of
    play, so a test ages a player in under a minute."""
    opens = calendar.opens_at(DATE).timestamp()
    demo = DemoClock(real_anchor=1000.0, virtual_anchor=opens + 3600, day_minutes=0.1)
    for k in range(DAYS_ON_DEMO):
        finished = demo(real_now=1000.0 + 6 * k)
        day = DATE + dt.timedelta(days=k)
        record_game(redis_client, Result.from_json(make_result(
            1, game_id=f"g_demo_{k}", date=day.isoformat(), finished_at=finished.timestamp(),
            log=None)), prefix=PREFIX)
    assert ranked_days(redis_client, "p_000001", prefix=PREFIX)[0] == DAYS_ON_DEMO
    now = demo(real_now=1000.0 + 6 * DAYS_ON_DEMO)
    assert public(redis_client, DAYS_ON_DEMO, False).of_player("p_000001", now)["stands"]


def test_the_top_reads_on_past_a_page_of_games_that_do_not_stand(
    redis_client: redis.Redis, make_result: Any
) -> None:
    board = Leaderboard(redis_client, DATE, "yahtzee", prefix=PREFIX)
    board.record_many(Result.from_json(make_result(n, total=300 - n)) for n in range(1, 61))
    put(redis_client, make_result, 70, 100, days=3)
    top = public(redis_client).public_top(board, 1, NOW)
    assert names(top) == ["p_000070"] and top.entries[0].rank == 61
    assert top.counts() == {"games": 60, "provisional": 60, "no_passkey": 60}
