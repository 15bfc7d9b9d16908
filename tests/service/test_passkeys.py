"""Passkeys on the live server: registration and sign-in with real WebAuthn answers
(:mod:`tests.service.authenticator`, an Ed25519 authenticator with "none" attestation),
and every refusal a JSON 4xx that names what was wrong: a wrong origin or relying-party
id, a replayed challenge, a counter that goes back, malformed parts."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
import time
from typing import Any

import pytest
import redis

from daily.service import keymap
from daily.service.players.devices import MAX_DEVICES
from daily.service.players.passkeys import MAX_PASSKEYS
from tests.polling import wait_until
from tests.service.authenticator import SoftAuthenticator, b64
from tests.service.conftest import PREFIX, Player
from tests.service.live import HttpClient

pytestmark = [pytest.mark.redis, pytest.mark.live]
#: The live server's public URL (tests/service/conftest.py): the default origin and RP id.
ORIGIN, RP_ID = "https://dice.example", "dice.example"


def options(player: Player, ceremony: str = "register") -> dict[str, Any]:
    path = f"/passkeys/{ceremony}/options"
    answer = player.call("POST", path, {}) if ceremony == "register" else \
        player.client.post("/api/v1" + path, json={})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def register(player: Player, auth: SoftAuthenticator, **change: Any) -> Any:
    offered = options(player)
    credential = auth.create(offered["publicKey"], origin=change.pop("origin", ORIGIN), **change)
    return player.call("POST", "/passkeys/register",
                       {"ticket": offered["ticket"], "credential": credential})


def login(client: HttpClient, auth: SoftAuthenticator, **change: Any) -> Any:
    offered = client.post("/api/v1/passkeys/login/options", json={}).get_json()
    credential = auth.get(offered["publicKey"], origin=change.pop("origin", ORIGIN), **change)
    return client.post("/api/v1/passkeys/login",
                       json={"ticket": offered["ticket"], "credential": credential})


def refused(answer: Any, status: int, code: str, field: str | None = None) -> dict[str, Any]:
    body = answer.get_json()
    assert answer.status_code == status, body
    assert body["error"]["code"] == code, body
    if field is not None:
        assert body["error"]["field"] == field, body
    return body["error"]


@pytest.fixture
def keyed(player: Player) -> tuple[Player, SoftAuthenticator]:
    """A player with one registered passkey."""
    auth = SoftAuthenticator()
    made = register(player, auth)
    assert made.status_code == 201, made.get_json()
    return player, auth


def test_register_then_sign_in_gives_the_player_a_new_token(
    player: Player, client: HttpClient, redis_client: redis.Redis
) -> None:
    offered = options(player)
    public = offered["publicKey"]
    assert public["rp"] == {"id": RP_ID, "name": "Daily Dice"}
    assert base64.urlsafe_b64decode(public["user"]["id"] + "==").decode() == player.id
    assert public["authenticatorSelection"]["residentKey"] == "required"
    assert public["attestation"] == "none" and offered["expires_in"] == 180
    auth = SoftAuthenticator()
    credential = auth.create(public, origin=ORIGIN)
    made = player.call("POST", "/passkeys/register",
                       {"ticket": offered["ticket"], "credential": credential, "label": "Phone"})
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["id"] == credential["id"] and made.get_json()["label"] == "Phone"
    # the hash fp-history's public-top gate reads: non-empty once a passkey is kept
    assert redis_client.hlen(keymap.passkeys(PREFIX, player.id)) == 1
    assert redis_client.ttl(keymap.passkeys(PREFIX, player.id)) > 86400

    signed = login(client, auth)
    assert signed.status_code == 200, signed.get_json()
    body = signed.get_json()
    assert body["player"]["id"] == player.id and body["token"] != player.token
    me = client.get("/api/v1/players/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.status_code == 200 and me.get_json()["id"] == player.id
    listed = client.get("/api/v1/passkeys",
                        headers={"Authorization": f"Bearer {body['token']}"}).get_json()
    assert [k["label"] for k in listed["passkeys"]] == ["Phone"]
    assert listed["passkeys"][0]["last_used"] is not None and listed["max"] == MAX_PASSKEYS
    # the sign counter is stored: the next sign-in must go above it
    assert b'"sign_count":1' in redis_client.hget(keymap.passkeys(PREFIX, player.id),
                                                   credential["id"])
    assert login(client, auth).status_code == 200


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def works(client: HttpClient, token: str) -> bool:
    """Whether both workers take ``token`` (each answers in turn)."""
    return [client.get("/api/v1/players/me", headers=bearer(token)).status_code
            for _ in range(2)] == [200, 200]


def refused_everywhere(client: HttpClient, token: str) -> None:
    """``token`` stops working in every worker (one may have trusted it
    DAILY_AUTH_CACHE_SECONDS, 2 s, more)."""
    wait_until(lambda: [client.get("/api/v1/players/me", headers=bearer(token)).status_code
                        for _ in range(2)] == [401, 401],
               timeout=10, message="a token still works")


def test_each_passkey_sign_in_gets_a_token_of_its_own(
    keyed: tuple[Player, SoftAuthenticator], client: HttpClient, redis_client: redis.Redis
) -> None:
    player, auth = keyed
    laptop, phone = (login(client, auth).get_json()["token"] for _ in range(2))
    assert len({player.token, laptop, phone}) == 3
    assert all(works(client, token) for token in (player.token, laptop, phone))
    devices = keymap.device_tokens(PREFIX, player.id)
    stored = redis_client.hgetall(devices)
    assert len(stored) == 2 and redis_client.ttl(devices) > 179 * 86400
    assert all(json.loads(v).keys() == {"created", "used"} for v in stored.values())
    kept = b"".join([*stored, *stored.values()])
    assert not any(token.split(".")[1].encode() in kept for token in (laptop, phone))

    rotated = client.post("/api/v1/players/me/token", headers=bearer(phone), json={})
    assert rotated.status_code == 200, rotated.get_json()
    new_phone = rotated.get_json()["token"]
    refused_everywhere(client, phone)
    assert all(works(client, token) for token in (player.token, laptop, new_phone))
    assert redis_client.hlen(devices) == 2

    revoked = client.delete("/api/v1/players/me/token", headers=bearer(laptop))
    assert revoked.status_code == 204
    refused_everywhere(client, laptop)
    assert all(works(client, token) for token in (player.token, new_phone))
    refused(client.delete("/api/v1/players/me/token", headers=bearer(laptop)), 401,
            "unauthorized")
    assert len(player.call("GET", "/passkeys").get_json()["passkeys"]) == 1


def test_sign_out_everywhere_ends_every_token_and_keeps_the_passkeys(
    keyed: tuple[Player, SoftAuthenticator], client: HttpClient, redis_client: redis.Redis
) -> None:
    player, auth = keyed
    laptop = login(client, auth).get_json()["token"]
    assert works(client, laptop) and works(client, player.token)
    out = client.delete("/api/v1/players/me/tokens", headers=bearer(laptop))
    assert out.status_code == 204 and out.data == b""
    refused_everywhere(client, laptop)
    refused_everywhere(client, player.token)
    assert not redis_client.exists(keymap.device_tokens(PREFIX, player.id))
    assert b"token_hash" not in redis_client.hgetall(keymap.account(PREFIX, player.id))
    # the passkey stays and signs the player in again
    again = login(client, auth)
    assert again.status_code == 200 and works(client, again.get_json()["token"])


def test_browser_tokens_are_bounded_and_expire_like_the_account(
    keyed: tuple[Player, SoftAuthenticator], client: HttpClient, redis_client: redis.Redis,
    service_config: Any,
) -> None:
    player, auth = keyed
    devices = keymap.device_tokens(PREFIX, player.id)
    idle, stale = (login(client, auth).get_json()["token"] for _ in range(2))
    entries = {k: json.loads(v) for k, v in redis_client.hgetall(devices).items()}
    (idle_key, idle_entry), (stale_key, stale_entry) = [
        next((k, v) for k, v in entries.items() if hashlib.sha256(
            token.split(".")[1].encode()).hexdigest().encode() == k) for token in (idle, stale)]
    today = dt.date.fromisoformat(stale_entry["used"])
    long_ago = today - dt.timedelta(days=service_config.player_days + 1)
    redis_client.hset(devices, stale_key, json.dumps({**stale_entry, "used": str(long_ago)}))
    refused_everywhere(client, stale)  # unused longer than an account lives
    yesterday = today - dt.timedelta(days=1)
    redis_client.hset(devices, idle_key, json.dumps({**idle_entry, "used": str(yesterday)}))
    time.sleep(service_config.auth_cache_seconds)
    assert works(client, idle)  # and that use moves its day
    assert json.loads(redis_client.hget(devices, idle_key))["used"] == str(today)
    redis_client.hset(devices, idle_key, json.dumps({**idle_entry, "used": str(yesterday)}))
    fresh = [login(client, auth).get_json()["token"] for _ in range(MAX_DEVICES - 1)]
    assert redis_client.hlen(devices) == MAX_DEVICES
    assert redis_client.hexists(devices, idle_key) and not redis_client.hexists(devices, stale_key)
    latest = login(client, auth).get_json()["token"]  # one more: the least recently used goes
    assert redis_client.hlen(devices) == MAX_DEVICES
    assert not redis_client.hexists(devices, idle_key)
    refused_everywhere(client, idle)
    assert all(works(client, token) for token in (player.token, latest, *fresh))


def test_a_wrong_origin_is_refused(keyed: tuple[Player, SoftAuthenticator],
                                   make_player: Any, client: HttpClient) -> None:
    _, auth = keyed
    field = "credential.response.clientDataJSON"
    err = refused(register(make_player(), SoftAuthenticator(), origin="https://evil.example"),
                  422, "passkey_origin", field)
    assert "https://evil.example" in err["message"]
    refused(login(client, auth, origin="https://evil.example"), 422, "passkey_origin", field)
    refused(login(client, auth, origin="http://dice.example"), 422, "passkey_origin", field)


def test_a_wrong_rp_id_is_refused(keyed: tuple[Player, SoftAuthenticator], make_player: Any,
                                  client: HttpClient) -> None:
    _, auth = keyed
    refused(register(make_player(), SoftAuthenticator(), rp_id="evil.example"), 422,
            "passkey_rp_id", "credential.response.attestationObject")
    refused(login(client, auth, rp_id="evil.example"), 422, "passkey_rp_id",
            "credential.response.authenticatorData")


def test_a_replayed_challenge_is_refused(player: Player, client: HttpClient) -> None:
    auth = SoftAuthenticator()
    offered = options(player)
    body = {"ticket": offered["ticket"], "credential": auth.create(offered["publicKey"],
                                                                    origin=ORIGIN)}
    assert player.call("POST", "/passkeys/register", body).status_code == 201
    refused(player.call("POST", "/passkeys/register", body), 409, "passkey_ticket_stale",
            "ticket")
    offered = client.post("/api/v1/passkeys/login/options", json={}).get_json()
    body = {"ticket": offered["ticket"], "credential": auth.get(offered["publicKey"],
                                                                 origin=ORIGIN)}
    assert client.post("/api/v1/passkeys/login", json=body).status_code == 200
    refused(client.post("/api/v1/passkeys/login", json=body), 409, "passkey_ticket_stale",
            "ticket")
    # a fresh ticket with an answer signed over the old challenge
    fresh = client.post("/api/v1/passkeys/login/options", json={}).get_json()
    refused(client.post("/api/v1/passkeys/login",
                        json={"ticket": fresh["ticket"], "credential": body["credential"]}),
            422, "passkey_challenge", "credential.response.clientDataJSON")


def test_a_ticket_serves_only_its_own_ceremony_and_player(
    keyed: tuple[Player, SoftAuthenticator], make_player: Any, client: HttpClient
) -> None:
    player, auth = keyed
    theirs = options(player)
    other = make_player()
    credential = SoftAuthenticator().create(theirs["publicKey"], origin=ORIGIN)
    refused(other.call("POST", "/passkeys/register",
                       {"ticket": theirs["ticket"], "credential": credential}),
            409, "passkey_ticket_stale", "ticket")
    signing = client.post("/api/v1/passkeys/login/options", json={}).get_json()
    made = SoftAuthenticator().create({**theirs["publicKey"], "challenge":
                                       signing["publicKey"]["challenge"]}, origin=ORIGIN)
    refused(player.call("POST", "/passkeys/register",
                        {"ticket": signing["ticket"], "credential": made}),
            409, "passkey_ticket_stale", "ticket")
    refused(client.post("/api/v1/passkeys/login", json={
        "ticket": "A" * 24, "credential": auth.get({"rpId": RP_ID, "challenge": "AAAA"},
                                                   origin=ORIGIN)}),
        409, "passkey_ticket_stale", "ticket")


def test_a_counter_that_goes_back_is_refused(keyed: tuple[Player, SoftAuthenticator],
                                             client: HttpClient) -> None:
    _, auth = keyed
    assert login(client, auth, count=5).status_code == 200
    field = "credential.response.authenticatorData"
    refused(login(client, auth, count=3), 409, "passkey_counter", field)
    refused(login(client, auth, count=5), 409, "passkey_counter", field)
    refused(login(client, auth, count=0), 409, "passkey_counter", field)
    assert login(client, auth, count=6).status_code == 200


def test_malformed_attestations_and_fields_are_refused(player: Player) -> None:
    auth = SoftAuthenticator()

    def send(change: Any) -> Any:
        offered = options(player)
        credential = auth.create(offered["publicKey"], origin=ORIGIN)
        change(credential)
        return player.call("POST", "/passkeys/register",
                           {"ticket": offered["ticket"], "credential": credential})

    response = "credential.response"

    def garbage_attestation(c: Any) -> None:
        c["response"]["attestationObject"] = b64(os.urandom(40))

    refused(send(garbage_attestation), 422, "passkey_malformed", f"{response}.attestationObject")

    def truncated(c: Any) -> None:
        c["response"]["attestationObject"] = c["response"]["attestationObject"][:60]

    refused(send(truncated), 422, "passkey_malformed", f"{response}.attestationObject")

    def not_base64(c: Any) -> None:
        c["response"]["attestationObject"] = "not base64!"

    refused(send(not_base64), 422, "invalid_field", f"{response}.attestationObject")

    def client_data_not_json(c: Any) -> None:
        c["response"]["clientDataJSON"] = b64(b"{not json")

    refused(send(client_data_not_json), 422, "passkey_malformed", f"{response}.clientDataJSON")

    def wrong_type(c: Any) -> None:
        c["type"] = "password"

    refused(send(wrong_type), 422, "invalid_field", "credential.type")

    def missing(c: Any) -> None:
        del c["response"]["clientDataJSON"]

    refused(send(missing), 422, "invalid_field", f"{response}.clientDataJSON")

    def number(c: Any) -> None:
        c["rawId"] = 12

    refused(send(number), 422, "invalid_field", "credential.rawId")

    def other_id(c: Any) -> None:
        c["id"] = c["rawId"] = b64(os.urandom(16))

    refused(send(other_id), 422, "passkey_invalid", "credential.id")
    bad_ticket = player.call("POST", "/passkeys/register", {"ticket": "short", "credential": {}})
    assert bad_ticket.status_code == 422 and bad_ticket.get_json()["error"]["field"] in (
        "ticket", "credential.id")
    assert player.call("GET", "/passkeys").get_json()["passkeys"] == []


def test_a_forged_signature_or_unknown_passkey_is_refused(
    keyed: tuple[Player, SoftAuthenticator], client: HttpClient
) -> None:
    player, auth = keyed
    offered = client.post("/api/v1/passkeys/login/options", json={}).get_json()
    credential = auth.get(offered["publicKey"], origin=ORIGIN)
    credential["response"]["signature"] = b64(os.urandom(64))
    refused(client.post("/api/v1/passkeys/login",
                        json={"ticket": offered["ticket"], "credential": credential}),
            422, "passkey_invalid", "credential")
    stranger = SoftAuthenticator(user_handle=player.id.encode())
    refused(login(client, stranger), 404, "unknown_passkey", "credential.id")
    nobody = SoftAuthenticator(user_handle=b"\xff\xfe")
    refused(login(client, nobody), 404, "unknown_passkey", "credential.response.userHandle")
    short = client.post("/api/v1/passkeys/login/options", json={}).get_json()
    credential = auth.get(short["publicKey"], origin=ORIGIN)
    credential["response"]["authenticatorData"] = "AAAA"
    refused(client.post("/api/v1/passkeys/login",
                        json={"ticket": short["ticket"], "credential": credential}),
            422, "passkey_malformed", "credential.response.authenticatorData")


def test_the_same_passkey_twice_and_too_many(player: Player) -> None:
    auth = SoftAuthenticator()
    assert register(player, auth).status_code == 201
    refused(register(player, auth), 409, "passkey_exists", "credential.id")
    for _ in range(MAX_PASSKEYS - 1):
        assert register(player, SoftAuthenticator()).status_code == 201
    refused(register(player, SoftAuthenticator()), 409, "too_many_passkeys")
    assert len(options(player)["publicKey"]["excludeCredentials"]) == MAX_PASSKEYS


def test_delete_forgets_a_passkey_and_signing_out_keeps_them(
        keyed: tuple[Player, SoftAuthenticator], client: HttpClient, make_player: Any) -> None:
    player, auth = keyed
    listed = player.call("GET", "/passkeys").get_json()["passkeys"]
    refused(player.call("DELETE", f"/passkeys/{b64(os.urandom(16))}"), 404, "unknown_passkey")
    refused(player.call("DELETE", "/passkeys/not*an*id"), 422, "invalid_field", "credential_id")
    assert player.call("DELETE", f"/passkeys/{listed[0]['id']}").status_code == 204
    refused(login(client, auth), 404, "unknown_passkey", "credential.id")

    other = make_player()
    theirs = SoftAuthenticator()
    assert register(other, theirs).status_code == 201
    assert other.call("DELETE", "/players/me/token").status_code == 204
    back = login(client, theirs)  # the passkey outlives the token
    assert back.status_code == 200 and back.get_json()["player"]["id"] == other.id


def test_passkey_endpoints_need_a_token_where_they_say(client: HttpClient) -> None:
    for method, path in [("POST", "/passkeys/register/options"), ("POST", "/passkeys/register"),
                         ("GET", "/passkeys"), ("DELETE", "/passkeys/AAAA")]:
        answer = client.open("/api/v1" + path, method=method, json={} if method == "POST" else None)
        assert answer.status_code == 401, (path, answer.get_json())


def test_the_relying_party_comes_from_the_configuration(live_variants: Any) -> None:
    server = live_variants(DAILY_PASSKEY_RP_ID="example",
                           DAILY_PASSKEY_ORIGIN="https://play.example")
    client = server.client()
    player = Player(client)
    offered = options(player)
    assert offered["publicKey"]["rp"]["id"] == "example"
    auth = SoftAuthenticator()
    credential = auth.create(offered["publicKey"], origin="https://play.example")
    made = player.call("POST", "/passkeys/register",
                       {"ticket": offered["ticket"], "credential": credential})
    assert made.status_code == 201, made.get_json()
    refused(login(client, auth), 422, "passkey_origin")
    assert login(client, auth, origin="https://play.example").status_code == 200


def test_the_passkey_endpoints_are_rate_limited(live_variants: Any) -> None:
    """Like every write: per verified player, else per address (here 3 a minute)."""
    client = live_variants(DAILY_RATE_LIMIT="3/minute").client()
    statuses = [client.post("/api/v1/passkeys/login/options", json={}).status_code
                for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused(client.post("/api/v1/passkeys/login/options", json={}), 429, "rate_limited")
