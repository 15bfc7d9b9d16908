"""Hints and analysis through the JSON API: the live server (real gunicorn, two workers
taking consecutive requests in turn) on the test's Redis database."""

from __future__ import annotations

import time
from typing import Any

import pytest

from daily.rules import get_ruleset
from daily.service.config import Config
from daily.strategy.solver import StrategyTable
from daily.strategy.tables.fileformat import save_table
from daily.strategy.tables.status import clear_progress, progress_writer
from tests.service import conftest as service_fixtures
from tests.service.live import FileClockControl

# the service tests' fixtures: a live server on the test's Redis database, its clock
service_config = service_fixtures.service_config
clock = service_fixtures.clock
client = service_fixtures.client
player = service_fixtures.player
live_env = service_fixtures.live_env
live_server = service_fixtures.live_server
live_config = service_fixtures.live_config
live_clock = service_fixtures.live_clock
live_client = service_fixtures.live_client
Player = service_fixtures.Player
play_out = service_fixtures.play_out

pytestmark = [pytest.mark.redis, pytest.mark.live]


@pytest.fixture
def tables(service_config: Config, yahtzee_table: StrategyTable) -> None:
    save_table(yahtzee_table, service_config.tables_dir)


def follow_hints(player: Player, state: dict[str, Any]) -> dict[str, Any]:
    while not state["over"]:
        response = player.call("POST", f"/games/{state['id']}/hint", {"top": 2})
        assert response.status_code == 200, response.get_json()
        hint = response.get_json()
        assert hint["turn"] == state["turn"] and len(hint["alternatives"]) <= 2
        best = hint["best"]
        if best["kind"] == "keep":
            state = player.call("POST", f"/games/{state['id']}/roll",
                                {"hold": best["hold"], "position": state["position"]})
        else:
            state = player.call("POST", f"/games/{state['id']}/score",
                                {"box": best["box"], "position": state["position"]})
        assert state.status_code == 200, state.get_json()
        state = state.get_json()
    return state


def test_practice_game_hints_then_analysis(tables: None, player: Player) -> None:
    state = player.call("POST", "/games", {"ruleset": "yahtzee", "mode": "practice"}).get_json()
    response = player.call("GET", f"/games/{state['id']}/analysis")
    assert response.status_code == 409 and "not finished" in response.get_json()["error"]["message"]
    final = follow_hints(player, state)
    report = player.call("GET", f"/games/{final['id']}/analysis")
    assert report.status_code == 200
    body = report.get_json()
    assert body["total"] == final["total"] == body["optimal_total"]
    assert body["expected_loss"] == pytest.approx(0, abs=1e-6)
    assert body["mistakes"] == [] and body["text"] == []
    over = player.call("POST", f"/games/{final['id']}/hint")
    assert over.status_code == 409


def test_ranked_game_only_after_the_reveal(
    tables: None, player: Player, clock: FileClockControl
) -> None:
    start = player.call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29"})
    state = start.get_json()
    refused = player.call("POST", f"/games/{state['id']}/hint")
    assert refused.status_code == 403
    assert refused.get_json()["error"]["code"] == "forbidden"
    final = play_out(player, state)
    assert player.call("GET", f"/games/{final['id']}/analysis").status_code == 403
    clock.advance(days=2)
    report = player.call("GET", f"/games/{final['id']}/analysis")
    assert report.status_code == 200, report.get_json()
    body = report.get_json()
    assert body["total"] == final["total"]
    assert body["expected_loss"] > 0 and 1 <= len(body["text"]) == len(body["mistakes"])


def test_bad_top_missing_table_and_other_players(
    tables: None, player: Player, client: Any, service_config: Config
) -> None:
    state = player.call("POST", "/games", {"ruleset": "yahtzee", "mode": "practice"}).get_json()
    bad = player.call("POST", f"/games/{state['id']}/hint", {"top": "3"})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "top"
    other = Player(client, "Eve")
    assert other.call("POST", f"/games/{state['id']}/hint").status_code == 403
    yatzy = player.call("POST", "/games", {"ruleset": "yatzy", "mode": "practice"}).get_json()
    missing = player.call("POST", f"/games/{yatzy['id']}/hint")
    assert missing.status_code == 503
    error = missing.get_json()["error"]
    assert error["code"] == "table_not_ready" and error["table"] == {"state": "missing"}
    assert "daily strategy build yatzy" in error["message"]
    # While its table builds, the refusal carries the build's state as /health says it.
    now = time.time()
    times = [now - 60, now]
    write = progress_writer(get_ruleset("yatzy"), service_config.tables_dir,
                            clock=lambda: times.pop(0))
    write(250, 1000)  # a quarter in a minute: about three to go
    table = player.call("POST", f"/games/{yatzy['id']}/hint").get_json()["error"]["table"]
    health = client.get("/api/v1/health").get_json()["tables"]["yatzy"]
    assert table["state"] == health["state"] == "building"
    assert table["percent"] == health["percent"] == 25.0
    assert abs(table["eta_seconds"] - 180) <= 5 and abs(health["eta_seconds"] - 180) <= 5
    clear_progress(get_ruleset("yatzy"), service_config.tables_dir)
    assert player.call("POST", "/games/g_nonexistent0000000000/hint").status_code == 404


def test_generala_hints_follow_the_served_points(
    service_config: Config, generala_table: StrategyTable, player: Player
) -> None:
    save_table(generala_table, service_config.tables_dir)
    state = player.call("POST", "/games", {"ruleset": "generala", "mode": "practice"}).get_json()
    final = follow_hints(player, state)
    body = player.call("GET", f"/games/{final['id']}/analysis").get_json()
    assert body["heuristic"] is False
    assert body["total"] == final["total"] == body["optimal_total"]
    assert body["expected_loss"] == pytest.approx(0, abs=1e-6)


def test_triple_yahtzee_hints_and_analysis_are_heuristic(
    service_config: Config, plain_yahtzee_table: StrategyTable, player: Player
) -> None:
    state = player.call(
        "POST", "/games", {"ruleset": "triple-yahtzee", "mode": "practice"}).get_json()
    missing = player.call("POST", f"/games/{state['id']}/hint")
    assert missing.status_code == 503
    assert "daily strategy build yahtzee" in missing.get_json()["error"]["message"]
    save_table(plain_yahtzee_table, service_config.tables_dir)
    hint = player.call("POST", f"/games/{state['id']}/hint", {"top": 1}).get_json()
    assert hint["heuristic"] is True and hint["turn"] == 1
    final = follow_hints(player, state)
    assert len(final["history"]) == 39
    body = player.call("GET", f"/games/{final['id']}/analysis").get_json()
    assert body["heuristic"] is True
    assert body["total"] == final["total"] == body["optimal_total"]
    assert body["expected_loss"] == pytest.approx(0, abs=1e-6)
