"""The /days and /keys API on the live server (real gunicorn, two workers taking
consecutive requests in turn) and a real Redis: publication, seed reveal, descriptor
caching across key rotation, bad input."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from daily.audit.verify import VerificationFailed, verify_day
from daily.service import keymap
from daily.service.config import Config, load_config
from daily.service.days.keyring import Keyring, init_keys, rotate_signing_key
from tests.service import conftest as service_fixtures
from tests.service.live import FileClockControl, HttpClient, LiveServer, start_gunicorn

pytestmark = [pytest.mark.redis, pytest.mark.live]

# The service tests' live server: 2026-11-29 11:00 UTC, when the 28th, 29th and 30th are
# open and the 27th revealed.
client = service_fixtures.client
clock = service_fixtures.clock
service_config = service_fixtures.service_config
live_env = service_fixtures.live_env
live_config = service_fixtures.live_config
live_clock = service_fixtures.live_clock
live_client = service_fixtures.live_client
live_variants = service_fixtures.live_variants


@pytest.fixture(scope="module")
def live_server(
    live_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """The module's live server, logging everything down to DEBUG (tests read the log
    for seeds that must not be in it)."""
    env = {**live_env, "DAILY_TEST_LOG_LEVEL": "DEBUG"}
    with start_gunicorn(env, tmp_path_factory.mktemp("gunicorn")) as server:
        yield server


@pytest.fixture
def config(service_config: Config) -> Config:
    """The live server's configuration."""
    return service_config


