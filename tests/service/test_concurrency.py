"""Two calls at once: one ranked game per player and set, and no lost or doubled move."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from flask import Flask

from daily.service.players import Player as ServicePlayer
from tests.service.conftest import Player

pytestmark = pytest.mark.redis


def test_simultaneous_ranked_starts_give_one_game(app: Flask, player: Player) -> None:
    results: list[tuple[int, str]] = []
    barrier = threading.Barrier(6)

    def start() -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post("/api/v1/games", headers=player.headers, json={
            "ruleset": "maxi-yatzy", "date": "2026-11-29", "mode": "ranked"})
        results.append((response.status_code, response.get_json()["id"]))

    threads = [threading.Thread(target=start) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({game_id for _, game_id in results}) == 1
    assert sorted(status for status, _ in results) == [200] * 5 + [201]


def test_a_move_racing_another_is_refused_not_lost(
    app: Flask, player: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = player.call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29",
                                           "mode": "ranked"}).get_json()
    games = app.extensions["daily"].games
    me = ServicePlayer(player.id, "Ada", "")
    interleaved: list[Any] = []
    real_replay = games._replay

    def replay_then_race(record: Any) -> Any:
        # Another request lands between this one's read and its write (once).
        if not interleaved:
            interleaved.append(None)
            interleaved[0] = player.call("POST", f"/games/{state['id']}/roll",
                                         {"hold": "10000", "position": 0})
        return real_replay(record)

    monkeypatch.setattr(games, "_replay", replay_then_race)
    with app.test_request_context(), pytest.raises(Exception) as refused:
        games.roll(me, state["id"], "01111", 0)
    assert getattr(refused.value, "code", None) == "stale_position"
    assert refused.value.state["position"] == 1  # type: ignore[attr-defined]
    assert interleaved[0].status_code == 200
    now = player.call("GET", f"/games/{state['id']}").get_json()
    assert now["log"]["turns"] == [{"holds": ["10000"]}]  # the other move, exactly once


def test_instances_take_turns_serving_one_game(
    app: Flask, player: Player, service_config: Any, clock: Any
) -> None:
    """Any instance serves the next call, even when another one served the last."""
    from daily.service.app import create_app

    other = create_app(service_config, {"TESTING": True, "CLOCK": clock}).test_client()
    here = player.client
    state = player.call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29",
                                           "mode": "ranked"}).get_json()
    url = f"/api/v1/games/{state['id']}"
    moves = [(here, "roll", {"hold": "10000"}), (other, "roll", {"hold": "11000"}),
             (here, "score", {"box": "chance"}), (here, "roll", {"hold": "00001"}),
             (other, "score", {"box": "sixes"}), (here, "roll", {"hold": "00011"})]
    for client, action, body in moves:
        response = client.post(f"{url}/{action}", json=body, headers=player.headers)
        assert response.status_code == 200, response.get_json()
    final = here.get(url, headers=player.headers).get_json()
    assert final["log"]["turns"] == [
        {"holds": ["10000", "11000"], "category": "chance"},
        {"holds": ["00001"], "category": "sixes"},
        {"holds": ["00011"]},
    ]
    assert other.get(url, headers=player.headers).get_json() == final
