"""Fixtures for the service tests: a real app on a real Redis database, a movable
clock, a temporary data directory with fresh keys, and helpers to play through HTTP."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from daily.service.app import create_app
from daily.service.clock import FixedClock
from daily.service.config import Config, load_config
from daily.service.keys import init_keys

#: Mid-day UTC on 2026-11-29: the 28th, 29th and 30th are open.
NOON = dt.datetime(2026, 11, 29, 11, 0, tzinfo=dt.UTC)
PREFIX = "ddtest:"


@pytest.fixture
def service_config(redis_url: str, tmp_path: Path) -> Config:
    """A configuration on the test's Redis database and a fresh data directory."""
    config = load_config({
        "REDIS_URL": redis_url,
        "DAILY_KEY_PREFIX": PREFIX,
        "DAILY_DATA_DIR": str(tmp_path / "data"),
        "DAILY_PUBLIC_URL": "https://dice.example",
    })
    init_keys(config.keys_dir)
    return config


@pytest.fixture
def clock() -> FixedClock:
    """The app's clock; move it with ``clock.advance(hours=...)``."""
    return FixedClock(NOON)


@pytest.fixture
def app(service_config: Config, clock: FixedClock) -> Iterator[Flask]:
    """The real application."""
    app = create_app(service_config, {"TESTING": True, "CLOCK": clock})
    yield app
    app.extensions["daily"].conn.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the app."""
    return app.test_client()


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
        return self.client.open(
            "/api/v1" + path, method=method, json=json, headers=self.headers, **kw
        )


@pytest.fixture
def player(client: FlaskClient) -> Player:
    """A fresh player."""
    return Player(client)


@pytest.fixture
def make_player(client: FlaskClient) -> Any:
    """A factory of players."""
    return lambda name="Bob": Player(client, name)


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
