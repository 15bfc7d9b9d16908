"""The scouting attack, end to end: it never reaches the public board.

A throwaway player rerolls every die of every turn of the day's ranked Yahtzee and so
sees every slot. A second player then plays the perfect-information game move by move
through the API. The results go through a real worker process on real Redis; the
second game is held for review (off the top, around-me, histogram and percentile), its
player sees why, and the operator's commands clear or disqualify it. Both decisions,
the rollover's archive and ``daily rebuild`` carry the review.

Evidence across games and days, on the same server: a game on its way into the top
that follows a scout (one left one box short of the end), or whose player's record keeps
beating optimal play, waits for the operator.

The API is the live server's (real gunicorn, two workers taking consecutive requests in
turn).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import redis

from daily.cli import main as cli_main
from daily.fairplay.ceiling import Ceiling, solve_ceiling
from daily.fairplay.foresight import assess
from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.config import Config
from daily.service.results.archive import archive_path
from daily.service.results.leaderboard import Leaderboard
from daily.service.results.result import Result
from daily.service.review.gates import store_prepared
from daily.service.review.queue import ReviewQueue, rebuild_day, review_archive_path
from daily.strategy.solver import StrategyTable
from daily.strategy.tables.fileformat import save_table
from tests.polling import PROCESS_TIMEOUT, wait_until
from tests.service.conftest import PREFIX, Player, play_out
from tests.service.test_worker_integration import ROOT, run_worker_burst
from workers.rollover import roll_day

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

DATE = "2026-11-29"
BOARD = f"/leaderboards/{DATE}/yahtzee"


def ranked(player: Player, ruleset: str = "yahtzee") -> dict[str, Any]:
    body = player.call("POST", "/games", {"ruleset": ruleset, "date": DATE, "mode": "ranked"})
    return body.get_json()


def move(player: Player, state: dict[str, Any], kind: str, **body: Any) -> dict[str, Any]:
    """One move, bound to the position it was decided in."""
    response = player.call("POST", f"/games/{state['id']}/{kind}",
                           {**body, "position": state["position"]})
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def scout(player: Player, ruleset: str = "yahtzee") -> np.ndarray:
    """Reroll every die at every chance: every slot of the day is seen."""
    rules = get_ruleset(ruleset)
    slots = np.zeros((rules.turns, rules.rolls_per_turn, rules.dice), dtype=np.int64)
    state = ranked(player, ruleset)
    for t in range(rules.turns):
        slots[t, 0] = state["dice"]
        for r in range(1, rules.rolls_per_turn):
            state = move(player, state, "roll", hold="0" * rules.dice)
            slots[t, r] = state["dice"]
        box = next(c["box"] for c in state["choices"] if c["legal"])
        state = move(player, state, "score", box=box)
    assert state["over"]
    return slots


def cash_in(player: Player, slots: np.ndarray, ruleset: str = "yahtzee",
            ceiling: Ceiling | None = None) -> dict[str, Any]:
    """Play the perfect-information game move by move."""
    rules = get_ruleset(ruleset)
    ceiling = ceiling or solve_ceiling(rules, slots)
    state = ranked(player, ruleset)
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
    assert review["state"] == "pending_review"  # on its way into the top
    assert review["reason_code"] == ("strict" if table else "ceiling")
    assert "not been shown" in review["reason"] or "not been shown yet" in review["reason"]
    state = cheat.call("GET", f"/games/{log_state['id']}").get_json()
    assert state["result"]["review"]["state"] == "pending_review"
    assert state["result"]["rank"] is None
    public = cheat.client.get(f"/api/v1/results/{state['result']['code']}").get_json()
    assert public["review"]["state"] == "pending_review" and public["rank"] is None

    listed = _cli(monkeypatch, service_config, capsys, "review", "list", "--state", "pending")
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

    after = dt.datetime(2026, 11, 30, 12, 10, tzinfo=dt.UTC)
    roll_day(conn, config, dt.date(2026, 11, 29), "yahtzee", after)
    path = archive_path(config.archive_dir, DATE, "yahtzee")
    review_file = review_archive_path(config.archive_dir, DATE, "yahtzee")
    lines = [json.loads(x) for x in review_file.read_text().splitlines()]
    assert lines[0]["format"] == "daily-review/1" and lines[0]["entries"] == 2
    assert {x["state"] for x in lines[1:]} == {"cleared", "pending"}

    # A held game disqualified after the close: the review file is rewritten.
    _cli(monkeypatch, config, capsys, "review", "disqualify", games[1]["id"])
    lines = [json.loads(x) for x in review_file.read_text().splitlines()]
    assert {x["state"] for x in lines[1:]} == {"cleared", "disqualified"}

    # Redis loses everything; the rebuild puts the board and the review back.
    conn.flushdb()
    rebuild_day(conn, Path(path), prefix=PREFIX)
    assert board.players() == 3
    queue = ReviewQueue(conn, PREFIX)
    assert queue.get(games[0]["id"]).state == "cleared"
    assert queue.get(games[1]["id"]).state == "disqualified"
    assert queue.held() == []


def logged_number(log_text: str, value: int) -> bool:
    """Whether ``value`` stands as a number in a log's messages (not in a line's time
    stamp, an id or the decimals of a duration).

    >>> logged_number("2026-11-30 23:07:51,618 results INFO level 5 of 20", 618)
    False
    >>> logged_number("2026-11-30 23:07:51,001 results INFO g_x618 in 1.618 s, 618f", 618)
    False
    >>> logged_number("2026-11-30 23:07:51,001 results INFO the ceiling is 618.", 618)
    True
    """
    messages = re.sub(r"(?m)^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ", "", log_text)
    return re.search(rf"(?<![\w.,]){value}(?![\w]|[.,]\d)", messages) is not None


def _start_consumer(config: Config, log_path: Path) -> subprocess.Popen[bytes]:
    """``daily worker results`` (not burst), in its own process, logging to a file."""
    env = dict(os.environ, REDIS_URL=config.redis_url or "", DAILY_KEY_PREFIX=PREFIX,
               DAILY_DATA_DIR=str(config.data_dir), PYTHONPATH=str(ROOT))
    env.pop("DAILY_TEST_PAUSE_DIR", None)
    with log_path.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "daily", "worker", "results"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def test_maxi_yatzy_scout_then_perfect_game_is_held_by_default(
    service_config: Config, redis_client: redis.Redis, make_player: Any, tmp_path: Path
) -> None:
    """Maxi Yatzy is checked by default (here ceiling-only: no table is built). With the
    ceiling prepared ahead the consumer only reads it; without it, the consumer computes
    it in the background and defers the Maxi results meanwhile, while Yahtzee results
    reach their board."""
    config = service_config
    assert "maxi-yatzy" in config.fairplay_rulesets
    conn = redis_client
    maxi = get_ruleset("maxi-yatzy")
    honest, cheat = make_player("Ada"), make_player("Ace")
    play_out(honest, ranked(honest, "maxi-yatzy"))  # before the scout: not linked to it
    slots = scout(make_player("x1"), "maxi-yatzy")
    ceiling = solve_ceiling(maxi, slots)  # the scout's accomplice solves the day (10-90 s)
    perfect = cash_in(cheat, slots, "maxi-yatzy", ceiling)

    # 1. Prepared ahead (what workers.ceilings.prepare_day_ceiling stores): one GET.
    store_prepared(conn, PREFIX, dt.date(2026, 11, 29), "maxi-yatzy", ceiling.value, 1.0)
    done = run_worker_burst(config)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "computing" not in done.stderr  # nothing was solved in the consumer
    queue = ReviewQueue(conn, PREFIX)
    entry = queue.entry(perfect["id"])
    assert entry is not None and entry.state == "pending"  # it would top the board
    assert entry.verdict["method"] == "ceiling-only/1"
    board = Leaderboard(conn, DATE, "maxi-yatzy", prefix=PREFIX)
    assert board.players() == 2  # the honest player and the scout; not the cheat
    assert ceiling.value > max(e.score for e in board.top(10))

    # 2. Not prepared: a second cheat and a Yahtzee player finish; the consumer computes
    #    the Maxi ceiling in a thread, and the Yahtzee result does not wait for it.
    conn.delete(keymap.fairplay_ceiling(PREFIX, DATE, "maxi-yatzy"))
    cheat2, yahtzee_player = make_player("Bea"), make_player("Cy")
    second = cash_in(cheat2, slots, "maxi-yatzy", ceiling)
    play_out(yahtzee_player, ranked(yahtzee_player))
    log_path = tmp_path / "consumer.log"
    consumer = _start_consumer(config, log_path)
    try:
        yahtzee_board = Leaderboard(conn, DATE, "yahtzee", prefix=PREFIX)
        wait_until(lambda: yahtzee_board.players() == 1,
                   message="timed out waiting for the Yahtzee result")
        # The Maxi ceiling takes seconds: it is not there yet, the Maxi result waits.
        assert conn.get(keymap.fairplay_ceiling(PREFIX, DATE, "maxi-yatzy")) is None
        assert queue.entry(second["id"]) is None and board.players() == 2
        wait_until(lambda: queue.entry(second["id"]) is not None, 600, 0.1,
                   "timed out waiting for the Maxi check")
    finally:
        consumer.terminate()
        consumer.wait(timeout=PROCESS_TIMEOUT)
    log_text = log_path.read_text()
    assert "is not computed yet (its job has not run): computing it in the background" in log_text
    assert "results deferred" in log_text and "level 20 of 20" in log_text
    assert not logged_number(log_text, ceiling.value)  # never logged
    assert queue.entry(second["id"]).state == "pending"
    assert board.players() == 2
    # The consumer shared what it computed: the next consumer only reads it.
    prepared = json.loads(conn.get(keymap.fairplay_ceiling(PREFIX, DATE, "maxi-yatzy")))
    assert prepared["ceiling"] == ceiling.value


# ----- evidence across games and days -----------------------------------------------
# A game on its way into the top of its board waits for an operator when it follows a
# scout of the day, or when its player's record keeps beating optimal play. The scout
# leaves its game one box short of the end, so it never reaches the results stream: it
# is found among the day's started games.


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


def write_record(redis_client: redis.Redis, service_config: Config, player: Player,
                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Three earlier days 150 points over the hard bot on the same dice, written by the
    residual job (run here, on the live server's Redis)."""
    from workers.residuals import record_day_residuals

    monkeypatch.setenv("REDIS_URL", service_config.redis_url or "")
    monkeypatch.setenv("DAILY_KEY_PREFIX", PREFIX)
    monkeypatch.setenv("DAILY_DATA_DIR", str(service_config.data_dir))
    for back in (3, 4, 5):
        day = dt.date(2026, 11, 29) - dt.timedelta(days=back)
        redis_client.set(f"{PREFIX}par:{day}:yahtzee", '{"easy": 90, "hard": 150, "medium": 120}')
        Leaderboard(redis_client, day, "yahtzee", prefix=PREFIX).record(Result(
            f"g_old{back}", player.id, "Cy", day, "yahtzee", 300, 1.0, f"DD-{back}", ""))
        assert record_day_residuals(day.isoformat(), "yahtzee") == {"optimal": 150,
                                                                    "players": 1}


