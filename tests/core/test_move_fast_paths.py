"""The shortcuts a move takes give exactly what the general code gives.

Every variant with every value of every rule option: the common case of
:func:`placements` (no joker, free choice) against the general one, the card's column
totals against a sum over its boxes, the compact log text against the mask arithmetic
of the format, and the cached day windows against the calendar's instants.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random

import pytest

from daily import calendar
from daily.card import Card
from daily.errors import RulesetError
from daily.game import Game
from daily.movelog import _B64, MoveLog, Turn, text_after
from daily.rules import RULESET_NAMES, Ruleset, get_ruleset, get_variant
from daily.rules.placement import _placements, placements


def every_ruleset() -> list[Ruleset]:
    out = []
    for name in RULESET_NAMES:
        specs = get_variant(name).options
        for spec in specs:
            for value in spec.choices:
                out.append(get_ruleset(name, {spec.name: value}))
    return out


RULESETS = every_ruleset()


def random_cards(rules: Ruleset, rng: random.Random, count: int) -> list[list[int | None]]:
    cards = []
    for _ in range(count):
        filled = rng.random()
        cards.append([
            rng.choice((0, 5, 12, 25, 50)) if rng.random() < filled else None
            for _ in rules.boxes
        ])
    return [card for card in cards if None in card]


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: f"{r.name}-{r.non_default_items}")
def test_the_common_case_of_placements_is_the_general_case(rules: Ruleset) -> None:
    rng = random.Random(rules.name)
    rolls = list(itertools.combinations_with_replacement(range(1, 7), rules.dice))
    checked = 0
    for scores in random_cards(rules, rng, 40):
        for key in rng.sample(rolls, 25):
            for first_roll in (False, True):
                raw = rules.served_table[key] if first_roll and rules.served else rules.table[key]
                dice = tuple(rng.sample(key, len(key)))  # any order of the same dice
                got = placements(rules, scores, dice, first_roll=first_roll)
                assert got == _placements(rules, scores, key, raw), (scores, key, first_roll)
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: f"{r.name}-{r.non_default_items}")
def test_column_totals_are_the_sums_of_their_boxes(rules: Ruleset) -> None:
    rng = random.Random(7)
    for scores in random_cards(rules, rng, 30):
        card = Card(rules, tuple(scores))
        for c, totals in enumerate(card.columns):
            boxes = [i for i, b in enumerate(rules.boxes) if b.column == c]
            upper = sum(scores[i] or 0 for i in boxes if rules.boxes[i].upper)
            lower = sum(scores[i] or 0 for i in boxes if not rules.boxes[i].upper)
            assert (totals.upper, totals.lower) == (upper, lower)


def reference_text(log: MoveLog) -> str:
    """The compact text as docs/protocol.md defines it: mask bits as a number in base64url."""
    rules = get_ruleset(log.ruleset, dict(log.options))
    opts = ",".join(f"{k}={int(v) if isinstance(v, bool) else v}" for k, v in log.options)
    source = f"s{log.seed.hex()}" if log.seed is not None else f"d{log.day}"
    body = ".".join(
        "".join(_B64[int(m, 2)] for m in t.holds)
        + ("*" if t.box is None else _B64[rules.box_index(t.box)])
        for t in log.turns
    )
    return "~".join(("dl1", log.ruleset, opts or "-", source, body))


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: f"{r.name}-{r.non_default_items}")
def test_the_text_of_a_game_is_the_formats(rules: Ruleset) -> None:
    rng = random.Random(3)
    game = Game.from_seed(rules, bytes(range(32)))
    seen = 0
    while not game.over:
        if game.rolls_left and rng.random() < 0.6:
            game.reroll("".join(rng.choice("01") for _ in range(rules.dice - 1)) + "0")
        else:
            game.score(rng.choice(game.choices().legal()).box)
        log = MoveLog.of_game(game, seed=bytes(range(32)))
        assert log.options == tuple(rules.non_default_options().items())
        assert log.to_text() == reference_text(log)
        assert MoveLog.from_text(log.to_text()) == log
        seen += 1
    assert seen >= rules.turns


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: f"{r.name}-{r.non_default_items}")
def test_the_text_one_decision_later_is_the_whole_games(rules: Ruleset) -> None:
    seed = bytes(range(32))
    rng = random.Random(5)
    for _ in range(3):
        game = Game.from_seed(rules, seed)
        text = MoveLog(rules.name, (), rules.non_default_items, seed=seed).to_text()
        while not game.over:
            if game.rolls_left and rng.random() < 0.6:
                kind, value = "roll", "".join(rng.choice("01") for _ in range(rules.dice - 1)) + "0"
                game.reroll(value)
            else:
                kind, value = "score", rng.choice(game.choices().legal()).box
                game.score(value)
            after = text_after(text, kind, value, rules, game.over)
            assert after == MoveLog.of_game(game, seed=seed).to_text(), (text, kind, value)
            text = after


def test_text_after_declines_a_text_without_a_turn_in_progress() -> None:
    yacht = get_ruleset("yacht")
    assert text_after("dl1~yacht~-~d2026-11-29~OB", "roll", "01110", yacht, False) is None
    assert text_after("dl1~yacht~-~d2026-11-29~O*", "roll", "0111", yacht, False) == \
        "dl1~yacht~-~d2026-11-29~OH*"  # 0111 is 7, H in the format
    with pytest.raises(RulesetError):
        text_after("dl1~yacht~-~d2026-11-29~O*", "score", "nope", yacht, False)


def test_a_log_resolves_its_rules_by_the_options_types() -> None:
    log = MoveLog("yatzy", (), (("forced_order", True),), day=dt.date(2026, 11, 30))
    assert log.rules.forced_order is True
    wrong = MoveLog("yatzy", (), (("forced_order", 1),), day=dt.date(2026, 11, 30))
    with pytest.raises(RulesetError):
        _ = wrong.rules  # 1 is not true, even once True was resolved
    assert MoveLog("yatzy", (Turn((), None),), day=dt.date(2026, 11, 30)).rules.name == "yatzy"


def test_the_day_windows_are_the_calendars_instants() -> None:
    day = dt.date(2026, 11, 30)
    opens, closes = calendar.opens_at(day), calendar.closes_at(day)
    second = dt.timedelta(seconds=1)
    for _ in range(2):  # computed, then cached
        assert calendar.status(day, opens - second) == "upcoming"
        assert calendar.status(day, opens) == "open"
        assert calendar.status(day, closes - second) == "open"
        assert calendar.status(day, closes) == "revealed"
    east = dt.timezone(dt.timedelta(hours=14))
    assert calendar.status(day, opens.astimezone(east)) == "open"
