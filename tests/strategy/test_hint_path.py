"""The hint's way through the service, on a real Redis: the rate limit is spent in the
same call that reads the game, and a process answers from its own replayed copy of the
game when that copy is exactly the stored record (else from the record, replayed)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from daily.service.app import create_app
from daily.service.clock import FixedClock
from daily.service.config import Config, load_config
from daily.service.days.keyring import init_keys
from daily.service.extensions import Basics, of
from daily.service.games.flow import GameService
from daily.service.players.accounts import Players
from daily.strategy.solver import StrategyTable
from daily.strategy.tables.fileformat import save_table
from tests.service.conftest import NO_CREATION_COSTS, NOON, PREFIX, Player

pytestmark = pytest.mark.redis


def config_of(tmp_path: Path, redis_url: str, **env: str) -> Config:
    config = load_config({"REDIS_URL": redis_url, "DAILY_KEY_PREFIX": PREFIX,
                          "DAILY_DATA_DIR": str(tmp_path / "data"), **NO_CREATION_COSTS, **env})
    init_keys(config.keys_dir)
    return config


def _services(app: Flask) -> Any:
    basics = of(app, Basics)
    return SimpleNamespace(games=of(app, GameService), players=of(app, Players),
                           conn=basics.conn, config=basics.config)


@pytest.fixture
def two(tmp_path: Path, redis_url: str, yahtzee_table: StrategyTable) -> tuple[Any, Any]:
    """Two app instances on one Redis and one data directory: two worker processes."""
    config = config_of(tmp_path, redis_url, DAILY_RATE_LIMIT="off")
    save_table(yahtzee_table, config.tables_dir)
    apps = [create_app(config, {"TESTING": True, "CLOCK": FixedClock(NOON)}) for _ in "ab"]
    return _services(apps[0]), _services(apps[1])


def practice(one: Any) -> tuple[Any, dict[str, Any]]:
    player, _ = one.players.create("Ada")
    state, _ = one.games.start(player, ruleset="yahtzee", mode="practice")
    return player, one.games.roll(player, state["id"], "11000", state["position"])


def test_a_hint_reads_the_process_copy_only_while_it_is_the_stored_record(
    two: tuple[Any, Any],
) -> None:
    a, b = two
    player, state = practice(a)
    game_id = state["id"]
    copy = a.games.cache._entries[game_id]  # a wrote the last move: a keeps its copy
    with a.games.game_to_advise(player, game_id) as game:
        assert game is copy.played.game  # lent, not replayed
        assert game_id not in a.games.cache._entries  # no move of a can take it meanwhile
    assert a.games.cache._entries[game_id] is copy  # given back
    moved = b.games.roll(player, game_id, "11110", state["position"])  # another process
    with a.games.game_to_advise(player, game_id) as game:
        assert game is not copy.played.game  # replayed from the record in Redis
        assert (list(game.dice), game.rolls_left) == (moved["dice"], 0)
        assert copy.played.game.rolls_left == 1
    assert game_id not in a.games.cache._entries  # the copy that was not current is gone


def test_a_move_while_a_hint_reads_keeps_the_newer_copy(two: tuple[Any, Any]) -> None:
    a, _ = two
    player, state = practice(a)
    game_id = state["id"]
    with a.games.game_to_advise(player, game_id) as game:
        shown = game.dice
        moved = a.games.roll(player, game_id, "00000", state["position"])  # from Redis
        assert game.dice == shown  # the lent copy is not the one that moved
    assert moved["position"] == 2
    assert a.games.cache._entries[game_id].stored.record.v == 2  # not the lent one


def test_a_hint_spends_its_rate_limit_once_in_the_read(
    tmp_path: Path, redis_url: str, yahtzee_table: StrategyTable
) -> None:
    config = config_of(tmp_path, redis_url, DAILY_RATE_LIMIT="5/minute")
    save_table(yahtzee_table, config.tables_dir)
    app: Flask = create_app(config, {"TESTING": True, "CLOCK": FixedClock(NOON)})
    ada = Player(app.test_client())  # a write of the address, not of Ada
    state = ada.call("POST", "/games", {"ruleset": "yahtzee", "mode": "practice"}).get_json()
    hints = [ada.call("POST", f"/games/{state['id']}/hint", {"top": 1}) for _ in range(5)]
    assert [h.status_code for h in hints] == [200] * 4 + [429]  # the start, then 4 hints
    assert hints[0].get_json() == hints[3].get_json()
    assert hints[4].get_json()["error"]["code"] == "rate_limited"
    of(app, Basics).conn.close()
