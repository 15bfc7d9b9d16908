"""A finished game reaches the leaderboard through a real results consumer process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from daily.service.config import Config
from tests.service.conftest import PREFIX, Player, play_out

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

ROOT = Path(__file__).resolve().parents[2]


def run_worker_burst(config: Config) -> subprocess.CompletedProcess[str]:
    """``daily worker results --burst``, in its own process."""
    env = dict(os.environ, REDIS_URL=config.redis_url or "", DAILY_KEY_PREFIX=PREFIX,
               DAILY_DATA_DIR=str(config.data_dir), PYTHONPATH=str(ROOT))
    env.pop("DAILY_TEST_PAUSE_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "daily", "worker", "results", "--burst"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def ranked(player: Player) -> dict[str, Any]:
    return player.call("POST", "/games", {"ruleset": "yahtzee", "date": "2026-11-29",
                                          "mode": "ranked"}).get_json()


def test_finished_games_reach_the_leaderboard(
    app: Flask, service_config: Config, make_player: Any, client: Any
) -> None:
    ada, bob = make_player("Ada"), make_player("Bob")
    finals = {p.id: play_out(p, ranked(p)) for p in (ada, bob)}
    unfinished = make_player("Cy")
    ranked(unfinished)
    # Nothing on the board before a worker ran.
    board = client.get("/api/v1/leaderboards/2026-11-29/yahtzee").get_json()
    assert board["players"] == 0 and board["top"] == []
    stream = app.extensions["daily"].results
    assert stream.unapplied("2026-11-29") == stream.backlog() == 2

    done = run_worker_burst(service_config)
    assert done.returncode == 0, done.stderr[-2000:]
    assert stream.unapplied("2026-11-29") == stream.backlog() == 0

    board = ada.call("GET", "/leaderboards/2026-11-29/yahtzee").get_json()
    assert board["players"] == 2 and board["frozen"] is False
    scores = sorted((f["total"] for f in finals.values()), reverse=True)
    assert [row["score"] for row in board["top"]] == scores
    assert {row["player"]["name"] for row in board["top"]} == {"Ada", "Bob"}
    assert board["me"]["score"] == finals[ada.id]["total"]
    assert sum(b["count"] for b in board["histogram"]["bins"]) == 2

    rank = board["me"]["rank"]
    state = ada.call("GET", f"/games/{finals[ada.id]['id']}").get_json()
    assert state["result"]["rank"] == rank and state["result"]["players"] == 2
    assert f"rank {rank} of 2" in state["result"]["share_text"]
    shared = client.get(f"/api/v1/results/{state['result']['code']}").get_json()
    assert (shared["rank"], shared["percentile"]) == (rank, board["me"]["percentile"])
    lower = finals[bob.id]["total"] < finals[ada.id]["total"]
    assert shared["better_than"] == board["me"]["better_than"] == (50.0 if lower else 0.0)
    assert state["result"]["streak"] == 1 and "streak" not in state["result"]["share_text"]
    assert finals[ada.id]["result"]["streak"] is None  # the finishing answer looks nothing up

    # A rename reaches the board at once (the board reads names when it is read).
    assert ada.call("PATCH", "/players/me", {"name": "Ada L."}).status_code == 200
    board = bob.call("GET", "/leaderboards/2026-11-29/yahtzee").get_json()
    assert {row["player"]["name"] for row in board["top"]} == {"Ada L.", "Bob"}
    assert {row["player"]["name"] for row in board["around"]} == {"Ada L.", "Bob"}

    me = ada.call("GET", "/players/me").get_json()
    assert me["stats"]["games"] == 1 and me["stats"]["best"] == finals[ada.id]["total"]
    assert me["stats"]["current_streak"] == 1
    assert me["history"] == [{"date": "2026-11-29", "ruleset": "yahtzee",
                              "total": finals[ada.id]["total"],
                              "code": finals[ada.id]["result"]["code"]}]
    today = ada.call("GET", "/today").get_json()
    played = next(s["played"] for s in today["sets"]
                  if (s["date"], s["ruleset"]) == ("2026-11-29", "yahtzee"))
    assert played["over"] is True and played["code"] == finals[ada.id]["result"]["code"]

    # Submitting the log of a finished game again appends nothing new.
    assert ada.call("POST", f"/games/{finals[ada.id]['id']}/log",
                    {"log": finals[ada.id]["log"]}).status_code == 200
    assert stream.backlog() == 0
