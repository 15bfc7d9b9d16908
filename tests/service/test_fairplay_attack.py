"""The scouting attack, end to end: it never reaches the public board.

A throwaway player rerolls every die of every turn of the day's ranked Yahtzee and so
sees every slot. A second player then plays the perfect-information game move by move
through the API. The results go through a real worker process on real Redis; the
second game is held for review (off the top, around-me, histogram and percentile), its
player sees why, and the operator's commands clear or disqualify it. Both decisions,
the rollover's archive and ``daily rebuild`` carry the review.

The API is the live server's (real gunicorn, two workers taking consecutive requests in
turn).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import redis

from daily.cli import main as cli_main
from daily.fairplay.ceiling import solve_ceiling
from daily.fairplay.foresight import assess
from daily.rules import get_ruleset
from daily.service.archive import archive_path, rebuild_board
from daily.service.config import Config
from daily.service.leaderboard import Leaderboard
from daily.service.review import ReviewQueue, review_archive_path
from daily.strategy.solver import StrategyTable
from daily.strategy.tablefile import save_table
from tests.service.conftest import PREFIX, Player, play_out
from tests.service.test_worker_integration import run_worker_burst
from workers.rollover import roll_day

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

DATE = "2026-11-29"
BOARD = f"/leaderboards/{DATE}/yahtzee"


def ranked(player: Player) -> dict[str, Any]:
    body = player.call("POST", "/games", {"ruleset": "yahtzee", "date": DATE, "mode": "ranked"})
    return body.get_json()


def move(player: Player, state: dict[str, Any], kind: str, **body: Any) -> dict[str, Any]:
    """One move, bound to the position it was decided in."""
    response = player.call("POST", f"/games/{state['id']}/{kind}",
                           {**body, "position": state["position"]})
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def scout(player: Player) -> np.ndarray:
    """Reroll every die at every chance: every slot of the day is seen."""
    rules = get_ruleset("yahtzee")
    slots = np.zeros((rules.turns, rules.rolls_per_turn, rules.dice), dtype=np.int64)
    state = ranked(player)
    for t in range(rules.turns):
        slots[t, 0] = state["dice"]
        for r in range(1, rules.rolls_per_turn):
            state = move(player, state, "roll", hold="00000")
            slots[t, r] = state["dice"]
        box = next(c["box"] for c in state["choices"] if c["legal"])
        state = move(player, state, "score", box=box)
    assert state["over"]
    return slots


def cash_in(player: Player, slots: np.ndarray) -> dict[str, Any]:
    """Play the perfect-information game move by move."""
    rules = get_ruleset("yahtzee")
    ceiling = solve_ceiling(rules, slots)
    state = ranked(player)
    for turn in ceiling.perfect_log(seed=bytes(32)).turns:
        for hold in turn.holds:
            state = move(player, state, "roll", hold=hold)
        state = move(player, state, "score", box=turn.box)
    assert state["over"] and state["total"] == ceiling.value
    return state


@pytest.fixture
def with_table(service_config: Config, fairplay_table: StrategyTable) -> Iterator[Config]:
    """The Yahtzee strategy table where the workers look for it, for one test (the data
    directory is the module's live server's)."""
    save_table(fairplay_table, service_config.tables_dir, dtype="float64")
    yield service_config
    shutil.rmtree(service_config.tables_dir)


@pytest.fixture(scope="session")
def fairplay_table(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    from tests.strategy.conftest import shared_table

    return shared_table(tmp_path_factory, get_ruleset("yahtzee"))


def _cli(monkeypatch: pytest.MonkeyPatch, config: Config, capsys: Any, *argv: str) -> str:
    monkeypatch.setenv("REDIS_URL", config.redis_url or "")
    monkeypatch.setenv("DAILY_KEY_PREFIX", PREFIX)
    monkeypatch.setenv("DAILY_DATA_DIR", str(config.data_dir))
    capsys.readouterr()
    assert cli_main(list(argv)) == 0
    return str(capsys.readouterr().out)


@pytest.mark.parametrize("table", [True, False], ids=["foresight-test", "ceiling-only"])
def test_scout_then_perfect_game_never_reaches_the_board(
    request: pytest.FixtureRequest, service_config: Config, redis_client: redis.Redis,
    make_player: Any, fairplay_table: StrategyTable, monkeypatch: pytest.MonkeyPatch,
    capsys: Any, table: bool,
) -> None:
    if table:
        request.getfixturevalue("with_table")
    assert service_config.tables_dir.exists() is table
    honest, throwaway, cheat = make_player("Ada"), make_player("x1"), make_player("Ace")
    play_out(honest, ranked(honest))
    slots = scout(throwaway)
    # Warm the compiled kernels in this process (the worker then loads them from cache).
    log_state = cash_in(cheat, slots)
    rules = get_ruleset("yahtzee")
    if table:
        from daily.movelog import MoveLog

        verdict = assess(MoveLog.from_json(log_state["log"]), solve_ceiling(rules, slots),
                         fairplay_table)
        assert verdict.flagged

    done = run_worker_burst(service_config)
    assert done.returncode == 0, done.stderr[-3000:]

    board = cheat.call("GET", BOARD).get_json()
    names = {row["player"]["name"] for row in board["top"]}
    assert "Ace" not in names and {"Ada", "x1"} <= names
    assert board["players"] == 2 and board["me"] is None and board["around"] == []
    assert sum(b["count"] for b in board["histogram"]["bins"]) == 2
    review = board["review"]
    assert review["state"] == "under_review"
    assert review["reason_code"] == ("foresight" if table else "ceiling")
    assert "not been shown" in review["reason"] or "not been shown yet" in review["reason"]
    state = cheat.call("GET", f"/games/{log_state['id']}").get_json()
    assert state["result"]["review"]["state"] == "under_review"
    assert state["result"]["rank"] is None
    public = cheat.client.get(f"/api/v1/results/{state['result']['code']}").get_json()
    assert public["review"]["state"] == "under_review" and public["rank"] is None

    listed = _cli(monkeypatch, service_config, capsys, "review", "list")
    assert log_state["id"] in listed and "1 game(s) held" in listed
    shown = _cli(monkeypatch, service_config, capsys, "review", "show", log_state["id"])
    assert f"ceiling (perfect game with foresight): {log_state['total']}" in shown
    if table:
        assert "tell: turn" in shown

    # A second worker run (a retried job) keeps it held.
    conn = redis_client
    assert run_worker_burst(service_config).returncode == 0
    assert Leaderboard(conn, DATE, "yahtzee", prefix=PREFIX).players() == 2

    out = _cli(monkeypatch, service_config, capsys, "review", "disqualify", log_state["id"],
               "--note", "scouted with x1")
    assert "disqualified" in out
    again = _cli(monkeypatch, service_config, capsys, "review", "disqualify", log_state["id"])
    assert "already disqualified" in again
    board = cheat.call("GET", BOARD).get_json()
    assert board["players"] == 2 and board["review"]["state"] == "disqualified"
    assert "0 game(s) held" in _cli(monkeypatch, service_config, capsys, "review", "list")
    stats = _cli(monkeypatch, service_config, capsys, "review", "stats", DATE, "yahtzee")
    assert "3 games checked, 1 scout-like" in stats and "1 disqualified" in stats


def test_a_cleared_game_takes_its_rank_and_the_archive_and_rebuild_carry_the_review(
    with_table: Config, redis_client: redis.Redis, make_player: Any,
    monkeypatch: pytest.MonkeyPatch, capsys: Any, clock: Any,
) -> None:
    config = with_table
    honest, throwaway = make_player("Ada"), make_player("x1")
    cheats = [make_player("Ace"), make_player("Bea")]
    play_out(honest, ranked(honest))
    slots = scout(throwaway)
    games = [cash_in(p, slots) for p in cheats]
    assert run_worker_burst(config).returncode == 0
    conn = redis_client
    board = Leaderboard(conn, DATE, "yahtzee", prefix=PREFIX)
    assert board.players() == 2

    cleared = _cli(monkeypatch, config, capsys, "review", "clear", games[0]["id"])
    assert "cleared" in cleared
    assert "already cleared" in _cli(monkeypatch, config, capsys, "review", "clear",
                                     games[0]["id"])
    me = cheats[0].call("GET", BOARD).get_json()
    assert me["me"]["rank"] == 1 and me["review"] is None and board.players() == 3
    # the other decision is refused once one was taken
    monkeypatch.setenv("REDIS_URL", config.redis_url or "")
    assert cli_main(["review", "disqualify", games[0]["id"]]) == 2

    # The day closes: the archive holds the cleared game, the review file both entries.
    import datetime as dt

    after = dt.datetime(2026, 11, 30, 12, 10, tzinfo=dt.UTC)
    roll_day(conn, config, dt.date(2026, 11, 29), "yahtzee", after)
    path = archive_path(config.archive_dir, DATE, "yahtzee")
    review_file = review_archive_path(config.archive_dir, DATE, "yahtzee")
    lines = [json.loads(x) for x in review_file.read_text().splitlines()]
    assert lines[0]["format"] == "daily-review/1" and lines[0]["entries"] == 2
    assert {x["state"] for x in lines[1:]} == {"cleared", "held"}

    # A held game disqualified after the close: the review file is rewritten.
    _cli(monkeypatch, config, capsys, "review", "disqualify", games[1]["id"])
    lines = [json.loads(x) for x in review_file.read_text().splitlines()]
    assert {x["state"] for x in lines[1:]} == {"cleared", "disqualified"}

    # Redis loses everything; the rebuild puts the board and the review back.
    conn.flushdb()
    rebuild_board(conn, Path(path), prefix=PREFIX)
    assert board.players() == 3
    queue = ReviewQueue(conn, PREFIX)
    assert queue.get(games[0]["id"]).state == "cleared"
    assert queue.get(games[1]["id"]).state == "disqualified"
    assert queue.held() == []
