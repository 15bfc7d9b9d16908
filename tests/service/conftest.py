"""Fixtures for the service tests: a real app on a real Redis database, a movable
clock, a temporary data directory with fresh keys, and helpers to play through HTTP.

A test module marked ``pytest.mark.live`` gets the same fixtures (``client``,
``clock``, ``service_config``, ``player``, ``make_player``) on a live server instead:
real gunicorn with two worker processes on the test's Redis, where consecutive
requests land on alternate workers (:mod:`tests.service.live`). Every HTTP test module
of the API is marked so: the service is tested as it runs in production. Without the
mark the fixtures are the app in this process (Flask's test client), for helpers that
need no HTTP. ``live_variants`` starts live servers of other configurations, one per
configuration and module.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from daily.service.app import create_app
from daily.service.clock import FixedClock
from daily.service.config import Config, load_config
from daily.service.days.keyring import init_keys
from daily.service.extensions import Basics, of
from tests.conftest import base_url
from tests.service.live import FileClockControl, HttpClient, LiveServer, start_gunicorn

#: Mid-day UTC on 2026-11-29: the 28th, 29th and 30th are open.
NOON = dt.datetime(2026, 11, 29, 11, 0, tzinfo=dt.UTC)
PREFIX = "ddtest:"
#: New players cost nothing in the tests (tests/service/test_player_creation.py turns the
#: limits and the proof-of-work on).
NO_CREATION_COSTS = {
    "DAILY_PLAYER_LIMIT": "off", "DAILY_PLAYER_NET_LIMIT": "off", "DAILY_PLAYER_POW_BITS": "0",
}


def _live(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("live") is not None


@pytest.fixture
def service_config(request: pytest.FixtureRequest, tmp_path: Path) -> Config:
    """A configuration on the test's Redis database and a fresh data directory."""
    if _live(request):
        return request.getfixturevalue("live_config")
    config = load_config({
        "REDIS_URL": request.getfixturevalue("redis_url"),
        "DAILY_KEY_PREFIX": PREFIX,
        "DAILY_DATA_DIR": str(tmp_path / "data"),
        "DAILY_PUBLIC_URL": "https://dice.example",
        # tests create many players from one address; test_player_creation tests these
        **NO_CREATION_COSTS,
    })
    init_keys(config.keys_dir)
    return config


@pytest.fixture
def clock(request: pytest.FixtureRequest) -> Any:
    """The app's clock; move it with ``clock.advance(hours=...)`` or ``clock.set(...)``."""
    if _live(request):
        return request.getfixturevalue("live_clock")
    return FixedClock(NOON)


@pytest.fixture
def app(service_config: Config, clock: FixedClock) -> Iterator[Flask]:
    """The real application, in this process."""
    app = create_app(service_config, {"TESTING": True, "CLOCK": clock})
    yield app
    of(app, Basics).conn.close()


@pytest.fixture
def client(request: pytest.FixtureRequest) -> Any:
    """A client of the app: Flask's test client, or HTTP to the live server."""
    if _live(request):
        return request.getfixturevalue("live_client")
    app: Flask = request.getfixturevalue("app")
    return app.test_client()


# ----- the live server ------------------------------------------------------------


