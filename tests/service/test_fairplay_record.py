"""Evidence that accumulates, end to end.

On the live server (real gunicorn), with real Redis and the real results consumer
(``run_worker_burst``: a ``daily worker results --burst`` process), every checked
ranked game's foresight statistic goes into its player's record; a player whose earlier
days already put the record's cumulative sum over its line is held by today's game,
below the top as well as at it, with a reason naming the record; a player whose record
is under the line is not. An operator's hold keeps the record; a clearance resets its
sum through the cleared game, so the player's next honest game is not held by the same
past. The links to young players: ``test_fairplay_young.py``; to games whose reveals
cover a game's gains: ``test_fairplay_cover.py``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import redis

from daily import calendar
from daily.fairplay.history.sequential import LINE, cusum
from daily.service import keymap
from daily.service.config import Config
from daily.service.results.result import Result
from daily.service.review.evidence import (
    foresight_evidence,
    foresight_records,
    record_foresight,
)
from daily.service.review.queue import ReviewQueue
from daily.strategy.solver import StrategyTable
from tests.service.conftest import PREFIX, Player, play_out
from tests.service.test_fairplay_attack import (  # noqa: F401 (fixtures)
    BOARD,
    DATE,
    _cli,
    fairplay_table,
    ranked,
    with_table,
)
from tests.service.test_fairplay_checks import optimal_log, replay_log
from tests.service.test_worker_integration import run_worker_burst

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

DAY = dt.date(2026, 11, 29)


def earlier_record(conn: redis.Redis, player: Player, values: list[float]) -> None:
    """Earlier days' foresight statistics, as the consumer writes them (its writer)."""
    rows = []
    for back, value in enumerate(reversed(values), start=1):
        day = DAY - dt.timedelta(days=back)
        rows.append((Result(f"g_rec{back}", player.id, "X", day, "yahtzee", 200,
                            calendar.opens_at(day).timestamp() + 60, f"DD-{back}", ""), value))
    record_foresight(conn, PREFIX, rows)


def burst(config: Config) -> None:
    done = run_worker_burst(config)
    assert done.returncode == 0, done.stderr[-3000:]


def test_a_record_over_its_line_holds_todays_game_and_one_under_it_does_not(
    with_table: Config, fairplay_table: StrategyTable, redis_client: redis.Redis,  # noqa: F811
    make_player: Any, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    config = with_table
    ada, cy, dee = make_player("Ada"), make_player("Cy"), make_player("Dee")
    strong = replay_log(ada, optimal_log(config, fairplay_table, redis_client))
    burst(config)
    # Cy took a little every day: six days of 5, under every one-game line (about 10).
    earlier_record(redis_client, cy, [5.0] * 6)
    earlier_record(redis_client, dee, [4.0] * 3)  # a sum of 9: under the line
    cy_game, dee_game = play_out(cy, ranked(cy)), play_out(dee, ranked(dee))
    burst(config)

    queue = ReviewQueue(redis_client, PREFIX)
    assert queue.entry(strong["id"]) is None  # optimal play: its own record is 0
    record = redis_client.hgetall(keymap.foresight_record(PREFIX, cy.id))
    assert len(record) == 7 and f"{DATE} yahtzee".encode() in record  # today's counts
    entry = queue.get(cy_game["id"])
    assert entry.reason_code == "foresight_record"
    # below the optimal game at the top: held by the ordinary path, off the board
    assert entry.state == ("pending" if cy_game["total"] >= strong["total"] else "held")
    assert entry.verdict["foresight_record"]["cusum"] >= LINE
    assert entry.verdict["foresight_record"]["games"] == 7
    review = cy.call("GET", f"/games/{cy_game['id']}").get_json()["result"]["review"]
    assert review["reason_code"] == "foresight_record"
    assert "day after day" in review["reason"]
    assert queue.entry(dee_game["id"]) is None
    assert len(redis_client.hgetall(keymap.foresight_record(PREFIX, dee.id))) == 4
    shown = _cli(monkeypatch, config, capsys, "review", "show", cy_game["id"])
    assert "foresight record: cumulative sum" in shown
    stats = _cli(monkeypatch, config, capsys, "review", "stats", DATE, "yahtzee")
    assert "1 held by their foresight record" in stats

    # A hold keeps the record as it is; the operator's clearance resets its sum through
    # the cleared game (recorded with the decision), so the next honest game goes through.
    _cli(monkeypatch, config, capsys, "review", "hold", cy_game["id"])
    assert b"reset" not in redis_client.hgetall(keymap.foresight_record(PREFIX, cy.id))
    assert foresight_evidence(foresight_records(redis_client, PREFIX, [cy.id])[0])
    _cli(monkeypatch, config, capsys, "review", "clear", cy_game["id"])
    reset = queue.get(cy_game["id"]).verdict["foresight_reset"]
    assert reset["through"] == f"{DATE} yahtzee" and reset["cusum_before"] >= LINE
    assert reset["cusum_after"] == 0.0
    assert "foresight record reset through" in _cli(monkeypatch, config, capsys, "review",
                                                    "show", cy_game["id"])
    _cli(monkeypatch, config, capsys, "review", "clear", cy_game["id"])  # idempotent
    assert queue.get(cy_game["id"]).verdict["foresight_reset"] == reset
    nextday = DAY + dt.timedelta(days=1)
    record_foresight(redis_client, PREFIX, [(Result(
        "g_next", cy.id, "Cy", nextday, "yahtzee", 200,
        calendar.opens_at(nextday).timestamp() + 60, "DD-next", ""), 0.0)])
    values = foresight_records(redis_client, PREFIX, [cy.id])[0]
    assert values == [0.0] and foresight_evidence(values) is None
    everything = redis_client.hgetall(keymap.foresight_record(PREFIX, cy.id))
    assert len(everything) == 9  # the seven games, the next one and the reset
    kept = [float(v) for k, v in sorted(everything.items()) if k != b"reset"]
    assert cusum(kept) >= LINE  # without the reset, the next game would be held again
