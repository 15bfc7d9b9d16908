"""The move lane (daily/service/http/movelane.py) answers moves, new players and ranked
starts exactly as Flask does.

Two live servers (real gunicorn, two workers each) on the same Redis, data and clock,
one with the lane (the default) and one with ``DAILY_MOVE_LANE=off``, take the same
sequence of requests from two players of their own: new players (named, unnamed, bad
bodies, with a token), starts (ranked, resumed, refused, practice), moves that apply, a retry, stale
and illegal moves, refusals before the game service (no token, a bad body, bad ids,
another player's game), a game played to its end (its share text in Italian, with a
link built from the forwarded host), moves past the end and past the rate limit. Every
answer is the same on both, status, document and headers, once the ids, tokens and
result codes of each run are written alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from daily.rules import get_ruleset
from daily.service.config import load_config
from daily.strategy.solver import solve
from daily.strategy.tables.fileformat import save_table
from tests.service.conftest import best_box, metric
from tests.service.live import HttpClient, HttpResponse, LiveServer

pytestmark = [pytest.mark.redis, pytest.mark.live]

#: Both servers: links from the request's (forwarded) host, behind one proxy, and a
#: limit the run goes past.
SETUP = {"DAILY_PUBLIC_URL": "", "DAILY_TRUSTED_PROXIES": "1", "DAILY_RATE_LIMIT": "60/minute"}
#: What the proxy in front says: client address, https, host; and the player's language.
FORWARDED = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https",
             "X-Forwarded-Host": "dice.test", "Accept-Language": "it-IT,it;q=0.9,en;q=0.5"}
#: Headers that differ between any two answers (time, process, connection).
VARYING = {"date", "x-worker-pid", "connection", "retry-after", "x-test-flask"}

Answer = tuple[int, dict[str, str], str]
#: A request: the last part of its path, its status, whether Flask answered it.
Call = tuple[str, int, bool]


def normalized(response: HttpResponse, names: dict[str, str]) -> Answer:
    """Status, headers (the varying ones left out) and body text, with this run's ids,
    tokens and codes replaced by their role."""
    text = response.get_data(as_text=True)
    for value, role in names.items():
        text = text.replace(value, role)
    headers = {k.lower(): v for k, v in response.headers.items() if k.lower() not in VARYING}
    headers.pop("content-length", None)  # follows the text, which is compared
    return response.status_code, headers, text


def run(server: LiveServer) -> tuple[list[Answer], list[Call], list[int]]:
    """The sequence on one server: its normalized answers, its calls and the workers
    that answered."""
    client = HttpClient(server.url)
    names: dict[str, str] = {}
    answers: list[Answer] = []
    calls: list[Call] = []

    def record(path: str, response: HttpResponse) -> None:
        answers.append(normalized(response, names))
        calls.append((path.rpartition("/")[2], response.status_code,
                      "X-Test-Flask" in response.headers))

    def new_player(role: str) -> dict[str, str]:
        response = client.post("/api/v1/players", json={"name": role}, headers=FORWARDED)
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        names[body["token"]] = f"<{role} token>"
        names[body["player"]["id"]] = f"<{role} id>"
        record("/players", response)
        return {**FORWARDED, "Authorization": f"Bearer {body['token']}"}

    ada, bob = new_player("ada"), new_player("bob")

    def send(path: str, body: Any = None, headers: dict[str, str] | None = None,
             data: bytes | None = None) -> dict[str, Any]:
        response = client.post(f"/api/v1{path}", json=body, data=data,
                               headers=ada if headers is None else headers)
        document = response.get_json()
        if path == "/games" and "id" in document:
            names[document["id"]] = "<game>"
        if path == "/players" and "token" in document:  # a default name is random
            names[document["token"]] = "<new token>"
            names[document["player"]["id"]] = "<new id>"
            names[document["player"]["name"]] = "<new name>"
        result = (document.get("state") or document).get("result")
        if result:
            names[result["code"]] = "<code>"
            if result.get("receipt"):  # signs the code and the player id
                names[result["receipt"]] = "<receipt>"
        record(path, response)
        return document

    send("/players", {})  # a default name
    send("/players", {"name": 7})  # 422
    send("/players", data=b"[1]", headers={**FORWARDED, "Content-Type": "application/json"})
    send("/players", {"name": "eve"})  # with a token: counted against it, by Flask
    ranked = {"ruleset": "yahtzee", "date": "2026-11-29", "mode": "ranked"}
    state = send("/games", ranked)
    send("/games", ranked)  # resumed: 200
    send("/games", {"ruleset": "yahtzee", "date": "2026-11-29"})  # ranked by default
    send("/games", {**ranked, "ruleset": "yacht"})  # no daily set: 404
    send("/games", {**ranked, "date": "2026-11-20"})  # not open: 409
    send("/games", {**ranked, "extra": 1})  # 422
    send("/games", ranked, headers=FORWARDED)  # 401
    send("/games", {**ranked, "date": "2026-11-20", "mode": "practice"})  # Flask's
    game = f"/games/{state['id']}"
    first = state["position"]
    state = send(f"{game}/roll", {"hold": "11000", "position": first})
    send(f"{game}/roll", {"hold": "11000", "position": first})  # a retry: the same answer
    send(f"{game}/roll", {"hold": "00000", "position": first})  # stale: 409 with the state
    send(f"{game}/roll", {"hold": "2", "position": state["position"]})  # 422
    send(f"{game}/roll", {"hold": "11000"})  # 422, no position
    send(f"{game}/roll", data=b"{not json", headers={**ada, "Content-Type": "application/json"})
    send(f"{game}/roll", {"hold": "11000", "position": state["position"]}, headers=FORWARDED)
    send(f"{game}/roll", {"hold": "11000", "position": state["position"]},
         headers={**FORWARDED, "Authorization": "Bearer p_nobody.secret"})  # 401
    send(f"{game}/roll", {"hold": "11000", "position": state["position"]}, headers=bob)  # 403
    send("/games/g_0000000000000000000000/roll", {"hold": "11000", "position": 1})  # 404
    send("/games/g-bad/roll", {"hold": "11000", "position": 1})  # 422 naming the id
    send(f"{game}/hint", {"top": 1})  # a ranked game of an open day: 403
    send(f"{game}/hint", {"top": 1}, headers=bob)  # another player's game: 403
    send(f"{game}/hint", {"top": 99})  # 422
    send("/games/g_0000000000000000000000/hint", {"top": 1})  # 404
    state = send(f"{game}/score", {"box": "chance", "position": state["position"]})
    send(f"{game}/score", {"box": "chance", "position": state["position"]})  # filled: 409
    send(f"{game}/score", {"box": "sevens", "position": state["position"]})  # no such box
    while not state["over"]:
        if state["rolls_left"]:
            state = send(f"{game}/roll", {"hold": "11100", "position": state["position"]})
        else:
            state = send(f"{game}/score", {"box": best_box(state),
                                           "position": state["position"]})
    send("/games", ranked)  # over: 409
    for _ in range(60):  # past the end (409), then past the limit (429)
        send(f"{game}/score", {"box": "ones", "position": state["position"]})
        if answers[-1][0] == 429:
            break
    send("/games", ranked)  # past the limit: 429
    send("/players", {}, headers={**FORWARDED, "X-Forwarded-For": "203.0.113.77"})
    return answers, calls, client.workers


@pytest.fixture(scope="module")
def servers(live_variants: Callable[..., LiveServer]) -> tuple[LiveServer, LiveServer]:
    """The server with the lane and the one without."""
    return live_variants(**SETUP), live_variants(**SETUP, DAILY_MOVE_LANE="off")


def test_the_lane_answers_every_move_as_flask_does(
    servers: tuple[LiveServer, LiveServer], redis_url: str
) -> None:
    with_lane, without = (run(server) for server in servers)
    answers, calls, workers = with_lane
    statuses = [status for status, _, _ in answers]
    for status in (200, 400, 401, 403, 404, 409, 422, 429):
        assert status in statuses, (status, statuses)
    assert len(set(workers)) == 2  # both processes of each server answered
    for number, (lane, flask) in enumerate(zip(answers, without[0], strict=True)):
        assert lane == flask, f"answer {number}"
    # The lane answered every move that reached the game service (200, 403, 404, 409,
    # 429), Flask the ones refused before (400, 401, 422) and every move without the lane.
    assert {(status, flask) for kind, status, flask in calls if kind in ("roll", "score")} \
        == {(200, False), (403, False), (404, False), (409, False), (429, False),
            (400, True), (401, True), (422, True)}
    assert {(status, flask) for kind, status, flask in calls if kind == "hint"} \
        == {(403, False), (404, False), (422, True)}
    # A ranked start and a new player without a token are the lane's once their body is
    # valid (and, for a start, the token): practice starts, bad bodies, missing tokens and a
    # new player with a token are Flask's.
    assert {(status, flask) for kind, status, flask in calls if kind == "games"} \
        == {(201, False), (200, False), (404, False), (409, False), (429, False),
            (422, True), (401, True), (201, True)}
    assert {(status, flask) for kind, status, flask in calls if kind == "players"} \
        == {(201, False), (422, True), (400, True), (201, True)}
    assert all(flask for _, _, flask in without[1])
    final = json.loads(next(text for status, _, text in reversed(answers) if status == 200))
    share = final["result"]["share_text"]
    assert final["over"] and "https://dice.test/r/<code>" in share, share
    assert re.search(r"\bpunti\b", share), share  # Accept-Language: it
    secure = answers[1][1]
    assert secure["strict-transport-security"] == "max-age=31536000"
    assert secure["content-type"] == "application/json"


def test_the_lane_counts_moves_in_the_metrics(servers: tuple[LiveServer, LiveServer]) -> None:
    lane = servers[0]
    client = lane.client()
    line = 'daily_http_requests_total{endpoint="/api/v1/games/<game_id>/roll",' \
        'method="POST",status="200"}'
    starts = 'daily_http_requests_total{endpoint="/api/v1/games",method="POST",status="201"}'
    players = 'daily_http_requests_total{endpoint="/api/v1/players",method="POST",' \
        'status="201"}'
    started = 'daily_games_started_total{mode="ranked",ruleset="yahtzee"}'
    before = [metric(client, one) for one in (line, starts, players, started)]
    _, calls, _ = run(lane)
    rolls = calls.count(("roll", 200, False))
    assert rolls > 10
    after = [metric(client, one) for one in (line, starts, players, started)]
    assert after[0] - before[0] == rolls
    assert after[1] - before[1] == sum(1 for kind, status, _ in calls
                                       if (kind, status) == ("games", 201))
    assert after[2] - before[2] == sum(1 for kind, status, _ in calls
                                       if (kind, status) == ("players", 201))
    assert after[3] - before[3] == 1  # the lane's ranked start


def test_the_lane_answers_hints_as_flask_does(
    servers: tuple[LiveServer, LiveServer], live_env: dict[str, str]
) -> None:
    """One practice game, asked through both servers (they share Redis and the data
    directory): the same answers, the lane's without Flask; a missing table is the same
    503 on both."""
    rules = get_ruleset("yacht", {"forced_order": True})
    tables = load_config(live_env).tables_dir
    lane, flask = (HttpClient(server.url) for server in servers)
    created = lane.post("/api/v1/players", json={"name": "Cy"}, headers=FORWARDED).get_json()
    cy = {**FORWARDED, "Authorization": f"Bearer {created['token']}"}
    game = lane.post("/api/v1/games", headers=cy, json={
        "ruleset": "yacht", "mode": "practice", "options": {"forced_order": True}}).get_json()
    path = f"/api/v1/games/{game['id']}/hint"

    def both(body: Any) -> list[HttpResponse]:
        return [client.post(path, json=body, headers=cy) for client in (lane, flask)]

    missing = both({"top": 1})
    assert [r.status_code for r in missing] == [503, 503]
    assert normalized(missing[0], {}) == normalized(missing[1], {})
    save_table(solve(rules), tables)
    for body in ({"top": 2}, {"top": 0}, {}):
        answers = both(body)
        assert [r.status_code for r in answers] == [200, 200], answers[0].get_json()
        assert normalized(answers[0], {}) == normalized(answers[1], {})
        assert "X-Test-Flask" not in answers[0].headers
        assert "X-Test-Flask" in answers[1].headers
        assert answers[0].get_json()["turn"] == 1
