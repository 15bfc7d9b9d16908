"""Redis round trips of a move, counted on the server with MONITOR (issue 11).

The app runs under real gunicorn (two workers, the deployment's threads, the rate
limits on) on the test's Redis. A keep-alive connection stays with one worker, which
then trusts the token it checked (``DAILY_AUTH_CACHE_SECONDS``) and keeps the game it
last wrote (:mod:`daily.service.games.cache`): a move is then one call of the move
script, which spends the rate limits, proves the copy current and writes, and so are
the first move after the start (the start keeps the game it stored) and the move that
finishes the game (code, record and results stream). Cold (a fresh
connection, a worker that has neither the token nor the game), a finishing score is at
most three: the token check, the read (with the limits) and the finish.

MONITOR lists every command the server receives from a client (a script's own commands
are marked ``lua`` and left out), so the counts here are an upper bound of round trips.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests

from daily.service.config import load_config
from daily.service.days.keyring import init_keys
from tests.conftest import base_url
from tests.service.conftest import NOON, best_box
from tests.service.live import FileClockControl, LiveServer, start_gunicorn

pytestmark = [pytest.mark.redis, pytest.mark.live]
DATE = NOON.date().isoformat()


class Session:
    """Keep-alive HTTP to the live server (one connection: one worker)."""

    def __init__(self, url: str, token: str | None = None, *, close: bool = False) -> None:
        self.url = url + "/api/v1"
        self.token = token or ""
        self.http = requests.Session()
        self.last_worker = 0
        if close:
            self.http.headers["Connection"] = "close"
        if token is not None:
            self.http.headers["Authorization"] = f"Bearer {token}"
        self.workers: set[int] = set()

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        response = self.http.request(method, self.url + path, json=body, timeout=60)
        self.last_worker = int(response.headers["X-Worker-Pid"])
        self.workers.add(self.last_worker)
        return response.status_code, response.json() if response.content else None


class Monitor:
    """The commands clients send this test's Redis database while the block runs
    (MONITOR, scripts' own commands left out). MONITOR shows every database of the
    server, and other test processes use theirs meanwhile, so only ``url``'s counts."""

    def __init__(self, url: str) -> None:
        self.conn = redis.Redis.from_url(url)
        self.db = int(self.conn.connection_pool.connection_kwargs.get("db", 0))
        self.marker = f"end-{uuid.uuid4().hex}"
        self.commands: list[str] = []
        self.signal = redis.Redis.from_url(url)
        self.signal.ping()  # connected (and greeted) before MONITOR starts

    def __enter__(self) -> Monitor:
        self.monitor = self.conn.monitor().__enter__()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self) -> None:
        while True:
            command = self.monitor.next_command()
            if self.marker in command["command"]:
                return
            if command.get("client_type") != "lua" and command.get("db") == self.db:
                self.commands.append(command["command"])

    def __exit__(self, *exc: object) -> None:
        self.signal.echo(self.marker)
        self.thread.join(10)
        self.monitor.__exit__(None, None, None)
        self.conn.close()
        self.signal.close()


def environment(redis_db: int, tmp: Path, **more: str) -> dict[str, str]:
    env = {
        "REDIS_URL": f"{base_url()}/{redis_db}", "DAILY_KEY_PREFIX": "trt:",
        "DAILY_DATA_DIR": str(tmp / "data"), "DAILY_PUBLIC_URL": "https://dice.example",
        "DAILY_TEST_CLOCK_FILE": str(tmp / "clock"), "DAILY_TEST_SLOT_LOG": str(tmp / "slots"),
        "DAILY_TEST_WORLD": '{"agreed": "all"}',
        "DAILY_RATE_LIMIT": "600/minute", "DAILY_RATE_LIMIT_IP": "6000/minute", **more,
    }
    init_keys(load_config(env).keys_dir)
    FileClockControl(Path(env["DAILY_TEST_CLOCK_FILE"]), NOON)
    return env


