"""Links that need no flagged scout, and the close-time re-check, end to end.

On the live server (real gunicorn), with real Redis, the real results consumer
(``run_worker_burst``: an RQ-free ``daily worker results --burst`` process) and the
real rollover step: a strong game (optimal play on the day's dice) tops the board; a
tie copy of it, played move for move by another account, is held at arrival; two split
scouts (each rerolling a disjoint half of the positions at every reroll, finishing
normally) are counted by ``daily review stats``. Then the record of the strong game's
player grows (the residual job of earlier days, written after the game arrived): the
close-time re-check of the final top holds it, and the sealed results log records the
decision.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import pytest
import redis

from daily.fairplay.ceiling import ceiling_of_seed
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.service.audit.day_log import DayLog
from daily.service.config import Config
from daily.service.days.keyring import Keyring
from daily.service.review.gates import store_hindsight, store_prepared
from daily.service.review.queue import ReviewQueue
from daily.strategy.bots import Bot
from daily.strategy.solver import StrategyTable
from tests.service.conftest import PREFIX, Player, best_box, play_out
from tests.service.test_fairplay_attack import (  # noqa: F401 (fixtures)
    BOARD,
    DATE,
    _cli,
    fairplay_table,
    move,
    ranked,
    with_table,
    write_record,
)
from tests.service.test_worker_integration import run_worker_burst
from workers.rollover import roll_day

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]


def split_scout(player: Player, rerolled: set[int]) -> np.ndarray:
    """Reroll the positions ``rerolled`` at every reroll, whatever the dice, then fill
    the best box: the dice of those positions, every roll, are seen."""
    rules = get_ruleset("yahtzee")
    seen = np.zeros((rules.turns, rules.rolls_per_turn, rules.dice), dtype=np.int64)
    hold = "".join("0" if i in rerolled else "1" for i in range(rules.dice))
    state = ranked(player)
    for t in range(rules.turns):
        seen[t, 0] = state["dice"]
        for r in range(1, rules.rolls_per_turn):
            state = move(player, state, "roll", hold=hold)
            seen[t, r] = state["dice"]
        state = move(player, state, "score", box=best_box(state))
    assert state["over"]
    return seen


def optimal_log(config: Config, table: StrategyTable, conn: redis.Redis) -> MoveLog:
    """Optimal play (the hard bot) on the day's dice; the day's ceiling is prepared
    ahead, as the ceiling job does (a loaded machine takes tens of seconds for it)."""
    rules = get_ruleset("yahtzee")
    seed = Keyring.load(config).day_seed("yahtzee", DATE)
    ceiling = ceiling_of_seed(rules, seed)
    day = dt.date(2026, 11, 29)
    store_prepared(conn, PREFIX, day, "yahtzee", ceiling.value, ceiling.seconds)
    store_hindsight(conn, PREFIX, day, "yahtzee", ceiling.values)
    return MoveLog.of_game(Bot(table, "hard").play(Game.from_seed(rules, seed)),
                           day=dt.date(2026, 11, 29))


def replay_log(player: Player, log: MoveLog) -> dict[str, Any]:
    """Play a game move for move through the API."""
    state = ranked(player)
    for turn in log.turns:
        for hold in turn.holds:
            state = move(player, state, "roll", hold=hold)
        state = move(player, state, "score", box=turn.box)
    assert state["over"]
    return state


def test_a_tie_copy_is_held_split_scouts_are_counted_and_the_close_rechecks_the_top(
    with_table: Config, fairplay_table: StrategyTable, redis_client: redis.Redis,  # noqa: F811
    make_player: Any, clock: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    config = with_table
    ada, ace, bea = make_player("Ada"), make_player("Ace"), make_player("Bea")
    scouts = [make_player("x1"), make_player("x2")]
    play_out(ada, ranked(ada))
    log = optimal_log(config, fairplay_table, redis_client)
    strong = replay_log(ace, log)
    clock.advance(minutes=1)
    copy = replay_log(bea, log)  # another account, the same decisions: a tie
    assert copy["total"] == strong["total"]
    halves = [split_scout(scouts[0], {0, 1}), split_scout(scouts[1], {2, 3, 4})]
    seen = np.where(np.arange(5) < 2, halves[0], halves[1])
    assert (seen[:, 0] == halves[0][:, 0]).all()  # both saw the same first rolls
    done = run_worker_burst(config)
    assert done.returncode == 0, done.stderr[-3000:]

    # At arrival: the strong game tops the board, the tie copy is held.
    board = ace.call("GET", BOARD).get_json()
    assert board["top"][0]["game_id"] == strong["id"]
    assert board["me"]["rank"] == 1
    held = bea.call("GET", f"/games/{copy['id']}").get_json()["result"]
    assert held["rank"] is None and held["review"]["state"] == "pending_review"
    assert held["review"]["reason_code"] == "copy"
    queue = ReviewQueue(redis_client, PREFIX)
    evidence = queue.get(copy["id"]).verdict
    assert evidence["copies"] == [{"game_id": strong["id"], "player_id": ace.id,
                                   "share": 1.0}]
    assert evidence["optimal"] == strong["total"]
    stats = _cli(monkeypatch, config, capsys, "review", "stats", DATE, "yahtzee")
    assert "2 playing blind" in stats and "1 copies of another player's game" in stats
    assert "0 scout-like" in stats  # the reveals alone do not see them
    shown = _cli(monkeypatch, config, capsys, "review", "show", copy["id"])
    assert f"copy of game {strong['id']} by {ace.id}: 100% of the turns" in shown

    # After arrival, the record of the strong game's player grows; at the close the
    # re-check of the final top holds the game.
    write_record(redis_client, config, ace, monkeypatch)
    after = dt.datetime(2026, 11, 30, 12, 10, tzinfo=dt.UTC)
    rolled = roll_day(redis_client, config, dt.date(2026, 11, 29), "yahtzee", after)
    assert rolled["done"][:2] == ["rechecked", "frozen"] and "sealed" in rolled["done"]
    entry = queue.get(strong["id"])
    assert entry.state == "pending" and entry.reason_code == "residual"
    assert entry.verdict["recheck"] == "close"
    shown = _cli(monkeypatch, config, capsys, "review", "show", strong["id"])
    assert "held by the close-time re-check of the final top" in shown
    board = ace.call("GET", BOARD).get_json()
    assert strong["id"] not in {row["game_id"] for row in board["top"]}
    assert board["me"] is None and board["review"]["state"] == "pending_review"
    # A rerun of the step changes nothing.
    assert roll_day(redis_client, config, dt.date(2026, 11, 29), "yahtzee", after)[
        "done"] == []

    # The sealed log records both decisions.
    decisions = {leaf.code: leaf.decision.to_json()
                 for leaf in DayLog(redis_client, config, dt.date(2026, 11, 29),
                                    "yahtzee").leaves()}
    code = ace.call("GET", f"/games/{strong['id']}").get_json()["result"]["code"]
    assert decisions[code] == {"status": "pending", "reason": "residual"}
    assert decisions[held["code"]] == {"status": "pending", "reason": "copy"}
