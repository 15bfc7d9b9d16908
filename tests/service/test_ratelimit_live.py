"""The rate limits through real processes: gunicorn (2 workers) behind a trusted proxy
header, concurrent clients from chosen addresses, a real Redis.

- A forged token (a victim's public id with a made-up secret), sent from many
  addresses, spends only those addresses' budgets: the victim keeps playing.
- An office behind one NAT address: each player has budgets of their own.
- Game starts count once, and one refused stores nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis

from daily.service.config import load_config
from daily.service.days.keyring import init_keys
from daily.service.ops.embedded import free_port
from tests.polling import wait_until

pytestmark = [pytest.mark.redis, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]


class Gunicorn:
    """Calls to a running gunicorn as if from ``ip`` (one trusted proxy in front)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def call(self, method: str, path: str, *, ip: str, token: str | None = None,
             body: Any = None) -> tuple[int, dict[str, Any], dict[str, str]]:
        headers = {"X-Forwarded-For": ip, "Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers,
                                         method=method)
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, json.loads(response.read() or b"{}"), dict(
                    response.headers)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}"), dict(error.headers)


@pytest.fixture
def gunicorn(redis_url: str, tmp_path: Path) -> Iterator[Gunicorn]:
    """The app under gunicorn with deploy/gunicorn.conf.py and 2 workers."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "REDIS_URL": redis_url,
        "DAILY_KEY_PREFIX": "tlive:",
        "DAILY_DATA_DIR": str(tmp_path / "data"),
        "DAILY_TRUSTED_PROXIES": "1",
        "DAILY_RATE_LIMIT": "20/minute",
        "DAILY_RATE_LIMIT_READS": "30/minute",
        "DAILY_RATE_LIMIT_IP": "1000/minute",
        "GUNICORN_WORKERS": "2",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_LOGLEVEL": "warning",
    }
    init_keys(load_config(env).keys_dir)
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "deploy/gunicorn.conf.py"),
         "--access-logfile", "/dev/null"],
        env=env, cwd=ROOT,
    )
    server = Gunicorn(f"http://127.0.0.1:{port}/api/v1")

    def healthy() -> bool:
        urllib.request.urlopen(server.url + "/health", timeout=2).close()
        return True

    wait_until(healthy, message="gunicorn did not start", ignore=(OSError,),
               alive=lambda: process.poll() is None)
    try:
        yield server
    finally:
        process.terminate()
        process.wait(20)


def test_a_forged_token_never_spends_the_victims_budget(gunicorn: Gunicorn) -> None:
    status, created, _ = gunicorn.call("POST", "/players", ip="198.51.100.7",
                                       body={"name": "Victim"})
    assert status == 201
    victim_id, victim_token = created["player"]["id"], created["token"]
    forged = f"{victim_id}.not-the-secret"

    # 120 forged reads and 120 forged writes from 4 addresses, 8 at a time.
    def attack(i: int) -> int:
        ip = f"203.0.113.{i % 4}"
        if i % 2:
            return gunicorn.call("GET", "/players/me", ip=ip, token=forged)[0]
        return gunicorn.call("POST", "/games", ip=ip, token=forged,
                             body={"ruleset": "yahtzee", "mode": "practice"})[0]

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(attack, range(240)))
    assert set(statuses) == {401, 429}
    assert statuses.count(401) <= 4 * (30 + 20)  # each address's own budgets, no more

    # The victim, from yet another address, reads and moves as usual.
    for _ in range(10):
        status, me, _ = gunicorn.call("GET", "/players/me", ip="192.0.2.1", token=victim_token)
        assert status == 200, me
    status, game, _ = gunicorn.call("POST", "/games", ip="192.0.2.1", token=victim_token,
                                    body={"ruleset": "yahtzee", "mode": "practice"})
    assert status == 201, game
    status, after, _ = gunicorn.call("POST", f"/games/{game['id']}/roll", ip="192.0.2.1",
                                     token=victim_token, body={"hold": "00000", "position": 0})
    assert status == 200, after


def test_an_office_behind_one_address_can_play(gunicorn: Gunicorn) -> None:
    office = "192.0.2.50"
    tokens = []
    for i in range(8):
        status, created, _ = gunicorn.call("POST", "/players", ip=office,
                                           body={"name": f"Clerk {i}"})
        assert status == 201
        tokens.append(created["token"])

    def workday(token: str) -> list[int]:
        """A game of 16 moves and 25 reads: more than the address's budgets allow one
        client, served by either gunicorn worker."""
        seen = []
        status, game, _ = gunicorn.call("POST", "/games", ip=office, token=token,
                                        body={"ruleset": "yahtzee", "mode": "practice"})
        seen.append(status)
        for _ in range(16):
            if game["rolls_left"] > 0 and game["roll"] < 2:
                status, game, _ = gunicorn.call(
                    "POST", f"/games/{game['id']}/roll", ip=office, token=token,
                    body={"hold": "11000", "position": game["position"]})
            else:
                box = next(c["box"] for c in game["choices"] if c["legal"])
                status, game, _ = gunicorn.call(
                    "POST", f"/games/{game['id']}/score", ip=office, token=token,
                    body={"box": box, "position": game["position"]})
            seen.append(status)
            assert status == 200, game
        for _ in range(25):
            seen.append(gunicorn.call("GET", "/players/me", ip=office, token=token)[0])
        return seen

    with ThreadPoolExecutor(8) as pool:
        days = list(pool.map(workday, tokens))
    assert [set(statuses) for statuses in days] == [{200, 201}] * 8

    # The same address without a token has only its own, smaller budget.
    anonymous = [gunicorn.call("GET", "/today", ip=office)[0] for _ in range(31)]
    assert anonymous == [200] * 30 + [429]


def test_game_starts_count_once_and_a_refused_one_stores_nothing(
    gunicorn: Gunicorn, redis_url: str
) -> None:
    """A ranked start spends the limits in the script that records it, a practice start
    before it stores its game: each counts once, and one over the limit stores nothing."""
    conn = redis.Redis.from_url(redis_url)
    status, created, _ = gunicorn.call("POST", "/players", ip="192.0.2.77", body={})
    assert status == 201
    token, player_id = created["token"], created["player"]["id"]
    counter = f"tlive:rl:write:player:{player_id}"
    today = dt.datetime.now(dt.UTC).date().isoformat()
    ranked = {"ruleset": "yahtzee", "date": today, "mode": "ranked"}
    status, game, _ = gunicorn.call("POST", "/games", ip="192.0.2.77", token=token, body=ranked)
    assert status == 201, game
    assert int(conn.get(counter)) == 1
    practice = {"ruleset": "yahtzee", "mode": "practice"}
    for number in range(2, 21):
        status, body, _ = gunicorn.call("POST", "/games", ip="192.0.2.77", token=token,
                                        body=practice)
        assert status == 201, body
        assert int(conn.get(counter)) == number
    games = len(list(conn.scan_iter("tlive:game:*")))
    status, refused, headers = gunicorn.call("POST", "/games", ip="192.0.2.77", token=token,
                                             body=practice)
    assert status == 429 and int(headers["Retry-After"]) > 0, refused
    status, again, _ = gunicorn.call("POST", "/games", ip="192.0.2.77", token=token,
                                     body=ranked)
    assert status == 429, again  # the resumed ranked game: refused in its script
    assert len(list(conn.scan_iter("tlive:game:*"))) == games
    assert int(conn.get(counter)) == 22


def test_new_players_count_once_and_a_refused_one_stores_nothing(
    gunicorn: Gunicorn, redis_url: str
) -> None:
    """A new player spends the request limit and the creation limit in the script that
    writes it (:mod:`daily.service.players.signup`): each creation counts once on each, and
    the one over the request limit (20 a minute here, before the 30 new players an hour
    per address) is refused with the limit's own answer and writes nothing."""
    conn = redis.Redis.from_url(redis_url, decode_responses=True)
    ip = "100.64.7.9"
    made = [gunicorn.call("POST", "/players", ip=ip, body={}) for _ in range(20)]
    assert [status for status, _, _ in made] == [201] * 20, made[-1]
    status, refused, headers = gunicorn.call("POST", "/players", ip=ip, body={"name": "Zed"})
    assert status == 429 and int(headers["Retry-After"]) > 0, refused
    assert refused["error"]["code"] == "rate_limited"
    assert refused["error"]["message"] == \
        "rate limit exceeded: 20 write requests per 1 minute per address"
    assert int(conn.get(f"tlive:rl:write:ip:{ip}")) == 21
    # the counters after the one over its limit are not spent, as by the edge's script
    assert int(conn.get(f"tlive:rl:all:ip:{ip}")) == 20
    assert int(conn.get(f"tlive:rl:new:{{100.64.7.0/24}}:ip:{ip}")) == 20  # not the refused
    accounts = [conn.hgetall(key) for key in conn.scan_iter("tlive:account:*")]
    assert len(accounts) == 20 and "Zed" not in {a["name"] for a in accounts}
    assert len(list(conn.scan_iter("tlive:fairplay:origin:*"))) == 20
    counts = [int(conn.get(key)) for key in conn.scan_iter("tlive:fairplay:net:*")]
    assert counts == [20]
    # each token works: the account and its token hash were written whole
    status, me, _ = gunicorn.call("GET", "/players/me", ip="100.64.8.1",
                                  token=made[7][1]["token"])
    assert status == 200 and me["id"] == made[7][1]["player"]["id"], me
