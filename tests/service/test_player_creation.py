"""Creating players costs what it should, on the live server (gunicorn, two workers):
limits per address and per network, a one-time proof-of-work bound to its network, and
the count of new players per network that the fair-play review reads.

The server sits behind one trusted proxy here, so ``X-Forwarded-For`` is the client
address and one test machine can speak from many addresses and networks.
"""

from __future__ import annotations

from typing import Any

import pytest
import redis

from daily.service import keymap
from daily.service.config import Config, load_config
from daily.service.players.creation import (
    CreationGuard,
    challenge_hash,
    players_from_network,
    pow_ok,
    solve_pow,
)
from daily.service.review.queue import ReviewQueue
from tests.service.conftest import PREFIX, play_out
from tests.service.live import FileClockControl, HttpClient
from tests.service.test_worker_integration import run_worker_burst

pytestmark = [pytest.mark.redis, pytest.mark.live]

BITS = 10
PER_ADDRESS = 3
PER_NETWORK = 10
DATE = "2026-11-29"


@pytest.fixture(scope="module")
def live_env(live_env: dict[str, str]) -> dict[str, str]:
    """The live server with the limits and the proof-of-work on, behind one proxy."""
    return {
        **live_env,
        "DAILY_TRUSTED_PROXIES": "1",
        "DAILY_PLAYER_LIMIT": f"{PER_ADDRESS}/hour",
        "DAILY_PLAYER_NET_LIMIT": f"{PER_NETWORK}/hour",
        "DAILY_PLAYER_POW_BITS": str(BITS),
    }


def _from(ip: str) -> dict[str, str]:
    return {"X-Forwarded-For": ip}


def _challenge(client: HttpClient, ip: str) -> str:
    response = client.get("/api/v1/players/challenge", headers=_from(ip))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["bits"] == BITS and body["expires_in"] == 300
    return str(body["challenge"])


def _post(client: HttpClient, ip: str, body: dict[str, Any]) -> Any:
    return client.post("/api/v1/players", json=body, headers=_from(ip))


def _create(client: HttpClient, ip: str, name: str | None = None) -> Any:
    """Ask for a challenge, solve it and create a player, all from ``ip``."""
    challenge = _challenge(client, ip)
    body: dict[str, Any] = {"pow": {"challenge": challenge, "nonce": solve_pow(challenge, BITS)}}
    if name is not None:
        body["name"] = name
    return _post(client, ip, body)


def _refused_for(response: Any, limit: str) -> dict[str, Any]:
    assert response.status_code == 429, response.get_json()
    error = response.get_json()["error"]
    assert error["code"] == "too_many_players" and error["limit"] == limit
    assert 1 <= int(response.headers["Retry-After"]) <= 3600
    return dict(error)


def test_limits_per_address_and_per_network(live_client: HttpClient) -> None:
    statuses = [_create(live_client, "198.51.100.7").status_code for _ in range(PER_ADDRESS)]
    assert statuses == [201] * PER_ADDRESS
    error = _refused_for(_create(live_client, "198.51.100.7"), "players_per_address")
    assert "too many new players from this address: 3 per 1 hour" in error["message"]
    assert "DAILY_PLAYER_LIMIT" in error["message"]
    # Neighbours in the same /24 share the network's 10 an hour: 3 + 3 + 3 + 1 ...
    for ip, allowed in (("198.51.100.8", 3), ("198.51.100.9", 3), ("198.51.100.10", 1)):
        assert [_create(live_client, ip).status_code for _ in range(allowed)] == [201] * allowed
    error = _refused_for(_create(live_client, "198.51.100.10"), "players_per_network")
    assert "from this network: 10 per 1 hour" in error["message"]
    # ... and another network is not concerned.
    assert _create(live_client, "203.0.113.1").status_code == 201
    # IPv6: a /48 is one network, however many addresses it has.
    v6 = [_create(live_client, f"2001:db8:5:{i}::1").status_code for i in range(PER_NETWORK)]
    assert v6 == [201] * PER_NETWORK
    _refused_for(_create(live_client, "2001:db8:5:ffff::2"), "players_per_network")
    assert _create(live_client, "2001:db8:6::1").status_code == 201


