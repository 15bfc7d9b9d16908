"""docs/rules.md says what the rules implementation does: box ids, points, bonuses, options.

The page is written by hand, for players; this test reads its tables and compares every
figure with :mod:`daily.rules.variants`, so that neither can change without the other.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from daily.rules import RULESET_NAMES, get_ruleset, get_variant
from daily.rules.ruleset import Ruleset

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
FACE_WORDS = ("ones", "twos", "threes", "fours", "fives", "sixes")


def tables(text: str) -> list[list[dict[str, str]]]:
    """Every Markdown table of ``text``, as rows keyed by the header's cells."""
    found: list[list[dict[str, str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header = cells(lines[i])
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(dict(zip(header, cells(lines[i]), strict=True)))
                i += 1
            found.append(rows)
        else:
            i += 1
    return found


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def code(cell: str) -> str:
    """The text inside the backticks of a cell (```ones``` -> ``ones``)."""
    match = re.fullmatch(r"`([^`]+)`", cell)
    assert match, f"expected one `code` span, found {cell!r}"
    return match.group(1)


def section(name: str) -> str:
    """The text under the heading of ruleset ``name`` (its title, as the game names it)."""
    title = get_variant(name).title
    parts = re.split(r"^## ", DOC, flags=re.M)
    matches = [p for p in parts if p.splitlines()[0].strip() == title]
    assert len(matches) == 1, f"docs/rules.md needs one section '## {title}'"
    return matches[0]


def table_of(text: str, first_column: str) -> list[dict[str, str]]:
    found = [t for t in tables(text) if t and next(iter(t[0])) == first_column]
    assert len(found) == 1, f"expected one table starting with a '{first_column}' column"
    return found[0]


def raw_points(rules: Ruleset, box: str, dice: tuple[int, ...]) -> int:
    return rules.table[tuple(sorted(dice))][rules.box_index(box)]


def test_the_summary_table_matches_every_ruleset():
    rows = table_of(DOC, "ruleset")
    assert [code(r["ruleset"]) for r in rows] == list(RULESET_NAMES)
    for row in rows:
        name = code(row["ruleset"])
        rules, variant = get_ruleset(name), get_variant(name)
        aliases = re.findall(r"`([^`]+)`", row["also called"])
        assert tuple(aliases) == variant.aliases, name
        assert int(row["dice"]) == rules.dice, name
        assert int(row["boxes"]) == len(rules.boxes), name
        assert int(row["rolls a turn"]) == rules.rolls_per_turn, name
        bonus = row["upper bonus"]
        if rules.upper_bonus:
            assert bonus == f"{rules.upper_bonus} at {rules.upper_bonus_threshold}", name
        else:
            assert bonus == "none", name
        extra = row["extra five-alike bonus"]
        assert extra == (str(rules.extra_yahtzee_bonus) if rules.extra_yahtzee_bonus
                         else "none"), name


def check_points(rules: Ruleset, box: str, cell: str) -> None:
    """A points cell that states a rule is checked on every roll of the game's dice."""
    index = rules.box_index(box)
    scores = {roll: points[index] for roll, points in rules.table.items()}
    if cell.isdigit():
        assert set(scores.values()) == {0, int(cell)}, f"{rules.name} {box}: {cell}"
    elif cell == "all the dice":
        paid = {roll: p for roll, p in scores.items() if p}
        assert paid and all(p == sum(roll) for roll, p in paid.items()), f"{rules.name} {box}"
    elif cell.endswith(", added"):
        face = FACE_WORDS.index(cell.removeprefix("the ").removesuffix(", added")) + 1
        assert box == FACE_WORDS[face - 1]
        assert all(p == face * roll.count(face) for roll, p in scores.items()), box
    # any other wording is pinned by the row's examples


def check_examples(rules: Ruleset, box: str, cell: str) -> None:
    examples = re.findall(r"`([1-6](?:-[1-6])+)`: (\d+)", cell)
    assert examples and len(examples) == cell.count(":"), f"{rules.name} {box}: {cell!r}"
    for dice, points in examples:
        roll = tuple(int(d) for d in dice.split("-"))
        assert len(roll) == rules.dice, f"{rules.name} {box}: {dice}"
        assert raw_points(rules, box, roll) == int(points), f"{rules.name} {box}: {dice}"


@pytest.mark.parametrize("name", [n for n in RULESET_NAMES if n != "triple-yahtzee"])
def test_every_box_its_order_points_and_examples(name):
    rules = get_ruleset(name)
    rows = table_of(section(name), "box")
    assert [code(r["box"]) for r in rows] == list(rules.box_ids)
    for row in rows:
        box = rules.boxes[rules.box_index(code(row["box"]))]
        check_points(rules, box.id, row["points"])
        check_examples(rules, box.id, row["example"])
        if "as a joker" in row:
            joker = row["as a joker"]
            if joker.isdigit():
                assert box.joker_points == int(joker), box.id
            else:
                assert box.joker_points is None, box.id
        if "served" in row:
            served = row["served"]
            if served == "same":
                assert box.served_points is None, box.id
            else:
                assert box.served_points == int(served), box.id


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_every_option_its_default_and_values(name):
    rows = table_of(section(name), "option")
    specs = get_variant(name).options
    assert [code(r["option"]) for r in rows] == [s.name for s in specs]
    for row, spec in zip(rows, specs, strict=True):
        assert json.loads(code(row["default"])) == spec.default, spec.name
        others = [json.loads(v) for v in re.findall(r"`([^`]+)`", row["other values"])]
        assert sorted(map(str, others)) == sorted(
            str(c) for c in spec.choices if c != spec.default), spec.name


def test_the_variant_bonuses_the_options_name():
    text = section("maxi-yatzy")
    assert "bonus of 50 at 75" in text
    fifty = get_ruleset("maxi-yatzy", {"upper_bonus": "50-at-75"})
    assert (fifty.upper_bonus, fifty.upper_bonus_threshold) == (50, 75)
    assert "a generala pays 40, or 50 served" in section("generala")
    low = get_ruleset("generala", {"generala_points": "40-50"})
    assert raw_points(low, "generala", (2, 2, 2, 2, 2)) == 40
    assert low.boxes[low.box_index("generala")].served_points == 50
    assert "extra Yahtzees" in section("yahtzee") and "earns 100 points more" in DOC


def test_triple_yahtzee_is_three_weighted_yahtzee_columns():
    text = section("triple-yahtzee")
    triple, yahtzee = get_ruleset("triple-yahtzee"), get_ruleset("yahtzee")
    assert triple.box_ids == tuple(f"{c}.{b}" for c in (1, 2, 3) for b in yahtzee.box_ids)
    assert "`1.ones` … `1.chance`" in text and "`3.ones` … `3.chance`" in text
    assert triple.weights == (1, 2, 3)
    assert "once in column 1, twice in\ncolumn 2 and three times in column 3" in text
    assert (triple.upper_bonus, triple.upper_bonus_threshold) == (35, 63)
    for roll, points in triple.table.items():
        assert points == yahtzee.table[roll] * 3
