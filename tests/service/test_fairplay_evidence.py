"""Evidence across games and days, end to end: a game on its way into the top of its
board waits for an operator when it follows a scout of the day, or when its player's
record keeps beating optimal play.

Played through the live server (real gunicorn, two workers); the results go through a
real consumer process; the operator uses ``daily review``. The scout leaves its game
one box short of the end, so it never reaches the results stream: it is found among
the day's started games.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import pytest
import redis

from daily.rules import get_ruleset
from daily.service.config import Config
from daily.service.results.leaderboard import Leaderboard, Result
from daily.service.review.queue import ReviewQueue
from tests.service.conftest import PREFIX, Player, play_out
from tests.service.test_fairplay_attack import _cli, move, ranked
from tests.service.test_worker_integration import run_worker_burst

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

DATE = "2026-11-29"
BOARD = f"/leaderboards/{DATE}/yahtzee"


def scout_one_box_short(player: Player) -> np.ndarray:
    """Reroll every die of every turn but the last, which is never played."""
    rules = get_ruleset("yahtzee")
    seen = np.zeros((rules.turns - 1, rules.rolls_per_turn, rules.dice), dtype=np.int64)
    state = ranked(player)
    for t in range(rules.turns - 1):
        seen[t, 0] = state["dice"]
        for r in range(1, rules.rolls_per_turn):
            state = move(player, state, "roll", hold="0" * rules.dice)
            seen[t, r] = state["dice"]
        box = next(c["box"] for c in state["choices"] if c["legal"])
        state = move(player, state, "score", box=box)
    assert not state["over"]
    return seen


def test_a_top_game_after_an_unfinished_scout_waits_for_the_operator(
    service_config: Config, redis_client: redis.Redis, make_player: Any, clock: Any,
    monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    throwaway, bea = make_player("x1"), make_player("Bea")
    scout_one_box_short(throwaway)
    clock.advance(minutes=3)
    game = play_out(bea, ranked(bea))
    done = run_worker_burst(service_config)
    assert done.returncode == 0, done.stderr[-3000:]

    # Bea's game would top the empty board; it follows the scout from her network.
    state = bea.call("GET", f"/games/{game['id']}").get_json()["result"]
    assert state["rank"] is None
    assert state["review"]["state"] == "pending_review"
    assert state["review"]["reason_code"] == "scout_link"
    board = bea.call("GET", BOARD).get_json()
    assert board["players"] == 0 and board["top"] == [] and board["me"] is None
    assert board["review"]["state"] == "pending_review"
    public = bea.client.get(f"/api/v1/results/{state['code']}").get_json()
    assert public["review"]["state"] == "pending_review" and public["rank"] is None

    stats = _cli(monkeypatch, service_config, capsys, "review", "stats", DATE, "yahtzee")
    assert "1 unfinished scout-like" in stats and "1 linked to a scout" in stats
    assert "1 pending" in stats
    listed = _cli(monkeypatch, service_config, capsys, "review", "list", "--state", "pending")
    assert game["id"] in listed and "scout_link" in listed
    shown = _cli(monkeypatch, service_config, capsys, "review", "show", game["id"])
    assert f"by {throwaway.id}, unfinished" in shown and "scout (network)" in shown

    # The operator holds it while looking further, then clears it: it takes its rank.
    assert "held" in _cli(monkeypatch, service_config, capsys, "review", "hold", game["id"])
    assert game["id"] in _cli(monkeypatch, service_config, capsys, "review", "list",
                              "--state", "held")
    held = bea.call("GET", f"/games/{game['id']}").get_json()["result"]["review"]
    assert held["state"] == "under_review" and held["reason_code"] == "scout_link"
    assert "cleared" in _cli(monkeypatch, service_config, capsys, "review", "clear", game["id"])
    board = bea.call("GET", BOARD).get_json()
    assert board["me"]["rank"] == 1 and board["review"] is None
    queue = ReviewQueue(redis_client, PREFIX)
    assert queue.decision(game["id"]).to_json() == {
        "status": "cleared", "reason_code": "scout_link", "by": "operator"}
    # A game never in review: cleared, passed.
    assert queue.decision("g_never").to_json() == {
        "status": "cleared", "reason_code": "passed", "by": "check"}


def test_a_record_that_keeps_beating_optimal_play_holds_the_next_top_game(
    service_config: Config, redis_client: redis.Redis, make_player: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three earlier days 150 points over the hard bot on the same dice (the residual
    job's record), then a game at the top of today's board: pending review."""
    from workers.residuals import record_day_residuals

    cy = make_player("Cy")
    for name in ("REDIS_URL", "DAILY_KEY_PREFIX"):
        monkeypatch.setenv(name, {"REDIS_URL": service_config.redis_url or "",
                                  "DAILY_KEY_PREFIX": PREFIX}[name])
    monkeypatch.setenv("DAILY_DATA_DIR", str(service_config.data_dir))
    for back in (3, 4, 5):
        day = dt.date(2026, 11, 29) - dt.timedelta(days=back)
        redis_client.set(f"{PREFIX}par:{day}:yahtzee", '{"easy": 90, "hard": 150, "medium": 120}')
        Leaderboard(redis_client, day, "yahtzee", prefix=PREFIX).record(Result(
            f"g_old{back}", cy.id, "Cy", day, "yahtzee", 300, 1.0, f"DD-{back}", ""))
        assert record_day_residuals(day.isoformat(), "yahtzee") == {"optimal": 150,
                                                                    "players": 1}
    game = play_out(cy, ranked(cy))
    done = run_worker_burst(service_config)
    assert done.returncode == 0, done.stderr[-3000:]
    review = cy.call("GET", f"/games/{game['id']}").get_json()["result"]["review"]
    assert review["state"] == "pending_review" and review["reason_code"] == "residual"
    entry = ReviewQueue(redis_client, PREFIX).get(game["id"])
    assert entry.verdict["residuals"] == [150.0, 150.0, 150.0]