def test_proof_of_work_missing_wrong_malformed_reused_expired_forged_or_foreign(
    live_client: HttpClient, redis_client: redis.Redis, live_clock: FileClockControl
) -> None:
    ip = "192.0.2.1"

    def refused(body: dict[str, Any], code: str, field: str, from_ip: str = ip) -> None:
        response = _post(live_client, from_ip, body)
        assert response.status_code == 422, response.get_json()
        error = response.get_json()["error"]
        assert (error["code"], error["field"]) == (code, field), error

    def answer(challenge: str) -> dict[str, Any]:
        return {"pow": {"challenge": challenge, "nonce": solve_pow(challenge, BITS)}}

    refused({"name": "Ada"}, "pow_required", "pow")
    challenge = _challenge(live_client, ip)
    # Handing a challenge out stores nothing: it carries its expiry and MAC.
    assert redis_client.keys(f"{PREFIX}pow:*") == []
    wrong = next(str(n) for n in range(10_000) if not pow_ok(challenge, str(n), BITS))
    refused({"pow": {"challenge": challenge, "nonce": wrong}}, "pow_wrong", "pow.nonce")
    refused({"pow": {"challenge": challenge.upper(), "nonce": "1"}}, "invalid_field",
            "pow.challenge")
    refused({"pow": {"challenge": challenge, "nonce": "1 2"}}, "invalid_field", "pow.nonce")
    refused({"pow": {"challenge": challenge}}, "invalid_field", "pow.nonce")
    refused({"pow": "x"}, "invalid_field", "pow")
    # A right answer from another network does not count.
    refused(answer(challenge), "pow_stale", "pow.challenge", from_ip="203.0.113.50")
    # Forged: another expiry, or another MAC, with a nonce that solves it.
    later = f"{int(challenge[:8], 16) + 600:08x}" + challenge[8:]
    refused(answer(later), "pow_stale", "pow.challenge")
    flipped = challenge[:-1] + ("0" if challenge[-1] != "0" else "1")
    refused(answer(flipped), "pow_stale", "pow.challenge")
    refused(answer("0" * 32), "pow_stale", "pow.challenge")

    made = _post(live_client, "192.0.2.77", {"name": "Ada", **answer(challenge)})
    assert made.status_code == 201, made.get_json()  # same /24: the same network
    assert made.get_json()["player"]["name"] == "Ada"
    # used once: never again; Redis keeps a hash of it until it would have expired
    refused(answer(challenge), "pow_stale", "pow.challenge")
    used = redis_client.keys(f"{PREFIX}pow:*")
    assert used == [keymap.pow_used(PREFIX, challenge_hash(challenge)).encode()]
    assert 0 < redis_client.ttl(used[0]) <= 300
    assert not [k for k in redis_client.scan_iter("*") if challenge.encode() in k]

    # expired: five minutes later on the server's clock
    challenge = _challenge(live_client, ip)
    live_clock.advance(seconds=301)
    refused(answer(challenge), "pow_stale", "pow.challenge")
    assert _create(live_client, ip).status_code == 201  # a fresh one works


