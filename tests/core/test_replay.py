"""Verified replay: golden logs, random legal games, tampered logs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from daily.dice import SlotCache
from daily.errors import DailyError, IllegalMoveError, LogFormatError
from daily.movelog import MoveLog, Turn
from daily.randomplay import random_game
from daily.replay import replay
from daily.rules import RULESET_NAMES, get_ruleset

SEEDS_DIR = Path(__file__).resolve().parents[2] / "seeds"
GOLDEN = json.loads((SEEDS_DIR / "logs-v1.json").read_text())["vectors"]


@pytest.mark.parametrize("vector", GOLDEN, ids=lambda v: v["log"]["ruleset"])
def test_golden_logs_replay_to_their_known_totals(vector):
    log = MoveLog.from_json(vector["log"])
    assert MoveLog.from_text(vector["text"]) == log
    result = replay(log).to_json()
    assert result["complete"]
    assert result["total"] == vector["total"]
    assert result["boxes"] == vector["boxes"]
    assert result["upper_bonus"] == vector["upper_bonus"]
    assert result["extra_bonus"] == vector["extra_bonus"]
    assert result["total"] == (sum(vector["boxes"].values()) + vector["upper_bonus"]
                               + vector["extra_bonus"])


def test_golden_yahtzee_first_turn_checked_by_hand():
    # Turn 1 of the first golden game: roll 0 is slot (0, 0); mask 10011 keeps dice
    # 1, 4 and 5 and takes dice 2 and 3 from slot (0, 1); the threes box scores them.
    from daily.dice import slot_dice

    vector = GOLDEN[0]
    seed = bytes.fromhex(vector["log"]["seed"])
    first, second = slot_dice(seed, 0, 0, 5), slot_dice(seed, 0, 1, 5)
    assert vector["log"]["turns"][0] == {"holds": ["10011"], "category": "threes"}
    final = (first[0], second[1], second[2], first[3], first[4])
    assert vector["boxes"]["threes"] == 3 * final.count(3)
    assert replay(MoveLog.from_json(vector["log"])).history[0].final_dice == final


OPTIONS = {
    "yahtzee": [{}, {"forced_order": True}, {"joker": False}],
    "yatzy": [{}],
    "maxi-yatzy": [{}, {"saved_rolls": True}, {"upper_bonus": "50-at-75", "full_straight": 25}],
    "yacht": [{}],
    "generala": [{}, {"ace_high": False, "double_generala": False},
                 {"generala_points": "40-50", "served_generala_wins": True}],
    "triple-yahtzee": [{}, {"joker": True}],
}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(RULESET_NAMES), st.binary(min_size=32, max_size=32), st.integers(0, 9),
       st.integers(0, 2**32))
def test_random_legal_games_replay_to_the_same_result_twice(ruleset, seed, opt, policy):
    options = OPTIONS[ruleset][opt % len(OPTIONS[ruleset])]
    game = random_game(get_ruleset(ruleset, options), seed, random.Random(policy), 0.6)
    log = MoveLog.of_game(game, seed=seed)
    first = replay(MoveLog.from_text(log.to_text())).to_json()
    second = replay(MoveLog.from_json(log.dumps())).to_json()
    assert first == second
    assert first["total"] == game.card.total
    assert [t["dice"] for t in first["turns"]] == [list(r.final_dice) for r in game.history]


def test_partial_log_reports_the_next_decision():
    seed = bytes(32)
    log = MoveLog("yahtzee", (Turn((), "chance"), Turn(("10000",))), seed=seed)
    result = replay(log)
    nxt = result.next_decision()
    assert not result.complete
    assert (nxt["turn"], nxt["roll"], nxt["rolls_left"]) == (2, 2, 1)
    assert len(nxt["choices"]) == 12
    assert result.to_json()["next"] == nxt


def test_day_log_needs_the_seed():
    log = MoveLog("yahtzee", (Turn((), "chance"),), day=__import__("datetime").date(2026, 11, 29))
    with pytest.raises(LogFormatError, match="its seed is needed"):
        replay(log)
    cached = replay(log, slots=SlotCache(bytes(32), 5))
    assert cached.total == replay(log, bytes(32)).total


@pytest.mark.parametrize(
    ("turns", "error", "needle"),
    [
        ([Turn((), "ones"), Turn((), "ones")], IllegalMoveError, "turn 2: box 'ones' is already"),
        ([Turn(("11111",), "ones")], IllegalMoveError, "turn 1, roll 2: hold mask '11111' keeps"),
    ],
)
def test_tampered_logs_are_rejected_precisely(turns, error, needle):
    with pytest.raises(error) as err:
        replay(MoveLog("yahtzee", tuple(turns), seed=bytes(32)))
    assert needle in str(err.value)


def test_joker_violation_in_a_log_is_rejected():
    # Find a seed whose first two turns roll five alike with no rerolls is too rare;
    # instead replay on dealt dice through a slot source.
    def slots(turn: int, roll: int) -> tuple[int, ...]:
        return (3, 3, 3, 3, 3)

    log = MoveLog("yahtzee", (Turn((), "yahtzee"), Turn((), "chance")), day=None,
                  seed=bytes(32))
    with pytest.raises(IllegalMoveError, match="turn 2: box 'chance' is not allowed: joker"):
        replay(log, slots=slots)


def test_saved_rolls_cannot_be_overdrawn():
    seed = bytes(32)
    ok = MoveLog("maxi-yatzy", (Turn((), "chance"), Turn(("000000",) * 4, "ones")),
                 (("saved_rolls", True),), seed=seed)
    assert replay(ok).complete is False
    too_many = MoveLog("maxi-yatzy", (Turn(("000000",), "chance"),
                                      Turn(("000000",) * 4, "ones")),
                       (("saved_rolls", True),), seed=seed)
    with pytest.raises(IllegalMoveError, match="turn 2, roll 5: no rolls left"):
        replay(too_many)


def test_replay_errors_are_value_errors():
    assert issubclass(DailyError, ValueError)


def test_golden_logs_cover_the_joker_and_extra_bonus():
    joker = [v for v in GOLDEN if v["extra_bonus"]]
    assert joker, "seeds/logs-v1.json should hold a game with an extra Yahtzee"
    result = replay(MoveLog.from_json(joker[0]["log"]))
    jokered = [t for t in result.history if t.bonus]
    assert jokered and len(set(jokered[0].final_dice)) == 1
