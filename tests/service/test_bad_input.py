"""Bad input on every endpoint: a JSON 4xx whose error names the field; never a 500.

Through the live server: real gunicorn, two workers taking consecutive requests in turn.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis

from daily.service import keymap
from daily.service.config import Config
from tests.service.conftest import Player
from tests.service.live import LiveServer

pytestmark = [pytest.mark.redis, pytest.mark.live]


def error(response: Any, status: int, code: str, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.data[:300])
    assert response.is_json
    body = response.get_json()["error"]
    assert body["status"] == status and body["code"] == code, body
    assert body["message"]
    if field is not None:
        assert body.get("field") == field, body
    return body


@pytest.fixture
def game(player: Player) -> dict[str, Any]:
    return player.call(
        "POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29", "mode": "ranked"}
    ).get_json()


def test_bad_bodies_on_post_players(client: Any) -> None:
    url = "/api/v1/players"
    error(client.post(url, data="{nope", content_type="application/json"), 400, "bad_request",
          "body")
    error(client.post(url, json=[1, 2]), 400, "bad_request", "body")
    # White space alone is not an absent body but a body that is not JSON.
    error(client.post(url, data="\n", content_type="application/json"), 400, "bad_request",
          "body")
    error(client.post(url, json={"name": ""}), 422, "bad_name", "name")
    error(client.post(url, json={"name": "x" * 25}), 422, "bad_name", "name")
    error(client.post(url, json={"name": "A\x00da"}), 422, "bad_name", "name")
    error(client.post(url, json={"name": "Ada\u202e"}), 422, "bad_name", "name")
    error(client.post(url, json={"name": 7}), 422, "invalid_field", "name")
    error(client.post(url, json={"nick": "Ada"}), 422, "invalid_field", "nick")
    assert client.post(url, json={"name": "  Ada Lovelace  "}).get_json()["player"]["name"] == (
        "Ada Lovelace"
    )
    assert client.post(url).status_code == 201  # no body: a generated name


def test_bad_bodies_on_players_me(player: Player, client: Any) -> None:
    error(client.get("/api/v1/players/me"), 401, "unauthorized", "Authorization")
    error(client.get("/api/v1/players/me", headers={"Authorization": "Basic x"}), 401,
          "unauthorized", "Authorization")
    forged = player.token[:-2] + ("aa" if not player.token.endswith("aa") else "bb")
    error(client.get("/api/v1/players/me", headers={"Authorization": f"Bearer {forged}"}), 401,
          "unauthorized", "Authorization")
    error(player.call("PATCH", "/players/me", {}), 422, "invalid_field", "name")
    error(player.call("PATCH", "/players/me", {"name": "\t"}), 422, "bad_name", "name")
    error(player.call("PATCH", "/players/me", {"name": "Ok", "x": 1}), 422, "invalid_field", "x")
    error(player.call("PATCH", "/players/me", [1]), 400, "bad_request", "body")


def test_bad_bodies_on_post_games(player: Player, client: Any) -> None:
    error(client.post("/api/v1/games", json={"ruleset": "yahtzee"}), 401, "unauthorized")
    cases = [
        ({}, "ruleset"),
        ({"ruleset": "poker", "date": "2026-11-29"}, "ruleset"),
        ({"ruleset": 5, "date": "2026-11-29"}, "ruleset"),
        ({"ruleset": "yahtzee"}, "date"),
        ({"ruleset": "yahtzee", "date": "2026-13-01"}, "date"),
        ({"ruleset": "yahtzee", "date": 20261129}, "date"),
        ({"ruleset": "yahtzee", "date": "2026-11-29", "mode": "blitz"}, "mode"),
        ({"ruleset": "yahtzee", "date": "2026-11-29", "options": {"joker": False}},
         "options.joker"),
        ({"ruleset": "yahtzee", "date": "2026-11-29", "options": None}, "options"),
        ({"ruleset": "yahtzee", "date": "0001-01-01"}, "date"),
        ({"ruleset": "yahtzee", "mode": "practice", "options": {"joker": "no"}},
         "options.joker"),
        ({"ruleset": "yahtzee", "mode": "practice", "options": {"jokers": True}},
         "options.jokers"),
        ({"ruleset": "yahtzee", "mode": "practice", "options": [1]}, "options"),
        ({"ruleset": "yahtzee", "date": "2026-11-29", "seed": "00"}, "seed"),
    ]
    for body, field in cases:
        error(player.call("POST", "/games", body), 422, "invalid_field", field)
    # well formed, but no daily set of yatzy
    error(player.call("POST", "/games", {"ruleset": "yatzy", "date": "2026-11-29"}), 404,
          "not_found", "ruleset")
    assert player.call("POST", "/games", {"ruleset": "yahtzee", "mode": "practice",
                                          "options": {"joker": False}}).status_code == 201


def test_bad_bodies_on_roll_and_score(player: Player, game: dict[str, Any]) -> None:
    roll = f"/games/{game['id']}/roll"
    score = f"/games/{game['id']}/score"
    error(player.call("POST", roll, {"hold": "0110"}), 422, "invalid_field", "hold")
    error(player.call("POST", roll, {"hold": "01a10"}), 422, "invalid_field", "hold")
    error(player.call("POST", roll, {"hold": 10100}), 422, "invalid_field", "hold")
    error(player.call("POST", roll, {}), 422, "invalid_field", "hold")
    error(player.call("POST", roll, {"hold": "00000", "dice": [6] * 5, "position": 0}), 422,
          "invalid_field", "dice")
    error(player.call("POST", roll, {"hold": "11111"}), 422, "invalid_field", "hold")
    error(player.call("POST", roll, {"hold": "00000", "position": None}), 422, "invalid_field",
          "position")
    # well formed (the document's schema) but not for this game: 409 illegal_move
    body = error(player.call("POST", roll, {"hold": "000000", "position": 0}), 409,
                 "illegal_move", "hold")
    assert (body["turn"], body["roll"]) == (1, 2)
    error(player.call("POST", score, {"box": "yatzy", "position": 0}), 409, "illegal_move", "box")
    error(player.call("POST", score, {"box": None}), 422, "invalid_field", "box")
    error(player.call("POST", score, {}), 422, "invalid_field", "box")
    error(player.call("POST", score, "chance"), 400, "bad_request", "body")
    assert player.call("POST", roll, {"hold": "00000", "position": 0}).status_code == 200
    assert player.call("POST", roll, {"hold": "00000", "position": 1}).status_code == 200
    body = error(player.call("POST", roll, {"hold": "00000", "position": 2}), 409, "illegal_move")
    assert (body["turn"], body["roll"]) == (1, 4) and "no rolls left" in body["message"]
    assert player.call("POST", score, {"box": "chance", "position": 2}).status_code == 200
    body = error(player.call("POST", score, {"box": "chance", "position": 3}), 409,
                 "illegal_move", "box")
    assert body["turn"] == 2 and "already filled" in body["message"]


def test_bad_ids_codes_and_queries(player: Player, client: Any) -> None:
    error(player.call("GET", "/games/g_doesnotexist"), 404, "not_found", "id")
    error(player.call("GET", "/games/nonsense!"), 422, "invalid_field", "game_id")
    error(player.call("POST", "/games/g_nothing/roll", {"hold": "00000", "position": 0}), 404,
          "not_found")
    error(player.call("POST", "/games/g_nothing/log", {"log": {}}), 422, "invalid_field",
          "log.format")
    error(player.call("POST", "/games/g_nothing/log", {}), 422, "invalid_field", "log")
    error(client.get("/api/v1/results/DD-UUUU"), 422, "bad_result_code", "code")
    error(client.get("/api/v1/results/DD-" + "1" * 13), 422, "bad_result_code", "code")
    error(client.get("/api/v1/results/DD-ABCDEF"), 404, "unknown_result", "code")
    error(client.get("/api/v1/leaderboards/2026-11-32/yahtzee"), 422, "invalid_field", "date")
    error(client.get("/api/v1/leaderboards/2026-11-29/poker"), 422, "invalid_field", "ruleset")
    error(client.get("/api/v1/leaderboards/2026-11-29/yacht"), 404, "not_found", "ruleset")
    error(client.get("/api/v1/leaderboards/2026-11-29/yahtzee?limit=0"), 422, "invalid_field",
          "limit")
    error(client.get("/api/v1/leaderboards/2026-11-29/yahtzee?limit=ten"), 422,
          "invalid_field", "limit")
    error(client.get("/api/v1/nowhere"), 404, "not_found")
    error(client.delete("/api/v1/players"), 405, "method_not_allowed")


def test_body_limit_gives_413(service_config: Config, player: Player) -> None:
    limit = service_config.max_body
    big = {"name": "x" * (limit + 10)}
    error(player.call("POST", "/players", big), 413, "too_large")
    error(player.call("POST", "/games/g_x/log", {"log": "y" * (limit + 1)}), 413, "too_large")


def test_unexpected_errors_are_json_500_without_detail(
    client: Any, live_server: LiveServer, redis_client: redis.Redis, service_config: Config
) -> None:
    # A game record no version of the service wrote: reading it fails in a way nobody
    # planned for, with the record's text in the exception's message.
    game_id = "g_corrupt0000000000000"
    redis_client.set(keymap.game(service_config.key_prefix, game_id),
                     '{"v": 1, "secret detail 1234": true}')
    player = Player(client)
    for _ in range(2):  # on each worker
        response = player.call("GET", f"/games/{game_id}")
        body = error(response, 500, "internal")
        assert b"secret detail" not in response.data and b"Traceback" not in response.data
        assert body["message"] == "internal error; it has been logged"
    assert len(set(client.workers[-2:])) == 2
    assert "secret detail 1234" in live_server.log.read_text()  # the log has the detail


def test_every_authenticated_endpoint_needs_a_valid_token(client: Any) -> None:
    bad = {"Authorization": "Bearer p_nobody.secret"}
    calls = [
        ("GET", "/api/v1/players/me", None), ("PATCH", "/api/v1/players/me", {"name": "X"}),
        ("POST", "/api/v1/games", {"ruleset": "yahtzee"}), ("GET", "/api/v1/games/g_1", None),
        ("POST", "/api/v1/games/g_1/roll", {"hold": "00000", "position": 0}),
        ("POST", "/api/v1/games/g_1/score", {"box": "chance", "position": 0}),
        ("POST", "/api/v1/games/g_1/log", {"log": "dl1~yahtzee~-~d2026-11-29~"}),
    ]
    for method, path, body in calls:
        for headers in ({}, bad):
            response = client.open(path, method=method, json=body, headers=headers)
            error(response, 401, "unauthorized", "Authorization")
    # Optional-token endpoints refuse a bad token rather than ignoring it.
    error(client.get("/api/v1/today", headers=bad), 401, "unauthorized", "Authorization")
    error(client.get("/api/v1/leaderboards/2026-11-29/yahtzee", headers=bad), 401,
          "unauthorized")
    assert client.get("/api/v1/today").status_code == 200