@pytest.fixture(scope="module")
def live_env(redis_db: int, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a live server (and of anything that shares its data)."""
    tmp = tmp_path_factory.mktemp("live")
    env = {
        "REDIS_URL": f"{base_url()}/{redis_db}",
        "DAILY_KEY_PREFIX": PREFIX,
        "DAILY_DATA_DIR": str(tmp / "data"),
        "DAILY_PUBLIC_URL": "https://dice.example",
        "DAILY_RATE_LIMIT": "off",
        **NO_CREATION_COSTS,
        "DAILY_TEST_CLOCK_FILE": str(tmp / "clock"),
        "DAILY_TEST_SLOT_LOG": str(tmp / "slots.log"),
        "DAILY_TEST_WORLD": '{"agreed": "all"}',
        # /metrics adds up every worker's figures, as in production.
        "PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrics"),
    }
    Path(env["PROMETHEUS_MULTIPROC_DIR"]).mkdir()
    init_keys(load_config(env).keys_dir)
    FileClockControl(Path(env["DAILY_TEST_CLOCK_FILE"]), NOON)
    return env


@pytest.fixture(scope="module")
def live_server(
    live_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """Real gunicorn, two workers taking consecutive requests in turn, for a module."""
    with start_gunicorn(live_env, tmp_path_factory.mktemp("gunicorn")) as server:
        yield server


@pytest.fixture(scope="module")
def live_variants(
    live_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """Live servers of other configurations, for a module: ``live_variants(VAR=value,
    ...)`` starts (once per distinct set of variables) a gunicorn like
    :func:`live_server`'s with those environment variables changed, and returns it.
    They share the module's Redis database, data directory and clock unless the
    variables say otherwise; all stop at the end of the module."""
    with ExitStack() as stack:
        started: dict[tuple[tuple[str, str], ...], LiveServer] = {}

        def variant(**overrides: str) -> LiveServer:
            key = tuple(sorted(overrides.items()))
            if key not in started:
                tmp = tmp_path_factory.mktemp("variant")
                (tmp / "metrics").mkdir()  # its own figures
                env = {**live_env, "PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrics"),
                       **overrides}
                started[key] = stack.enter_context(start_gunicorn(env, tmp))
            return started[key]

        yield variant


@pytest.fixture
def live_config(live_env: dict[str, str]) -> Config:
    """The live server's configuration (same Redis, keys and prefix)."""
    return load_config(live_env)


@pytest.fixture
def live_clock(live_env: dict[str, str]) -> FileClockControl:
    """The live server's clock, at :data:`NOON` when the test starts."""
    return FileClockControl(Path(live_env["DAILY_TEST_CLOCK_FILE"]), NOON)


@pytest.fixture
def slot_log(live_env: dict[str, str]) -> Any:
    """The slots the live server's processes computed (each process once), as a set."""
    path = Path(live_env["DAILY_TEST_SLOT_LOG"])
    path.write_text("")

    def computed() -> set[tuple[int, int]]:
        return {(int(t), int(r)) for t, r in
                (line.split() for line in path.read_text().splitlines())}

    return computed


@pytest.fixture
def live_client(
    live_server: LiveServer, redis_url: str, live_clock: FileClockControl
) -> HttpClient:
    """HTTP to the live server, on a clean Redis database (``redis_url`` flushed it), at
    noon."""
    return live_server.client()


class Player:
    """A player created through the API, with a helper to call as them."""

    def __init__(self, client: FlaskClient, name: str = "Ada") -> None:
        self.client = client
        response = client.post("/api/v1/players", json={"name": name})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.id = body["player"]["id"]
        self.token = body["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def call(self, method: str, path: str, json: Any = None, **kw: Any) -> Any:
        headers = {**self.headers, **kw.pop("headers", {})}
        return self.client.open("/api/v1" + path, method=method, json=json, headers=headers,
                                **kw)


@pytest.fixture
def player(client: FlaskClient) -> Player:
    """A fresh player."""
    return Player(client)


@pytest.fixture
def make_player(client: FlaskClient) -> Any:
    """A factory of players."""
    return lambda name="Bob": Player(client, name)


def metric(client: Any, line: str) -> float:
    """The value of one sample of ``/metrics`` (``name{labels}``), 0 when absent.

    The live server's figures add up every worker's (and every test's of the module),
    so tests compare a value before and after.
    """
    text = client.get("/metrics").data.decode()
    for row in text.splitlines():
        name, _, value = row.rpartition(" ")
        if name == line:
            return float(value)
    return 0.0


def choose_hold(state: dict[str, Any]) -> str | None:
    """A simple, deterministic policy: keep the most common face, stop once the
    best legal box scores well or no rolls are left (None = score now)."""
    dice = state["dice"]
    legal = [c for c in state["choices"] if c["legal"]]
    best = max(c["points"] for c in legal)
    if state["rolls_left"] == 0 or best >= 25:
        return None
    face = max(range(1, 7), key=lambda f: (dice.count(f), f))
    hold = "".join("1" if d == face else "0" for d in dice)
    return hold if "0" in hold else None


def shown(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what only one of its forms has: the history and log (GET, and
    the state beside a stale_position) or last_turn (the lighter answer of a move)."""
    return {k: v for k, v in state.items() if k not in ("history", "log", "last_turn")}


def best_box(state: dict[str, Any]) -> str:
    """The legal box with the most points (first in card order on ties)."""
    legal = [c for c in state["choices"] if c["legal"]]
    return max(legal, key=lambda c: c["points"])["box"]


def play_out(player: Player, state: dict[str, Any], *, turns: int | None = None,
             seen: list[bytes] | None = None) -> dict[str, Any]:
    """Play ``state``'s game through the API until it is over (or ``turns`` more
    boxes are filled); every response body is appended to ``seen``."""
    filled = 0
    while not state["over"] and (turns is None or filled < turns):
        hold = choose_hold(state)
        if hold is not None:
            response = player.call("POST", f"/games/{state['id']}/roll",
                                   {"hold": hold, "position": state["position"]})
        else:
            response = player.call("POST", f"/games/{state['id']}/score",
                                   {"box": best_box(state), "position": state["position"]})
            filled += 1
        assert response.status_code == 200, response.get_json()
        if seen is not None:
            seen.append(response.data)
        state = response.get_json()
    return state