@pytest.fixture(scope="module")
def server(redis_db: int, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Two workers with the deployment's threads: a connection stays with one."""
    tmp = tmp_path_factory.mktemp("trips")
    with start_gunicorn(environment(redis_db, tmp), tmp, production=True) as live:
        yield live


@pytest.fixture(scope="module")
def cold_server(redis_db: int, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Two workers taking consecutive requests in turn, trusting no token."""
    tmp = tmp_path_factory.mktemp("cold")
    env = environment(redis_db, tmp, DAILY_AUTH_CACHE_SECONDS="0")
    with start_gunicorn(env, tmp) as live:
        yield live


def start(server: LiveServer, *, close: bool = False) -> tuple[Session, dict[str, Any]]:
    anonymous = Session(server.url, close=close)
    status, body = anonymous.call("POST", "/players", {"name": "Ada"})
    assert status == 201, body
    session = Session(server.url, body["token"], close=close)
    status, state = session.call("POST", "/games",
                                 {"ruleset": "yahtzee", "date": DATE, "mode": "ranked"})
    assert status == 201, state
    return session, state


def score(session: Session, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return session.call("POST", f"/games/{state['id']}/score",
                        {"box": best_box(state), "position": state["position"]})


def day_key_lookups(commands: list[str]) -> list[str]:
    """The reads and the first write of the day's descriptor (its named results key)."""
    return [c for c in commands if c.split()[1:2] == [f"trt:descriptor:{DATE}:yahtzee"]]


def others(commands: list[str]) -> list[str]:
    """The commands but the day's descriptor's."""
    lookups = day_key_lookups(commands)
    return [c for c in commands if c not in lookups]


def test_a_move_on_its_worker_is_one_call_and_so_is_the_finish(
    server: LiveServer, redis_url: str
) -> None:
    session, state = start(server)
    with Monitor(redis_url) as first:  # the start left the game replayed on its worker
        status, state = score(session, state)
    assert status == 200 and state["turn"] == 2
    # (the worker's move script may open its connection now: a SELECT, once per connection)
    assert [c.split()[0] for c in first.commands if not c.startswith("SELECT ")] == \
        ["EVALSHA"], first.commands
    for turn in range(1, 12):
        status, state = score(session, state)
        assert status == 200 and state["turn"] == turn + 2
    with Monitor(redis_url) as roll:
        status, state = session.call("POST", f"/games/{state['id']}/roll",
                                     {"hold": "11000", "position": state["position"]})
    assert status == 200 and state["roll"] == 2
    assert [c.split()[0] for c in roll.commands] == ["EVALSHA"], roll.commands
    with Monitor(redis_url) as finish:
        status, state = score(session, state)
    assert status == 200 and state["over"] and state["result"]["code"]
    # The first finish of a day set in a process learns the day's results key from its
    # descriptor (a GET; when nobody published it yet, a SET NX and a GET of the one
    # that won), kept for the day.
    assert [c.split()[0] for c in day_key_lookups(finish.commands)] in (
        ["GET"], ["GET", "SET", "GET"]), finish.commands
    assert [c.split()[0] for c in others(finish.commands)] == ["EVALSHA"], finish.commands
    assert len(session.workers) == 1  # one keep-alive connection, one worker
    conn = redis.Redis.from_url(redis_url)
    player_id = session.token.partition(".")[0]
    # the start, 12 scores, the roll, the finish: each counted once
    assert int(conn.get(f"trt:rl:write:player:{player_id}")) == 1 + 12 + 1 + 1
    assert conn.get(f"trt:code:{state['result']['code']}").decode() == state["id"]


def test_a_finishing_score_from_a_cold_worker_makes_at_most_three(
    cold_server: LiveServer, redis_url: str
) -> None:
    session, state = start(cold_server, close=True)
    for _ in range(12):
        status, state = score(session, state)
        assert status == 200
    before = session.last_worker
    with Monitor(redis_url) as finish:
        status, final = score(session, state)
    assert status == 200 and final["over"] and final["result"]["code"]
    assert session.last_worker != before  # the other worker: it has not seen this position
    # the token check, the read (spending the limits), the finish script
    # (and the day's descriptor, read once per day set by a process: see above)
    assert [c.split()[0] for c in others(finish.commands)] == ["HMGET", "EVALSHA", "EVALSHA"], \
        finish.commands


def test_a_new_player_is_one_call_and_so_is_a_ranked_start(
    server: LiveServer, redis_url: str
) -> None:
    """On one worker: creating a player is one script call, which spends the request
    limit, counts the new player per address and network and writes the account, its
    network's hash and count (the day's salt, once read, is not read again); a ranked
    start is its script alone (it spends the limits too)."""
    session = Session(server.url)
    status, body = session.call("POST", "/players", {"name": "Ada"})  # reads the salt
    assert status == 201, body
    # a first ranked start on this worker connects its script's connection
    session.http.headers["Authorization"] = f"Bearer {body['token']}"
    status, state = session.call("POST", "/games",
                                 {"ruleset": "yahtzee", "date": DATE, "mode": "ranked"})
    assert status in (200, 201), state
    del session.http.headers["Authorization"]
    conn = redis.Redis.from_url(redis_url, decode_responses=True)
    before = {key: int(conn.get(key) or 0) for key in (
        "trt:rl:write:ip:127.0.0.1", "trt:rl:all:ip:127.0.0.1",
        "trt:rl:new:{127.0.0.0/24}:ip:127.0.0.1", "trt:rl:new:{127.0.0.0/24}:net")}
    with Monitor(redis_url) as creation:
        status, body = session.call("POST", "/players", {"name": "Bea"})
    assert status == 201, body
    assert [c.split()[0] for c in creation.commands] == ["EVALSHA"], creation.commands
    # every counter counted once, and everything written, with its expiry
    assert {key: int(conn.get(key)) - count for key, count in before.items()} == \
        dict.fromkeys(before, 1)
    player_id = body["player"]["id"]
    account = conn.hgetall(f"trt:account:{player_id}")
    assert account["name"] == "Bea" and len(account["token_hash"]) == 64
    assert account["seen"] == DATE and account["created"].startswith(DATE)
    assert conn.ttl(f"trt:account:{player_id}") > 0
    day, net = conn.get(f"trt:fairplay:origin:{player_id}").split(" ")
    assert day == DATE and conn.ttl(f"trt:fairplay:origin:{player_id}") > 0
    assert int(conn.get(f"trt:fairplay:net:{DATE}:{net}")) >= 2  # Ada and Bea
    session.http.headers["Authorization"] = f"Bearer {body['token']}"
    with Monitor(redis_url) as start:
        status, state = session.call("POST", "/games",
                                     {"ruleset": "yahtzee", "date": DATE, "mode": "ranked"})
    assert status == 201, state
    assert [c.split()[0] for c in start.commands] == ["EVALSHA"], start.commands
    assert len(session.workers) == 1
    assert int(conn.get(f"trt:rl:write:player:{body['player']['id']}")) == 1
