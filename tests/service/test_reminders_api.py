"""``/reminders`` on the live server: the VAPID key, a player's subscription put,
shown, replaced and deleted, and bad input refused with a JSON 4xx naming the field.

The endpoints here are on the module's push service (``DAILY_PUSH_SERVICES``); nothing
is sent (the job's test, tests/workers/test_reminders_job.py, sends)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
import redis

from daily.service import keymap
from daily.service.config import Config
from daily.service.reminders.vapid import load_vapid_key
from tests.reminders.push_receiver import Browser
from tests.service.conftest import PREFIX, Player
from tests.service.test_bad_input import error

pytestmark = [pytest.mark.redis, pytest.mark.live]

SERVICE = "https://push.example"


@pytest.fixture(scope="module")
def live_env(live_env: dict[str, str]) -> dict[str, str]:
    """The module's server sends reminders to one push service only."""
    return {**live_env, "DAILY_PUSH_SERVICES": f"{SERVICE},https://*.push.example"}


def browser(name: str = "b1", origin: str = SERVICE) -> Browser:
    from cryptography.hazmat.primitives.asymmetric import ec
    return Browser(name, f"{origin}/wpush/{name}", ec.generate_private_key(ec.SECP256R1()),
                   bytes(range(16)))


def settings(sub: Browser | dict[str, Any], **changes: Any) -> dict[str, Any]:
    body = {"subscription": sub.subscription() if isinstance(sub, Browser) else sub,
            "hour": 9, "time_zone": "Europe/Rome", "reminders": ["daily", "streak"]}
    body.update(changes)
    return body


def test_the_vapid_key_is_the_servers(client: Any, service_config: Config) -> None:
    response = client.get("/api/v1/reminders/key")
    assert response.status_code == 200
    body = response.get_json()
    key = load_vapid_key(service_config)
    assert key is not None and body["public_key"] == key.public_b64url
    assert body["reminders"] == ["daily", "streak"]


def test_a_subscription_is_put_shown_replaced_and_deleted(
    player: Player, make_player: Any, redis_client: redis.Redis,
) -> None:
    assert player.call("GET", "/reminders/subscription").get_json() == {"subscription": None}
    put = player.call("PUT", "/reminders/subscription", settings(browser()),
                      headers={"Accept-Language": "it"})
    assert put.status_code == 200, put.get_json()
    shown = player.call("GET", "/reminders/subscription").get_json()["subscription"]
    assert shown == put.get_json()
    assert (shown["hour"], shown["time_zone"], shown["reminders"], shown["streak_hour"],
            shown["push_service"]) == (9, "Europe/Rome", ["daily", "streak"], 20, SERVICE)
    assert "keys" not in shown and "endpoint" not in shown  # the secrets stay on the server
    expires = dt.datetime.fromisoformat(shown["expires"].replace("Z", "+00:00"))
    updated = dt.datetime.fromisoformat(shown["updated"].replace("Z", "+00:00"))
    assert dt.timedelta(days=59) < expires - updated <= dt.timedelta(days=60)
    stored = json.loads(redis_client.get(keymap.push_subscription(PREFIX, player.id)))
    assert stored["lang"] == "it"
    due = keymap.push_due(PREFIX)
    assert redis_client.zscore(due, f"{player.id} daily") is not None
    assert redis_client.zscore(due, f"{player.id} streak") is not None

    # Another browser's subscription replaces it; only the daily reminder now.
    again = player.call("PUT", "/reminders/subscription",
                        settings(browser("b2", "https://eu.push.example"), reminders=["daily"],
                                 hour=7))
    assert again.status_code == 200 and again.get_json()["hour"] == 7
    assert redis_client.zscore(due, f"{player.id} streak") is None
    assert json.loads(redis_client.get(keymap.push_subscription(PREFIX, player.id)))[
        "endpoint"] == "https://eu.push.example/wpush/b2"

    other = make_player("Bob")  # one player's subscription is nobody else's
    assert other.call("GET", "/reminders/subscription").get_json() == {"subscription": None}

    assert player.call("DELETE", "/reminders/subscription").status_code == 204
    assert player.call("GET", "/reminders/subscription").get_json() == {"subscription": None}
    assert redis_client.zrange(due, 0, -1) == []
    assert player.call("DELETE", "/reminders/subscription").status_code == 204  # idempotent


@pytest.mark.parametrize(("change", "field"), [
    ({"time_zone": "Europe/Atlantis"}, "time_zone"),
    ({"time_zone": "../../etc/passwd"}, "time_zone"),
    ({"time_zone": 1}, "time_zone"),
    ({"hour": 24}, "hour"),
    ({"hour": "9"}, "hour"),
    ({"streak_hour": -1}, "streak_hour"),
    ({"reminders": []}, "reminders"),
    ({"reminders": ["daily", "daily"]}, "reminders"),
    ({"reminders": ["weekly"]}, "reminders"),
    ({"subscription": {"endpoint": "ftp://push.example/1",
                       "keys": {"p256dh": "B" * 87, "auth": "A" * 22}}},
     "subscription.endpoint"),
    ({"subscription": {"endpoint": "https://push.example/1", "keys": {"auth": "A" * 22}}},
     "subscription.keys.p256dh"),
    ({"subscription": {"endpoint": "https://push.example/1",
                       "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22}}},
     "subscription.keys.p256dh"),  # not a point of the curve
    ({"surprise": True}, "surprise"),
])
def test_bad_settings_are_refused_naming_the_field(
    player: Player, change: dict[str, Any], field: str,
) -> None:
    response = player.call("PUT", "/reminders/subscription", settings(browser(), **change))
    error(response, 422, "invalid_field", field)
    assert player.call("GET", "/reminders/subscription").get_json() == {"subscription": None}


@pytest.mark.parametrize("origin", [
    "https://10.0.0.1", "http://push.example", "https://push.example:8443",
    "https://push.example.evil.example", "https://evilpush.example", "https://a]b",
    "https://push.example:99999",
])
def test_an_endpoint_off_the_push_services_is_refused(player: Player, origin: str) -> None:
    response = player.call("PUT", "/reminders/subscription", settings(browser("x", origin)))
    error(response, 403, "push_service_refused", "subscription.endpoint")


def test_reminders_need_a_player(client: Any) -> None:
    error(client.get("/api/v1/reminders/subscription"), 401, "unauthorized")
    error(client.open("/api/v1/reminders/subscription", method="PUT",
                      json=settings(browser())), 401, "unauthorized")
    error(client.open("/api/v1/reminders/subscription", method="DELETE"), 401, "unauthorized")
