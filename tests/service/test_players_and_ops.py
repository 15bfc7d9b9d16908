"""Players (token hash only), health, metrics, rate limits and result codes.

Through the live server: real gunicorn, two workers taking consecutive requests in turn;
the other configurations (rate limits, no keys, Redis out of reach) on live servers of
their own, one per configuration for the module (``live_variants``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis

from daily.service.players.accounts import hash_secret
from tests.service.conftest import Player, metric, play_out
from tests.service.live import HttpClient

pytestmark = [pytest.mark.redis, pytest.mark.live]
#: A tight budget: 4 writes and 6 reads a minute per player (or address).
LIMITED = {"DAILY_RATE_LIMIT": "4/minute", "DAILY_RATE_LIMIT_READS": "6/minute"}


@pytest.fixture
def limited(live_variants: Any, redis_url: str) -> Any:
    """A client of a live server with :data:`LIMITED` budgets (``proxies``: how many
    trusted proxies set ``X-Forwarded-For``), on the test's clean Redis database."""
    return lambda proxies=0: live_variants(
        **LIMITED, DAILY_TRUSTED_PROXIES=str(proxies)).client()


def test_players_store_only_a_hash_of_the_token(
    player: Player, redis_client: redis.Redis
) -> None:
    secret = player.token.partition(".")[2]
    dump = b"".join(
        k + b"=" + (redis_client.dump(k) or b"") for k in redis_client.keys("*")
    )
    assert secret.encode() not in dump
    assert hash_secret(secret).encode() in dump


def test_me_and_rename(player: Player) -> None:
    me = player.call("GET", "/players/me").get_json()
    assert (me["id"], me["name"]) == (player.id, "Ada")
    assert me["stats"]["games"] == 0 and me["history"] == []
    assert set(me["stats"]) >= {"games", "average", "best", "current_streak", "longest_streak"}
    renamed = player.call("PATCH", "/players/me", {"name": "Ada L."})
    assert renamed.get_json() == {"id": player.id, "name": "Ada L."}
    assert player.call("GET", "/players/me").get_json()["name"] == "Ada L."


def test_health_metrics_and_openapi(client: HttpClient, player: Player) -> None:
    health = client.get("/api/v1/health").get_json()
    assert (health["status"], health["redis"]) == ("ok", "ok")
    assert set(health["tables"]) >= {"yahtzee", "maxi-yatzy"}
    assert "demo" not in health
    missing = 'daily_http_requests_total{endpoint="/api/v1/games/<game_id>",method="GET",' \
              'status="404"}'
    before = metric(client, missing)
    player.call("GET", "/games/g_missing")
    metrics = client.get("/metrics")
    assert metrics.status_code == 200 and metrics.mimetype == "text/plain"
    text = metrics.get_data(as_text=True)
    assert metric(client, missing) == before + 1  # whichever worker answered
    assert "daily_http_request_duration_seconds_bucket" in text
    spec = client.get("/api/v1/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    assert "/api/v1/games/{game_id}/roll" in spec["paths"]


def test_health_reports_a_dead_redis(live_variants: Any) -> None:
    client = live_variants(REDIS_URL="redis://127.0.0.1:1/0").client()
    for _ in range(2):  # each worker
        response = client.get("/api/v1/health")
        assert response.status_code == 503
        body = response.get_json()
        assert (body["status"], body["redis"]) == ("degraded", "down")
        assert response.headers["Retry-After"] == "5"
    # Whatever needs Redis answers 503 with Retry-After, never a 500.
    for _ in range(2):
        created = client.post("/api/v1/players", json={"name": "Ada"})
        assert created.status_code == 503 and created.headers["Retry-After"] == "5"
        assert created.get_json()["error"]["code"] == "unavailable"
    assert len(set(client.workers)) == 2


def test_reads_and_writes_have_separate_budgets_per_verified_player(limited: Any) -> None:
    client = limited()
    ada = Player(client, "Ada")  # a write of this IP (no verified player yet)
    assert [ada.call("GET", "/players/me").status_code for _ in range(7)] == [200] * 6 + [429]
    limited_read = ada.call("GET", "/players/me")
    body = limited_read.get_json()["error"]
    assert body["code"] == "rate_limited"
    assert "6 read requests per 1 minute per player" in body["message"]
    assert 1 <= int(limited_read.headers["Retry-After"]) <= 60
    # Ada's moves have their own budget, and so do her neighbours behind the same address.
    assert [ada.call("PATCH", "/players/me", {"name": "Ada"}).status_code
            for _ in range(5)] == [200] * 4 + [429]
    bob = Player(client, "Bob")
    assert bob.call("GET", "/players/me").status_code == 200
    assert client.get("/api/v1/health").status_code == 200
    assert len(set(client.workers)) == 2  # the budgets hold across the workers


def test_per_player_limit_follows_the_player_across_addresses(limited: Any) -> None:
    ada = Player(limited(proxies=1), "Ada")
    statuses = [
        ada.call("GET", "/players/me",
                 headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
        for i in range(8)
    ]
    assert statuses == [200] * 6 + [429] * 2


def test_result_codes_are_case_insensitive_and_tolerant(player: Player, client: Any) -> None:
    final = play_out(player, player.call("POST", "/games", {
        "ruleset": "yahtzee", "mode": "practice"}).get_json())
    code = final["result"]["code"]
    body = code[3:]
    variants = [code, code.lower(), body, "dd-" + body.lower().replace("1", "l").replace(
        "0", "o"), f"DD-{body[:5]}-{body[5:]}"]
    for variant in variants:
        response = client.get(f"/api/v1/results/{variant}")
        assert response.status_code == 200, variant
        assert response.get_json()["code"] == code
    result = client.get(f"/api/v1/results/{code}").get_json()
    assert result["mode"] == "practice" and result["revealed"] is True
    assert result["history"] == final["history"]  # random practice dice are nobody's secret
    assert "practice" in result["share_text"]


def test_share_text_shape(player: Player) -> None:
    final = play_out(player, player.call("POST", "/games", {
        "ruleset": "maxi-yatzy", "date": "2026-11-29", "mode": "ranked"}).get_json())
    lines = final["result"]["share_text"].split("\n")
    assert len(lines) == 3  # like Wordle's: no legend
    assert lines[0] == (f"Daily Dice · Maxi Yatzy · 2026-11-29 · {final['total']} points"
                        " · rank not known yet")  # the finishing answer: not on the board
    upper, lower = lines[1].split(" ")
    assert (len(upper), len(lower)) == (6, 14) and set(upper + lower) <= set("🟩🟨⬛")
    assert lines[2] == final["result"]["url"]


@pytest.mark.parametrize("proxies", [0, 1])
def test_forwarded_for_counts_only_behind_a_trusted_proxy(limited: Any, proxies: int) -> None:
    client = limited(proxies)
    statuses = [
        client.get("/api/v1/today", headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
        for i in range(8)
    ]
    expected = [200] * 8 if proxies == 1 else [200] * 6 + [429] * 2
    assert statuses == expected


def test_without_keys_ranked_play_is_unavailable_not_broken(
    live_variants: Any, redis_url: str, tmp_path: Path
) -> None:
    client = live_variants(DAILY_DATA_DIR=str(tmp_path / "no-keys")).client()
    player = Player(client)
    for _ in range(2):  # each worker
        response = player.call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29"})
        assert response.status_code == 503
        error = response.get_json()["error"]
        assert error["code"] == "unavailable" and "daily keys init" in error["message"]
    # Practice on random dice needs no keys.
    practice = player.call("POST", "/games", {"ruleset": "yacht", "mode": "practice"})
    assert practice.status_code == 201
