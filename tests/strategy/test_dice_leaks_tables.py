"""The day's dice with the strategy table built (the live server: real gunicorn, real
Redis, the real Yahtzee table): the exact bots of a ranked game show no dice while the
day is open, and a challenge's comparison, with the engine's losses, has none either
(``docs/fairplay.md``, "Where the day's dice could leak")."""

from __future__ import annotations

from typing import Any

import pytest

from daily.service.config import Config
from daily.strategy.solver import StrategyTable
from daily.strategy.tables.fileformat import save_table
from tests.service import conftest as service_fixtures
from tests.service.live import FileClockControl
from tests.service.test_dice_leaks import DAY, REVEALED, dice_in, others_without_dice

service_config = service_fixtures.service_config
clock = service_fixtures.clock
client = service_fixtures.client
player = service_fixtures.player
make_player = service_fixtures.make_player
Player = service_fixtures.Player
play_out = service_fixtures.play_out
live_env = service_fixtures.live_env
live_server = service_fixtures.live_server
live_config = service_fixtures.live_config
live_clock = service_fixtures.live_clock
live_client = service_fixtures.live_client

pytestmark = [pytest.mark.redis, pytest.mark.live]


@pytest.fixture
def tables(service_config: Config, yahtzee_table: StrategyTable) -> StrategyTable:
    save_table(yahtzee_table, service_config.tables_dir)
    return yahtzee_table


def comparison(viewer: Any, code: str) -> list[dict[str, Any]]:
    view = viewer.call("GET", f"/challenges/{code}").get_json()
    assert list(dice_in(view)) == []
    return view["comparison"]


def test_exact_bots_and_a_challenges_comparison_show_no_dice_of_an_open_day(
    make_player: Any, tables: StrategyTable, live_clock: FileClockControl
) -> None:
    ada, bob = make_player("Ada"), make_player("Bob")
    state = ada.call("POST", "/games", {"ruleset": "yahtzee", "date": DAY, "mode": "ranked",
                                        "opponents": ["medium", "hard"]}).get_json()
    state = play_out(ada, state, turns=2)
    assert not any(o["heuristic"] for o in state["opponents"])
    others_without_dice(state)
    state = play_out(ada, state)
    others_without_dice(state)
    made = ada.call("POST", "/challenges", {"code": state["result"]["code"]}).get_json()
    entry = bob.call("POST", "/games", {"challenge": made["code"]}).get_json()
    play_out(bob, entry)
    for viewer in (ada, bob):  # boxes, points and losses: no dice
        losses = [p["loss"] for turn in comparison(viewer, made["code"])
                  for p in turn["players"]]
        assert len(losses) == 26 and all(isinstance(x, float) for x in losses)
    live_clock.set(REVEALED)
    after = ada.call("GET", f"/games/{state['id']}").get_json()
    assert all(not o["dice_hidden"] and o["turns"][0]["dice"] for o in after["opponents"])
