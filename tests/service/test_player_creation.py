"""Creating players costs what it should: limits per address and network, proof-of-work."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from daily.service.app import create_app
from daily.service.clock import FixedClock
from daily.service.config import Config, load_config
from daily.service.creation import players_from_network, solve_pow
from tests.service.conftest import NOON, PREFIX


def _app(service_config: Config, **env: str) -> Flask:
    config = load_config({
        "REDIS_URL": service_config.redis_url or "", "DAILY_KEY_PREFIX": PREFIX,
        "DAILY_DATA_DIR": str(service_config.data_dir), **env,
    })
    return create_app(config, {"TESTING": True, "CLOCK": FixedClock(NOON)})


@pytest.fixture
def limited(service_config: Config) -> Iterator[FlaskClient]:
    app = _app(service_config, DAILY_PLAYER_LIMIT="3/hour", DAILY_PLAYER_NET_LIMIT="5/hour")
    yield app.test_client()
    app.extensions["daily"].conn.close()


def _create(client: FlaskClient, ip: str, body: Any = None) -> Any:
    return client.post("/api/v1/players", json=body or {}, environ_base={"REMOTE_ADDR": ip})


def test_limits_per_address_and_per_network(limited: FlaskClient) -> None:
    assert [_create(limited, "198.51.100.7").status_code for _ in range(4)] == [201] * 3 + [429]
    refused = _create(limited, "198.51.100.7")
    assert int(refused.headers["Retry-After"]) > 0
    assert "this address" in refused.get_json()["error"]["message"]
    # two more from the same /24, then the network is full; another network is not
    assert [_create(limited, "198.51.100.8").status_code for _ in range(3)] == [201, 201, 429]
    assert "this network" in _create(limited, "198.51.100.9").get_json()["error"]["message"]
    assert _create(limited, "203.0.113.1").status_code == 201
    # IPv6: a /48 is one network
    assert [_create(limited, f"2001:db8:5::{i}").status_code for i in range(1, 7)] == (
        [201] * 5 + [429])


def test_new_players_per_network_are_counted_for_the_review(limited: FlaskClient) -> None:
    ids = [_create(limited, f"192.0.2.{i}").get_json()["player"]["id"] for i in range(1, 4)]
    conn = limited.application.extensions["daily"].conn
    assert players_from_network(conn, PREFIX, ids[0]) == 3
    assert players_from_network(conn, PREFIX, "p_unknown") is None
    kept = conn.keys(f"{PREFIX}fairplay:*") + conn.hvals(f"{PREFIX}fairplay:origin")
    assert kept and b"192.0.2" not in b"".join(kept)  # only a salted hash of the network


def test_proof_of_work(service_config: Config) -> None:
    app = _app(service_config, DAILY_PLAYER_POW_BITS="10")
    client = app.test_client()
    missing = _create(client, "192.0.2.1", {"name": "Ada"})
    assert missing.status_code == 422 and missing.get_json()["error"]["field"] == "pow"
    challenge = client.get("/api/v1/players/challenge").get_json()
    assert challenge["bits"] == 10 and challenge["expires_in"] == 300
    token = challenge["challenge"]
    wrong = next(str(n) for n in range(10_000) if str(n) != solve_pow(token, 10))
    bad = _create(client, "192.0.2.1", {"pow": {"challenge": token, "nonce": wrong}})
    if bad.status_code != 201:  # a wrong nonce can pass by chance (1 in 1024)
        assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "pow.nonce"
    nonce = solve_pow(token, 10)
    ok = _create(client, "192.0.2.1", {"name": "Ada", "pow": {"challenge": token, "nonce": nonce}})
    assert ok.status_code == 201, ok.get_json()
    again = _create(client, "192.0.2.1", {"pow": {"challenge": token, "nonce": nonce}})
    assert again.status_code == 422 and again.get_json()["error"]["field"] == "pow.challenge"
    junk = _create(client, "192.0.2.1", {"pow": "x"})
    assert junk.status_code == 422
    app.extensions["daily"].conn.close()


def test_no_proof_of_work_by_default(client: FlaskClient) -> None:
    assert client.get("/api/v1/players/challenge").get_json()["bits"] == 0
    assert _create(client, "192.0.2.1").status_code == 201
