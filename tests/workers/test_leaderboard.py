"""The leaderboard and player statistics against a real Redis."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import redis

from daily.movelog import MoveLog
from daily.service.results.leaderboard import (
    BoardFrozenError,
    DuplicatePlayerError,
    Leaderboard,
)
from daily.service.results.result import Result, ResultError, _ident, _text
from daily.service.results.stats import player_history, player_stats, record_game

pytestmark = pytest.mark.redis
PREFIX = "tw:"
DATE = "2026-11-29"


def board(conn: redis.Redis, ruleset: str = "yahtzee") -> Leaderboard:
    return Leaderboard(conn, DATE, ruleset, prefix=PREFIX)


def test_rank_order_score_then_finish_then_game_id(redis_client, make_result) -> None:
    b = board(redis_client)
    rows = [
        make_result(1, game_id="g_b", total=240, finished_at=make_result()["finished_at"] + 5),
        make_result(2, game_id="g_c", total=250),
        make_result(3, game_id="g_a", total=240, finished_at=make_result()["finished_at"] + 5),
        make_result(4, game_id="g_d", total=240, finished_at=make_result()["finished_at"] + 1),
        make_result(5, game_id="g_e", total=100),
    ]
    for r in rows:
        assert b.record(Result.from_json(r)) == "recorded"
    top = b.top(10)
    assert [e.game_id for e in top] == ["g_c", "g_d", "g_a", "g_b", "g_e"]
    # standard competition ranks: equal totals share a rank, the next one skips
    assert [e.rank for e in top] == [1, 2, 2, 2, 5]
    assert b.players() == 5
    me = b.standing("p_000003")
    assert me is not None and (me.rank, me.score, me.percentile) == (2, 240, 80.0)
    assert (me.better_than, me.top) == (20.0, 40.0)
    assert b.standing_of_game("g_b") == me.__class__(2, 5, 1, 240, "g_b")
    assert b.standing("p_nobody") is None and b.standing_of_game("g_nobody") is None
    assert [e.game_id for e in b.around("p_000003", radius=1)] == ["g_d", "g_a", "g_b"]
    assert [e.rank for e in b.around("p_000003", radius=1)] == [2, 2, 2]
    assert [e.game_id for e in b.around("p_000002", radius=2)] == ["g_c", "g_d", "g_a"]
    # a page starting among equals ranks them like the whole board does
    assert [e.rank for e in b.page(4, 10)] == [2, 5]
    assert [e.rank for e in b.page(3, 1)] == [2]
    assert b.histogram() == {
        "bin_width": 10,
        "bins": [
            {"from": 100, "to": 109, "count": 1},
            {"from": 240, "to": 249, "count": 3},
            {"from": 250, "to": 259, "count": 1},
        ],
    }


def test_ties_share_a_rank_on_every_view_of_the_board(redis_client, make_result) -> None:
    """The ranks of top, page, around and standing are daily.standings' of the whole board."""
    from daily import standings

    b = board(redis_client)
    totals = [137, 137, 120, 120, 120, 99, 137, 80, 80, 60, 120, 50]
    base = make_result()["finished_at"]
    for n, total in enumerate(totals, start=1):
        b.record(Result.from_json(make_result(n, total=total, finished_at=base + n)))
    expected = {r.game_id: r.rank for r in standings.standings(
        (f"g_{n:06d}", t, base + n) for n, t in enumerate(totals, start=1))}
    full = b.top(100)
    assert {e.game_id: e.rank for e in full} == expected
    assert [e.rank for e in full][:4] == [1, 1, 1, 4]
    for start in range(1, len(totals) + 1):
        assert [e.rank for e in b.page(start, 3)] == [e.rank for e in full[start - 1:start + 2]]
    batches = list(b.iter_results(batch=5))
    assert [e.rank for e, _ in batches] == [e.rank for e in full]
    for n in range(1, len(totals) + 1):
        me = b.standing(f"p_{n:06d}")
        assert me is not None and me.rank == expected[f"g_{n:06d}"]
        lower = sum(t < totals[n - 1] for t in totals)
        assert me.better_than == standings.better_than(lower, len(totals))
        assert me.top == standings.top_share(me.rank, len(totals))
        assert [e.rank for e in b.around(f"p_{n:06d}", radius=2)] == [
            expected[e.game_id] for e in b.around(f"p_{n:06d}", radius=2)]


