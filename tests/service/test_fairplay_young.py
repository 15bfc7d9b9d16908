"""Links to young players, end to end.

On the live server (real gunicorn), with real Redis and the real results consumer
(``run_worker_burst``: a ``daily worker results --burst`` process): an established
player (seven days of play, a passkey, created long ago) whose game goes onto the
public top from the network a new player played the same day set from is held pending
review (``young_link``) and stays off the public top through the API; the new player's
own game counts as before.

A module of its own: its server's processes read the day's salt of the network hashes
fresh (a process keeps a salt it read for a minute, and the tests flush Redis between
tests, salt included).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import redis

from daily import calendar
from daily.service import keymap
from daily.service.config import Config
from daily.service.results.result import Result
from daily.service.results.stats import record_game
from daily.service.review.queue import ReviewQueue
from tests.service.conftest import PREFIX, play_out
from tests.service.test_fairplay_attack import (  # noqa: F401 (fixtures)
    BOARD,
    DATE,
    _cli,
    fairplay_table,
    ranked,
    with_table,
)
from tests.service.test_fairplay_record import DAY, burst

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]


def test_an_established_players_game_from_a_new_players_network_waits_for_review(
    with_table: Config, redis_client: redis.Redis, make_player: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    config = with_table
    ace, scout = make_player("Ace"), make_player("x1")
    # Ace has played seven earlier days, has a passkey, and was created long ago (the
    # network a player was created from is forgotten after two days).
    for back in range(1, 8):
        day = DAY - dt.timedelta(days=back)
        record_game(redis_client, Result(f"g_old{back}", ace.id, "Ace", day, "yahtzee", 200,
                                         calendar.opens_at(day).timestamp() + 60,
                                         f"DD-{back}", ""), prefix=PREFIX)
    redis_client.hset(keymap.passkeys(PREFIX, ace.id), "Y3JlZA", "{}")
    redis_client.delete(keymap.player_origin(PREFIX, ace.id))
    assert ace.call("GET", "/players/me").get_json()["public_top"]["stands"] is True
    play_out(scout, ranked(scout))  # a new account's plain game, from the same network
    burst(config)
    assert scout.call("GET", BOARD).get_json()["me"]["rank"] == 1  # not held: it counts

    game = play_out(ace, ranked(ace))
    burst(config)
    entry = ReviewQueue(redis_client, PREFIX).get(game["id"])
    assert entry.state == "pending" and entry.reason_code == "young_link"
    young = entry.verdict["young"]
    assert [g["player_id"] for g in young] == [scout.id] and young[0]["why"] == "new"
    board = ace.call("GET", BOARD).get_json()
    assert game["id"] not in {row["game_id"] for row in board["top"]}
    assert board["review"]["state"] == "pending_review"
    assert board["review"]["reason_code"] == "young_link"
    stats = _cli(monkeypatch, config, capsys, "review", "stats", DATE, "yahtzee")
    assert "1 linked to young players of their network" in stats
    assert "0 covered by another game's reveals" in stats and "1 pending" in stats
