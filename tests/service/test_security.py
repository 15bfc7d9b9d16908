"""Hardening of the app on a real Redis: security headers and HSTS, the QR endpoint,
list parameters, token rotation and revocation, and the sliding expiry of players.

Through the live server (real gunicorn, two workers taking consecutive requests in
turn); the HSTS settings on live servers of their own configuration.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis

from daily.service import keymap
from daily.service.config import Config
from daily.service.games.store import PRACTICE_TTL, GameStore
from daily.service.http.headers import CSP
from daily.service.results.stats import record_keys
from daily.web.routes import draw_qr
from tests.polling import PROCESS_TIMEOUT
from tests.service.conftest import NOON, PREFIX, Player, best_box, metric, play_out
from tests.service.live import HttpClient

pytestmark = [pytest.mark.redis, pytest.mark.live]
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", ["/", "/r/DD-7K3M9Q", "/api/v1/today", "/api/v1/nowhere",
                                  "/static/web/app.js"])
def test_every_answer_carries_the_security_headers(client: HttpClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["Content-Security-Policy"] == CSP
    assert "frame-ancestors 'none'" in CSP and "script-src 'self'" in CSP
    assert "unsafe-inline" not in CSP
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "Strict-Transport-Security" not in headers  # plain http, no flag


@pytest.mark.parametrize(("path", "dest", "lean"), [
    ("/static/web/app.js", "script", True), ("/static/web/style.css", "style", True),
    ("/api/v1/today", "empty", True), ("/", "document", False),
    ("/static/web/pow-worker.js", "worker", False), ("/sw.js", "serviceworker", False),
])
def test_the_pages_scripts_and_calls_carry_nosniff_alone(
    client: HttpClient, path: str, dest: str, lean: bool
) -> None:
    """The policy headers act on documents and workers; a page's module, stylesheet or
    fetch answer carries nosniff alone (issue 38: the first load under 80 KB)."""
    headers = client.get(path, headers={"Sec-Fetch-Dest": dest}).headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert ("Content-Security-Policy" not in headers) is lean
    assert ("X-Frame-Options" not in headers) is lean
    assert ("Cross-Origin-Opener-Policy" not in headers) is lean
    if path.startswith("/static/"):  # revalidated by its ETag alone
        assert not {"Content-Disposition", "Last-Modified", "Accept-Ranges"} & set(headers)
        again = client.get(path, headers={"Sec-Fetch-Dest": dest,
                                          "If-None-Match": headers["ETag"]})
        assert again.status_code == 304


#: Gunicorn itself believes ``X-Forwarded-Proto`` from the addresses it trusts (the local
#: host by default, where nginx is): a peer it does not trust is one elsewhere.
ELSEWHERE = {"GUNICORN_FORWARDED_ALLOW_IPS": "192.0.2.1"}


@pytest.mark.parametrize(("proxies", "hsts", "gunicorn", "expected"), [
    (1, False, {}, True),          # https at a trusted proxy
    (0, False, ELSEWHERE, False),  # nobody trusted: the header could be anyone's
    (0, False, {}, True),          # gunicorn trusts the local host's header itself
    (0, True, ELSEWHERE, True),    # DAILY_HSTS=on
])
def test_hsts_only_behind_tls_or_when_asked(
    request: pytest.FixtureRequest, live_variants: Any, redis_url: str, proxies: int,
    hsts: bool, gunicorn: dict[str, str], expected: bool,
) -> None:
    overrides = {**({"DAILY_TRUSTED_PROXIES": "1"} if proxies else {}),
                 **({"DAILY_HSTS": "on"} if hsts else {}), **gunicorn}
    # the module's live server has the defaults (no trusted proxy, no DAILY_HSTS)
    server = live_variants(**overrides) if overrides else request.getfixturevalue("live_server")
    client = server.client()
    for _ in range(2):  # each worker
        headers = client.get(
            "/api/v1/today", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "1.2.3.4"}
        ).headers
        assert ("Strict-Transport-Security" in headers) is expected
        if expected:
            assert headers["Strict-Transport-Security"] == "max-age=31536000"


def test_the_qr_code_is_the_callers_own_import_link(client: HttpClient, player: Player) -> None:
    assert client.post("/qr.svg").status_code == 401
    forged = {"Authorization": f"Bearer {player.id}.forged"}
    refused = client.post("/qr.svg", headers=forged)
    assert refused.status_code == 401
    assert refused.get_json()["error"]["field"] == "Authorization"
    extra = client.post("/qr.svg", headers=player.headers, json={"text": "http://evil"})
    assert extra.status_code == 422 and extra.get_json()["error"]["field"] == "text"
    first = client.post("/qr.svg", headers=player.headers, json={})
    assert first.status_code == 200 and first.mimetype == "image/svg+xml"
    assert first.data.startswith(b"<svg") and first.headers["Cache-Control"] == "no-store"
    second = client.post("/qr.svg", headers=player.headers)
    assert second.data == first.data and first.worker != second.worker
    # The link is DAILY_PUBLIC_URL's, whatever Host the request names.
    assert first.data == draw_qr(f"https://dice.example/#/import/{player.token}")
    spoofed = client.post("/qr.svg", headers={**player.headers, "Host": "evil.example"})
    assert spoofed.status_code == 200 and spoofed.data == first.data


def test_repeated_rulesets_count_once_and_long_lists_are_refused(
    client: HttpClient
) -> None:
    once = client.get("/api/v1/days?from=2026-11-27&to=2026-11-28&ruleset=yahtzee")
    assert once.status_code == 200
    repeated = client.get("/api/v1/days?from=2026-11-27&to=2026-11-28&ruleset="
                          + ",".join(["yahtzee", "kniffel"] * 4))  # kniffel: an alias
    assert repeated.status_code == 200 and repeated.get_json() == once.get_json()
    flood = client.get("/api/v1/days?ruleset=" + ",".join(["yahtzee"] * 300))
    assert flood.status_code == 422
    error = flood.get_json()["error"]
    assert error["field"] == "ruleset" and "at most 8" in error["message"]
    assert len(flood.data) < 300


def test_a_rotated_token_replaces_the_old_one_everywhere(
    client: HttpClient, player: Player, service_config: Config
) -> None:
    assert [client.get("/api/v1/players/me", headers=player.headers).status_code
            for _ in range(2)] == [200, 200]  # both workers have checked it
    rotated = player.call("POST", "/players/me/token")
    assert rotated.status_code == 200
    body = rotated.get_json()
    assert body["player"]["id"] == player.id and body["token"] != player.token
    assert body["token"].startswith(player.id + ".")
    new = {"Authorization": f"Bearer {body['token']}"}
    # At once in the process that rotated it; in the other within the trust bound
    # (DAILY_AUTH_CACHE_SECONDS, 2 s by default), which is as long as it checked it.
    while True:
        old = client.get("/api/v1/players/me", headers=player.headers)
        if old.worker == rotated.worker:
            break
    assert old.status_code == 401 and old.get_json()["error"]["field"] == "Authorization"
    bound = service_config.auth_cache_seconds
    assert bound == 2
    time.sleep(bound)
    seen = len(client.workers)
    for _ in range(2):  # then in every process
        old = client.get("/api/v1/players/me", headers=player.headers)
        assert old.status_code == 401 and old.get_json()["error"]["field"] == "Authorization"
        assert client.get("/api/v1/players/me", headers=new).get_json()["name"] == "Ada"
    assert len(set(client.workers[seen:])) == 2
    # The old token can no longer rotate or revoke anything.
    assert player.call("POST", "/players/me/token").status_code == 401
    assert player.call("DELETE", "/players/me/token").status_code == 401
    assert player.call("POST", "/players/me/token", {"name": "x"}).status_code == 401
    unknown = client.post("/api/v1/players/me/token", headers=new, json={"ttl": 5})
    assert unknown.status_code == 422 and unknown.get_json()["error"]["field"] == "ttl"


def test_a_revoked_token_stops_working_and_the_name_stays_on_record(
    player: Player, redis_client: redis.Redis, service_config: Config
) -> None:
    assert player.call("GET", "/players/me").status_code == 200  # both workers checked it
    revoked = player.call("DELETE", "/players/me/token")
    assert revoked.status_code == 204 and revoked.data == b""
    # At once in the process that revoked it; in the other within the trust bound.
    while (me := player.call("GET", "/players/me")).worker != revoked.worker:
        pass
    assert me.status_code == 401
    time.sleep(service_config.auth_cache_seconds)
    assert [player.call("GET", "/players/me").status_code for _ in range(2)] == [401, 401]
    assert player.call("DELETE", "/players/me/token").status_code == 401
    account = redis_client.hgetall(f"{PREFIX}account:{player.id}")
    assert account[b"name"] == b"Ada" and b"token_hash" not in account


def test_players_expire_after_months_unused_and_each_day_of_use_restarts_that(
    service_config: Config, live_variants: Any, redis_client: redis.Redis, clock: Any
) -> None:
    # The account is edited below as months of disuse would leave it; no process would
    # still trust the token then (DAILY_AUTH_CACHE_SECONDS), so neither does this server.
    player = Player(live_variants(DAILY_AUTH_CACHE_SECONDS="0").client())
    key = f"{PREFIX}account:{player.id}"
    days = service_config.player_days
    assert days == 180
    assert 179 * 86400 < redis_client.ttl(key) <= 180 * 86400
    redis_client.hset(key, "seen", "2026-06-02")  # as if unused for 179 days
    redis_client.expire(key, 86400)
    assert player.call("GET", "/players/me").status_code == 200
    assert 179 * 86400 < redis_client.ttl(key) <= 180 * 86400
    assert redis_client.hget(key, "seen") == b"2026-11-29"
    # Within the same day no more writes: the TTL is not touched again.
    redis_client.expire(key, 3600)
    assert player.call("GET", "/players/me").status_code == 200
    assert redis_client.ttl(key) <= 3600
    clock.advance(hours=24)
    assert player.call("GET", "/players/me").status_code == 200
    assert redis_client.ttl(key) > 179 * 86400
    assert redis_client.hget(key, "seen") == b"2026-11-30"
    redis_client.delete(key)  # what expiry does
    assert player.call("GET", "/players/me").status_code == 401


def test_practice_games_and_their_codes_expire_a_month_after_the_last_move(
    player: Player, redis_client: redis.Redis
) -> None:
    state = player.call("POST", "/games", {"ruleset": "yahtzee", "mode": "practice"})
    game_key = keymap.game(PREFIX, state.get_json()["id"])
    redis_client.expire(game_key, 60)
    state = player.call("POST", f"/games/{state.get_json()['id']}/roll",
                        {"hold": "00000", "position": 0})
    assert 29 * 86400 < redis_client.ttl(game_key) <= PRACTICE_TTL  # each move restarts it
    final = play_out(player, state.get_json())
    code_key = keymap.code(PREFIX, final["result"]["code"])
    for key in (game_key, code_key):
        assert 29 * 86400 < redis_client.ttl(key) <= PRACTICE_TTL, key


def test_ranked_records_live_the_configured_days_after_their_day_closes(
    player: Player, redis_client: redis.Redis, service_config: Config
) -> None:
    state = player.call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29",
                                           "mode": "ranked"}).get_json()
    store = GameStore(redis_client, service_config.key_prefix, service_config.ranked_days)
    expiry = store.ranked_expiry(dt.date(2026, 11, 29))
    # The 29th closes on the 30th at 12:00 UTC; 400 days later by default.
    assert expiry == int(dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC).timestamp()) + 400 * 86400
    keys = [keymap.game(PREFIX, state["id"]),
            keymap.ranked(PREFIX, "2026-11-29", "yahtzee", player.id)]
    state = player.call("POST", f"/games/{state['id']}/roll",
                        {"hold": "00000", "position": 0}).get_json()
    assert [redis_client.expiretime(k) for k in keys] == [expiry, expiry]  # moves keep it
    final = play_out(player, state)
    keys.append(keymap.code(PREFIX, final["result"]["code"]))
    assert [redis_client.expiretime(k) for k in keys] == [expiry] * 3


def test_a_players_statistics_expire_with_the_account(
    player: Player, redis_client: redis.Redis, service_config: Config, clock: Any
) -> None:
    final = play_out(player, player.call("POST", "/games", {
        "ruleset": "yahtzee", "date": "2026-11-29", "mode": "ranked"}).get_json())
    assert final["over"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": service_config.redis_url or "",
           "DAILY_KEY_PREFIX": PREFIX, "DAILY_DATA_DIR": str(service_config.data_dir),
           "DAILY_PLAYER_DAYS": "20"}
    subprocess.run([sys.executable, "-m", "daily", "worker", "results", "--burst", "--quiet"],
                   env=env, cwd=ROOT, check=True, timeout=PROCESS_TIMEOUT)
    stats = record_keys(player.id, prefix=PREFIX)
    assert all(redis_client.exists(k) for k in stats)
    assert all(19 * 86400 < redis_client.ttl(k) <= 20 * 86400 for k in stats)
    # The next day of use renews them with the account (180 days in this app).
    clock.advance(hours=24)
    assert player.call("GET", "/players/me").get_json()["stats"]["games"] == 1
    assert all(179 * 86400 < redis_client.ttl(k) <= 180 * 86400 for k in stats)


#: What one trusted proxy in front says (the client's address, https, the host it was
#: asked for), and the player's language.
FORWARDED = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https",
             "X-Forwarded-Host": "dice.test", "Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}


def test_a_game_behind_a_proxy_links_to_its_host_in_the_players_language(
    live_variants: Any, live_clock: Any
) -> None:
    """With no ``DAILY_PUBLIC_URL``, behind one trusted proxy: a new player's ranked game
    played to its end answers every call as JSON over https (HSTS), its result link is
    on the forwarded host and its share text in the language asked for; the metrics
    count every call by its route and the game once."""
    server = live_variants(DAILY_PUBLIC_URL="", DAILY_TRUSTED_PROXIES="1")
    client = server.client()
    route = 'daily_http_requests_total{{endpoint="{}",method="POST",status="{}"}}'
    lines = {"roll": route.format("/api/v1/games/<game_id>/roll", 200),
             "score": route.format("/api/v1/games/<game_id>/score", 200),
             "start": route.format("/api/v1/games", 201),
             "player": route.format("/api/v1/players", 201),
             "games": 'daily_games_started_total{mode="ranked",ruleset="yahtzee"}'}
    before = {name: metric(client, line) for name, line in lines.items()}
    created = client.post("/api/v1/players", json={"name": "Ida"}, headers=FORWARDED)
    assert created.status_code == 201, created.get_json()
    ida = {**FORWARDED, "Authorization": f"Bearer {created.get_json()['token']}"}
    started = client.post("/api/v1/games", headers=ida, json={
        "ruleset": "yahtzee", "date": NOON.date().isoformat(), "mode": "ranked"})
    assert started.status_code == 201, started.get_json()
    state, calls = started.get_json(), {"roll": 0, "score": 0}
    while not state["over"]:
        kind = "roll" if state["rolls_left"] else "score"
        body = {"hold": "11100"} if kind == "roll" else {"box": best_box(state)}
        answer = client.post(f"/api/v1/games/{state['id']}/{kind}", headers=ida,
                             json={**body, "position": state["position"]})
        assert answer.status_code == 200, answer.get_json()
        assert answer.mimetype == "application/json"
        assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"
        state, calls[kind] = answer.get_json(), calls[kind] + 1
    share = state["result"]["share_text"]
    assert f"https://dice.test/r/{state['result']['code']}" in share, share
    assert re.search(r"\bpunti\b", share), share  # Accept-Language: it
    after = {name: metric(client, line) for name, line in lines.items()}
    assert {name: after[name] - before[name] for name in lines} == {
        **calls, "start": 1, "player": 1, "games": 1}
