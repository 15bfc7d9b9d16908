"""The attack on a board with history, end to end: none of its games stands on the
public top unreviewed (docs/fairplay.md, "Threat model").

On a live server (real gunicorn) with ``DAILY_PROVISIONAL_DAYS=3`` and passkeys
required, real Redis, the strategy table where the workers look for it and a real
results consumer (``daily worker results --burst`` in its own process): two veterans
play their days. Then, on one day, every attacker has a (software) passkey:

* two split scouts, each rerolling a disjoint half of the positions at every reroll,
  see every slot of the day between them;
* a new account plays the informed cheater's game on those slots
  (:func:`daily.fairplay.informed.informed_game`: the best game the public parts of the
  detector let through, as far as the cheater can tell);
* another new account, from the scouts' network, plays a tie copy of it.

The public top, read through the API at once and after the close (the close-time
re-check of :mod:`daily.service.review.recheck`), holds the veterans only; every
attacker's game is held for review or left out as provisional, and ``daily review
stats`` counts both scouts.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np
import pytest
import redis

from daily.fairplay import kernel
from daily.fairplay.daykey import DayParams
from daily.fairplay.foresight import Walked
from daily.fairplay.informed import SimDay, informed_game
from daily.rules import get_ruleset
from daily.service.config import Config
from daily.strategy.solver import StrategyTable
from tests.service.conftest import Player
from tests.service.test_fairplay_attack import _cli, fairplay_table, with_table
from tests.service.test_provisional import at, board, consume, give_passkey, names, ranked, weak
from workers.rollover import roll_day

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.live]

__all__ = ["fairplay_table", "with_table"]  # the fixtures, shared with the scouting attack

DAYS = 3
DATE = "2026-11-29"
VETERANS = {"Ada", "Bob"}


@pytest.fixture(scope="module")
def live_env(live_env: dict[str, str]) -> dict[str, str]:
    """The module's server: provisional for three days of play, passkeys required."""
    return {**live_env, "DAILY_PROVISIONAL_DAYS": str(DAYS),
            "DAILY_PUBLIC_TOP_REQUIRES_PASSKEY": "on"}


def move(player: Player, state: dict[str, Any], kind: str, **body: Any) -> dict[str, Any]:
    response = player.call("POST", f"/games/{state['id']}/{kind}",
                           {**body, "position": state["position"]})
    assert response.status_code == 200, response.get_json()
    return dict(response.get_json())


def split_scout(player: Player, rerolled: range, seen: np.ndarray) -> dict[str, Any]:
    """Reroll the positions ``rerolled`` at every reroll, keep the rest, score the first
    legal box; what it sees goes into ``seen`` (turn, roll, position)."""
    rules = get_ruleset("yahtzee")
    hold = "".join("0" if i in rerolled else "1" for i in range(rules.dice))
    state = ranked(player, DATE)
    for t in range(rules.turns):
        seen[t, 0] = state["dice"]
        for r in range(1, rules.rolls_per_turn):
            state = move(player, state, "roll", hold=hold)
            for i in rerolled:
                seen[t, r, i] = state["dice"][i]
        box = next(c["box"] for c in state["choices"] if c["legal"])
        state = move(player, state, "score", box=box)
    assert state["over"]
    return state


def play_walked(player: Player, walked: Walked) -> dict[str, Any]:
    """Play a walked game's decisions (the kernel's codes: a hold keeps the positions of
    its bits, a box is ``-(index + 1)``) move by move."""
    rules = get_ruleset("yahtzee")
    state = ranked(player, DATE)
    for code in walked.decided.tolist():
        if code >= 0:
            hold = "".join("1" if code >> i & 1 else "0" for i in range(rules.dice))
            state = move(player, state, "roll", hold=hold)
        else:
            state = move(player, state, "score", box=rules.box_ids[-code - 1])
    assert state["over"] and state["total"] == walked.total
    return state


def off_the_top(player: Player, client: Any, game_id: str) -> str:
    """Why a player's game is not on the public top: held (its review state) or left
    out (its marks)."""
    view = board(player, client, DATE)
    assert game_id not in {row["game_id"] for row in view["top"]}
    if view.get("review"):
        return str(view["review"]["state"])
    row = next(r for r in view["around"] if r["game_id"] == game_id)
    assert "provisional" in row["marks"]
    return "provisional"


def test_split_scouts_an_informed_game_and_its_tie_copy_never_stand_on_the_public_top(
    with_table: Config, redis_client: redis.Redis, make_player: Any, client: Any,
    clock: Any, fairplay_table: StrategyTable, monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    config, conn = with_table, redis_client
    rules = get_ruleset("yahtzee")
    ada, bob = make_player("Ada"), make_player("Bob")
    for day in (26, 27, 28, 29):  # the veterans' days of play
        clock.set(at(day))
        for veteran in (ada, bob):
            give_passkey(conn, veteran)
            weak(veteran, f"2026-11-{day}")
    consume(config)

    # The attack, on the 29th: two scouts, the informed game, a tie copy.
    seen = np.zeros((rules.turns, rules.rolls_per_turn, rules.dice), dtype=np.int64)
    scouts = [make_player("x1"), make_player("x2")]
    half = rules.dice // 2
    scout_games = [split_scout(p, part, seen) for p, part in
                   zip(scouts, (range(half), range(half, rules.dice)), strict=True)]
    day = SimDay(rules, fairplay_table, seen, DayParams.from_key(bytes(32), rules.name))
    walked = informed_game(day, np.random.default_rng(1), subsets=32)
    assert walked.total >= day.walk(kernel.SOFTMAX).total  # at least optimal play
    eve, zed = make_player("Eve"), make_player("Zed")
    strong = play_walked(eve, walked)
    clock.advance(minutes=2)
    copy = play_walked(zed, walked)
    attackers = {"x1": (scouts[0], scout_games[0]), "x2": (scouts[1], scout_games[1]),
                 "Eve": (eve, strong), "Zed": (zed, copy)}
    for player, _ in attackers.values():
        give_passkey(conn, player)
    consume(config)

    view = board(None, client, DATE)
    assert set(names(view)) == VETERANS and view["top_open"] is False
    assert strong["total"] > max(row["score"] for row in view["top"])
    why = {name: off_the_top(player, client, game["id"])
           for name, (player, game) in attackers.items()}
    assert why["x1"] == why["x2"] == "provisional"  # the scouts stand nowhere either
    # The informed game passes the checks of one game, or not (the key is the live
    # server's): held, or left out because its player is new. Either way it counts for
    # its player: rank 1 of the board.
    assert why["Eve"] in ("provisional", "pending_review")
    if why["Eve"] == "provisional":
        assert board(eve, client, DATE)["me"]["rank"] == 1
    assert why["Zed"] == "pending_review"  # the copy link holds the tie
    review = zed.call("GET", f"/games/{copy['id']}").get_json()["result"]["review"]
    assert review["reason_code"] == "copy"
    stats = _cli(monkeypatch, config, capsys, "review", "stats", DATE, "yahtzee")
    assert "2 playing blind" in stats  # both split scouts are counted

    # The close: the re-check of the final public top; the same top, frozen.
    closes = dt.datetime.combine(dt.date(2026, 11, 29), dt.time(12, 10), dt.UTC)
    roll_day(conn, config, dt.date(2026, 11, 29), "yahtzee", closes + dt.timedelta(days=1))
    closed = board(None, client, DATE)
    assert closed["frozen"] and set(names(closed)) == VETERANS
    for name, (player, game) in attackers.items():
        assert off_the_top(player, client, game["id"]) == why[name]
