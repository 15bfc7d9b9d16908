"""The weekly special: a third daily set on one day of the week, rotating.

Through the live server (real gunicorn, two workers taking consecutive requests in turn)
configured with a weekly special.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from daily.movelog import MoveLog
from daily.replay import replay
from daily.service.config import Config, ConfigError, load_config
from daily.service.days.keyring import Keyring

from .conftest import Player, play_out

ROTATION = "sun:yatzy/yacht/generala/triple-yahtzee"


pytestmark = [pytest.mark.redis, pytest.mark.live]


@pytest.fixture(scope="module")
def live_env(live_env: dict[str, str]) -> dict[str, str]:
    """The live server's environment, with a weekly special."""
    return {**live_env, "DAILY_RULESETS": f"yahtzee,maxi-yatzy,{ROTATION}"}


def test_the_rotation_goes_week_by_week() -> None:
    config = load_config({"DAILY_RULESETS": f"yahtzee,{ROTATION}"})
    sundays = [dt.date(2026, 11, 29) + dt.timedelta(weeks=w) for w in range(5)]
    assert [config.rulesets_on(d)[-1] for d in sundays] == [
        "yacht", "generala", "triple-yahtzee", "yatzy", "yacht"]
    assert config.rulesets_on(dt.date(2026, 12, 5)) == ("yahtzee",)
    assert config.all_daily_rulesets == (
        "yahtzee", "yatzy", "yacht", "generala", "triple-yahtzee")


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ("yahtzee,sunday:yatzy", "'sunday' is not a day of the week"),
        ("yahtzee,sun:", "the weekly special names no ruleset"),
        ("yahtzee,sun:yatzy,mon:yacht", "more than one weekly special"),
        ("sun:yatzy", "names no ruleset"),
        ("yahtzee,sun:yatzy/poker", "unknown ruleset 'poker'"),
    ],
)
def test_bad_specials_are_refused_naming_the_variable(value: str, needle: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_config({"DAILY_RULESETS": value})
    assert needle in str(err.value) and err.value.field == "DAILY_RULESETS"


def test_today_lists_the_special_on_its_day(client: Any) -> None:
    body = client.get("/api/v1/today").get_json()
    assert body["rulesets"] == ["yahtzee", "maxi-yatzy"]
    assert body["special"] == {
        "weekday": "sun", "rotation": ["yatzy", "yacht", "generala", "triple-yahtzee"]}
    by_date: dict[str, list[str]] = {}
    for s in body["sets"]:
        by_date.setdefault(s["date"], []).append(s["ruleset"])
        assert s["special"] == (s["ruleset"] == "yacht")
    assert by_date["2026-11-29"] == ["yahtzee", "maxi-yatzy", "yacht"]
    assert by_date["2026-11-28"] == by_date["2026-11-30"] == ["yahtzee", "maxi-yatzy"]


def test_the_special_is_played_ranked_only_on_its_day(
    service_config: Config, player: Player
) -> None:
    other = player.call("POST", "/games", {"ruleset": "yacht", "date": "2026-11-28"})
    assert other.status_code == 404  # no daily set of yacht that day
    assert other.get_json()["error"]["field"] == "ruleset"
    response = player.call("POST", "/games", {"ruleset": "yacht", "date": "2026-11-29"})
    assert response.status_code == 201
    final = play_out(player, response.get_json())
    seed = Keyring.load(service_config).day_seed("yacht", "2026-11-29")
    assert replay(MoveLog.from_json(final["log"]), seed).total == final["total"]
    assert player.call("GET", "/days/2026-11-29/yacht").status_code == 200
    assert player.call("GET", "/days/2026-11-28/yacht").status_code == 404
    days = player.call("GET", "/days?from=2026-11-28&to=2026-11-30").get_json()["days"]
    assert sorted({(d["date"], d["ruleset"]) for d in days if d["ruleset"] == "yacht"}) == [
        ("2026-11-29", "yacht")]
    assert player.call("GET", "/leaderboards/2026-11-28/yacht").status_code == 404


def test_a_triple_yahtzee_special_is_a_whole_ranked_game(
    live_variants: Any, redis_url: str, service_config: Config
) -> None:
    server = live_variants(DAILY_RULESETS="yahtzee,sun:triple-yahtzee")
    player = Player(server.client())
    response = player.call("POST", "/games", {"ruleset": "triple-yahtzee",
                                              "date": "2026-11-29"})
    assert response.status_code == 201
    state = response.get_json()
    assert state["turns"] == 39 and state["card"][13]["box"] == "2.ones"
    final = play_out(player, state)
    assert final["over"] and len(final["history"]) == 39
    seed = Keyring.load(service_config).day_seed("triple-yahtzee", "2026-11-29")
    assert replay(MoveLog.from_json(final["log"]), seed).total == final["total"]
