"""Links to games that revealed the dice a top game gained from, end to end.

On the live server (real gunicorn, behind one trusted proxy so that each client speaks
from its own ``X-Forwarded-For`` address and network), with real Redis and the real
results consumer (``run_worker_burst``: a ``daily worker results --burst`` process): a
new player's plain-looking game, from one network, rerolls every die of one turn; an
established player (seven days of play, a passkey, created long ago) then plays, from
another network, optimal play except one decision that loses in expectation and is
exactly right for the dice that came: rerolling at least four dice that the new
player's game had shown. No scout is flagged and the networks differ, so neither a
scout link nor a young link fires: the game is held pending review as ``reveal_cover``
and stays off the public top through the API.

A module of its own: its server sits behind a proxy (and reads the day's salt of the
network hashes fresh, as ``test_fairplay_young.py``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from daily import calendar
from daily.fairplay.ceiling import Ceiling, ceiling_of_seed
from daily.fairplay.foresight import assess
from daily.fairplay.links import COVER_MIN, profited_dice
from daily.game import Game
from daily.movelog import MoveLog
from daily.rules import get_ruleset
from daily.service import keymap
from daily.service.config import Config
from daily.service.days.keyring import Keyring
from daily.service.results.result import Result
from daily.service.results.stats import record_game
from daily.service.review.gates import store_hindsight, store_prepared
from daily.service.review.queue import ReviewQueue
from daily.strategy.bots import Bot
from daily.strategy.solver import StrategyTable
from tests.service.conftest import PREFIX, Player, best_box, choose_hold
from tests.service.test_fairplay_attack import (  # noqa: F401 (fixtures)
    BOARD,
    DATE,
    _cli,
    fairplay_table,
    move,
    with_table,
)
from tests.service.test_fairplay_record import DAY, burst

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

#: The new player's network and the established player's (documentation ranges).
SCOUT_IP, ACE_IP = "203.0.113.7", "198.51.100.20"


@pytest.fixture(scope="module")
def live_env(live_env: dict[str, str]) -> dict[str, str]:
    """The live server behind one proxy: ``X-Forwarded-For`` is the client's address."""
    return {**live_env, "DAILY_TRUSTED_PROXIES": "1"}


class PlayerFrom(Player):
    """A player created from ``ip`` (through the trusted proxy's header)."""

    def __init__(self, client: FlaskClient, name: str, ip: str) -> None:
        self.client, self.ip = client, ip
        response = client.post("/api/v1/players", json={"name": name},
                               headers={"X-Forwarded-For": ip})
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        self.id, self.token = body["player"]["id"], body["token"]
        self.headers = {"Authorization": f"Bearer {self.token}", "X-Forwarded-For": ip}


def start(player: Player) -> dict[str, Any]:
    response = player.call("POST", "/games", {"ruleset": "yahtzee", "date": DATE,
                                              "mode": "ranked"})
    assert response.status_code == 201, response.get_json()
    return dict(response.get_json())


def prepared_ceiling(config: Config, conn: redis.Redis) -> tuple[bytes, Ceiling]:
    """The day's seed and ceiling, prepared ahead as the ceiling job does."""
    seed = Keyring.load(config).day_seed("yahtzee", DATE)
    ceiling = ceiling_of_seed(get_ruleset("yahtzee"), seed)
    store_prepared(conn, PREFIX, DAY, "yahtzee", ceiling.value, ceiling.seconds)
    store_hindsight(conn, PREFIX, DAY, "yahtzee", ceiling.values)
    return seed, ceiling


def deviating(bot: Bot, seed: bytes, turn: int, roll: int, mask: str) -> MoveLog | None:
    """Optimal play on the day's dice but ``mask`` at reroll ``roll`` (1-based) of
    ``turn`` (0-based); None when optimal play never reaches that reroll or takes it."""
    game = Game.from_seed(get_ruleset("yahtzee"), seed)
    done = False
    while not game.over:
        if game.turn == turn and game.roll == roll - 1 and game.rolls_left > 0 and not done:
            game.reroll(mask)
            done = True
        else:
            bot.step(game)
    log = MoveLog.of_game(game, day=DAY)
    if not done or log == MoveLog.of_game(bot.play(Game.from_seed(game.rules, seed)), day=DAY):
        return None
    return log


