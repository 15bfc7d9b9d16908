"""No 5xx from client input, through real gunicorn workers and a real Redis server:
JSON nested too deep, dates outside the calendar, requests gunicorn refuses itself, and
Redis going away (503 with Retry-After) and coming back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from daily.service.app import create_app
from daily.service.config import load_config
from daily.service.keys import init_keys
from tests.ops.conftest import OwnValkey
from tests.service.served import Server

pytestmark = [pytest.mark.redis, pytest.mark.slow]
#: Routes that answer from files and memory only.
NEEDS_NO_REDIS = ("/api/v1/keys", "/api/v1/openapi.json")
DEEP = "[" * 5000 + "]" * 5000  # 10 KB, far under the body limit


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that leave Redis running."""
    served = Server(tmp_path_factory.mktemp("served"))
    yield served
    served.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own (its Redis gets killed)."""
    served = Server(tmp_path)
    yield served
    served.stop()


def error_of(status: int, headers: dict[str, str], body: bytes, expected: int) -> dict[str, Any]:
    assert status == expected, (status, body[:300])
    assert headers["Content-Type"].startswith("application/json"), headers
    inner = json.loads(body)["error"]
    assert inner["status"] == expected and inner["code"] and inner["message"], inner
    return dict(inner)


def new_player(server: Server) -> dict[str, str]:
    status, _, body = server.request("POST", "/api/v1/players", json.dumps({"name": "Ada"}))
    assert status == 201, body
    return {"Authorization": "Bearer " + json.loads(body)["token"]}


def test_json_nested_too_deep_is_a_400_on_every_endpoint_with_a_body(server: Server) -> None:
    auth = new_player(server)
    status, _, body = server.request(
        "POST", "/api/v1/games", json.dumps({"ruleset": "yahtzee", "mode": "practice"}), auth
    )
    assert status == 201, body
    game = json.loads(body)["id"]
    for method, path in [
        ("POST", "/api/v1/players"), ("PATCH", "/api/v1/players/me"),
        ("POST", "/api/v1/games"), ("POST", f"/api/v1/games/{game}/roll"),
        ("POST", f"/api/v1/games/{game}/score"), ("POST", f"/api/v1/games/{game}/log"),
        ("POST", f"/api/v1/games/{game}/hint"), ("POST", "/qr.svg"),
    ]:
        error = error_of(*server.request(method, path, DEEP, auth), 400)
        assert error["field"] == "body" and "deeper than 32" in error["message"], path
    # just within the limit is parsed (and then refused for what it is, not for depth)
    shallow = "[" * 32 + "]" * 32
    error = error_of(*server.request("POST", "/api/v1/players", shallow), 400)
    assert "deeper" not in error["message"]


@pytest.mark.parametrize("date", ["0001-01-01", "9999-12-31", "1999-12-31", "3000-01-01"])
def test_dates_outside_the_calendar_are_a_422_naming_the_range(
    server: Server, date: str
) -> None:
    auth = new_player(server)
    requests = [
        ("GET", f"/api/v1/leaderboards/{date}/yahtzee", None, "date"),
        ("GET", f"/api/v1/days/{date}/yahtzee", None, "date"),
        ("GET", f"/api/v1/days?from={date}", None, "from"),
        ("GET", f"/api/v1/days?to={date}", None, "to"),
        ("POST", "/api/v1/games", {"ruleset": "yahtzee", "date": date}, "date"),
        ("POST", "/api/v1/games", {"ruleset": "yahtzee", "date": date, "mode": "practice"},
         "date"),
    ]
    for method, path, body, field in requests:
        sent = json.dumps(body) if body is not None else None
        error = error_of(*server.request(method, path, sent, auth), 422)
        assert error["field"] == field, (path, error)
        assert "2000-01-01 to 2999-12-31" in error["message"], (path, error)


def test_requests_gunicorn_refuses_itself_get_json_errors(server: Server) -> None:
    cases = [
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n", 431),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n"
         + b"".join(b"X-H%d: 1\r\n" % i for i in range(120)) + b"\r\n", 431),
        (b"this is not http\r\n\r\n", 400),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400),
    ]
    for data, status in cases:
        error_of(*server.raw(data), status)


def test_redis_down_is_a_503_with_retry_after_and_health_says_so(own_server: Server) -> None:
    server = own_server
    auth = new_player(server)
    app = create_app(load_config(server.env))
    routes = sorted(
        (rule.rule, method) for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1") for method in rule.methods - {"HEAD", "OPTIONS"}
    )
    values = {"<game_id>": "g_aaaaaaaaaaaaaaaaaaaa", "<code>": "DD-7K3M9QX2PA",
              "<date>": "2026-11-29", "<ruleset>": "yahtzee"}
    server.valkey.kill9()
    status, headers, body = server.request("GET", "/api/v1/health")
    health = json.loads(body)
    assert (status, health["status"], health["redis"]) == (503, "degraded", "down")
    assert int(headers["Retry-After"]) > 0
    checked = 0
    for rule, method in routes:
        if rule in ("/api/v1/health", *NEEDS_NO_REDIS):
            continue
        path = rule
        for name, value in values.items():
            path = path.replace(name, value)
        body = "{}" if method in ("POST", "PATCH") else None
        status, headers, raw = server.request(method, path, body, auth)
        error = error_of(status, headers, raw, 503)
        assert error["code"] == "unavailable" and int(headers["Retry-After"]) > 0, rule
        checked += 1
    assert checked >= 13
    for path in NEEDS_NO_REDIS:  # the rate limit lets requests through while Redis is down
        assert server.request("GET", path)[0] == 200, path
    server.valkey.start()
    assert server.request("GET", "/api/v1/health")[0] == 200
    assert server.request("GET", "/api/v1/players/me", None, auth)[0] == 200  # nothing lost


def test_each_endpoint_that_needs_redis_is_a_503_without_the_rate_limit(
    tmp_path: Path,
) -> None:
    valkey = OwnValkey(tmp_path / "valkey")
    valkey.start()
    try:
        config = load_config({"REDIS_URL": valkey.url, "DAILY_DATA_DIR": str(tmp_path / "d"),
                              "DAILY_RATE_LIMIT": "off"})
        init_keys(config.keys_dir)
        client = create_app(config).test_client()
        token = client.post("/api/v1/players", json={}).get_json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        valkey.kill9()
        for method, path in [
            ("POST", "/api/v1/players"), ("GET", "/api/v1/players/me"),
            ("GET", "/api/v1/today"), ("POST", "/api/v1/games"),
            ("GET", "/api/v1/games/g_aaaaaaaaaaaaaaaaaaaa"),
            ("GET", "/api/v1/leaderboards/2026-11-29/yahtzee"),
            ("GET", "/api/v1/results/DD-7K3M9QX2PA"), ("GET", "/api/v1/days/2026-11-20/yahtzee"),
        ]:
            body = {"ruleset": "yahtzee", "mode": "practice"} if path.endswith("games") else None
            response = client.open(path, method=method, json=body, headers=auth)
            assert response.status_code == 503, (path, response.data[:200])
            assert response.get_json()["error"]["code"] == "unavailable"
            assert response.headers["Retry-After"] == "5"
        assert client.get("/api/v1/openapi.json").status_code == 200  # needs no Redis
    finally:
        valkey.stop()
