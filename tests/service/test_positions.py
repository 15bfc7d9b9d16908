"""Moves bound to a position, through real gunicorn workers (daily-move/1).

Consecutive requests land on alternate worker processes here, as they do behind
``daily serve`` and in production: the bug of a per-process copy of a game refusing
legal moves cannot hide.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from daily.movelog import MoveLog
from daily.replay import replay
from daily.service.config import Config
from daily.service.days.keyring import Keyring
from daily.service.results.stream import ResultStream
from tests.service.conftest import Player, best_box, metric, play_out, shown
from tests.service.live import HttpClient, LiveServer, start_gunicorn

pytestmark = [pytest.mark.redis, pytest.mark.live]
FINISHED = 'daily_games_finished_total{mode="ranked",ruleset="yahtzee"}'


@pytest.fixture(scope="module")
def live_server(
    live_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """Two workers that rest longer after each response than the suite's default, so
    the hand-over holds even on a loaded machine (the tests below count on it)."""
    env = {**live_env, "DAILY_TEST_HANDOFF": "0.15"}
    with start_gunicorn(env, tmp_path_factory.mktemp("gunicorn")) as server:
        yield server


def ranked(player: Player, ruleset: str = "yahtzee") -> dict[str, Any]:
    response = player.call(
        "POST", "/games", {"ruleset": ruleset, "date": "2026-11-29", "mode": "ranked"}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def move(player: Player, state: dict[str, Any], action: str, value: str,
         position: int | None = None) -> Any:
    key = "hold" if action == "roll" else "box"
    at = state["position"] if position is None else position
    return player.call("POST", f"/games/{state['id']}/{action}", {key: value, "position": at})


def switches(workers: list[int]) -> float:
    """The share of consecutive requests served by a different worker."""
    pairs = list(itertools.pairwise(workers))
    return sum(a != b for a, b in pairs) / len(pairs)


def test_consecutive_requests_land_on_different_workers(client: HttpClient) -> None:
    for _ in range(16):
        assert client.get("/api/v1/health").status_code == 200
    assert len(set(client.workers)) == 2, client.workers
    assert switches(client.workers) >= 0.75, client.workers


def test_a_whole_game_across_workers_has_no_refused_move(
    client: HttpClient, player: Player, service_config: Config
) -> None:
    start = len(client.workers)
    final = play_out(player, ranked(player))  # asserts 200 for every move
    served = client.workers[start:]
    assert len(set(served)) == 2 and switches(served) >= 0.6, served
    assert final["over"] and final["position"] == len(final["history"]) + sum(
        len(t["holds"]) for t in final["history"]
    )
    seed = Keyring.load(service_config).day_seed("yahtzee", "2026-11-29")
    assert replay(MoveLog.from_json(final["log"]), seed).total == final["total"]


def test_a_stale_position_is_refused_with_the_current_state(player: Player) -> None:
    state = ranked(player)
    assert state["position"] == 0
    rolled = move(player, state, "roll", "11000")
    assert rolled.status_code == 200
    now = rolled.get_json()
    assert now["position"] == 1
    for stale in (  # another decision at the old position, and positions never seen
        move(player, state, "roll", "00111"),
        move(player, state, "score", "chance"),
        move(player, now, "roll", "00011", position=7),
    ):
        assert stale.status_code == 409
        body = stale.get_json()
        assert body["error"]["code"] == "stale_position"
        assert (body["error"]["field"], body["error"]["position"]) == ("position", 1)
        assert shown(body["state"]) == shown(now)  # the whole state beside the error
        assert body["state"]["history"] == [] and "history" not in now
    current = player.call("GET", f"/games/{state['id']}").get_json()
    assert current == body["state"] and current["log"]["turns"] == [{"holds": ["11000"]}]


def test_repeating_the_last_move_is_a_safe_retry(
    player: Player, client: HttpClient, redis_client: Any, service_config: Config
) -> None:
    state = ranked(player)
    first = move(player, state, "roll", "10000")
    again = [move(player, state, "roll", "10000") for _ in range(3)]
    assert first.status_code == 200 and {r.status_code for r in again} == {200}
    assert {r.data for r in again} == {first.data}  # the same answer, byte for byte
    rolled = first.get_json()
    box = best_box(rolled)
    scored = move(player, rolled, "score", box)
    assert move(player, rolled, "score", box).data == scored.data
    # Only the move before the current position is a retry; older ones are stale.
    assert move(player, state, "roll", "10000").status_code == 409
    after = scored.get_json()
    assert after["position"] == 2 and after["last_turn"]["box"] == box
    full = player.call("GET", f"/games/{after['id']}").get_json()
    assert full["log"]["turns"] == [{"holds": ["10000"], "category": box}, {"holds": []}]

    # Retrying the move that finished the game gives the same result, enqueued once and
    # counted once (on whichever worker the retry lands).
    counted = metric(client, FINISHED)
    final = play_out(player, after)
    assert metric(client, FINISHED) == counted + 1
    last_box = final["log"]["turns"][-1]["category"]
    for _ in range(2):
        retry = move(player, final, "score", last_box, position=final["position"] - 1)
        assert retry.status_code == 200
        assert retry.get_json()["result"]["code"] == final["result"]["code"]
    again = player.call("POST", f"/games/{final['id']}/log", {"log": final["log"]})
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["result"]["code"] == final["result"]["code"]
    stream = ResultStream(redis_client, prefix=service_config.key_prefix)
    entries = [e for key in stream.stream_keys() for e in redis_client.xrange(key)]
    assert len(entries) == 1 and stream.unapplied("2026-11-29") == 1
    assert metric(client, FINISHED) == counted + 1


def test_the_position_is_checked_before_the_rules(player: Player) -> None:
    state = ranked(player)
    for _ in range(2):
        state = move(player, state, "roll", "00000").get_json()
    illegal = move(player, state, "roll", "00000")  # a third reroll: the rules say no
    assert illegal.status_code in (409, 422)
    assert illegal.get_json()["error"]["why"] == {"code": "no_rolls_left", "max_rolls": 3}
    stale_and_illegal = move(player, state, "roll", "00000", position=9)
    assert stale_and_illegal.status_code == 409  # the rules of a position never seen: no
    bad = player.call("POST", f"/games/{state['id']}/roll", {"hold": "10000", "position": -1})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "position"