def test_a_view_shows_the_current_names(redis_client, make_result) -> None:
    b = board(redis_client)
    b.record(Result.from_json(make_result(1, total=200)))
    b.record(Result.from_json(make_result(2, total=100)))
    asked: list[list[str]] = []

    def names(ids: list[str]) -> dict[str, str]:
        asked.append(ids)
        return {"p_000001": "Ada"}

    view = b.view(10, "p_000002", names=names)
    assert [row["player"]["name"] for row in view["top"]] == ["Ada", "Player 2"]
    assert [row["player"]["name"] for row in view["around"]] == ["Ada", "Player 2"]
    assert asked == [["p_000001", "p_000002"]]  # one look-up for the whole view


def test_record_twice_changes_nothing(redis_client, make_result) -> None:
    b = board(redis_client)
    r = Result.from_json(make_result(7))
    assert b.record(r) == "recorded"
    before = {k: redis_client.dump(k) for k in redis_client.keys("*")}
    assert b.record(r) == "already_recorded"
    assert {k: redis_client.dump(k) for k in redis_client.keys("*")} == before
    assert b.players() == 1


def test_one_game_per_player_and_frozen_board(redis_client, make_result) -> None:
    b = board(redis_client)
    b.record(Result.from_json(make_result(1)))
    with pytest.raises(DuplicatePlayerError, match="p_000001 already has another game"):
        b.record(Result.from_json(make_result(1, game_id="g_other")))
    assert b.freeze(123.0) and not b.freeze(456.0)
    assert b.frozen()
    # Already recorded stays fine after freezing; a new game is refused.
    assert b.record(Result.from_json(make_result(1))) == "already_recorded"
    with pytest.raises(BoardFrozenError, match="frozen"):
        b.record(Result.from_json(make_result(2)))
    assert b.players() == 1


def test_view_has_the_api_shape(redis_client, make_result) -> None:
    b = board(redis_client, "maxi-yatzy")
    for n in range(1, 21):
        b.record(Result.from_json(make_result(n, ruleset="maxi", total=200 + n)))
    view = b.view(limit=3, player_id="p_000010")
    assert view["players"] == 20 and view["frozen"] is False
    assert [row["rank"] for row in view["top"]] == [1, 2, 3]
    assert view["top"][0]["player"] == {"id": "p_000020", "name": "Player 20"}
    assert view["me"] == {"rank": 11, "percentile": 50.0, "score": 210,
                          "better_than": 45.0, "top": 55.0, "tied": 1, "game_id": "g_000010"}
    assert [row["rank"] for row in view["around"]] == list(range(6, 17))
    assert b.view(player_id="p_x")["me"] is None


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("total", -1, "total: must be a whole number"),
        ("total", "250", "total: must be a whole number"),
        ("ruleset", "poker", "ruleset: unknown ruleset"),
        ("date", "29/11/2026", "date: '29/11/2026' is not a date"),
        ("finished_at", float("nan"), "finished_at: must be a positive finite"),
        ("game_id", "g 1", "game_id: must not contain spaces"),
        ("player_name", "A\x07", "player_name: must not contain control"),
        ("log", 5, "log: must be a daily-log/1 JSON object"),
        ("log", {"format": "daily-log/1"}, "log: not a daily-log/1 move log"),
        ("log", "dl1~poker", "log: not a daily-log/1 move log"),
    ],
)
def test_bad_results_name_the_field(make_result, field, value, message) -> None:
    with pytest.raises(ResultError, match=message):
        Result.from_json(make_result(1, **{field: value}))


