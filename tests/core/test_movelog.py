"""Move logs: both forms round-trip, and bad input says what and where."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from daily.errors import DailyError, LogFormatError, RulesetError
from daily.movelog import MAX_LOG_BYTES, MoveLog, Turn, parse_log

BASE = {"format": "daily-log/1", "ruleset": "yahtzee", "day": "2026-11-29"}


def log_json(**changes):
    data = dict(BASE, turns=[{"holds": ["11000"], "category": "chance"}])
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "error", "needle"),
    [
        ("{not json", LogFormatError, "not valid JSON"),
        ("[]", LogFormatError, "a log is a JSON object"),
        (log_json(format="daily-log/2"), LogFormatError, "expected 'daily-log/1'"),
        ({"format": "daily-log/1"}, LogFormatError, "missing field 'ruleset'"),
        (log_json(ruleset="farkle"), RulesetError, "unknown ruleset 'farkle'"),
        (log_json(turns=None), LogFormatError, "missing list 'turns'"),
        (log_json(seed="00" * 32), LogFormatError, "exactly one of 'seed' and 'day'"),
        (dict(BASE, turns=[], day=None), LogFormatError, "exactly one of"),
        (log_json(turns=[{"holds": ["0110"], "category": "chance"}] * 2),
         LogFormatError, "turn 1, roll 2: hold mask '0110' has 4 positions, the game has 5 dice"),
        (log_json(turns=[{"holds": ["00000"], "category": "chance"},
                         {"holds": ["1x000"], "category": "ones"}]),
         LogFormatError, "turn 2, roll 2: hold mask '1x000' may only hold"),
        (log_json(turns=[{"holds": ["00000"] * 3, "category": "chance"}]),
         LogFormatError, "turn 1: 3 rerolls, at most 2"),
        (log_json(turns=[{"holds": [], "category": "yacht"}]), LogFormatError,
         "turn 1: yahtzee has no box 'yacht'"),
        (log_json(turns=[{"holds": []}, {"holds": [], "category": "ones"}]), LogFormatError,
         "turn 1: missing field 'category'"),
        (log_json(turns=[{"holds": [], "category": "ones"}] * 14), LogFormatError,
         "14 turns, but yahtzee has 13"),
        (log_json(extra=1), LogFormatError, "unknown field 'extra'"),
        (log_json(turns=[{"holds": [], "categroy": "ones"}]), LogFormatError,
         "turn 1: unknown field 'categroy'"),
        (log_json(options={"joker": "no"}), RulesetError, "option 'joker' of yahtzee is 'no'"),
        (log_json(day="2026-02-30"), DailyError, "'2026-02-30' is not a date"),
        ("x" * (MAX_LOG_BYTES + 1), LogFormatError, "larger than"),
    ],
)
def test_bad_json_logs(data, error, needle):
    with pytest.raises(error) as err:
        MoveLog.from_json(data if isinstance(data, str) else json.dumps(data))
    assert needle in str(err.value)


def test_json_round_trip_is_exact_and_canonical():
    data = log_json(options={"joker": True, "upper_bonus": False},
                    turns=[{"holds": ["11000", "11100"], "category": "full_house"},
                           {"holds": ["00011"]}])
    log = MoveLog.from_json(data)
    assert log.options == (("upper_bonus", False),)  # defaults are dropped
    assert log.turns[-1] == Turn(("00011",), None) and not log.complete
    again = MoveLog.from_json(log.dumps())
    assert again == log and again.dumps() == log.dumps()


def test_text_round_trip_with_options_and_seed():
    log = MoveLog("maxi-yatzy", (Turn(("000000", "111000"), "villa"), Turn(("010101",))),
                  (("full_straight", 30), ("saved_rolls", True)), seed=bytes(range(32)))
    text = log.to_text()
    assert text.startswith("dl1~maxi-yatzy~full_straight=30,saved_rolls=1~s000102")
    assert MoveLog.from_text(text) == log
    assert parse_log(text) == parse_log(log.dumps()) == log


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("dl2~yahtzee~-~d2026-11-29~", "starts with 'dl1'"),
        ("dl1~yahtzee~-~x2026-11-29~", "'s' + seed hex or 'd' + date"),
        ("dl1~yahtzee~joker~d2026-11-29~", "option 'joker' is not name=value"),
        ("dl1~yahtzee~-~d2026-11-29~A*.B", "turn 1: only the last turn may be in progress"),
        ("dl1~yahtzee~-~d2026-11-29~gA", "turn 1, roll 2: bad hold character 'g'"),
        ("dl1~yahtzee~-~d2026-11-29~AN", "turn 1: bad box character 'N'"),
        ("dl1~yahtzee~-~d2026-11-29~AAAB", "turn 1: 3 rerolls"),
        ("dl1~yahtzee~-~d2026-11-29~A..B", "turn 2: empty turn"),
        ("dl1~yahtzee~-~sabcd~", "a seed is 64 hex digits"),
        # Unicode digits that are not ASCII ('²', '¹') are a value, never an int() crash.
        ("dl1~maxi-yatzy~full_straight=\u00b2\u00b9~d2026-11-29~",
         "option 'full_straight' of maxi-yatzy is '\u00b2\u00b9'"),
    ],
)
def test_bad_text_logs(text, needle):
    with pytest.raises(DailyError) as err:
        MoveLog.from_text(text)
    assert needle in str(err.value)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_raise_only_our_errors(raw):
    try:
        log = parse_log(raw)
    except DailyError:
        return
    assert parse_log(log.dumps()) == log


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                 max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {"format": st.sampled_from(["daily-log/1", "x"]),
         "ruleset": st.sampled_from(["yahtzee", "maxi-yatzy", "yacht", "nope"]) | JSON},
        optional={"day": st.sampled_from(["2026-11-29", "2026-99-01"]) | JSON,
                  "seed": st.sampled_from(["00" * 32, "0"]) | JSON,
                  "options": JSON,
                  "turns": st.lists(st.fixed_dictionaries(
                      {}, optional={"holds": st.lists(
                          st.sampled_from(["00000", "000000", "1", "11111"]) | JSON, max_size=4),
                          "category": st.sampled_from(["ones", "chance", "villa"]) | JSON}),
                      max_size=22) | JSON},
    )
)
def test_random_json_raises_only_our_errors(data):
    try:
        log = MoveLog.from_json(json.dumps(data))
    except DailyError:
        return
    assert MoveLog.from_json(log.dumps()) == log


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="dl1~yahtzemaxi-ctsA_*.09=,", max_size=60))
def test_random_text_raises_only_our_errors(text):
    try:
        log = MoveLog.from_text(text)
    except DailyError:
        return
    assert MoveLog.from_text(log.to_text()) == log
