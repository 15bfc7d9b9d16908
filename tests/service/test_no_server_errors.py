"""No 5xx from client input, through real gunicorn workers and a real Redis server:
JSON nested too deep, dates outside the calendar, requests gunicorn refuses itself, and
Redis going away (503 with Retry-After) and coming back.

Through the live server (two workers taking consecutive requests in turn); the tests
that kill Redis have a live server of their own on a Valkey of their own.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from daily.service.app import create_app
from daily.service.config import load_config
from tests.ops.conftest import OwnValkey
from tests.service.live import HttpClient, LiveServer, start_gunicorn

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]
#: Routes that answer from files and memory only (a proof-of-work challenge carries its
#: own expiry and MAC: nothing is stored).
NEEDS_NO_REDIS = ("/api/v1/keys", "/api/v1/openapi.json", "/api/v1/players/challenge",
                  "/api/v1/reminders/key")
DEEP = "[" * 5000 + "]" * 5000  # 10 KB, far under the body limit


class Served:
    """A live server with its own Valkey (which a test may kill), and its environment."""

    def __init__(self, server: LiveServer, valkey: OwnValkey, env: dict[str, str]) -> None:
        self.server = server
        self.client = server.client()
        self.valkey = valkey
        self.env = env


@pytest.fixture
def own_server(live_env: dict[str, str], tmp_path: Path) -> Iterator[Any]:
    """``own_server(**env)``: a live server of the test's own, on its own Valkey (the
    test kills it), with those environment variables changed."""
    with ExitStack() as stack:

        def start(**overrides: str) -> Served:
            valkey = OwnValkey(tmp_path / "valkey")
            valkey.start()
            stack.callback(valkey.stop)
            env = {**live_env, "REDIS_URL": valkey.url, **overrides}
            server = stack.enter_context(start_gunicorn(env, tmp_path))
            return Served(server, valkey, env)

        yield start


def send(client: HttpClient, method: str, path: str, body: str | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, Any, bytes]:
    """A request with a JSON body as it is written: status, headers and body."""
    response = client.open(path, method, data=body, headers=headers,
                           content_type="application/json")
    return response.status_code, response.headers, response.data


def error_of(status: int, headers: Any, body: bytes, expected: int) -> dict[str, Any]:
    assert status == expected, (status, body[:300])
    assert headers["Content-Type"].startswith("application/json"), headers
    inner = json.loads(body)["error"]
    assert inner["status"] == expected and inner["code"] and inner["message"], inner
    return dict(inner)


def new_player(client: HttpClient) -> dict[str, str]:
    status, _, body = send(client, "POST", "/api/v1/players", json.dumps({"name": "Ada"}))
    assert status == 201, body
    return {"Authorization": "Bearer " + json.loads(body)["token"]}


def test_json_nested_too_deep_is_a_400_on_every_endpoint_with_a_body(
    client: HttpClient,
) -> None:
    auth = new_player(client)
    status, _, body = send(
        client, "POST", "/api/v1/games", json.dumps({"ruleset": "yahtzee", "mode": "practice"}),
        auth,
    )
    assert status == 201, body
    game = json.loads(body)["id"]
    for method, path in [
        ("POST", "/api/v1/players"), ("PATCH", "/api/v1/players/me"),
        ("POST", "/api/v1/games"), ("POST", f"/api/v1/games/{game}/roll"),
        ("POST", f"/api/v1/games/{game}/score"), ("POST", f"/api/v1/games/{game}/log"),
        ("POST", f"/api/v1/games/{game}/hint"), ("POST", "/qr.svg"),
    ]:
        error = error_of(*send(client, method, path, DEEP, auth), 400)
        assert error["field"] == "body" and "deeper than 32" in error["message"], path
    # just within the limit is parsed (and then refused for what it is, not for depth)
    shallow = "[" * 32 + "]" * 32
    error = error_of(*send(client, "POST", "/api/v1/players", shallow), 400)
    assert "deeper" not in error["message"]


@pytest.mark.parametrize("date", ["0001-01-01", "9999-12-31", "1999-12-31", "3000-01-01"])
def test_dates_outside_the_calendar_are_a_422_naming_the_range(
    client: HttpClient, date: str
) -> None:
    auth = new_player(client)
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
        error = error_of(*send(client, method, path, sent, auth), 422)
        assert error["field"] == field, (path, error)
        assert "2000-01-01 to 2999-12-31" in error["message"], (path, error)


def test_requests_gunicorn_refuses_itself_get_json_errors(live_server: LiveServer) -> None:
    cases = [
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n", 431),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n"
         + b"".join(b"X-H%d: 1\r\n" % i for i in range(120)) + b"\r\n", 431),
        (b"this is not http\r\n\r\n", 400),
        (b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400),
    ]
    for data, status in cases:
        for _ in range(2):  # whichever worker takes it
            error_of(*live_server.raw(data), status)


def test_redis_down_is_a_503_with_retry_after_and_health_says_so(own_server: Any) -> None:
    own_server = own_server(DAILY_RATE_LIMIT="600/minute")  # the rate limits on, as deployed
    client = own_server.client
    auth = new_player(client)
    # The routes of the app (its URL map; no request goes through this copy).
    app = create_app(load_config(own_server.env))
    routes = sorted(
        (rule.rule, method) for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1") for method in rule.methods - {"HEAD", "OPTIONS"}
    )
    values = {"<game_id>": "g_aaaaaaaaaaaaaaaaaaaa", "<code>": "DD-7K3M9QX2PA",
              "<date>": "2026-11-29", "<ruleset>": "yahtzee", "<credential_id>": "AAAA"}
    # A body in the document's form where "{}" is not one and no token is read first.
    bodies = {"/api/v1/passkeys/login": json.dumps({"ticket": "A" * 24, "credential": {
        "id": "AA", "rawId": "AA", "type": "public-key", "response": {
            "clientDataJSON": "AA", "authenticatorData": "AA", "signature": "AA"}}})}
    own_server.valkey.kill9()
    # Past the time a worker trusts a token it checked (DAILY_AUTH_CACHE_SECONDS): every
    # request then needs Redis before it reads its body ("{}", refused with 422 by a
    # worker that still trusts the token; no 5xx either way).
    time.sleep(load_config(own_server.env).auth_cache_seconds)
    status, headers, body = send(client, "GET", "/api/v1/health")
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
        body = bodies.get(rule, "{}") if method in ("POST", "PATCH") else None
        status, headers, raw = send(client, method, path, body, auth)
        error = error_of(status, headers, raw, 503)
        assert error["code"] == "unavailable" and int(headers["Retry-After"]) > 0, rule
        checked += 1
    assert checked >= 13
    for path in NEEDS_NO_REDIS:  # the rate limit lets requests through while Redis is down
        assert send(client, "GET", path)[0] == 200, path
    assert len(set(client.workers)) == 2
    own_server.valkey.start()
    assert send(client, "GET", "/api/v1/health")[0] == 200
    assert send(client, "GET", "/api/v1/players/me", None, auth)[0] == 200  # nothing lost


def test_each_endpoint_that_needs_redis_is_a_503_without_the_rate_limit(
    own_server: Any,
) -> None:
    own_server = own_server()  # the live environment has the rate limits off
    client = own_server.client
    token = client.post("/api/v1/players", json={}).get_json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    own_server.valkey.kill9()
    for method, path in [
        ("POST", "/api/v1/players"), ("GET", "/api/v1/players/me"),
        ("GET", "/api/v1/today"), ("POST", "/api/v1/games"),
        ("GET", "/api/v1/games/g_aaaaaaaaaaaaaaaaaaaa"),
        ("GET", "/api/v1/leaderboards/2026-11-29/yahtzee"),
        ("GET", "/api/v1/results/DD-7K3M9QX2PA"), ("GET", "/api/v1/days/2026-11-20/yahtzee"),
    ]:
        body = {"ruleset": "yahtzee", "mode": "practice"} if path.endswith("games") else None
        for _ in range(2):  # on each worker
            response = client.open(path, method=method, json=body, headers=auth)
            assert response.status_code == 503, (path, response.data[:200])
            assert response.get_json()["error"]["code"] == "unavailable"
            assert response.headers["Retry-After"] == "5"
    assert client.get("/api/v1/openapi.json").status_code == 200  # needs no Redis
    assert len(set(client.workers)) == 2