def one_tell_game(table: StrategyTable, seed: bytes, ceiling: Ceiling
                  ) -> tuple[MoveLog, tuple[int, int]]:
    """The least suspicious game whose only tell rerolled at least :data:`COVER_MIN`
    dice: optimal play with one decision that the dice to come explain."""
    bot = Bot(table, "hard")
    masks = [m for m in (format(k, "05b") for k in range(31)) if m.count("0") >= COVER_MIN]
    found: list[tuple[float, MoveLog, tuple[int, int]]] = []
    for turn in range(13):
        for roll in (1, 2):
            for mask in masks:
                log = deviating(bot, seed, turn, roll, mask)
                if log is None:
                    continue
                verdict = assess(log, ceiling, table)
                tells = [(t.turn, t.roll) for t in verdict.tells]
                if (tells == [(turn + 1, roll)] and not verdict.flagged
                        and len(profited_dice(log, tells)) >= COVER_MIN):
                    found.append((verdict.statistic, log, tells[0]))
    assert found, "no decision of the day loses in expectation and wins in hindsight"
    _, log, tell = min(found, key=lambda f: f[0])
    return log, tell


def play_revealing(player: Player, turn: int) -> dict[str, Any]:
    """A plain game (the tests' simple policy) that rerolls every die at every roll of
    ``turn`` (0-based): it shows every die of that turn, and plays like anyone else."""
    state = start(player)
    while not state["over"]:
        hold = choose_hold(state)
        if state["turn"] - 1 == turn and state["rolls_left"] > 0:
            hold = "00000"
        if hold is not None:
            state = move(player, state, "roll", hold=hold)
        else:
            state = move(player, state, "score", box=best_box(state))
    return state


def replay(player: Player, log: MoveLog) -> dict[str, Any]:
    state = start(player)
    for turn in log.turns:
        for hold in turn.holds:
            state = move(player, state, "roll", hold=hold)
        state = move(player, state, "score", box=turn.box)
    assert state["over"]
    return state


def test_a_game_whose_gains_another_network_revealed_waits_for_review(
    with_table: Config, fairplay_table: StrategyTable, redis_client: redis.Redis,  # noqa: F811
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch, capsys: Any,
) -> None:
    config = with_table
    seed, ceiling = prepared_ceiling(config, redis_client)
    log, (turn, roll) = one_tell_game(fairplay_table, seed, ceiling)
    ace, scout = PlayerFrom(client, "Ace", ACE_IP), PlayerFrom(client, "x1", SCOUT_IP)
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

    shown = play_revealing(scout, turn - 1)  # a new account's game from another network
    burst(config)
    queue = ReviewQueue(redis_client, PREFIX)
    assert queue.entry(shown["id"]) is None  # not a scout by any test: it counts
    assert scout.call("GET", BOARD).get_json()["me"]["rank"] == 1

    game = replay(ace, log)
    burst(config)
    entry = queue.get(game["id"])
    assert entry.state == "pending" and entry.reason_code == "reveal_cover", entry.verdict
    assert [t["turn"] for t in entry.verdict["tells"]] == [turn]
    assert entry.verdict["covering"] == [{"game_id": shown["id"], "player_id": scout.id,
                                          "share": 1.0}]
    assert len(profited_dice(log, [(turn, roll)])) >= COVER_MIN
    board = ace.call("GET", BOARD).get_json()
    assert game["id"] not in {row["game_id"] for row in board["top"]}
    assert board["review"]["state"] == "pending_review"
    assert board["review"]["reason_code"] == "reveal_cover"
    assert shown["id"] in {row["game_id"] for row in board["top"]}  # the new player's shows
    stats = _cli(monkeypatch, config, capsys, "review", "stats", DATE, "yahtzee")
    assert "1 covered by another game's reveals" in stats
    assert "0 linked to young players of their network" in stats and "0 scout-like" in stats