def test_result_json_round_trip(make_result) -> None:
    r = Result.from_json(make_result(3))
    assert Result.from_json(r.to_json()) == r


def test_the_stream_form_is_the_object_form_with_the_log_as_text(make_result) -> None:
    """``dumps`` (the results stream's entries) is ``to_json`` with the compact log text
    in place of the log's JSON, keys in the same order, and reads back the same."""
    r = Result.from_json(make_result(3))
    assert r.log
    expected = {**r.to_json(), "log": r.log}
    assert r.dumps() == json.dumps(expected, separators=(",", ":"))
    assert list(json.loads(r.dumps())) == list(r.to_json())
    assert Result.from_json(r.dumps()) == r


def test_player_stats_and_streaks(redis_client, make_result) -> None:
    now = dt.datetime(2026, 11, 30, 0, 0, tzinfo=dt.UTC)  # 29 and 30 open, 28 closed
    games = [
        make_result(1, game_id="g_1", date="2026-11-26", total=200),
        make_result(1, game_id="g_2", date="2026-11-27", total=300),
        make_result(1, game_id="g_3", date="2026-11-27", ruleset="maxi-yatzy", total=280),
        make_result(1, game_id="g_4", date="2026-11-28", total=100),
        make_result(1, game_id="g_5", date="2026-11-20", total=250),
    ]
    for g in games:
        assert record_game(redis_client, Result.from_json(g), prefix=PREFIX)
    assert not record_game(redis_client, Result.from_json(games[0]), prefix=PREFIX)
    stats = player_stats(redis_client, "p_000001", now, prefix=PREFIX)
    assert stats["games"] == 5 and stats["best"] == 300
    assert stats["average"] == round((200 + 300 + 280 + 100 + 250) / 5, 1)
    assert stats["by_ruleset"]["yahtzee"] == {"games": 4, "average": 212.5, "best": 300}
    assert (stats["current_streak"], stats["longest_streak"]) == (3, 3)
    later = dt.datetime(2026, 12, 1, 13, 0, tzinfo=dt.UTC)  # the 29th closed unplayed
    assert player_stats(redis_client, "p_000001", later, prefix=PREFIX)["current_streak"] == 0
    history = player_history(redis_client, "p_000001", prefix=PREFIX)
    assert [h["date"] for h in history][:2] == ["2026-11-28", "2026-11-27"]
    empty = player_stats(redis_client, "p_new", now, prefix=PREFIX)
    assert empty == {
        "games": 0, "average": None, "best": None, "current_streak": 0,
        "longest_streak": 0, "by_ruleset": {},
    }


def test_ids_refuse_every_space_and_brace_and_names_every_control_character() -> None:
    """The regular expressions of the checks refuse what ``str.isspace``, the braces and
    the control characters (C0 and DEL) name, every character of the basic plane."""
    for code in range(0x10000):
        ch = chr(code)
        spaced = ch.isspace() or ch in "{}"
        try:
            _ident({"game_id": f"g_{ch}1"}, "game_id")
        except ResultError as exc:
            assert spaced or code < 32 or code == 127, (hex(code), exc)
        else:
            assert not spaced and not (code < 32 or code == 127), hex(code)
        control = code < 32 or code == 127
        try:
            _text({"player_name": f"A{ch}"}, "player_name", 24, empty_ok=True)
        except ResultError:
            assert control, hex(code)
        else:
            assert not control, hex(code)


def test_a_parsed_move_log_is_taken_as_its_text(make_result) -> None:
    """The finishing move hands the result its verified ``MoveLog``: the same result as
    its JSON or its text would give."""
    from_json = Result.from_json(make_result(4))
    log = MoveLog.from_text(from_json.log)
    assert Result.from_json(make_result(4, log=log)) == from_json
    assert Result.from_json(make_result(4, log=from_json.log)) == from_json