def _scout(client: HttpClient, token: str) -> dict[str, Any]:
    """A ranked game that rerolls every die at every chance."""
    headers = {"Authorization": f"Bearer {token}"}

    def call(path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = client.post("/api/v1" + path, json=body, headers=headers)
        assert response.status_code in (200, 201), response.get_json()
        return dict(response.get_json())

    state = call("/games", {"ruleset": "yahtzee", "date": DATE, "mode": "ranked"})
    while not state["over"]:
        pos = {"position": state["position"]}
        if state["rolls_left"]:
            state = call(f"/games/{state['id']}/roll", {"hold": "00000", **pos})
        else:
            box = next(c["box"] for c in state["choices"] if c["legal"])
            state = call(f"/games/{state['id']}/score", {"box": box, **pos})
    return state


class _Player:
    def __init__(self, client: HttpClient, body: dict[str, Any]) -> None:
        self.client, self.id, self.token = client, body["player"]["id"], body["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}

    def call(self, method: str, path: str, json: Any = None) -> Any:
        return self.client.open("/api/v1" + path, method, json=json, headers=self.headers)


def test_new_players_per_network_feed_the_review_statistics(
    live_client: HttpClient, live_config: Config, redis_client: redis.Redis
) -> None:
    busy = [_create(live_client, f"198.51.100.{1 + i // PER_ADDRESS}") for i in range(PER_NETWORK)]
    assert [r.status_code for r in busy] == [201] * PER_NETWORK
    quiet = _create(live_client, "203.0.113.9")
    ids = [r.get_json()["player"]["id"] for r in busy]
    assert {players_from_network(redis_client, PREFIX, i) for i in ids} == {PER_NETWORK}
    quiet_player = _Player(live_client, quiet.get_json())
    assert players_from_network(redis_client, PREFIX, quiet_player.id) == 1
    assert players_from_network(redis_client, PREFIX, "p_never_made") is None
    # Only salted hashes of networks are kept, never an address, and they expire.
    origin = redis_client.get(keymap.player_origin(PREFIX, ids[0]))
    assert origin is not None and b"198.51" not in origin
    assert 0 < redis_client.ttl(keymap.player_origin(PREFIX, ids[0])) <= 2 * 86400
    assert not [k for k in redis_client.keys(f"{PREFIX}fairplay:*") if b"198.51" in k]

    # A scout from the busy network and an honest game from the quiet one go through a
    # real results worker: the board's review statistics count both signals.
    _scout(live_client, busy[0].get_json()["token"])
    honest = quiet_player.call("POST", "/games", {"ruleset": "yahtzee", "date": DATE,
                                                  "mode": "ranked"}).get_json()
    play_out(quiet_player, honest)  # type: ignore[arg-type]
    done = run_worker_burst(live_config)
    assert done.returncode == 0, done.stderr[-2000:]
    signals = ReviewQueue(redis_client, PREFIX).signals(DATE, "yahtzee")
    assert signals == {"checked": 2, "scout_like": 1, "busy_network": 1, "reveal_unused": 0,
                       "scout_linked": 0, "plays_blind": 0, "copied": 0}


def test_a_process_reads_the_days_salt_once_and_takes_up_a_new_one(
    redis_client: redis.Redis,
) -> None:
    """The salt of network hashes is read from Redis once per ``salt_seconds``: a salt
    Redis lost and made again reaches every process within that bound."""
    config = load_config({"DAILY_KEY_PREFIX": "salt:"})
    guard = CreationGuard(redis_client, config)
    other = CreationGuard(redis_client, config)  # another process
    key = keymap.network_salt("salt:", DATE)

    def origin(who: CreationGuard, player_id: str) -> bytes:
        with redis_client.pipeline() as pipe:
            who.remember(pipe, player_id, "198.51.100.9", DATE)
            pipe.execute()
        value = redis_client.get(keymap.player_origin("salt:", player_id))
        assert value is not None
        return value

    first = origin(guard, "p_one")
    assert origin(other, "p_two") == first  # both read the salt that Redis keeps
    redis_client.delete(key)  # lost: the next process to need it makes a new one
    assert origin(guard, "p_three") == first  # still within the bound: not read again
    other.salt_seconds = 0  # past the bound
    renewed = origin(other, "p_four")
    assert renewed != first and redis_client.get(key) is not None
    guard.salt_seconds = 0
    assert origin(guard, "p_five") == renewed