def test_top_games_after_a_scout_or_a_record_that_beats_optimal_play_wait_for_the_operator(
    service_config: Config, redis_client: redis.Redis, make_player: Any, clock: Any,
    monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    """Both games would top the empty board. Cy's record beats optimal play; Bea plays
    after a scout from her network that stopped one box short of the end."""
    cy, throwaway, bea = make_player("Cy"), make_player("x1"), make_player("Bea")
    write_record(redis_client, service_config, cy, monkeypatch)
    cy_game = play_out(cy, ranked(cy))  # at the scout's start: not after it
    scout_one_box_short(throwaway)
    clock.advance(minutes=3)
    game = play_out(bea, ranked(bea))
    done = run_worker_burst(service_config)
    assert done.returncode == 0, done.stderr[-3000:]

    review = cy.call("GET", f"/games/{cy_game['id']}").get_json()["result"]["review"]
    assert review["state"] == "pending_review" and review["reason_code"] == "residual"
    queue = ReviewQueue(redis_client, PREFIX)
    assert queue.get(cy_game["id"]).verdict["residuals"] == [150.0, 150.0, 150.0]

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
    assert "2 pending" in stats
    listed = _cli(monkeypatch, service_config, capsys, "review", "list", "--state", "pending")
    assert game["id"] in listed and "scout_link" in listed and "residual" in listed
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
    # a cleared decision carries no reason: the hold's reason was not upheld
    assert queue.decision(game["id"]).to_json() == {"status": "cleared", "reason": None}
    assert queue.get(game["id"]).verdict["decided_by"] == "operator"
    assert queue.decision(cy_game["id"]).to_json() == {"status": "pending", "reason": "residual"}
    # A game never in review: cleared, no reason.
    assert queue.decision("g_never").to_json() == {"status": "cleared", "reason": None}
