"""The replayed game a process keeps (daily/service/games/cache.py), on a real Redis.

Two app instances stand for two worker processes. A copy is only ever proven current by
the move script's write (the SHA-1 of the stored text): a game changed elsewhere, even
at the same position, is never written from a stale copy, and a lost race starts again
from the record in Redis.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import redis
from flask import Flask

from daily.service.app import create_app
from daily.service.config import Config
from daily.service.extensions import Basics, of
from daily.service.games.flow import GameService
from daily.service.games.record import GameRecord
from daily.service.keymap import game as game_key
from daily.service.players.accounts import Player, Players
from tests.service.conftest import NOON

pytestmark = pytest.mark.redis


def process(config: Config, clock: Any) -> Flask:
    return create_app(config, {"TESTING": True, "CLOCK": clock})


def services(app: Flask) -> Any:
    basics = of(app, Basics)
    return SimpleNamespace(games=of(app, GameService), players=of(app, Players),
                           conn=basics.conn, config=basics.config)


@pytest.fixture
def two(service_config: Config, clock: Any) -> tuple[Any, Any]:
    return services(process(service_config, clock)), services(process(service_config, clock))


def started(one: Any) -> tuple[Player, dict[str, Any]]:
    player, _ = one.players.create("Ada")
    state, created = one.games.start(player, ruleset="yahtzee", mode="ranked",
                                     date=NOON.date().isoformat())
    assert created
    return player, state


def stored(one: Any, game_id: str, redis_client: redis.Redis) -> GameRecord:
    return GameRecord.loads(redis_client.get(game_key(one.config.key_prefix, game_id)))


def test_a_copy_changed_elsewhere_at_the_same_position_is_not_written(
    two: tuple[Any, Any], redis_client: redis.Redis
) -> None:
    a, b = two
    player, state = started(a)
    state = a.games.roll(player, state["id"], "11000", state["position"])
    assert a.games.cache._entries[state["id"]].stored.record.v == 1  # a keeps its copy
    # Another process attaches a field: same position, another text.
    b.games.store.update(state["id"], {"challenge": "CH-TEST"})
    state = a.games.roll(player, state["id"], "11100", state["position"])
    record = stored(a, state["id"], redis_client)
    assert record.v == 2 and record.challenge == "CH-TEST"  # applied, and nothing lost
    assert record.move_log.turns[0].holds == ("11000", "11100")
    assert state["challenge"] is not None  # the answer is built on the record from Redis


def test_a_copy_behind_another_process_answers_stale_or_retry_from_redis(
    two: tuple[Any, Any], redis_client: redis.Redis
) -> None:
    a, b = two
    player, state = started(a)
    first = a.games.roll(player, state["id"], "11000", 0)
    second = b.games.roll(player, state["id"], "10000", 1)  # b moved on; a's copy is at 1
    assert second["position"] == 2
    # At the position a's copy has, the move is stale: a never writes from its copy.
    with pytest.raises(Exception) as refused:
        a.games.roll(player, state["id"], "00000", first["position"])
    assert getattr(refused.value, "code", "") == "stale_position"
    # The retry of b's move answered by a, from Redis, is b's answer.
    assert a.games.roll(player, state["id"], "10000", 1) == second
    assert stored(a, state["id"], redis_client).v == 2


def test_a_race_between_copies_applies_one_move(
    two: tuple[Any, Any], redis_client: redis.Redis
) -> None:
    a, b = two
    player, state = started(a)
    at = a.games.roll(player, state["id"], "11000", 0)
    b_state = b.games.get(player, state["id"])
    b.games.cache.put(*_replayed(b, state["id"]))  # both processes hold position 1
    assert b_state["position"] == at["position"] == 1
    won = b.games.roll(player, state["id"], "00001", 1)
    # a's copy is at 1 too; its write finds b's record and the move is now stale.
    with pytest.raises(Exception) as refused:
        a.games.roll(player, state["id"], "11111", 1)
    assert getattr(refused.value, "code", "") == "stale_position"
    record = stored(a, state["id"], redis_client)
    assert record.v == 2 and won["position"] == 2
    assert record.move_log.turns[0].holds == ("11000", "00001")


def _replayed(one: Any, game_id: str) -> tuple[Any, Any]:
    read = one.games.store.read(game_id)
    return read, one.games.replay_record(read.record)
