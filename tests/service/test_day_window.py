"""The time-zone window: a date is open from D 00:00 at UTC+14 to the end of D at
UTC-12, read from the app's injectable clock (the live server's: real gunicorn, two
workers taking consecutive requests in turn, their clock moved by the test)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tests.service.conftest import Player, play_out
from tests.service.live import FileClockControl

pytestmark = [pytest.mark.redis, pytest.mark.live]


def start(player: Player, date: str, mode: str = "ranked") -> Any:
    return player.call("POST", "/games", {"ruleset": "yahtzee", "date": date, "mode": mode})


def test_today_lists_the_open_dates(client: Any, clock: FileClockControl) -> None:
    body = client.get("/api/v1/today").get_json()
    assert body["now"] == "2026-11-29T11:00:00Z"
    assert body["open_dates"] == ["2026-11-28", "2026-11-29", "2026-11-30"]
    assert body["rulesets"] == ["yahtzee", "maxi-yatzy"]
    assert body["next_reveal_at"] == "2026-11-29T12:00:00Z"
    status = {(s["date"], s["ruleset"]): s["status"] for s in body["sets"]}
    assert status[("2026-11-27", "yahtzee")] == "revealed"
    assert status[("2026-11-28", "maxi-yatzy")] == "open"
    assert status[("2026-12-01", "yahtzee")] == "upcoming"
    day = next(s for s in body["sets"] if s["date"] == "2026-11-30")
    assert (day["opens_at"], day["closes_at"]) == ("2026-11-29T10:00:00Z", "2026-12-01T12:00:00Z")
    assert all(s["played"] is None for s in body["sets"])

    clock.set(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC))  # the 28th just closed
    assert client.get("/api/v1/today").get_json()["open_dates"] == ["2026-11-29", "2026-11-30"]


def test_ranked_play_only_inside_the_window(player: Player, clock: FileClockControl) -> None:
    for date in ("2026-11-27", "2026-12-01"):
        response = start(player, date)
        assert response.status_code == 409
        error = response.get_json()["error"]
        assert (error["code"], error["field"]) == ("day_not_open", "date")
    assert "opens at 2026-11-30T10:00:00Z" in start(player, "2026-12-01").get_json()["error"][
        "message"
    ]
    # The 1st of December opens at 10:00 UTC on the 30th (midnight at UTC+14).
    clock.set(dt.datetime(2026, 11, 30, 9, 59, 59, tzinfo=dt.UTC))
    assert start(player, "2026-12-01").status_code == 409
    clock.advance(seconds=1)
    assert start(player, "2026-12-01").status_code == 201


def test_a_day_closes_for_unfinished_games_and_opens_for_practice(
    player: Player, clock: FileClockControl
) -> None:
    game = start(player, "2026-11-28").get_json()
    today = player.call("GET", "/today").get_json()
    played = next(
        s["played"] for s in today["sets"]
        if (s["date"], s["ruleset"]) == ("2026-11-28", "yahtzee")
    )
    assert played == {"game_id": game["id"], "over": False, "total": None, "code": None}
    # The 28th ends at UTC-12 at 12:00 UTC on the 29th.
    clock.set(dt.datetime(2026, 11, 29, 11, 59, 59, tzinfo=dt.UTC))
    rolled = player.call("POST", f"/games/{game['id']}/roll", {"hold": "00001", "position": 0})
    assert rolled.status_code == 200
    assert start(player, "2026-11-28", mode="practice").status_code == 409  # not revealed
    clock.advance(seconds=1)
    late = player.call("POST", f"/games/{game['id']}/score", {"box": "chance", "position": 1})
    assert late.status_code == 409
    error = late.get_json()["error"]
    assert (error["code"], error["field"]) == ("day_not_open", "date")
    assert start(player, "2026-11-28").get_json()["error"]["code"] == "day_not_open"
    # Now the day is revealed: practice on its dice, from the same first roll.
    practice = start(player, "2026-11-28", mode="practice")
    assert practice.status_code == 201
    assert practice.get_json()["dice"] == game["dice"]
    assert practice.get_json()["mode"] == "practice"


def test_results_show_the_dice_only_after_the_reveal(
    player: Player, clock: FileClockControl, client: Any
) -> None:
    final = play_out(player, start(player, "2026-11-29").get_json())
    code = final["result"]["code"]
    before = client.get(f"/api/v1/results/{code.lower()}").get_json()
    assert before["revealed"] is False
    assert "history" not in before and "log" not in before
    assert before["total"] == final["total"] and before["player"] == {"name": "Ada"}
    assert [c["points"] for c in before["card"]] == [c["points"] for c in final["card"]]
    clock.set(dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC))
    after = client.get(f"/api/v1/results/{code}").get_json()
    assert after["revealed"] is True
    assert after["history"] == final["history"]
    assert after["log"]["turns"] == final["log"]["turns"]
