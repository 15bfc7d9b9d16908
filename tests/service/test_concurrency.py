"""Many clients at once on real gunicorn workers: one ranked game per player and set,
and every move applied exactly once, at the position it was decided at.

The server here runs the deployment's settings (two worker processes, four threads
each, no hand-off pause), so requests race inside a process and across processes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.service.conftest import Player, best_box, choose_hold, shown
from tests.service.live import HttpClient, LiveServer, start_gunicorn

pytestmark = [pytest.mark.redis, pytest.mark.live]

GAMES = 6
COPIES = 3  # each move is sent this many times at once (a client retrying)


@pytest.fixture(scope="module")
def live_server(
    live_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LiveServer]:
    """The deployment's own settings: two workers of four threads, no hand-off."""
    with start_gunicorn(
        live_env, tmp_path_factory.mktemp("gunicorn"), production=True
    ) as server:
        yield server


def test_simultaneous_ranked_starts_give_one_game(client: HttpClient, player: Player) -> None:
    barrier = threading.Barrier(6)

    def start(_: int) -> tuple[int, str]:
        barrier.wait()
        response = client.post("/api/v1/games", headers=player.headers, json={
            "ruleset": "maxi-yatzy", "date": "2026-11-29", "mode": "ranked"})
        return response.status_code, response.get_json()["id"]

    with ThreadPoolExecutor(6) as pool:
        results = list(pool.map(start, range(6)))
    assert len({game_id for _, game_id in results}) == 1
    assert sorted(status for status, _ in results) == [200] * 5 + [201]


def _decisions(state: dict[str, Any]) -> tuple[tuple[str, str], tuple[str, str]]:
    """The move a player makes, and another legal move (a second tab's) at that position."""
    hold = choose_hold(state)
    box = best_box(state)
    legal = [c["box"] for c in state["choices"] if c["legal"]]
    other_box = next((b for b in legal if b != box), None)
    if hold is not None:
        return ("roll", hold), ("score", box)
    if state["rolls_left"] > 0:
        return ("score", box), ("roll", "0" * len(state["dice"]))
    if other_box is None:  # the last box, no rolls left: only copies of the one move
        return ("score", box), ("score", box)
    return ("score", box), ("score", other_box)


def _flatten(log: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for turn in log["turns"]:
        out += [("roll", h) for h in turn["holds"]]
        if "category" in turn:
            out.append(("score", turn["category"]))
    return out


def _play(client: HttpClient, player: Player, ruleset: str) -> list[str]:
    """One game, every move sent COPIES times plus a rival move, all at once.

    Returns the problems found (empty when every invariant holds)."""
    state = player.call("POST", "/games", {"ruleset": ruleset, "mode": "practice"}).get_json()
    url = f"/api/v1/games/{state['id']}"
    applied: list[tuple[str, str]] = []
    problems: list[str] = []
    with ThreadPoolExecutor(COPIES + 1) as pool:
        while not state["over"] and not problems:
            mine, rival = _decisions(state)
            position = state["position"]
            sends = [mine] * COPIES + [rival]
            barrier = threading.Barrier(len(sends))

            def send(
                decision: tuple[str, str], pos: int = position,
                together: threading.Barrier = barrier,
            ) -> Any:
                kind, value = decision
                body = {"hold" if kind == "roll" else "box": value, "position": pos}
                together.wait()
                return client.post(f"{url}/{kind}", json=body, headers=player.headers)

            answers = list(pool.map(send, sends))
            statuses = [a.status_code for a in answers]
            won = {sends[i] for i, s in enumerate(statuses) if s == 200}
            if set(statuses) - {200, 409} or len(won) != 1:
                problems.append(f"at {position}: {statuses} for {sends}")
                break
            [winner] = won
            bodies = {a.data for a in answers if a.status_code == 200}
            new = json.loads(next(iter(bodies)))
            if len(bodies) != 1:  # every copy of the applied move: the same answer
                problems.append(f"at {position}: different answers to the same move")
            if winner != mine and statuses[:COPIES].count(409) != COPIES:
                problems.append(f"at {position}: a copy of the losing move was applied")
            for answer in answers:
                if answer.status_code == 409:
                    body = answer.get_json()
                    if body["error"]["code"] != "stale_position" or \
                            shown(body["state"]) != shown(new):
                        problems.append(f"at {position}: {body['error']}")
            if new["position"] != position + 1:
                problems.append(f"at {position}: moved to {new['position']}")
            applied.append(winner)
            state = new
    final = player.call("GET", f"/games/{state['id']}").get_json()
    if _flatten(final["log"]) != applied:
        problems.append("the game's log is not the moves accepted, once each, in order")
    return problems


def test_duplicate_and_rival_moves_on_many_games_apply_each_move_once(
    client: HttpClient, make_player: Any
) -> None:
    players = [make_player(f"P{i}") for i in range(GAMES)]
    rulesets = ["yahtzee", "maxi-yatzy", "yatzy"]
    with ThreadPoolExecutor(GAMES) as pool:
        found = list(pool.map(lambda i: _play(client, players[i], rulesets[i % 3]),
                              range(GAMES)))
    assert [p for p in found if p] == []
    assert len(set(client.workers)) == 2  # both worker processes took part


@pytest.mark.parametrize("worker_class", ["gevent", "sync"])
def test_the_other_worker_classes_apply_each_move_once_too(
    worker_class: str, live_env: dict[str, str], tmp_path: Path, redis_url: str
) -> None:
    """``GUNICORN_WORKER_CLASS`` may pick them (``deploy/gunicorn.conf.py``): the same
    races on them. Under gevent every request is a greenlet of one thread, so nothing
    kept per thread may be shared by two requests at once (a Redis connection kept per
    thread once was, and concurrent moves read each other's answers)."""
    env = {**live_env, "GUNICORN_WORKER_CLASS": worker_class}
    with start_gunicorn(env, tmp_path, production=True) as server:
        client = server.client()
        players = [Player(client, f"{worker_class}{i}") for i in range(GAMES)]
        with ThreadPoolExecutor(GAMES) as pool:
            found = list(pool.map(lambda i: _play(client, players[i], "yahtzee"),
                                  range(GAMES)))
        assert [p for p in found if p] == []
        assert f"Using worker: {worker_class}" in server.log.read_text()


def test_the_server_was_really_gunicorn_with_two_workers(live_server: LiveServer) -> None:
    text = Path(live_server.log).read_text()
    assert text.count("Booting worker") >= 2 and "gthread" in text