@pytest.fixture(scope="module")
def own_keys_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with keys of its own, for the tests that rotate or replace them."""
    data = tmp_path_factory.mktemp("own-keys")
    init_keys(data / "keys")
    return data


@pytest.fixture
def own_keys(
    live_variants: Any, own_keys_dir: Path, live_env: dict[str, str], redis_url: str
) -> tuple[HttpClient, Config]:
    """A live server on :func:`own_keys_dir` and its configuration (on the test's clean
    Redis database, at the module's clock)."""
    server = live_variants(DAILY_DATA_DIR=str(own_keys_dir))
    return server.client(), load_config({**live_env, "DAILY_DATA_DIR": str(own_keys_dir)})


def _get(client: HttpClient, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    return response.get_json()


def _seed_hex(config: Config, ruleset: str, date: str) -> str:
    return Keyring.load(config).day_seed(ruleset, date).hex()


def test_descriptor_fields_and_status(client: HttpClient, config: Config) -> None:
    body = _get(client, "/api/v1/days/2026-11-29/yahtzee")
    assert list(body)[:9] == [
        "version",
        "ruleset",
        "options",
        "date",
        "generator",
        "commitment",
        "key_id",
        "results_key",
        "signature",
    ]
    assert body["version"] == "day/2"
    assert body["status"] == "open"
    assert body["opens_at"] == "2026-11-28T10:00:00Z"
    assert body["closes_at"] == "2026-11-30T12:00:00Z"
    assert body["options"] == {} and body["generator"] == "dice/v1"
    keys = _get(client, "/api/v1/keys")
    assert [(k["purpose"], k["active"]) for k in keys["keys"]] == [
        ("descriptors", True), ("results", True)]
    results = keys["keys"][1]
    assert body["results_key"] == {"id": results["id"], "public_key": results["public_key"]}
    assert keys["keys"][0]["id"] == body["key_id"]
    assert keys["keys"][0]["algorithm"] == "Ed25519"
    assert verify_day(body, keys).complete is False  # signature verifies; no seed yet
    # An alias is served under the canonical name.
    assert _get(client, "/api/v1/days/2026-11-29/kniffel") == body


def test_seed_absent_before_reveal_present_after(
    client: HttpClient, config: Config, clock: FileClockControl, live_server: LiveServer
) -> None:
    secret = _seed_hex(config, "maxi-yatzy", "2026-11-30")
    texts = []
    for url in (
        "/api/v1/days/2026-11-30/maxi-yatzy",
        "/api/v1/days/2026-11-30/maxi",
        "/api/v1/days?from=2026-11-25&to=2026-12-05",
        "/api/v1/days?ruleset=maxi-yatzy",
        "/api/v1/days/2026-11-30/yatzy",
        "/api/v1/days/2026-11-30/nope",
        "/api/v1/keys",
    ):
        response = client.get(url)
        texts.append(response.get_data(as_text=True))
    body = json.loads(texts[0])
    assert body["status"] == "open" and "seed" not in body
    for text in (*texts, live_server.log.read_text()):
        assert secret not in text
    # One second before the close: still no seed; at the close: the seed.
    clock.set(dt.datetime(2026, 12, 1, 11, 59, 59, tzinfo=dt.UTC))
    assert "seed" not in _get(client, "/api/v1/days/2026-11-30/maxi-yatzy")
    clock.set(dt.datetime(2026, 12, 1, 12, 0, 0, tzinfo=dt.UTC))
    revealed = _get(client, "/api/v1/days/2026-11-30/maxi-yatzy")
    assert revealed["status"] == "revealed" and revealed["seed"] == secret
    assert verify_day(revealed, _get(client, "/api/v1/keys")).complete


def test_range_lists_past_current_and_next_days(client: HttpClient) -> None:
    listed = _get(client, "/api/v1/days")["days"]
    by_date: dict[str, list[str]] = {}
    for d in listed:
        by_date.setdefault(d["date"], []).append(d["status"])
        assert ("seed" in d) == (d["status"] == "revealed")
    # Default range: the last revealed date up to the last published one (2 days ahead).
    assert sorted(by_date) == [
        "2026-11-27",
        "2026-11-28",
        "2026-11-29",
        "2026-11-30",
        "2026-12-01",
        "2026-12-02",
    ]
    assert by_date["2026-11-27"] == ["revealed", "revealed"]
    assert by_date["2026-12-02"] == ["upcoming", "upcoming"]
    one = _get(client, "/api/v1/days?from=2026-11-20&to=2026-12-15&ruleset=yahtzee")
    dates = [d["date"] for d in one["days"]]
    assert dates[0] == "2026-11-20" and dates[-1] == "2026-12-02"  # unpublished left out
    assert {d["ruleset"] for d in one["days"]} == {"yahtzee"}


def test_publication_horizon(client: HttpClient, clock: FileClockControl) -> None:
    # 2026-12-02 opens 2026-12-01 10:00 UTC; published 2 days earlier.
    _get(client, "/api/v1/days/2026-12-02/yahtzee")
    err = _get(client, "/api/v1/days/2026-12-03/yahtzee", 404)["error"]
    assert err["code"] == "not_found" and err["field"] == "date"
    assert "published from 2026-11-30T10:00:00Z" in err["message"]
    clock.set(dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC))
    assert _get(client, "/api/v1/days/2026-12-03/yahtzee")["status"] == "upcoming"


@pytest.mark.parametrize(
    ("url", "status", "field"),
    [
        ("/api/v1/days/2026-13-01/yahtzee", 422, "date"),
        ("/api/v1/days/yesterday/yahtzee", 422, "date"),
        ("/api/v1/days/" + "9" * 300 + "/yahtzee", 422, "date"),
        ("/api/v1/days/2026-11-29/chess", 422, "ruleset"),
        ("/api/v1/days/2026-11-29/yatzy", 404, "ruleset"),
        ("/api/v1/days/2025-06-01/yahtzee", 404, "date"),
        ("/api/v1/days?from=11/29/2026", 422, "from"),
        ("/api/v1/days?to=tomorrow", 422, "to"),
        ("/api/v1/days?ruleset=", 422, "ruleset"),
        ("/api/v1/days?ruleset=yahtzee,bogus", 422, "ruleset"),
    ],
)
def test_bad_input_names_the_field(client: HttpClient, url: str, status: int, field: str) -> None:
    err = _get(client, url, status)["error"]
    assert err["status"] == status and err["field"] == field
    assert len(err["message"]) < 200


def test_descriptors_survive_rotation_unchanged(own_keys: tuple[HttpClient, Config]) -> None:
    client, config = own_keys
    before = _get(client, "/api/v1/days/2026-11-29/yahtzee")
    old_id = before["key_id"]
    rotate_signing_key(config.keys_dir)
    # Every worker process loads the new key at its next request.
    for _ in range(2):
        keys = _get(client, "/api/v1/keys")
        assert {k["id"]: k["active"] for k in keys["keys"]}[old_id] is False
        same = _get(client, "/api/v1/days/2026-11-29/yahtzee")
        assert same == before  # already published: not re-signed
    fresh = _get(client, "/api/v1/days/2026-12-02/yahtzee")
    assert fresh["key_id"] != old_id and fresh["key_id"] in {k["id"] for k in keys["keys"]}
    assert verify_day(same, keys).lines[1].endswith(f"key {old_id})")
    assert verify_day(fresh, keys).lines[1].endswith(f"key {fresh['key_id']})")


def test_a_running_app_picks_up_a_rotation(own_keys: tuple[HttpClient, Config]) -> None:
    client, config = own_keys
    before = _get(client, "/api/v1/days/2026-11-29/yahtzee")
    _, new_id = rotate_signing_key(config.keys_dir)
    for _ in range(2):  # each worker
        keys = _get(client, "/api/v1/keys")
        assert [k["id"] for k in keys["keys"]
                if k["active"] and k["purpose"] == "descriptors"] == [new_id]
        assert _get(client, "/api/v1/days/2026-11-29/yahtzee") == before
    assert _get(client, "/api/v1/days/2026-11-30/yahtzee")["key_id"] == new_id
    assert len(set(client.workers)) == 2


def test_a_replaced_master_secret_is_refused_not_re_signed(
    own_keys: tuple[HttpClient, Config],
) -> None:
    client, config = own_keys
    published = _get(client, "/api/v1/days/2026-11-29/yahtzee")
    (config.keys_dir / "master.secret").unlink()
    init_keys(config.keys_dir)  # a new master secret
    for _ in range(2):  # each worker
        err = _get(client, "/api/v1/days/2026-11-29/yahtzee", 503)["error"]
        assert err["code"] == "unavailable"
        assert published["commitment"] not in err["message"]


def test_missing_keys_give_503_not_500(
    live_variants: Any, redis_url: str, tmp_path: Path
) -> None:
    client = live_variants(DAILY_DATA_DIR=str(tmp_path)).client()
    for url in ("/api/v1/keys", "/api/v1/days/2026-11-29/yahtzee") * 2:
        err = _get(client, url, 503)["error"]
        assert "daily keys init" in err["message"]
    assert len(set(client.workers)) == 2


def test_tampered_served_descriptor_fails_verification(client: HttpClient) -> None:
    body = _get(client, "/api/v1/days/2026-11-27/yahtzee")
    keys = _get(client, "/api/v1/keys")
    assert verify_day(body, keys).complete
    with pytest.raises(VerificationFailed):
        verify_day({**body, "commitment": "0" * 64}, keys)


def test_par_is_served_once_computed(
    client: HttpClient, config: Config, redis_client: Any
) -> None:
    assert "par" not in _get(client, "/api/v1/days/2026-11-29/yahtzee")
    par = {"easy": 231, "medium": 245, "hard": 262}
    redis_client.set(keymap.par(config.key_prefix, dt.date(2026, 11, 29), "yahtzee"),
                     json.dumps(par))
    body = _get(client, "/api/v1/days/2026-11-29/yahtzee")
    assert body["par"] == par and "seed" not in body
    listed = _get(client, "/api/v1/days?from=2026-11-29&to=2026-11-29")["days"]
    assert [d.get("par") for d in listed] == [par, None]


def test_no_response_carries_the_seed_of_an_open_day(
    client: HttpClient, config: Config, live_server: LiveServer
) -> None:
    ring = Keyring.load(config)
    secrets = [
        ring.day_seed(r, d).hex()
        for r in config.daily_rulesets
        for d in ("2026-11-28", "2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02")
    ]
    texts = []
    player = client.post("/api/v1/players", json={"name": "Ada"})
    texts.append(player.get_data(as_text=True))
    auth = {"Authorization": f"Bearer {player.get_json()['token']}"}
    game = client.post(
        "/api/v1/games",
        json={"ruleset": "yahtzee", "date": "2026-11-29", "mode": "ranked"},
        headers=auth,
    )
    assert game.status_code in (200, 201), game.get_data(as_text=True)
    texts.append(game.get_data(as_text=True))
    for url in (
        "/api/v1/today",
        "/api/v1/days",
        "/api/v1/keys",
        "/api/v1/openapi.json",
        f"/api/v1/games/{game.get_json()['id']}",
        "/api/v1/players/me",
        "/api/v1/days/2026-12-02/maxi-yatzy",
        "/api/v1/days/2026-12-03/maxi-yatzy",
    ):
        texts.append(client.get(url, headers=auth).get_data(as_text=True))
    texts.append(live_server.log.read_text())
    for text in texts:
        for secret in secrets:
            assert secret not in text


def test_a_long_range_comes_in_pages_and_a_reversed_one_is_empty(
    client: HttpClient, clock: FileClockControl
) -> None:
    clock.set(dt.datetime(2027, 1, 15, 12, 0, tzinfo=dt.UTC))
    first = _get(client, "/api/v1/days?from=2026-11-01&to=2027-01-10&ruleset=yahtzee")
    dates = [d["date"] for d in first["days"]]
    assert dates[0] == "2026-11-01" and dates[-1] == "2026-12-01" and len(dates) == 31
    assert first["next"] == "2026-12-02"
    second = _get(client, f"/api/v1/days?from={first['next']}&to=2027-01-10&ruleset=yahtzee")
    assert len(second["days"]) == 31 and second["next"] == "2027-01-02"
    third = _get(client, f"/api/v1/days?from={second['next']}&to=2027-01-10&ruleset=yahtzee")
    assert [d["date"] for d in third["days"]][-1] == "2027-01-10" and third["next"] is None
    assert _get(client, "/api/v1/days?from=2026-11-29&to=2026-11-28") == {"days": [], "next": None}
